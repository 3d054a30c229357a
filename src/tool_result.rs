//! The outcome of one `tools/call`, as the model should read it: errors, `structuredContent`,
//! audience and empty results.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::input::Input;
use crate::lanes::agent::AgentBlock;
use crate::lanes::convert::{tool_outcome, Converted, Outcome};
use crate::reference::ReferenceRegistry;
use crate::render;
use crate::target::Target;

/// The tool result the model reads for one `tool_use`, and what was held back for the user.
///
/// Serializes to an Anthropic Messages `tool_result` block:
/// `{"type":"tool_result","tool_use_id":…,"content":[…],"is_error":…}`, text as
/// `{"type":"text","text":…}`, images as
/// `{"type":"image","source":{"type":"base64","media_type":…,"data":…}}`, and audio, which that
/// API does not take, as its `[audio: <mime>, <size>]` marker. `held_for_user` is not part of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentToolResult<'a> {
    /// The id of the `tool_use` this result answers.
    pub tool_use_id: String,
    /// What the model reads. Never empty.
    pub content: Vec<AgentBlock<'a>>,
    /// Whether the call failed: a protocol error, or a result with `isError: true`.
    pub is_error: bool,
    /// Blocks whose `annotations.audience` leaves out the assistant, held back from the model
    /// for the host to show the user.
    pub held_for_user: Vec<AgentBlock<'a>>,
}

/// Turns the outcome of one `tools/call` into the tool result the model reads.
///
/// `answer` is the JSON-RPC response (`result` or `error`) or the `CallToolResult` itself, as
/// it arrived (bytes or text, read in one pass, strings borrowed), as a `serde_json::Value`,
/// or a [`Message`](crate::Message) decoded before; `name` is the tool's name and
/// `tool_use_id` the id of the model's `tool_use`. It never fails: whatever arrived, the model
/// reads a result and the conversation goes on.
///
/// - A JSON-RPC error gives `is_error: true` and one text block
///   `Tool call <name> failed: <message>`: the model learns its call failed. An answer that
///   is not JSON, or no MCP message, gives the same, saying the answer could not be read.
/// - `isError: true` gives `is_error: true`, with the content mapped as below.
/// - Blocks are mapped as [`convert`](crate::convert) maps them, stubs saying `from tool result`.
/// - A block whose `annotations.audience` is present and does not include `assistant` is held
///   back for the user; if that leaves the model nothing, it reads `[output displayed to user]`.
/// - When the content left for the model holds no text block, `structuredContent` (any JSON
///   value but `null`) is appended as compact JSON text, keys in the order they arrived; a content block inside it reads as its
///   history text there, so no uri and no base64 reaches the model that way.
/// - A result with nothing for the model gives one text block `[tool returned no content]`.
///
/// ```
/// use mcp_agent_view::{tool_result, ReferenceRegistry, Target};
///
/// let response = br#"{"jsonrpc": "2.0", "id": 4, "result": {
///     "content": [], "structuredContent": {"temperature": 22.5, "conditions": "Sunny"}}}"#;
/// let result = tool_result(response, "get_weather", "toolu_01", &ReferenceRegistry::new(), &Target::anthropic());
/// assert_eq!(result.content[0].as_text(), Some(r#"{"temperature":22.5,"conditions":"Sunny"}"#));
/// assert_eq!(result.to_json()["isError"], false);
/// assert!(!result.is_error);
/// ```
#[must_use]
pub fn tool_result<'a>(
    answer: impl Input<'a>,
    name: &str,
    tool_use_id: &str,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentToolResult<'a> {
    match tool_outcome(answer, registry, target) {
        Ok(Outcome::Result(Converted { content, held_for_user }, is_error)) => AgentToolResult {
            tool_use_id: tool_use_id.to_owned(),
            content,
            is_error,
            held_for_user,
        },
        Ok(Outcome::Failed(message)) => tool_call_failed(name, tool_use_id, &message),
        Err(error) => tool_call_failed(name, tool_use_id, &format!("its answer could not be read ({error})")),
    }
}

/// The tool result for a call that failed before any result arrived (a transport failure, a
/// timeout): `is_error: true` and one text block `Tool call <name> failed: <message>`.
///
/// ```
/// let result = mcp_agent_view::tool_call_failed("search", "toolu_02", "server exited");
/// assert!(result.is_error);
/// assert_eq!(result.content[0].as_text(), Some("Tool call search failed: server exited"));
/// ```
#[must_use]
pub fn tool_call_failed(name: &str, tool_use_id: &str, message: &str) -> AgentToolResult<'static> {
    AgentToolResult {
        tool_use_id: tool_use_id.to_owned(),
        content: vec![text(render::tool_call_failed(name, message))],
        is_error: true,
        held_for_user: Vec::new(),
    }
}

fn text(text: String) -> AgentBlock<'static> {
    AgentBlock::Text { text: Cow::Owned(text) }
}

impl AgentToolResult<'_> {
    /// The same result, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> AgentToolResult<'static> {
        AgentToolResult {
            tool_use_id: self.tool_use_id,
            content: self.content.into_iter().map(AgentBlock::into_owned).collect(),
            is_error: self.is_error,
            held_for_user: self.held_for_user.into_iter().map(AgentBlock::into_owned).collect(),
        }
    }

    /// The result in the crate's neutral JSON, as [`Target::tool_results_json`] gives it for
    /// the neutral target: `{"type":"tool_result","toolUseId","isError","content":[…]}`.
    /// A provider's shape comes from its [`Target`] only.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Target::neutral()
            .tool_results_json(std::slice::from_ref(self))
            .pop()
            .unwrap_or(Value::Null)
    }
}

/// The neutral JSON of [`AgentToolResult::to_json`], with what is held back for the user
/// beside it: `"heldForUser": […]`.
impl Serialize for AgentToolResult<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = self.to_json();
        if let Value::Object(fields) = &mut json {
            fields.insert(
                "heldForUser".to_owned(),
                Target::neutral().blocks_json(&self.held_for_user),
            );
        }
        json.serialize(serializer)
    }
}
