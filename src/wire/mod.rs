//! MCP and MCPL shapes on the wire: tolerant decoding of blocks and of the messages that carry
//! them, in one pass over the JSON bytes.
//!
//! Every block is decoded on its own. A block of a known type with a bad body is
//! [`BlockKind::Malformed`]; a type this crate has never heard of is [`BlockKind::Unknown`].
//! Neither fails the array, result or message around it. Decoding only reads the shape; what a
//! block *is* for the agent is decided once, by [`classify_block`](crate::classify_block).
//!
//! Strings are borrowed from the input where they have no escape; base64 is never validated
//! as text nor copied; what no lane reads is skipped.

mod block;
pub(crate) mod kinds;
pub(crate) mod pending;
mod walk;

use std::borrow::Cow;

use serde_json::Value;

pub(crate) use self::block::{key_name, read_block, read_resource_contents, read_text};
use self::kinds::{not_json, own, own_opt, too_deep};
pub use self::kinds::{Base64, BlockKind, Contents, EmbeddedBody, MediaBody, MediaKind, ReferenceFields, Scalar};
pub(crate) use self::walk::{walk, walk_decided, Sink};
use crate::error::{Error, ErrorKind};
use crate::json::{Reader, MAX_DEPTH};

/// One content block, decoded tolerantly. Borrows from the bytes it was read from.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Block<'a> {
    /// What the block's `type` and body say it is.
    pub kind: BlockKind<'a>,
    /// The block's `annotations`, where it has an object of them. Boxed: most blocks have
    /// none, and a block is moved as it is read.
    pub annotations: Option<Box<Annotations<'a>>>,
    /// The block's `_meta`, as JSON text.
    pub meta: Option<Cow<'a, str>>,
}

/// A block's `annotations`. Unknown fields are ignored; unknown roles are kept.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Annotations<'a> {
    /// `audience`, where it is an array. Entries that are not strings are skipped.
    pub audience: Option<Vec<Role<'a>>>,
    /// `priority`, where it is a number.
    pub priority: Option<f64>,
    /// `lastModified`, where it is a string.
    pub last_modified: Option<Cow<'a, str>>,
}

/// A role in an audience or a prompt message. Roles this crate does not know are kept verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Role<'a> {
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// Any other role, as it arrived.
    Other(Cow<'a, str>),
}

impl<'a> Role<'a> {
    fn parse(s: Cow<'a, str>) -> Role<'a> {
        match &*s {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            _ => Role::Other(s),
        }
    }

    /// The role as on the wire.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Other(s) => s,
        }
    }

    /// The same role, owning its string.
    #[must_use]
    pub fn into_owned(self) -> Role<'static> {
        match self {
            Role::User => Role::User,
            Role::Assistant => Role::Assistant,
            Role::Other(s) => Role::Other(own(s)),
        }
    }
}

/// A message that carries content blocks, detected from the shape of its JSON.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Message<'a> {
    /// A `CallToolResult`, or an event payload `{content: […]}`.
    ToolResult(ToolResult<'a>),
    /// A `GetPromptResult`, or anything else with `messages[]` (a sampling request's params).
    Prompt(Prompt<'a>),
    /// A `ReadResourceResult`: each `contents[]` item is read as an embedded resource.
    Resource(Vec<Block<'a>>),
    /// A bare array of blocks, a single block, or a message `{role, content}`.
    Blocks(Vec<Block<'a>>),
    /// A JSON-RPC error response.
    RpcError(RpcError<'a>),
    /// A JSON-RPC result that carries no content (`{}`, `{"resultType": "complete"}`).
    NoContent,
    /// What a server asked instead of a result (revision 2026-07-28): an input-required result
    /// or a task that carries nothing else. Any other shape reads as it would without its
    /// `resultType` (a tool result keeps the word in [`ToolResult::result_type`]); one with no
    /// content and an unknown word, or an input-required result that asks nothing, is
    /// [`Message::NoContent`]: read the JSON to tell them apart.
    Pending(self::pending::Pending),
}

/// A `CallToolResult`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolResult<'a> {
    /// `content`, one block per item. A `content` that is one object is read as one block.
    pub content: Vec<Block<'a>>,
    /// `structuredContent`, of any JSON type (SEP-2106), as JSON text.
    pub structured_content: Option<Cow<'a, str>>,
    /// `isError`; absent or not a boolean reads as `false`.
    pub is_error: bool,
    /// `resultType` (`complete`, `input_required`, …), where it is a string.
    pub result_type: Option<Cow<'a, str>>,
    /// `_meta`, as JSON text.
    pub meta: Option<Cow<'a, str>>,
}

/// A `GetPromptResult`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Prompt<'a> {
    /// `description`, where it is a string.
    pub description: Option<Cow<'a, str>>,
    /// `messages`, in order.
    pub messages: Vec<PromptMessage<'a>>,
}

/// One message of a prompt. Its `content` is read as one block or an array of blocks.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PromptMessage<'a> {
    /// `role`; `None` where it is missing or not a string.
    pub role: Option<Role<'a>>,
    /// The message's blocks.
    pub content: Vec<Block<'a>>,
}

/// A JSON-RPC `error`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RpcError<'a> {
    /// `code`, where it is an integer.
    pub code: Option<i64>,
    /// `message`; empty where it is missing or not a string.
    pub message: Cow<'a, str>,
    /// `data`, as JSON text.
    pub data: Option<Cow<'a, str>>,
}

/// Whether `value` nests deeper than the reader reads ([`MAX_DEPTH`] levels), found without
/// recursion: a `Value` is written out (recursively) only where it is not.
pub(crate) fn nests_too_deep(value: &Value) -> bool {
    let mut open = vec![(value, 1usize)];
    while let Some((value, level)) = open.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(fields) => Box::new(fields.values()),
            _ => continue,
        };
        if level > MAX_DEPTH {
            return true;
        }
        open.extend(children.map(|child| (child, level + 1)));
    }
    false
}

/// A message's `Value` as the JSON bytes the one walk reads; an error where it nests deeper
/// than the walk reads.
pub(crate) fn json_of(value: &Value) -> Result<Vec<u8>, Error> {
    if nests_too_deep(value) {
        return Err(Error::new(ErrorKind::Json, "value nests deeper than 127 levels"));
    }
    Ok(value.to_string().into_bytes())
}

impl<'a> Block<'a> {
    /// Decodes one content block from a [`Value`]. Never fails: a bad block is
    /// [`BlockKind::Malformed`], an unknown one [`BlockKind::Unknown`].
    ///
    /// The bytes path, [`Message::parse`], borrows instead of copying.
    #[must_use]
    pub fn decode(value: &Value) -> Block<'static> {
        if nests_too_deep(value) {
            return Block::bare(too_deep(false));
        }
        let bytes = value.to_string().into_bytes();
        let mut reader = Reader::new(&bytes);
        // A Value always serializes to JSON this reader reads, and not deeper than it parsed.
        read_block(&mut reader).map_or_else(|_| Block::bare(not_json(false)), Block::into_owned)
    }

    /// Decodes one item of a `resources/read` result (`{uri, mimeType, text | blob}`) as the
    /// embedded resource it is.
    #[must_use]
    pub fn decode_resource_contents(value: &Value) -> Block<'static> {
        if nests_too_deep(value) {
            return Block::bare(too_deep(true));
        }
        let bytes = value.to_string().into_bytes();
        let mut reader = Reader::new(&bytes);
        read_resource_contents(&mut reader).map_or_else(|_| Block::bare(not_json(true)), Block::into_owned)
    }

    fn bare(kind: BlockKind<'a>) -> Block<'a> {
        Block {
            kind,
            annotations: None,
            meta: None,
        }
    }

    /// The block's `type` on the wire, where it had a string one.
    #[must_use]
    pub fn type_name(&self) -> Option<&str> {
        self.kind.type_name()
    }

    /// The same block, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> Block<'static> {
        Block {
            kind: self.kind.into_owned(),
            annotations: self.annotations.map(|a| {
                Box::new(Annotations {
                    audience: a
                        .audience
                        .map(|roles| roles.into_iter().map(Role::into_owned).collect()),
                    priority: a.priority,
                    last_modified: own_opt(a.last_modified),
                })
            }),
            meta: own_opt(self.meta),
        }
    }
}

impl<'a> Message<'a> {
    /// Decodes the message in a [`Value`], as [`Message::parse`] does its bytes. The bytes path
    /// borrows; this one owns.
    pub fn decode(value: &Value) -> Result<Message<'static>, Error> {
        Message::parse(&json_of(value)?).map(Message::into_owned)
    }

    /// Where the message is a tool result: its `isError`, and its `structuredContent` as JSON
    /// text (what every lane shows beside its blocks), as [`MessageShape::tool_result`](walk::MessageShape::tool_result) gives
    /// it for the walk.
    pub(crate) fn tool_result(&self) -> Option<(bool, Option<&str>)> {
        match self {
            Message::ToolResult(result) => Some((result.is_error, result.structured_content.as_deref())),
            _ => None,
        }
    }

    /// Every block of the message, in order (prompt messages one after the other).
    #[must_use]
    pub fn blocks(&self) -> Box<dyn Iterator<Item = &Block<'a>> + '_> {
        match self {
            Message::ToolResult(r) => Box::new(r.content.iter()),
            Message::Prompt(p) => Box::new(p.messages.iter().flat_map(|m| m.content.iter())),
            Message::Resource(blocks) | Message::Blocks(blocks) => Box::new(blocks.iter()),
            Message::RpcError(_) | Message::NoContent | Message::Pending(_) => Box::new(std::iter::empty()),
        }
    }

    /// The same message, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> Message<'static> {
        let blocks = |b: Vec<Block<'_>>| b.into_iter().map(Block::into_owned).collect();
        match self {
            Message::ToolResult(r) => Message::ToolResult(ToolResult {
                content: blocks(r.content),
                structured_content: own_opt(r.structured_content),
                is_error: r.is_error,
                result_type: own_opt(r.result_type),
                meta: own_opt(r.meta),
            }),
            Message::Prompt(p) => Message::Prompt(Prompt {
                description: own_opt(p.description),
                messages: p
                    .messages
                    .into_iter()
                    .map(|m| PromptMessage {
                        role: m.role.map(Role::into_owned),
                        content: blocks(m.content),
                    })
                    .collect(),
            }),
            Message::Resource(b) => Message::Resource(blocks(b)),
            Message::Blocks(b) => Message::Blocks(blocks(b)),
            Message::RpcError(e) => Message::RpcError(RpcError {
                code: e.code,
                message: own(e.message),
                data: own_opt(e.data),
            }),
            Message::NoContent => Message::NoContent,
            Message::Pending(pending) => Message::Pending(pending),
        }
    }
}
