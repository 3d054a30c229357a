//! `convert_block`: one block in, one agent block out, for pushed events, channel messages and
//! context injections.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use crate::classify::{classify_block, BlobForm, Class, EmbeddedBlob};
use crate::reference::ReferenceRegistry;
use crate::render::{rpc_error, show, Provenance};
use crate::wire::{Block, MediaKind, Message};

/// A block as the agent reads it: text, or media it can see or hear.
///
/// Serializes to the crate's neutral JSON: `{"type":"text","text":…}`,
/// `{"type":"image","mimeType":…,"data":…}`, `{"type":"audio","mimeType":…,"data":…}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentBlock<'a> {
    /// Text.
    Text {
        /// The text.
        text: Cow<'a, str>,
    },
    /// An image, base64 as received.
    Image {
        /// The media type.
        mime_type: Cow<'a, str>,
        /// The base64 data.
        data: Cow<'a, str>,
    },
    /// Audio, base64 as received.
    Audio {
        /// The media type.
        mime_type: Cow<'a, str>,
        /// The base64 data.
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
        }
    }

    /// The block in the crate's neutral JSON.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let media = |kind: &str, mime_type: &str, data: &str| json!({"type": kind, "mimeType": mime_type, "data": data});
        match self {
            AgentBlock::Text { text } => json!({"type": "text", "text": text}),
            AgentBlock::Image { mime_type, data } => media("image", mime_type, data),
            AgentBlock::Audio { mime_type, data } => media("audio", mime_type, data),
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

impl Serialize for AgentBlock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

/// Converts one block into what the agent reads: inline and embedded images and audio as
/// media; every other block as a text block holding what the history lane shows for it. A
/// uri-form image is a reference (a stub), never a URL for the provider to fetch.
///
/// ```
/// use mcp_agent_view::{convert_block, AgentBlock, Block, Provenance, ReferenceRegistry};
///
/// let json = serde_json::json!({
///     "type": "resource",
///     "resource": {"uri": "file:///notes.txt", "text": "Quarterly notes: revenue up 4%."}
/// });
/// let registry = ReferenceRegistry::new();
/// let out = convert_block(&Block::decode(&json), Provenance::PushEvent, &registry);
/// assert_eq!(out.as_text(), Some("Quarterly notes: revenue up 4%."));
/// ```
#[must_use]
pub fn convert_block<'a>(
    block: &Block<'a>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
) -> AgentBlock<'a> {
    match classify_block(block) {
        Class::Text { text } | Class::EmbeddedText { text, .. } => AgentBlock::Text {
            text: Cow::Borrowed(text),
        },
        Class::Media(media) => media_block(media.kind, media.mime_type, media.data),
        Class::EmbeddedBlob(EmbeddedBlob {
            form: BlobForm::Text(text),
            ..
        }) => AgentBlock::Text {
            text: Cow::Owned(text),
        },
        Class::EmbeddedBlob(EmbeddedBlob {
            form: BlobForm::Media(kind),
            mime_type: Some(mime_type),
            data,
            ..
        }) => media_block(kind, mime_type, data),
        other => shown(&other, provenance, registry),
    }
}

/// Converts every block of a message, in order, as [`convert_block`] does. A JSON-RPC error
/// gives one text block, `[request failed: <message>]`.
#[must_use]
pub fn convert_message<'a>(
    message: &Message<'a>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
) -> Vec<AgentBlock<'a>> {
    if let Message::RpcError(error) = message {
        return vec![AgentBlock::Text {
            text: Cow::Owned(rpc_error(error)),
        }];
    }
    message
        .blocks()
        .map(|b| convert_block(b, provenance, registry))
        .collect()
}

fn media_block<'a>(kind: MediaKind, mime_type: &'a str, data: &'a str) -> AgentBlock<'a> {
    let (mime_type, data) = (Cow::Borrowed(mime_type), Cow::Borrowed(data));
    match kind {
        MediaKind::Image => AgentBlock::Image { mime_type, data },
        MediaKind::Audio => AgentBlock::Audio { mime_type, data },
    }
}

fn shown(
    class: &Class<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
) -> AgentBlock<'static> {
    let mut text = String::new();
    show(class, provenance, registry, &mut text);
    AgentBlock::Text {
        text: Cow::Owned(text),
    }
}
