//! OpenAI Chat Completions: a `tool` message carries text only, so media in a tool result is
//! replaced there by a placeholder, and one `user` message after the turn's tool messages
//! carries it: images as data URLs, audio as `input_audio` (wav, mp3), PDFs as file parts.

use serde::{Serialize, Serializer};

use super::shape::{object, Attachments, DataUrl, Items, Output, TextOutputs};
use super::{text_of, Lines, DOCUMENT_NAME};
use crate::lanes::agent::AgentBlock;
use crate::lanes::tool_result::AgentToolResult;

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

/// A result's `tool` message (text only, media as a placeholder naming what follows).
pub(super) fn tool_result<'a>(result: &'a AgentToolResult<'a>) -> impl Serialize + 'a {
    Output(result, Chat)
}

/// The parts of the `user` message after the turn's `tool` messages: each result's media.
pub(super) fn attachments<'a>(results: &'a [&'a AgentToolResult<'a>]) -> impl Serialize + 'a {
    Attachments(results, Chat)
}

/// OpenAI Chat's text-only tool outputs: `tool` messages, media in `user` content parts.
#[derive(Clone, Copy)]
struct Chat;

impl TextOutputs for Chat {
    fn output<S: Serializer>(self, result: &AgentToolResult<'_>, lines: Lines<'_>, s: S) -> Result<S::Ok, S::Error> {
        object!(s, "content" => lines, "role" => "tool", "tool_call_id" => result.tool_use_id)
    }

    fn part<S: Serializer>(self, block: &AgentBlock<'_>, s: S) -> Result<S::Ok, S::Error> {
        Part(block).serialize(s)
    }
}
