//! MCP and MCPL shapes on the wire: tolerant decoding of blocks and of the messages that carry
//! them.
//!
//! Every block is decoded on its own. A block of a known type with a bad body is
//! [`BlockKind::Malformed`]; a type this crate has never heard of is [`BlockKind::Unknown`].
//! Neither fails the array, result or message around it. Decoding only reads the shape; what a
//! block *is* for the agent is decided once, by [`classify_block`](crate::classify_block).

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};

/// One content block, decoded tolerantly. Borrows from the [`Value`] it was decoded from.
#[derive(Clone, Debug, PartialEq)]
pub struct Block<'a> {
    /// What the block's `type` and body say it is.
    pub kind: BlockKind<'a>,
    /// The block's `annotations`, where it has any.
    pub annotations: Annotations<'a>,
    /// The block's `_meta`, kept as it arrived.
    pub meta: Option<&'a Map<String, Value>>,
}

/// The body of a [`Block`], by its `type`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BlockKind<'a> {
    /// `type: "text"` with a string `text`.
    Text {
        /// The text, as sent.
        text: &'a str,
    },
    /// `type: "image"` or `type: "audio"`: inline data, or an MCPL uri.
    Media(MediaBody<'a>),
    /// `type: "resource"` with a nested `resource` object: an MCP embedded resource.
    Embedded(EmbeddedBody<'a>),
    /// `type: "resource"` with a top-level `uri`: an MCPL bulk reference (RFC-005).
    BulkReference(ReferenceFields<'a>),
    /// `type: "resource_link"`.
    ResourceLink(ReferenceFields<'a>),
    /// A block of a known type whose body is bad, or a block that is no object or has no type.
    Malformed {
        /// The block's `type`, where it had a string one.
        type_name: Option<&'a str>,
        /// A short, fixed reason.
        reason: &'static str,
    },
    /// A block whose `type` this crate does not know. Kept verbatim.
    Unknown {
        /// The block's `type`.
        type_name: &'a str,
        /// The whole block, as it arrived.
        raw: &'a Value,
    },
}

/// Which kind of media an `image` or `audio` block carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MediaKind {
    /// An image.
    Image,
    /// Audio.
    Audio,
}

impl MediaKind {
    /// The block type on the wire: `image` or `audio`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Audio => "audio",
        }
    }
}

/// The body of an `image` or `audio` block.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaBody<'a> {
    /// Image or audio.
    pub kind: MediaKind,
    /// The base64 `data`, where it is a string.
    pub data: Option<&'a str>,
    /// The `mimeType`, where it is a string.
    pub mime_type: Option<&'a str>,
    /// Whether the block has a `disposition` (any value): the MCPL bulk form.
    pub has_disposition: bool,
    /// The MCPL reference fields of the same object (`uri`, `name`, `sizeBytes`, …).
    pub reference: ReferenceFields<'a>,
}

/// The body of an MCP embedded resource, or one item of a `resources/read` result.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddedBody<'a> {
    /// The resource's `uri`. Never shown to the agent.
    pub uri: Option<&'a str>,
    /// The resource's `mimeType`, where it is a string.
    pub mime_type: Option<&'a str>,
    /// Text or blob.
    pub contents: Contents<'a>,
}

/// The polymorphic contents of an embedded resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contents<'a> {
    /// `text`.
    Text(&'a str),
    /// `blob`: base64, as received. When a resource has both, the blob wins.
    Blob(&'a str),
}

/// The fields of a reference, as they arrived. [`classify_block`](crate::classify_block)
/// checks them against RFC-005.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReferenceFields<'a> {
    /// `uri`.
    pub uri: Option<&'a Value>,
    /// `name`.
    pub name: Option<&'a Value>,
    /// `mimeType`.
    pub mime_type: Option<&'a Value>,
    /// `sizeBytes` (MCPL), or `size` on a `resource_link` (RFC-005 §8.1).
    pub size_bytes: Option<&'a Value>,
    /// `expiresAt`.
    pub expires_at: Option<&'a Value>,
    /// `digest`.
    pub digest: Option<&'a Value>,
    /// `disposition`.
    pub disposition: Option<&'a Value>,
}

/// A block's `annotations`. Unknown fields are ignored; unknown roles are kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations<'a> {
    /// `audience`, where it is an array. Entries that are not strings are skipped.
    pub audience: Option<Vec<Role<'a>>>,
    /// `priority`, where it is a number.
    pub priority: Option<f64>,
    /// `lastModified`, where it is a string.
    pub last_modified: Option<&'a str>,
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
    Other(&'a str),
}

impl<'a> Role<'a> {
    fn parse(s: &'a str) -> Role<'a> {
        match s {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            other => Role::Other(other),
        }
    }

    /// The role as on the wire.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Other(s) => s,
        }
    }
}

impl<'a> Block<'a> {
    /// Decodes one content block. Never fails: a bad block is [`BlockKind::Malformed`], an
    /// unknown one [`BlockKind::Unknown`].
    #[must_use]
    pub fn decode(value: &'a Value) -> Block<'a> {
        let Some(obj) = value.as_object() else {
            return Block::bare(malformed(None, "block is not an object"));
        };
        let kind = match obj.get("type") {
            Some(Value::String(t)) => decode_body(t, obj, value),
            Some(_) => malformed(None, "block with non-string type"),
            None => malformed(None, "block without type"),
        };
        Block {
            kind,
            annotations: obj.get("annotations").map(decode_annotations).unwrap_or_default(),
            meta: obj.get("_meta").and_then(Value::as_object),
        }
    }

    /// Decodes one item of a `resources/read` result (`{uri, mimeType, text | blob}`) as the
    /// embedded resource it is.
    #[must_use]
    pub fn decode_resource_contents(value: &'a Value) -> Block<'a> {
        let kind = match value.as_object() {
            Some(obj) => decode_embedded(obj),
            None => malformed(Some("resource"), "resource contents are not an object"),
        };
        Block::bare(kind)
    }

    fn bare(kind: BlockKind<'a>) -> Block<'a> {
        Block {
            kind,
            annotations: Annotations::default(),
            meta: None,
        }
    }

    /// The block's `type` on the wire, where it had a string one.
    #[must_use]
    pub fn type_name(&self) -> Option<&'a str> {
        match &self.kind {
            BlockKind::Text { .. } => Some("text"),
            BlockKind::Media(m) => Some(m.kind.as_str()),
            BlockKind::Embedded(_) | BlockKind::BulkReference(_) => Some("resource"),
            BlockKind::ResourceLink(_) => Some("resource_link"),
            BlockKind::Malformed { type_name, .. } => *type_name,
            BlockKind::Unknown { type_name, .. } => Some(type_name),
        }
    }
}

fn malformed<'a>(type_name: Option<&'a str>, reason: &'static str) -> BlockKind<'a> {
    BlockKind::Malformed { type_name, reason }
}

fn decode_body<'a>(type_name: &'a str, obj: &'a Map<String, Value>, raw: &'a Value) -> BlockKind<'a> {
    match type_name {
        "text" => match obj.get("text") {
            Some(Value::String(text)) => BlockKind::Text { text },
            Some(_) => malformed(Some("text"), "text block with non-string text"),
            None => malformed(Some("text"), "text block without text"),
        },
        "image" => decode_media(MediaKind::Image, obj),
        "audio" => decode_media(MediaKind::Audio, obj),
        "resource" => match (obj.get("resource"), obj.get("uri")) {
            (Some(Value::Object(inner)), _) => decode_embedded(inner),
            (_, Some(_)) => BlockKind::BulkReference(reference_fields(obj, "sizeBytes")),
            (Some(_), None) => malformed(Some("resource"), "resource block with non-object resource"),
            (None, None) => malformed(Some("resource"), "resource block without resource or uri"),
        },
        "resource_link" => BlockKind::ResourceLink(reference_fields(obj, "size")),
        _ => BlockKind::Unknown { type_name, raw },
    }
}

fn decode_media(kind: MediaKind, obj: &Map<String, Value>) -> BlockKind<'_> {
    let data = match obj.get("data") {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return malformed(Some(kind.as_str()), media_reason(kind, "non-string data")),
        None => None,
    };
    if data.is_none() && !obj.contains_key("uri") {
        return malformed(Some(kind.as_str()), media_reason(kind, "no data or uri"));
    }
    BlockKind::Media(MediaBody {
        kind,
        data,
        mime_type: obj.get("mimeType").and_then(Value::as_str),
        has_disposition: obj.contains_key("disposition"),
        reference: reference_fields(obj, "sizeBytes"),
    })
}

/// Reasons are fixed strings, so each is spelled out per kind.
fn media_reason(kind: MediaKind, what: &'static str) -> &'static str {
    match (kind, what) {
        (MediaKind::Image, "non-string data") => "image block with non-string data",
        (MediaKind::Audio, "non-string data") => "audio block with non-string data",
        (MediaKind::Image, _) => "image block without data or uri",
        (MediaKind::Audio, _) => "audio block without data or uri",
    }
}

fn decode_embedded(inner: &Map<String, Value>) -> BlockKind<'_> {
    let contents = match (inner.get("blob"), inner.get("text")) {
        (Some(Value::String(blob)), _) => Contents::Blob(blob),
        (Some(_), _) => return malformed(Some("resource"), "embedded resource with non-string blob"),
        (None, Some(Value::String(text))) => Contents::Text(text),
        (None, Some(_)) => return malformed(Some("resource"), "embedded resource with non-string text"),
        (None, None) => return malformed(Some("resource"), "embedded resource without text or blob"),
    };
    BlockKind::Embedded(EmbeddedBody {
        uri: inner.get("uri").and_then(Value::as_str),
        mime_type: inner.get("mimeType").and_then(Value::as_str),
        contents,
    })
}

fn reference_fields<'a>(obj: &'a Map<String, Value>, size_key: &str) -> ReferenceFields<'a> {
    ReferenceFields {
        uri: obj.get("uri"),
        name: obj.get("name"),
        mime_type: obj.get("mimeType"),
        size_bytes: obj.get(size_key),
        expires_at: obj.get("expiresAt"),
        digest: obj.get("digest"),
        disposition: obj.get("disposition"),
    }
}

fn decode_annotations(value: &Value) -> Annotations<'_> {
    let Some(obj) = value.as_object() else {
        return Annotations::default();
    };
    Annotations {
        audience: obj
            .get("audience")
            .and_then(Value::as_array)
            .map(|roles| roles.iter().filter_map(Value::as_str).map(Role::parse).collect()),
        priority: obj.get("priority").and_then(Value::as_f64),
        last_modified: obj.get("lastModified").and_then(Value::as_str),
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
    /// A JSON-RPC result that carries no content (for example `resultType: "input_required"`).
    NoContent,
}

/// A `CallToolResult`.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult<'a> {
    /// `content`, one block per item. A `content` that is one object is read as one block.
    pub content: Vec<Block<'a>>,
    /// `structuredContent`, of any JSON type (SEP-2106).
    pub structured_content: Option<&'a Value>,
    /// `isError`; absent or not a boolean reads as `false`.
    pub is_error: bool,
    /// `resultType` (`complete`, `input_required`, …), where it is a string.
    pub result_type: Option<&'a str>,
    /// `_meta`, as it arrived.
    pub meta: Option<&'a Map<String, Value>>,
}

/// A `GetPromptResult`.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt<'a> {
    /// `description`, where it is a string.
    pub description: Option<&'a str>,
    /// `messages`, in order.
    pub messages: Vec<PromptMessage<'a>>,
}

/// One message of a prompt. Its `content` is read as one block or an array of blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptMessage<'a> {
    /// `role`; `None` where it is missing or not a string.
    pub role: Option<Role<'a>>,
    /// The message's blocks.
    pub content: Vec<Block<'a>>,
}

/// A JSON-RPC `error`.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError<'a> {
    /// `code`, where it is an integer.
    pub code: Option<i64>,
    /// `message`; empty where it is missing or not a string.
    pub message: &'a str,
    /// `data`, as it arrived.
    pub data: Option<&'a Value>,
}

impl<'a> Message<'a> {
    /// Detects and decodes the message in `value`: a JSON-RPC response (`result` or `error`),
    /// a `CallToolResult`, a `GetPromptResult`, a `ReadResourceResult`, an event payload
    /// `{content: […]}`, a bare array of blocks or a single block.
    ///
    /// Fails only where `value` is none of these; a bad block inside is never an error.
    pub fn decode(value: &'a Value) -> Result<Message<'a>, Error> {
        let obj = match value {
            Value::Array(items) => return Ok(Message::Blocks(items.iter().map(Block::decode).collect())),
            Value::Object(obj) => obj,
            _ => return Err(unrecognized()),
        };
        let is_rpc = obj.contains_key("jsonrpc") || obj.contains_key("id");
        if is_rpc {
            if let Some(result) = obj.get("result") {
                return Ok(decode_result(result).unwrap_or(Message::NoContent));
            }
            if let Some(error) = obj.get("error") {
                return Ok(Message::RpcError(decode_rpc_error(error)));
            }
        }
        decode_result(value).ok_or_else(unrecognized)
    }

    /// Every block of the message, in order (prompt messages one after the other).
    #[must_use]
    pub fn blocks(&self) -> Box<dyn Iterator<Item = &Block<'a>> + '_> {
        match self {
            Message::ToolResult(r) => Box::new(r.content.iter()),
            Message::Prompt(p) => Box::new(p.messages.iter().flat_map(|m| m.content.iter())),
            Message::Resource(blocks) | Message::Blocks(blocks) => Box::new(blocks.iter()),
            Message::RpcError(_) | Message::NoContent => Box::new(std::iter::empty()),
        }
    }
}

fn unrecognized() -> Error {
    Error::new(
        ErrorKind::UnrecognizedMessage,
        "unrecognized message: expected a JSON-RPC response, a tool, prompt or resource result, a content block or an array of blocks",
    )
}

/// The shapes a result (or a bare payload) may have; `None` where it has none of them.
fn decode_result(value: &Value) -> Option<Message<'_>> {
    let obj = value.as_object()?;
    if obj.get("type").is_some_and(Value::is_string) {
        return Some(Message::Blocks(vec![Block::decode(value)]));
    }
    if let Some(content) = obj.get("content") {
        let content = one_or_many(content);
        if obj.contains_key("role") && !obj.contains_key("structuredContent") {
            // A sampling message or result: `{role, content}`.
            return Some(Message::Blocks(content));
        }
        return Some(Message::ToolResult(tool_result(obj, content)));
    }
    if let Some(Value::Array(messages)) = obj.get("messages") {
        return Some(Message::Prompt(Prompt {
            description: obj.get("description").and_then(Value::as_str),
            messages: messages.iter().map(decode_prompt_message).collect(),
        }));
    }
    if let Some(Value::Array(contents)) = obj.get("contents") {
        return Some(Message::Resource(
            contents.iter().map(Block::decode_resource_contents).collect(),
        ));
    }
    if obj.contains_key("structuredContent") {
        // No `content` at all, but structured content: a tool result with no blocks.
        return Some(Message::ToolResult(tool_result(obj, Vec::new())));
    }
    if obj.contains_key("resultType") {
        // A result (2026-07-28 marks every result) that carries nothing to show.
        return Some(Message::NoContent);
    }
    None
}

fn tool_result<'a>(obj: &'a Map<String, Value>, content: Vec<Block<'a>>) -> ToolResult<'a> {
    ToolResult {
        content,
        structured_content: obj.get("structuredContent"),
        is_error: obj.get("isError").and_then(Value::as_bool).unwrap_or(false),
        result_type: obj.get("resultType").and_then(Value::as_str),
        meta: obj.get("_meta").and_then(Value::as_object),
    }
}

/// `content` that is one block or an array of blocks.
fn one_or_many(content: &Value) -> Vec<Block<'_>> {
    match content {
        Value::Array(items) => items.iter().map(Block::decode).collect(),
        one => vec![Block::decode(one)],
    }
}

fn decode_prompt_message(value: &Value) -> PromptMessage<'_> {
    let Some(obj) = value.as_object() else {
        return PromptMessage {
            role: None,
            content: vec![Block::bare(malformed(None, "prompt message is not an object"))],
        };
    };
    PromptMessage {
        role: obj.get("role").and_then(Value::as_str).map(Role::parse),
        content: match obj.get("content") {
            Some(content) => one_or_many(content),
            None => vec![Block::bare(malformed(None, "prompt message without content"))],
        },
    }
}

fn decode_rpc_error(value: &Value) -> RpcError<'_> {
    RpcError {
        code: value.get("code").and_then(Value::as_i64),
        message: value.get("message").and_then(Value::as_str).unwrap_or(""),
        data: value.get("data"),
    }
}
