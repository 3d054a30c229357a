//! Anthropic Messages: text, image and document blocks; audio is not accepted, so it goes as its
//! marker.

use serde_json::{json, Value};

use crate::lanes::agent::AgentBlock;
use crate::prompt::AgentMessage;
use crate::tool_result::AgentToolResult;

use super::text_of;

pub(super) fn blocks(blocks: &[AgentBlock<'_>]) -> Value {
    Value::Array(blocks.iter().map(block).collect())
}

fn block(block: &AgentBlock<'_>) -> Value {
    let base64 = |kind: &str, mime_type: &str, data: &str| json!({"type": kind, "source": {"type": "base64", "media_type": mime_type, "data": data}});
    match block {
        AgentBlock::Image { mime_type, data } => base64("image", mime_type, data),
        AgentBlock::Document { mime_type, data } => base64("document", mime_type, data),
        AgentBlock::Audio { .. } => json!({"type": "text", "text": text_of(block, None)}),
        other => other.to_json(),
    }
}

/// One `tool_result` block.
fn tool_result(result: &AgentToolResult<'_>) -> Value {
    json!({
        "type": "tool_result",
        "tool_use_id": result.tool_use_id,
        "content": blocks(&result.content),
        "is_error": result.is_error,
    })
}

/// One `user` message holding every `tool_result` block of the turn.
pub(super) fn tool_results(results: &[AgentToolResult<'_>]) -> Vec<Value> {
    let content: Vec<Value> = results.iter().map(tool_result).collect();
    vec![json!({"role": "user", "content": content})]
}

pub(super) fn messages(messages: &[AgentMessage<'_>]) -> Vec<Value> {
    messages
        .iter()
        .map(|m| json!({"role": m.role.as_str(), "content": blocks(&m.content)}))
        .collect()
}
