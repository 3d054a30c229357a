//! OpenAI Responses: a `function_call_output` whose `output` is text, media replaced there by
//! a placeholder, and one `user` message after the turn's outputs carrying it as `input_image`
//! and `input_file` items. No audio is taken there, so it goes as its marker.

use serde::{Serialize, Serializer};

use super::shape::{object, Attachments, DataUrl, Items, Output, TextOutputs};
use super::{text_of, Lines, Target, DOCUMENT_NAME};
use crate::lanes::agent::AgentBlock;
use crate::lanes::tool_result::AgentToolResult;

pub(super) struct Item<'a>(pub(super) &'a AgentBlock<'a>, pub(super) &'a Target);

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            AgentBlock::Text { text } => object!(s, "text" => text, "type" => "input_text"),
            AgentBlock::Image { mime_type, data } => object!(s,
                "detail" => self.1.image_detail.as_str(),
                "image_url" => DataUrl(mime_type, data),
                "type" => "input_image"),
            AgentBlock::Document { mime_type, data } => object!(s,
                "file_data" => DataUrl(mime_type, data),
                "filename" => DOCUMENT_NAME,
                "type" => "input_file"),
            AgentBlock::Audio { .. } => object!(s, "text" => text_of(self.0, None), "type" => "input_text"),
        }
    }
}

pub(super) fn items<'a>(blocks: &'a [AgentBlock<'a>], target: &'a Target) -> impl Serialize + 'a {
    Items(move || blocks.iter().map(move |b| Item(b, target)))
}

/// A result's `function_call_output` item, its `output` text only (media as a placeholder
/// naming what follows).
pub(super) fn tool_result<'a>(result: &'a AgentToolResult<'a>, target: &'a Target) -> impl Serialize + 'a {
    Output(result, Responses(target))
}

/// The items of the `user` message after the turn's outputs: each result's media.
pub(super) fn attachments<'a>(results: &'a [&'a AgentToolResult<'a>], target: &'a Target) -> impl Serialize + 'a {
    Attachments(results, Responses(target))
}

/// OpenAI Responses' text-only tool outputs: `function_call_output` items, media in `user`
/// input items.
#[derive(Clone, Copy)]
struct Responses<'a>(&'a Target);

impl TextOutputs for Responses<'_> {
    fn output<S: Serializer>(self, result: &AgentToolResult<'_>, lines: Lines<'_>, s: S) -> Result<S::Ok, S::Error> {
        object!(s, "call_id" => result.tool_use_id, "output" => lines, "type" => "function_call_output")
    }

    fn part<S: Serializer>(self, block: &AgentBlock<'_>, s: S) -> Result<S::Ok, S::Error> {
        Item(block, self.0).serialize(s)
    }
}
