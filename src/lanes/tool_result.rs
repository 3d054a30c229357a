//! The outcome of one `tools/call`, as the model should read it: errors, `structuredContent`,
//! audience and empty results.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::input::Input;
use crate::lanes::agent::AgentBlock;
use crate::lanes::convert::{tool_outcome, Converted, Outcome};
use crate::media::target::Target;
use crate::reference::ReferenceRegistry;
use crate::render;
use crate::wire::pending::Pending;

/// The tool result the model reads for one `tool_use`, and what was held back for the user.
///
/// What a provider's API takes comes from a [`Target`]:
/// [`Target::tool_result_messages`] gives the messages to append to the conversation,
/// [`Target::tool_result_messages`] the results alone. `Serialize` and [`AgentToolResult::to_json`]
/// give the crate's neutral shape (`{"type":"tool_result","toolUseId","name","isError",
/// "content","heldForUser"}`), which no provider takes as it is.
///
/// Every constructor of the crate ([`tool_result`](fn@tool_result), [`tool_call_failed`],
/// [`AgentToolResult::new`], the fetch tool's answers) leaves `content` with at least one
/// block and no empty or white-space-only text block.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgentToolResult<'a> {
    /// The id of the `tool_use` this result answers.
    pub tool_use_id: String,
    /// The name of the tool called (Gemini's `functionResponse` names it).
    pub name: String,
    /// What the model reads: never empty, no blank text block.
    pub content: Vec<AgentBlock<'a>>,
    /// Whether the call failed: a protocol error, or a result with `isError: true`.
    pub is_error: bool,
    /// Blocks whose `annotations.audience` leaves out the assistant, held back from the model
    /// for the host to show the user.
    pub held_for_user: Vec<AgentBlock<'a>>,
    /// What the server asked of the host instead of a result (revision 2026-07-28): input to
    /// gather before calling again, or a task to poll. `None` for a result. Where it is set,
    /// `content` is one marker ([`INPUT_REQUIRED`](crate::markers::INPUT_REQUIRED), or the
    /// task's) and the call is not over: a host answers it rather than sending the marker.
    pub pending: Option<Pending>,
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
/// - An input-required result (`resultType: "input_required"`) or a task (`"task"`) is no
///   result: [`AgentToolResult::pending`] holds what the server asks, and `content` one marker.
///   A `resultType` of any other word is a failed call naming the word.
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
            name: name.to_owned(),
            content: readable(content, !held_for_user.is_empty()),
            is_error,
            held_for_user,
            pending: None,
        },
        Ok(Outcome::Pending(pending)) => {
            let marker = render::pending(&pending);
            let mut result = AgentToolResult::new(name, tool_use_id, vec![text(marker)], false);
            result.pending = Some(pending);
            result
        }
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
    AgentToolResult::new(
        name,
        tool_use_id,
        vec![text(render::tool_call_failed(name, message))],
        true,
    )
}

fn text(text: String) -> AgentBlock<'static> {
    AgentBlock::Text { text: Cow::Owned(text) }
}

/// `content` without its blank text blocks, and never empty: `[output displayed to user]`
/// where blocks were `held` back, else `[tool returned no content]`.
fn readable(mut content: Vec<AgentBlock<'_>>, held: bool) -> Vec<AgentBlock<'_>> {
    content.retain(|block| !block.as_text().is_some_and(|text| text.trim().is_empty()));
    if content.is_empty() {
        let marker = if held {
            render::DISPLAYED_TO_USER
        } else {
            render::NO_CONTENT
        };
        content.push(AgentBlock::Text {
            text: Cow::Borrowed(marker),
        });
    }
    content
}

impl<'a> AgentToolResult<'a> {
    /// A result a host makes itself (a tool of its own, a call it refused): `content`
    /// without its blank text blocks, `[tool returned no content]` where that leaves none;
    /// nothing held back for the user.
    ///
    /// ```
    /// use mcp_agent_view::{AgentBlock, AgentToolResult};
    ///
    /// let result = AgentToolResult::new("clock", "toolu_9", vec![AgentBlock::text(" ")], false);
    /// assert_eq!(result.content, [AgentBlock::text("[tool returned no content]")]);
    /// ```
    #[must_use]
    pub fn new(name: &str, tool_use_id: &str, content: Vec<AgentBlock<'a>>, is_error: bool) -> Self {
        AgentToolResult {
            tool_use_id: tool_use_id.to_owned(),
            name: name.to_owned(),
            content: readable(content, false),
            is_error,
            held_for_user: Vec::new(),
            pending: None,
        }
    }
}

impl AgentToolResult<'_> {
    /// The same result, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> AgentToolResult<'static> {
        AgentToolResult {
            tool_use_id: self.tool_use_id,
            name: self.name,
            content: self.content.into_iter().map(AgentBlock::into_owned).collect(),
            is_error: self.is_error,
            held_for_user: self.held_for_user.into_iter().map(AgentBlock::into_owned).collect(),
            pending: self.pending,
        }
    }

    /// The result in the crate's neutral JSON, as [`Target::tool_result_messages`] gives it for
    /// the neutral target: `{"type":"tool_result","toolUseId","name","isError","content":[…]}`.
    /// A provider's shape comes from its [`Target`] only.
    #[must_use]
    pub fn to_json(&self) -> Value {
        Target::neutral()
            .tool_result_messages(std::slice::from_ref(self))
            .pop()
            .unwrap_or(Value::Null)
    }
}

/// The crate's neutral JSON, not a provider's: [`AgentToolResult::to_json`], with what is held
/// back for the user beside it (`"heldForUser": […]`).
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
