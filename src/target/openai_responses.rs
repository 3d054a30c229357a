//! OpenAI Responses: a `function_call_output` whose `output` is a list of `input_text`,
//! `input_image` and `input_file` items. No audio is taken there, so it goes as its marker.

use serde_json::{json, Value};

use crate::lanes::agent::AgentBlock;
use crate::render::TOOL_ERROR;
use crate::tool_result::AgentToolResult;

use super::{data_url, text_of, Target, DOCUMENT_NAME};

pub(super) fn items(blocks: &[AgentBlock<'_>], target: &Target) -> Value {
    Value::Array(blocks.iter().map(|b| item(b, target)).collect())
}

fn item(block: &AgentBlock<'_>, target: &Target) -> Value {
    match block {
        AgentBlock::Text { text } => json!({"type": "input_text", "text": text}),
        AgentBlock::Image { mime_type, data } => json!({
            "type": "input_image",
            "image_url": data_url(mime_type, data),
            "detail": target.image_detail.as_str(),
        }),
        AgentBlock::Document { mime_type, data } => {
            json!({"type": "input_file", "filename": DOCUMENT_NAME, "file_data": data_url(mime_type, data)})
        }
        AgentBlock::Audio { .. } => json!({"type": "input_text", "text": text_of(block, None)}),
    }
}

/// One `function_call_output` item per result.
pub(super) fn tool_results(results: &[AgentToolResult<'_>], target: &Target) -> Vec<Value> {
    results
        .iter()
        .map(|result| {
            let mut output = Vec::with_capacity(result.content.len() + 1);
            if result.is_error {
                output.push(json!({"type": "input_text", "text": TOOL_ERROR}));
            }
            output.extend(result.content.iter().map(|b| item(b, target)));
            json!({"type": "function_call_output", "call_id": result.tool_use_id, "output": output})
        })
        .collect()
}
