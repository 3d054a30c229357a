//! `convert_block`: one block in, one agent block out, for pushed events, channel messages and
//! context injections.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use crate::classify::{classify_block, for_user_only, BlobForm, Class, EmbeddedBlob};
use crate::reference::{ReferenceRegistry, Stubs};
use crate::render::{not_sent, rpc_error, show, Provenance};
use crate::target::check::{check, Checked, Claim};
use crate::target::Target;
use crate::tool_result::{beside_blocks, TOOL_ERROR_LINE};
use crate::wire::{Block, MediaKind, Message};

/// A block as the agent reads it: text, or media it can see, hear or read.
///
/// Serializes to the crate's neutral JSON: `{"type":"text","text":…}`,
/// `{"type":"image","mimeType":…,"data":…}`, `{"type":"audio","mimeType":…,"data":…}`,
/// `{"type":"document","mimeType":…,"data":…}`. [`Target::blocks_json`] gives each provider's
/// shape.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentBlock<'a> {
    /// Text.
    Text {
        /// The text.
        text: Cow<'a, str>,
    },
    /// An image that passed the target's checks.
    Image {
        /// The media type the bytes show.
        mime_type: Cow<'a, str>,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
    /// Audio that passed the target's checks.
    Audio {
        /// The media type the bytes show.
        mime_type: Cow<'a, str>,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
    /// A document (a PDF) that passed the target's checks.
    Document {
        /// The media type.
        mime_type: Cow<'a, str>,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
}

impl AgentBlock<'_> {
    /// The same block, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> AgentBlock<'static> {
        let own = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        match self {
            AgentBlock::Text { text } => AgentBlock::Text { text: own(text) },
            AgentBlock::Image { mime_type, data } => AgentBlock::Image {
                mime_type: own(mime_type),
                data: own(data),
            },
            AgentBlock::Audio { mime_type, data } => AgentBlock::Audio {
                mime_type: own(mime_type),
                data: own(data),
            },
            AgentBlock::Document { mime_type, data } => AgentBlock::Document {
                mime_type: own(mime_type),
                data: own(data),
            },
        }
    }

    /// The block in the crate's neutral JSON.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            AgentBlock::Text { text } => json!({"type": "text", "text": text}),
            AgentBlock::Image { mime_type, data } => media_json("image", mime_type, data),
            AgentBlock::Audio { mime_type, data } => media_json("audio", mime_type, data),
            AgentBlock::Document { mime_type, data } => media_json("document", mime_type, data),
        }
    }

    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self {
            AgentBlock::Text { text } => Some(text),
            _ => None,
        }
    }
}

fn media_json(kind: &str, mime_type: &str, data: &str) -> Value {
    json!({"type": kind, "mimeType": mime_type, "data": data})
}

impl Serialize for AgentBlock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

/// Converts one block into what the agent reads: inline and embedded images and audio, and
/// PDFs, as media where they pass the `target`'s checks (else their marker with the reason);
/// every other block as a text block holding what the history lane shows for it. A uri-form
/// image is a reference (a stub), never a URL for the provider to fetch.
///
/// ```
/// use mcp_agent_view::{convert_block, AgentBlock, Block, Provenance, ReferenceRegistry, Target};
///
/// let json = serde_json::json!({
///     "type": "resource",
///     "resource": {"uri": "file:///notes.txt", "text": "Quarterly notes: revenue up 4%."}
/// });
/// let registry = ReferenceRegistry::new();
/// let block = Block::decode(&json);
/// let out = convert_block(&block, Provenance::PushEvent, &registry, &Target::anthropic());
/// assert_eq!(out.as_text(), Some("Quarterly notes: revenue up 4%."));
/// ```
#[must_use]
pub fn convert_block<'a>(
    block: &'a Block<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentBlock<'a> {
    convert_class(classify_block(block), provenance, registry, target)
}

/// [`convert_block`] of a block already classified.
fn convert_class<'a>(
    class: Class<'a>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentBlock<'a> {
    let mut stubs = Stubs::new(registry);
    let mut out = convert_class_deferred(class, provenance, &mut stubs, target);
    if let AgentBlock::Text { text } = &mut out {
        registry.register_shown(&stubs, |at, id| text.to_mut().replace_range(at..at + id.len(), id));
    }
    out
}

/// [`convert_class`], the ids of the stubs it writes left to `stubs` (at their places in the
/// text block it gives).
pub(crate) fn convert_class_deferred<'a>(
    class: Class<'a>,
    provenance: Provenance,
    stubs: &mut Stubs<'_>,
    target: &Target,
) -> AgentBlock<'a> {
    match class {
        Class::Text { text } | Class::EmbeddedText { text, .. } => AgentBlock::Text {
            text: Cow::Borrowed(text),
        },
        Class::Media(m) => media_out(
            m.kind.into(),
            m.kind.as_str(),
            Some(m.mime_type),
            m.data,
            m.size,
            target,
        ),
        Class::EmbeddedBlob(EmbeddedBlob {
            form: BlobForm::Text(text),
            ..
        }) => AgentBlock::Text { text: Cow::Owned(text) },
        Class::EmbeddedBlob(EmbeddedBlob {
            form: BlobForm::Media(kind),
            mime_type,
            data,
            size,
        }) => media_out(kind.into(), kind.as_str(), mime_type, data, size, target),
        Class::EmbeddedBlob(blob) if target.pdf && blob.form == BlobForm::File && is_pdf(blob.mime_type) => {
            media_out(Claim::Pdf, "file", blob.mime_type, blob.data, blob.size, target)
        }
        other => {
            // A stub or a marker: room for most at once.
            let mut text = String::with_capacity(128);
            show(&other, provenance, stubs, &mut text);
            AgentBlock::Text { text: Cow::Owned(text) }
        }
    }
}

/// Every block of a message, converted: what goes to the model, and what is held back for the
/// user.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Converted<'a> {
    /// The agent blocks the model reads, in order.
    pub content: Vec<AgentBlock<'a>>,
    /// The agent blocks of the blocks whose `annotations.audience` leaves out the assistant:
    /// held back from the model, for the host to show the user (as `tool_result` does).
    pub held_for_user: Vec<AgentBlock<'a>>,
}

/// Converts every block of a message, in order, as [`convert_block`] does: one agent block
/// for each, in [`Converted::content`], or, for a block for the user only, in
/// [`Converted::held_for_user`]. A tool result (or an event payload of its shape) tells the
/// model what [`tool_result`](crate::tool_result) tells it: `[tool error]` first where it has
/// `isError: true`, its `structuredContent` where no text block is left, and
/// `[output displayed to user]` or `[tool returned no content]` rather than nothing. A
/// JSON-RPC error gives one text block, `[request failed: error <code>: <message>]`.
///
/// ```
/// use mcp_agent_view::{convert_message, Message, Provenance, ReferenceRegistry, Target};
///
/// let json = serde_json::json!({"content": [
///     {"type": "text", "text": "for the model"},
///     {"type": "text", "text": "for the user", "annotations": {"audience": ["user"]}}
/// ]});
/// let message = Message::decode(&json)?;
/// let converted = convert_message(&message, Provenance::PushEvent, &ReferenceRegistry::new(), &Target::anthropic());
/// assert_eq!(converted.content[0].as_text(), Some("for the model"));
/// assert_eq!(converted.held_for_user[0].as_text(), Some("for the user"));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn convert_message<'a>(
    message: &'a Message<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Converted<'a> {
    if let Message::RpcError(error) = message {
        return Converted {
            content: vec![AgentBlock::Text {
                text: Cow::Owned(rpc_error(error)),
            }],
            held_for_user: Vec::new(),
        };
    }
    let mut converted = converted_blocks(message, provenance, registry, target, false);
    if let Message::ToolResult(result) = message {
        if result.is_error {
            converted.content.insert(
                0,
                AgentBlock::Text {
                    text: Cow::Borrowed(TOOL_ERROR_LINE),
                },
            );
        }
    }
    converted
}

/// Every block of `message` converted, in order, those for the model apart from those for the
/// user only; after them, for a tool result, its structured content where no text block is
/// left, or the line that says why nothing is (what every lane tells the model). The
/// tool-result lane reads every message as a tool result (`tool_result`).
pub(crate) fn converted_blocks<'a>(
    message: &'a Message<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
    tool_result: bool,
) -> Converted<'a> {
    let mut content = Vec::with_capacity(message.blocks().count() + 1);
    let mut held_for_user = Vec::new();
    let mut has_text = false;
    for block in message.blocks() {
        let class = classify_block(block);
        if for_user_only(block) {
            held_for_user.push(convert_class(class, provenance, registry, target));
        } else {
            has_text |= matches!(class, Class::Text { .. });
            content.push(convert_class(class, provenance, registry, target));
        }
    }
    let structured = match message {
        Message::ToolResult(result) => Some(result.structured_content.as_deref()),
        _ if tool_result => Some(None),
        _ => None,
    };
    if let Some(structured) = structured {
        if let Some((mut beside, stubs)) =
            beside_blocks(structured, content.len(), has_text, held_for_user.len(), registry)
        {
            registry.register_shown(&stubs, |at, id| beside.replace_range(at..at + id.len(), id));
            content.push(AgentBlock::Text {
                text: Cow::Owned(beside),
            });
        }
    }
    Converted { content, held_for_user }
}

impl From<MediaKind> for Claim {
    fn from(kind: MediaKind) -> Self {
        match kind {
            MediaKind::Image => Claim::Image,
            MediaKind::Audio => Claim::Audio,
        }
    }
}

fn is_pdf(mime_type: Option<&str>) -> bool {
    // The commonest types need no parse.
    match mime_type {
        Some("application/pdf") => true,
        Some("application/octet-stream" | "application/gzip" | "application/zip") | None => false,
        Some(m) => m
            .parse::<mime::Mime>()
            .is_ok_and(|m| m.essence_str() == "application/pdf"),
    }
}

/// Media as media where it passes the target's checks, else its marker with the reason.
fn media_out<'a>(
    claim: Claim,
    label: &str,
    declared: Option<&str>,
    data: &'a [u8],
    size: u64,
    target: &Target,
) -> AgentBlock<'a> {
    match check(claim, declared, data, target) {
        Checked::Send { mime_type, data } => {
            let mime_type = Cow::Borrowed(mime_type);
            match claim {
                Claim::Image => AgentBlock::Image { mime_type, data },
                Claim::Audio => AgentBlock::Audio { mime_type, data },
                Claim::Pdf => AgentBlock::Document { mime_type, data },
            }
        }
        Checked::NotSent(reason) => AgentBlock::Text {
            text: Cow::Owned(not_sent(label, declared, size, reason)),
        },
    }
}
