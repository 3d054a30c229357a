//! One class as the agent's block: text, or media that passed the target's checks. Every
//! lane that hands the model blocks (convert, script, tool results, prompts) makes them here.

use std::borrow::Cow;
use std::cell::RefCell;

use serde_json::Value;

use crate::classify::{classify_block, BlobForm, Class, EmbeddedBlob};
use crate::media::check::{check, Checked, Claim};
use crate::media::target::Target;
use crate::reference::{write_id, ReferenceRegistry, Stubs};
use crate::render::{not_sent, show, Provenance};
use crate::wire::{Block, MediaKind};

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
        /// The media type the bytes show, as the checks name it.
        mime_type: &'static str,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
    /// Audio that passed the target's checks.
    Audio {
        /// The media type the bytes show, as the checks name it.
        mime_type: &'static str,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
    /// A document (a PDF) that passed the target's checks.
    Document {
        /// The media type, as the checks name it.
        mime_type: &'static str,
        /// The base64 data, without white space, padded.
        data: Cow<'a, str>,
    },
}

impl<'a> AgentBlock<'a> {
    /// A text block.
    ///
    /// ```
    /// assert_eq!(mcp_agent_view::AgentBlock::text("hi").as_text(), Some("hi"));
    /// ```
    #[must_use]
    pub fn text(text: impl Into<Cow<'a, str>>) -> Self {
        AgentBlock::Text { text: text.into() }
    }

    /// The same block, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> AgentBlock<'static> {
        self.map_strings(|s| Cow::Owned(s.into_owned()))
    }

    /// The same block, its text or data through `f`.
    pub(crate) fn map_strings<'b>(self, f: impl FnOnce(Cow<'a, str>) -> Cow<'b, str>) -> AgentBlock<'b> {
        match self {
            AgentBlock::Text { text } => AgentBlock::Text { text: f(text) },
            AgentBlock::Image { mime_type, data } => AgentBlock::Image {
                mime_type,
                data: f(data),
            },
            AgentBlock::Audio { mime_type, data } => AgentBlock::Audio {
                mime_type,
                data: f(data),
            },
            AgentBlock::Document { mime_type, data } => AgentBlock::Document {
                mime_type,
                data: f(data),
            },
        }
    }

    /// The block in the crate's neutral JSON.
    #[must_use]
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
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

/// One block converted, as [`convert`](crate::convert) converts each (its stubs registered at
/// once).
#[must_use]
pub(crate) fn convert_block<'a>(
    block: &'a Block<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentBlock<'a> {
    let mut stubs = Stubs::new(registry);
    let mut out = convert_class_deferred(classify_block(block), provenance, &mut stubs, target);
    if let AgentBlock::Text { text } = &mut out {
        registry.register_shown(&stubs, |at, id| write_id(text.to_mut(), at, id));
    }
    out
}

/// A class as its agent block, the ids of the stubs it writes left to `stubs` (at their places
/// in the text block it gives), for the lane to register when it knows it shows them.
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
            // A stub or a marker, written where there is room for any, then kept in a string
            // of its own size (a million links are a million of them).
            SCRATCH.with_borrow_mut(|scratch| {
                scratch.clear();
                show(&other, provenance, stubs, scratch);
                AgentBlock::Text {
                    text: Cow::Owned(scratch.as_str().to_owned()),
                }
            })
        }
    }
}

thread_local! {
    /// Where a stub or marker is written before it is kept.
    static SCRATCH: RefCell<String> = RefCell::new(String::with_capacity(512));
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
        Checked::Send { mime_type, data } => match claim {
            Claim::Image => AgentBlock::Image { mime_type, data },
            Claim::Audio => AgentBlock::Audio { mime_type, data },
            Claim::Pdf => AgentBlock::Document { mime_type, data },
        },
        Checked::NotSent(reason) => AgentBlock::Text {
            text: Cow::Owned(not_sent(label, declared, size, reason)),
        },
    }
}
