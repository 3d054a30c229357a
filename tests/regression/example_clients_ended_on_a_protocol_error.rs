//! The official example clients ended the query when the server rejected a `tools/call` with a
//! JSON-RPC error: the model never learned its call failed. Here it gets a tool result that
//! says so, matched to its `tool_use`.

use crate::common::{neutral, registry};
use mcp_agent_view::{tool_result, Message};
use serde_json::json;

#[test]
fn a_rejected_call_becomes_an_error_tool_result() {
    let response =
        json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Invalid arguments: city is required"}});
    let response_message = Message::decode(&response).unwrap();
    let result = tool_result(&response_message, "get_weather", "toolu_9", &registry(), &neutral());
    assert!(result.is_error);
    assert_eq!(result.tool_use_id, "toolu_9");
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"type": "tool_result", "toolUseId": "toolu_9", "name": "get_weather", "isError": true, "heldForUser": [],
               "content": [{"type": "text", "text": "Tool call get_weather failed: Invalid arguments: city is required"}]})
    );
}
