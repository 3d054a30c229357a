//! The official example clients dropped non-text blocks without a word: a tool that returned
//! only an image or a resource gave the model nothing.

use crate::common::{neutral, registry};
use mcp_agent_view::{tool_result, AgentBlock, Message};
use serde_json::json;

#[test]
fn an_image_only_or_resource_only_result_is_not_empty() {
    let image = json!({"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]});
    let result = tool_result(
        &Message::decode(&image).unwrap(),
        "screenshot",
        "toolu_1",
        &registry(),
        &neutral(),
    );
    assert!(matches!(&result.content[..], [AgentBlock::Image { .. }]));

    let resource = json!({"content": [{"type": "resource", "resource": {"uri": "file:///log.txt", "mimeType": "text/plain", "text": "3 errors"}}]});
    let result = tool_result(
        &Message::decode(&resource).unwrap(),
        "logs",
        "toolu_2",
        &registry(),
        &neutral(),
    );
    assert_eq!(result.content[0].as_text(), Some("3 errors"));

    let blob = json!({"content": [{"type": "resource", "resource": {"uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sIAAAA"}}]});
    let result = tool_result(
        &Message::decode(&blob).unwrap(),
        "archive",
        "toolu_3",
        &registry(),
        &neutral(),
    );
    assert_eq!(result.content[0].as_text(), Some("[file: application/gzip, 6B]"));
}
