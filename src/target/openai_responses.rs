//! OpenAI Responses: a `function_call_output` whose `output` is text, media replaced there by
//! a placeholder, and one `user` message after the turn's outputs carrying it as `input_image`
//! and `input_file` items. No audio is taken there, so it goes as its marker.

use serde::{Serialize, Serializer};

use super::shape::{object, DataUrl, Items};
use super::{text_of, Lines, Target, DOCUMENT_NAME};
use crate::lanes::agent::AgentBlock;
use crate::render::{self, FOLLOWS, TOOL_ERROR};
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

/// One `function_call_output` item per result, its `output` text only (media as a
/// placeholder naming what follows), then, where any result carries media, one `user` message
/// with the media of all of them, each result's introduced by a line naming its call.
pub(super) fn tool_results<'a>(results: &'a [AgentToolResult<'a>], target: &'a Target) -> impl Serialize + 'a {
    struct One<'a>(&'a AgentToolResult<'a>);
    impl Serialize for One<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let result = self.0;
            let output = Lines {
                first: result.is_error.then_some(TOOL_ERROR),
                blocks: &result.content,
                note: Some(FOLLOWS),
            };
            object!(s, "call_id" => result.tool_use_id, "output" => output, "type" => "function_call_output")
        }
    }
    struct Attachments<'a>(&'a [AgentToolResult<'a>], &'a Target);
    impl Serialize for Attachments<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq as _;
            let mut seq = s.serialize_seq(None)?;
            for result in self.0.iter().filter(|r| has_media(r)) {
                let intro = AgentBlock::Text {
                    text: render::attachments_of(&result.tool_use_id).into(),
                };
                seq.serialize_element(&Item(&intro, self.1))?;
                for block in result.content.iter().filter(|b| b.as_text().is_none()) {
                    seq.serialize_element(&Item(block, self.1))?;
                }
            }
            seq.end()
        }
    }
    struct User<'a>(&'a [AgentToolResult<'a>], &'a Target);
    impl Serialize for User<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            object!(s, "content" => Attachments(self.0, self.1), "role" => "user")
        }
    }
    struct Turn<'a>(&'a [AgentToolResult<'a>], &'a Target);
    impl Serialize for Turn<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq as _;
            let media = self.0.iter().any(has_media);
            let mut seq = s.serialize_seq(Some(self.0.len() + usize::from(media)))?;
            for result in self.0 {
                seq.serialize_element(&One(result))?;
            }
            if media {
                seq.serialize_element(&User(self.0, self.1))?;
            }
            seq.end()
        }
    }
    Turn(results, target)
}

fn has_media(result: &AgentToolResult<'_>) -> bool {
    result.content.iter().any(|b| b.as_text().is_none())
}
