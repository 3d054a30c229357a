//! OpenAI Chat Completions: a `tool` message carries text only, so media in a tool result is
//! replaced there by a placeholder, and one `user` message after the turn's tool messages
//! carries it: images as data URLs, audio as `input_audio` (wav, mp3), PDFs as file parts.

use serde::{Serialize, Serializer};

use super::shape::{object, DataUrl, Items};
use super::{text_of, Lines, DOCUMENT_NAME};
use crate::lanes::agent::AgentBlock;
use crate::render::{self, FOLLOWS, TOOL_ERROR};
use crate::tool_result::AgentToolResult;

/// A block as a content part of a `user` message.
pub(super) struct Part<'a>(pub(super) &'a AgentBlock<'a>);

impl Serialize for Part<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Url<'a>(DataUrl<'a>);
        impl Serialize for Url<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                object!(s, "url" => self.0)
            }
        }
        struct Audio<'a>(&'a str, &'static str);
        impl Serialize for Audio<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                object!(s, "data" => self.0, "format" => self.1)
            }
        }
        struct File<'a>(DataUrl<'a>);
        impl Serialize for File<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                object!(s, "file_data" => self.0, "filename" => DOCUMENT_NAME)
            }
        }
        match self.0 {
            AgentBlock::Text { text } => object!(s, "text" => text, "type" => "text"),
            AgentBlock::Image { mime_type, data } => {
                object!(s, "image_url" => Url(DataUrl(mime_type, data)), "type" => "image_url")
            }
            AgentBlock::Audio { mime_type, data } => {
                if let Some(format) = audio_format(mime_type) {
                    object!(s, "input_audio" => Audio(data, format), "type" => "input_audio")
                } else {
                    object!(s, "text" => text_of(self.0, None), "type" => "text")
                }
            }
            AgentBlock::Document { mime_type, data } => {
                object!(s, "file" => File(DataUrl(mime_type, data)), "type" => "file")
            }
        }
    }
}

/// Blocks as the content parts of a `user` message.
pub(super) fn user_parts<'a>(blocks: &'a [AgentBlock<'a>]) -> impl Serialize + 'a {
    Items(move || blocks.iter().map(Part))
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
pub(super) fn tool_results<'a>(results: &'a [AgentToolResult<'a>]) -> impl Serialize + 'a {
    struct Tool<'a>(&'a AgentToolResult<'a>);
    impl Serialize for Tool<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let result = self.0;
            let lines = Lines {
                first: result.is_error.then_some(TOOL_ERROR),
                blocks: &result.content,
                note: Some(FOLLOWS),
            };
            object!(s, "content" => lines, "role" => "tool", "tool_call_id" => result.tool_use_id)
        }
    }
    /// The turn's media, each result's introduced by a text part naming its call.
    struct Attachments<'a>(&'a [AgentToolResult<'a>]);
    impl Serialize for Attachments<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq as _;
            let mut seq = s.serialize_seq(None)?;
            for result in self.0.iter().filter(|r| has_media(r)) {
                let intro = AgentBlock::Text {
                    text: render::attachments_of(&result.tool_use_id).into(),
                };
                seq.serialize_element(&Part(&intro))?;
                for block in result.content.iter().filter(|b| b.as_text().is_none()) {
                    seq.serialize_element(&Part(block))?;
                }
            }
            seq.end()
        }
    }
    struct Turn<'a>(&'a [AgentToolResult<'a>]);
    impl Serialize for Turn<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq as _;
            let media = self.0.iter().any(has_media);
            let mut seq = s.serialize_seq(Some(self.0.len() + usize::from(media)))?;
            for result in self.0 {
                seq.serialize_element(&Tool(result))?;
            }
            if media {
                seq.serialize_element(&User(self.0))?;
            }
            seq.end()
        }
    }
    struct User<'a>(&'a [AgentToolResult<'a>]);
    impl Serialize for User<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            object!(s, "content" => Attachments(self.0), "role" => "user")
        }
    }
    Turn(results)
}

fn has_media(result: &AgentToolResult<'_>) -> bool {
    result.content.iter().any(|b| b.as_text().is_none())
}
