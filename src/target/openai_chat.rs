//! OpenAI Chat Completions: a `tool` message carries text only, so media in a tool result is
//! replaced there by a placeholder, and one `user` message after the turn's tool messages
//! carries it: images as data URLs, audio as `input_audio` (wav, mp3), PDFs as file parts.

use serde_json::{json, Value};

use crate::lanes::agent::AgentBlock;
use crate::render::{self, FOLLOWS, TOOL_ERROR};
use crate::tool_result::AgentToolResult;

use super::{data_url, text_of, DOCUMENT_NAME};

/// Blocks as the content parts of a `user` message.
pub(super) fn user_parts(blocks: &[AgentBlock<'_>]) -> Value {
    Value::Array(blocks.iter().map(part).collect())
}

fn part(block: &AgentBlock<'_>) -> Value {
    match block {
        AgentBlock::Text { text } => json!({"type": "text", "text": text}),
        AgentBlock::Image { mime_type, data } => {
            json!({"type": "image_url", "image_url": {"url": data_url(mime_type, data)}})
        }
        AgentBlock::Audio { mime_type, data } => match audio_format(mime_type) {
            Some(format) => json!({"type": "input_audio", "input_audio": {"data": data, "format": format}}),
            None => json!({"type": "text", "text": text_of(block, None)}),
        },
        AgentBlock::Document { mime_type, data } => {
            json!({"type": "file", "file": {"filename": DOCUMENT_NAME, "file_data": data_url(mime_type, data)}})
        }
    }
}

/// The `format` of `input_audio`: only wav and mp3 are taken.
fn audio_format(mime_type: &str) -> Option<&'static str> {
    match mime_type {
        "audio/wav" => Some("wav"),
        "audio/mpeg" => Some("mp3"),
        _ => None,
    }
}

/// One `tool` message per result, contiguous, then one `user` message with the media of all
/// of them, where there is any.
pub(super) fn tool_results(results: &[AgentToolResult<'_>]) -> Vec<Value> {
    let mut out = Vec::with_capacity(results.len() + 1);
    let mut attachments = Vec::new();
    for result in results {
        let mut lines = Vec::with_capacity(result.content.len() + 1);
        if result.is_error {
            lines.push(TOOL_ERROR.to_owned());
        }
        lines.extend(result.content.iter().map(|b| text_of(b, Some(FOLLOWS))));
        out.push(json!({"role": "tool", "tool_call_id": result.tool_use_id, "content": lines.join("\n")}));
        let media: Vec<Value> = result
            .content
            .iter()
            .filter(|b| b.as_text().is_none())
            .map(part)
            .collect();
        if !media.is_empty() {
            attachments.push(json!({"type": "text", "text": render::attachments_of(&result.tool_use_id)}));
            attachments.extend(media);
        }
    }
    if !attachments.is_empty() {
        out.push(json!({"role": "user", "content": attachments}));
    }
    out
}
