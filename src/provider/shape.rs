//! The providers' JSON, written as it is serialized: no `serde_json::Value` is built for a
//! block, a result or a message, so that memory stays with the input however many blocks it
//! holds. Objects write their keys sorted, as a `serde_json::Value` writes them.

use std::fmt::Display;

use serde::ser::{SerializeSeq as _, Serializer};
use serde::Serialize;

use crate::lanes::agent::AgentBlock;
use crate::lanes::tool_result::AgentToolResult;
use crate::render;

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
        result: &AgentToolResult<'_>,
        lines: super::Lines<'_>,
        s: S,
    ) -> Result<S::Ok, S::Error>;
    /// One part of the `user` message.
    fn part<S: Serializer>(self, block: &AgentBlock<'_>, s: S) -> Result<S::Ok, S::Error>;
}

/// A result's output for a [`TextOutputs`] API: its text (an error's first line
/// `[tool returned an error]`, the API having no error flag; media as a placeholder naming what
/// follows).
pub(super) struct Output<'a, K>(pub(super) &'a AgentToolResult<'a>, pub(super) K);

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

/// The parts a [`TextOutputs`] API's `user` message after a turn's outputs carries: each
/// result's media, introduced by `[attachments of tool call <id>]`; nothing for a result with
/// none.
pub(super) struct Attachments<'a, K>(pub(super) &'a [&'a AgentToolResult<'a>], pub(super) K);

impl<K: TextOutputs> Serialize for Attachments<'_, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Part<'a, K>(&'a AgentBlock<'a>, K);
        impl<K: TextOutputs> Serialize for Part<'_, K> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.1.part(self.0, s)
            }
        }
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

/// Whether a result carries media (any block that is not text).
pub(super) fn has_media(result: &AgentToolResult<'_>) -> bool {
    result.content.iter().any(|b| b.as_text().is_none())
}
