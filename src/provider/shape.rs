//! The providers' JSON, written as it is serialized: no `serde_json::Value` is built for a
//! block, a result or a message, so that memory stays with the input however many blocks it
//! holds. Objects write their keys sorted, as a `serde_json::Value` writes them.

use std::fmt::Display;

use serde::ser::Serializer;
use serde::Serialize;

/// A JSON object: `object!(serializer, "key" => value, …)`, keys written in the order given
/// (sorted, by the caller).
macro_rules! object {
    ($serializer:expr, $($key:literal => $value:expr),+ $(,)?) => {{
        use serde::ser::SerializeMap as _;
        let mut map = $serializer.serialize_map(None)?;
        $(map.serialize_entry($key, &$value)?;)+
        map.end()
    }};
}
pub(super) use object;

/// A JSON array written from an iterator made anew for each serialization.
pub(super) struct Items<F>(pub(super) F);

impl<F, I> Serialize for Items<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// `data:<mime>;base64,<data>`, written as it goes, never held whole.
pub(super) struct DataUrl<'a>(pub(super) &'a str, pub(super) &'a str);

impl Display for DataUrl<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "data:{};base64,{}", self.0, self.1)
    }
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// How an API whose tool outputs take text only (OpenAI Chat, OpenAI Responses) writes a turn's
/// results: each result's output item, its text given, and each part of the `user` message
/// that carries the turn's media.
pub(super) trait TextOutputs: Copy {
    /// One result's output, its text `lines` (media as a placeholder naming what follows).
    fn output<S: Serializer>(
        self,
        result: &crate::lanes::tool_result::AgentToolResult<'_>,
        lines: super::Lines<'_>,
        s: S,
    ) -> Result<S::Ok, S::Error>;
    /// One part of the `user` message.
    fn part<S: Serializer>(self, block: &crate::lanes::agent::AgentBlock<'_>, s: S) -> Result<S::Ok, S::Error>;
}

/// A turn's results for a [`TextOutputs`] API: one output per result, contiguous (an error's
/// text first `[tool returned an error]`, the API having no error flag), then, where any
/// result carries media, one `user` message with the media of all of them, each result's
/// introduced by `[attachments of tool call <id>]`.
pub(super) struct TextOnlyTurn<'a, K>(
    pub(super) &'a [crate::lanes::tool_result::AgentToolResult<'a>],
    pub(super) K,
);

impl<K: TextOutputs> Serialize for TextOnlyTurn<'_, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::lanes::agent::AgentBlock;
        use crate::lanes::tool_result::AgentToolResult;
        use crate::render;
        use serde::ser::SerializeSeq as _;

        struct Output<'a, K>(&'a AgentToolResult<'a>, K);
        impl<K: TextOutputs> Serialize for Output<'_, K> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let lines = super::Lines {
                    first: self.0.is_error.then_some(render::TOOL_ERROR),
                    blocks: &self.0.content,
                    note: Some(render::FOLLOWS),
                };
                self.1.output(self.0, lines, s)
            }
        }
        struct Part<'a, K>(&'a AgentBlock<'a>, K);
        impl<K: TextOutputs> Serialize for Part<'_, K> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.1.part(self.0, s)
            }
        }
        struct Attachments<'a, K>(&'a [AgentToolResult<'a>], K);
        impl<K: TextOutputs> Serialize for Attachments<'_, K> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(None)?;
                for result in self.0.iter().filter(|r| has_media(r)) {
                    let intro = AgentBlock::Text {
                        text: render::attachments_of(&result.tool_use_id).into(),
                    };
                    seq.serialize_element(&Part(&intro, self.1))?;
                    for block in result.content.iter().filter(|b| b.as_text().is_none()) {
                        seq.serialize_element(&Part(block, self.1))?;
                    }
                }
                seq.end()
            }
        }
        struct User<'a, K>(&'a [AgentToolResult<'a>], K);
        impl<K: TextOutputs> Serialize for User<'_, K> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                object!(s, "content" => Attachments(self.0, self.1), "role" => "user")
            }
        }
        fn has_media(result: &AgentToolResult<'_>) -> bool {
            result.content.iter().any(|b| b.as_text().is_none())
        }

        let media = self.0.iter().any(has_media);
        let mut seq = s.serialize_seq(Some(self.0.len() + usize::from(media)))?;
        for result in self.0 {
            seq.serialize_element(&Output(result, self.1))?;
        }
        if media {
            seq.serialize_element(&User(self.0, self.1))?;
        }
        seq.end()
    }
}
