//! Anthropic Messages: text, image and document blocks; audio is not accepted, so it goes as its
//! marker.

use serde::{Serialize, Serializer};

use super::shape::{object, Items};
use super::text_of;
use crate::lanes::agent::AgentBlock;
use crate::lanes::tool_result::AgentToolResult;

struct Block<'a>(&'a AgentBlock<'a>);

impl Serialize for Block<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Source<'a>(&'a str, &'a str);
        impl Serialize for Source<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                object!(s, "data" => self.1, "media_type" => self.0, "type" => "base64")
            }
        }
        match self.0 {
            AgentBlock::Text { text } => object!(s, "text" => text, "type" => "text"),
            AgentBlock::Image { mime_type, data } => object!(s, "source" => Source(mime_type, data), "type" => "image"),
            AgentBlock::Document { mime_type, data } => {
                object!(s, "source" => Source(mime_type, data), "type" => "document")
            }
            AgentBlock::Audio { .. } => object!(s, "text" => text_of(self.0, None), "type" => "text"),
        }
    }
}

pub(super) fn blocks<'a>(blocks: &'a [AgentBlock<'a>]) -> impl Serialize + 'a {
    Items(move || blocks.iter().map(Block))
}

/// A result's `tool_result` block; the turn's blocks go in one `user` message.
pub(super) fn tool_result<'a>(result: &'a AgentToolResult<'a>) -> impl Serialize + 'a {
    struct One<'a>(&'a AgentToolResult<'a>);
    impl Serialize for One<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            object!(s, "content" => blocks(&self.0.content), "is_error" => self.0.is_error,
                "tool_use_id" => self.0.tool_use_id, "type" => "tool_result")
        }
    }
    One(result)
}
