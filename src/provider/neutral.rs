//! The crate's own neutral JSON.

use serde::{Serialize, Serializer};

use super::shape::{object, Items};
use crate::lanes::agent::AgentBlock;
use crate::lanes::tool_result::AgentToolResult;

/// One block in the neutral JSON: `{"text","type"}` or `{"data","mimeType","type"}`.
impl Serialize for AgentBlock<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (kind, mime_type, data) = match self {
            AgentBlock::Text { text } => return object!(s, "text" => text, "type" => "text"),
            AgentBlock::Image { mime_type, data } => ("image", mime_type, data),
            AgentBlock::Audio { mime_type, data } => ("audio", mime_type, data),
            AgentBlock::Document { mime_type, data } => ("document", mime_type, data),
        };
        object!(s, "data" => data, "mimeType" => mime_type, "type" => kind)
    }
}

pub(super) fn blocks<'a>(blocks: &'a [AgentBlock<'a>]) -> impl Serialize + 'a {
    Items(move || blocks.iter())
}

/// `{"content":[…],"isError":…,"name":…,"toolUseId":…,"type":"tool_result"}`, one a result.
pub(super) fn tool_result<'a>(result: &'a AgentToolResult<'a>) -> impl Serialize + 'a {
    struct One<'a>(&'a AgentToolResult<'a>);
    impl Serialize for One<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            object!(s, "content" => blocks(&self.0.content), "isError" => self.0.is_error,
                "name" => self.0.name, "toolUseId" => self.0.tool_use_id, "type" => "tool_result")
        }
    }
    One(result)
}
