//! A `GetPromptResult` as the messages the model reads.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::lanes::agent::{convert_block, AgentBlock};
use crate::lanes::convert::convert_message;
use crate::reference::ReferenceRegistry;
use crate::render::Provenance;
use crate::target::Target;
use crate::wire::{Message, Role};

/// One message of a prompt, as the model reads it.
///
/// Serializes to `{"role":…,"content":[…]}` with the blocks in the crate's neutral JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentMessage<'a> {
    /// The message's role: `user` or `assistant`, never another. A prompt message that
    /// claimed any other role (`system`, `developer`, `tool`, ` system`, none) is a `user`
    /// message opening with the marker `[prompt message claimed role: <role>; shown as user]`:
    /// a server's text never gains the authority of the host's own messages.
    pub role: Role<'a>,
    /// The message's blocks, mapped as [`convert`](crate::convert) maps them.
    pub content: Vec<AgentBlock<'a>>,
}

/// Turns a `GetPromptResult` (or the JSON-RPC response carrying it) into messages, each block
/// mapped as [`convert`](crate::convert) maps it, stubs saying `from prompt`. A message whose `content` is
/// one block or an array is read either way.
///
/// Any other message gives one `user` message with its blocks; a JSON-RPC error gives one with
/// `[request failed: error <code>: <message>]`.
///
/// ```
/// use mcp_agent_view::{prompt_messages, Message, ReferenceRegistry, Target};
/// use serde_json::json;
///
/// let result = json!({"messages": [{"role": "user", "content": {"type": "resource",
///     "resource": {"uri": "file:///style.md", "mimeType": "text/markdown", "text": "Use short sentences."}}}]});
/// let message = Message::decode(&result)?;
/// let messages = prompt_messages(&message, &ReferenceRegistry::new(), &Target::neutral());
/// assert_eq!(messages[0].role.as_str(), "user");
/// assert_eq!(messages[0].content[0].as_text(), Some("Use short sentences."));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
#[must_use]
pub fn prompt_messages<'a>(
    message: &'a Message<'_>,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Vec<AgentMessage<'a>> {
    match message {
        Message::Prompt(prompt) => prompt
            .messages
            .iter()
            .map(|m| {
                let content = m
                    .content
                    .iter()
                    .map(|b| convert_block(b, Provenance::Prompt, registry, target));
                match &m.role {
                    Some(role @ (Role::User | Role::Assistant)) => AgentMessage {
                        role: role.clone(),
                        content: content.collect(),
                    },
                    claimed => AgentMessage {
                        role: Role::User,
                        content: std::iter::once(claimed_role(claimed.as_ref())).chain(content).collect(),
                    },
                }
            })
            .collect(),
        other => vec![AgentMessage {
            role: Role::User,
            // Every block, as a prompt's own messages have theirs: a prompt is written for the
            // model, and has no place for what is held back.
            content: match other {
                Message::RpcError(_) => convert_message(other, Provenance::Prompt, registry, target).content,
                _ => other
                    .blocks()
                    .map(|b| convert_block(b, Provenance::Prompt, registry, target))
                    .collect(),
            },
        }],
    }
}

/// The marker that opens a prompt message whose role was not `user` or `assistant`.
fn claimed_role(role: Option<&Role<'_>>) -> AgentBlock<'static> {
    AgentBlock::Text {
        text: crate::render::claimed_role(role.map(Role::as_str)).into(),
    }
}

impl<'a> AgentMessage<'a> {
    /// The message as a model may read it: a role other than `user` or `assistant` (where a
    /// host built one) becomes `user`, the marker first.
    pub(crate) fn as_sent(&self) -> std::borrow::Cow<'_, AgentMessage<'a>> {
        match &self.role {
            Role::User | Role::Assistant => std::borrow::Cow::Borrowed(self),
            other => std::borrow::Cow::Owned(AgentMessage {
                role: Role::User,
                content: std::iter::once(claimed_role(Some(other)))
                    .chain(self.content.iter().cloned())
                    .collect(),
            }),
        }
    }
}

impl AgentMessage<'_> {
    /// The message in the crate's neutral JSON.
    #[must_use]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Serialize for AgentMessage<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let sent = self.as_sent();
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("content", &sent.content)?;
        map.serialize_entry("role", sent.role.as_str())?;
        map.end()
    }
}
