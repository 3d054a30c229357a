//! The official example clients sent an empty tool result when a server sent only
//! `structuredContent` (legal: the text copy is only a SHOULD).

use crate::common::{neutral, registry};
use mcp_agent_view::{tool_result, Message};
use serde_json::json;

#[test]
fn structured_content_without_a_text_block_reaches_the_model() {
    let response = json!({"jsonrpc": "2.0", "id": 3, "result": {
        "content": [], "structuredContent": {"temperature": 22.5, "conditions": "Partly cloudy"}}});
    let response_message = Message::decode(&response).unwrap();
    let result = tool_result(&response_message, "get_weather", "toolu_3", &registry(), &neutral());
    assert_eq!(result.content.len(), 1);
    let text = result.content[0].as_text().unwrap();
    let parsed: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(parsed, json!({"temperature": 22.5, "conditions": "Partly cloudy"}));
}
