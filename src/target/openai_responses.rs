//! OpenAI Responses: a `function_call_output` whose `output` is a list of `input_text`,
//! `input_image` and `input_file` items. No audio is taken there, so it goes as its marker.

use serde::{Serialize, Serializer};

use super::shape::{object, DataUrl, Items};
use super::{text_of, Target, DOCUMENT_NAME};
use crate::lanes::agent::AgentBlock;
use crate::render::TOOL_ERROR;
use crate::tool_result::AgentToolResult;

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

/// One `function_call_output` item per result.
pub(super) fn tool_results<'a>(results: &'a [AgentToolResult<'a>], target: &'a Target) -> impl Serialize + 'a {
    struct One<'a>(&'a AgentToolResult<'a>, &'a Target);
    impl Serialize for One<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let (result, target) = (self.0, self.1);
            let error = AgentBlock::Text {
                text: TOOL_ERROR.into(),
            };
            let output = Items(|| {
                let error = result.is_error.then_some(Item(&error, target));
                error
                    .into_iter()
                    .chain(result.content.iter().map(move |b| Item(b, target)))
            });
            object!(s, "call_id" => result.tool_use_id, "output" => output, "type" => "function_call_output")
        }
    }
    Items(move || results.iter().map(move |r| One(r, target)))
}
