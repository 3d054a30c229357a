//! A `GetPromptResult` as the messages the model reads.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::error::Error;
use crate::input::{Input, JsonSource, Source};
use crate::lanes::agent::{convert_block, AgentBlock};
use crate::lanes::convert::{convert_message, prompt_blocks, Ends, PromptBlocks};
use crate::media::target::Target;
use crate::reference::ReferenceRegistry;
use crate::render::Provenance;
use crate::wire::{json_of, Message, Role};

/// One message of a prompt, as the model reads it.
///
/// Serializes to `{"role":…,"content":[…]}` with the blocks in the crate's neutral JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
/// `prompt` is JSON as it arrived (bytes or text, read in one pass, strings borrowed), a
/// `serde_json::Value`, or a [`Message`] decoded before. Any other message gives one `user`
/// message with its blocks; a JSON-RPC error gives one with
/// `[request failed: error <code>: <message>]`. Fails only where JSON is not JSON or no MCP
/// message.
///
/// ```
/// use mcp_agent_view::{prompt_messages, ReferenceRegistry, Target};
///
/// let result = br#"{"messages": [{"role": "user", "content": {"type": "resource",
///     "resource": {"uri": "file:///style.md", "mimeType": "text/markdown", "text": "Use short sentences."}}}]}"#;
/// let messages = prompt_messages(result, &ReferenceRegistry::new(), &Target::neutral())?;
/// assert_eq!(messages[0].role.as_str(), "user");
/// assert_eq!(messages[0].content[0].as_text(), Some("Use short sentences."));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn prompt_messages<'a>(
    prompt: impl Input<'a>,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Vec<AgentMessage<'a>>, Error> {
    Ok(match prompt.source() {
        Source::Json(JsonSource::Bytes(bytes)) => {
            messages_of(prompt_blocks(bytes, registry, target, Provenance::Prompt)?)
        }
        Source::Json(JsonSource::Value(value)) => prompt_messages_from(value, registry, target, Provenance::Prompt)?,
        Source::Message(message) => decoded_messages(message, registry, target),
        Source::Blocks(blocks) => vec![AgentMessage {
            role: Role::User,
            content: blocks
                .iter()
                .map(|b| convert_block(b, Provenance::Prompt, registry, target))
                .collect(),
        }],
    })
}

/// [`prompt_messages`] of a `Value`, stubs naming `provenance` (a prompt's, a sampling
/// request's).
pub(crate) fn prompt_messages_from(
    value: &Value,
    registry: &ReferenceRegistry,
    target: &Target,
    provenance: Provenance,
) -> Result<Vec<AgentMessage<'static>>, Error> {
    Ok(
        messages_of(prompt_blocks(&json_of(value)?, registry, target, provenance)?)
            .into_iter()
            .map(AgentMessage::into_owned)
            .collect(),
    )
}

/// The messages of a prompt's blocks: each message's blocks, a claimed role's marker first;
/// the blocks of no prompt, one `user` message.
///
/// The messages are taken off the end of the blocks, last first, and the blocks' room given
/// back as they go: the prompt is never held twice.
fn messages_of(PromptBlocks { mut content, ends }: PromptBlocks<'_>) -> Vec<AgentMessage<'_>> {
    let Some(Ends { at, mut claimed }) = ends else {
        return vec![AgentMessage {
            role: Role::User,
            content,
        }];
    };
    content.truncate(at.last().map_or(0, |&(end, _)| end as usize));
    let mut messages = Vec::with_capacity(at.len());
    for (n, &(_, role)) in at.iter().enumerate().rev() {
        let start = n
            .checked_sub(1)
            .map_or(0, |before| at[before].0 as usize)
            .min(content.len());
        let message = match role {
            0 | 1 => AgentMessage {
                role: if role == 0 { Role::User } else { Role::Assistant },
                content: content.split_off(start),
            },
            _ => {
                let mut blocks = Vec::with_capacity(content.len() - start + 1);
                blocks.push(claimed_role(claimed.pop().flatten().as_ref()));
                blocks.extend(content.drain(start..));
                AgentMessage {
                    role: Role::User,
                    content: blocks,
                }
            }
        };
        messages.push(message);
        if content.capacity() > 2 * content.len() + 8 {
            content.shrink_to_fit();
        }
    }
    messages.reverse();
    messages
}

/// [`prompt_messages`] of a decoded message.
fn decoded_messages<'a>(
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

impl<'a> AgentMessage<'a> {
    /// A message a host makes itself. A role other than `user` or `assistant` is sent as
    /// `user`, opening with the marker of the role it claimed, as a server's is.
    #[must_use]
    pub fn new(role: Role<'a>, content: Vec<AgentBlock<'a>>) -> Self {
        AgentMessage { role, content }
    }
}

impl AgentMessage<'_> {
    /// The same message, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> AgentMessage<'static> {
        AgentMessage {
            role: self.role.into_owned(),
            content: self.content.into_iter().map(AgentBlock::into_owned).collect(),
        }
    }

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
