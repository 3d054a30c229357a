//! The official example clients dropped non-text blocks without a word: a tool that returned
//! only an image or a resource gave the model nothing.

use crate::common::{neutral, registry};
use mcp_agent_view::{tool_result, AgentBlock, Message};
use serde_json::json;

#[test]
fn an_image_only_or_resource_only_result_is_not_empty() {
    let image = json!({"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]});
    let image_message = Message::decode(&image).unwrap();
    let result = tool_result(&image_message, "screenshot", "toolu_1", &registry(), &neutral());
    assert!(matches!(&result.content[..], [AgentBlock::Image { .. }]));

    let resource = json!({"content": [{"type": "resource", "resource": {"uri": "file:///log.txt", "mimeType": "text/plain", "text": "3 errors"}}]});
    let resource_message = Message::decode(&resource).unwrap();
    let result = tool_result(&resource_message, "logs", "toolu_2", &registry(), &neutral());
    assert_eq!(result.content[0].as_text(), Some("3 errors"));

    let blob = json!({"content": [{"type": "resource", "resource": {"uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sIAAAA"}}]});
    let blob_message = Message::decode(&blob).unwrap();
    let result = tool_result(&blob_message, "archive", "toolu_3", &registry(), &neutral());
    assert_eq!(result.content[0].as_text(), Some("[file: application/gzip, 6B]"));
}
