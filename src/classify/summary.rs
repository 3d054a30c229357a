//! Every block's class and the fields that decided it, as the `classify` lane gives them:
//! [`Summary`], built from a [`Class`] with no `Value`, and [`summarize`], one a block as the
//! walk reads it.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use super::{classify_block, BlobForm, Class, Disposition, ReferenceSource, RejectedField};
use crate::text::{clean_label, mime_label, type_label};
use crate::wire::Block;

impl Class<'_> {
    /// The class and the fields that decided it, as JSON, for diagnostics (the CLI's
    /// `classify` lane). Labels are cleaned and cut; the uri is left out. A `Value` of
    /// [`Class::summary_view`].
    #[must_use]
    pub fn summary(&self) -> Value {
        serde_json::to_value(self.summary_view()).unwrap_or(Value::Null)
    }

    /// [`Class::summary`] as a typed value to serialize (or to hand a binding), built with no
    /// `Value`: its JSON keys are written sorted, as a `Value` writes them.
    #[must_use]
    pub fn summary_view(&self) -> Summary<'_> {
        fn mime(s: Option<&str>) -> Field<Cow<'_, str>> {
            Field::Written(s.and_then(mime_label))
        }
        let label = |s: Option<&str>| Field::Written(s.and_then(clean_label));
        let mut out = Summary {
            class: self.name(),
            ..Summary::default()
        };
        match self {
            Class::Text { text } => out.chars = Some(text.chars().count()),
            Class::Media(m) => {
                out.kind = Some(m.kind.as_str());
                out.mime_type = mime(Some(m.mime_type));
                out.size_bytes = Field::Written(Some(m.size));
            }
            Class::EmbeddedText { mime_type, text } => {
                out.mime_type = mime(*mime_type);
                out.chars = Some(text.chars().count());
            }
            Class::EmbeddedBlob(b) => {
                out.mime_type = mime(b.mime_type);
                out.size_bytes = Field::Written(Some(b.size));
                out.shown_as = Some(match &b.form {
                    BlobForm::Media(kind) => kind.as_str(),
                    BlobForm::Text(_) => "text",
                    BlobForm::NotText(reason) => reason,
                    BlobForm::File => "file",
                });
            }
            Class::Reference(r) => {
                out.source = Some(match r.source {
                    ReferenceSource::BulkResource => "resource",
                    ReferenceSource::ResourceLink => "resource_link",
                    ReferenceSource::Media(kind) => kind.as_str(),
                });
                out.name = label(r.name);
                out.mime_type = mime(r.mime_type);
                out.size_bytes = Field::Written(r.size_bytes);
                out.disposition = Field::Written(r.disposition.map(|d| match d {
                    Disposition::Never => "never",
                    Disposition::Ref => "ref",
                }));
                out.rejected = Some(&r.rejected);
            }
            Class::Withheld { kind } => out.kind = Some(kind.as_str()),
            Class::Invalid { type_name, reason } => {
                out.type_name = Field::Written(type_name.and_then(type_label));
                out.reason = Some(reason);
            }
            Class::Unsupported { type_name } => out.type_name = Field::Written(type_label(type_name)),
        }
        out
    }
}

/// A block's class and the fields that decided it: [`Class::summary_view`], and what
/// [`summarize`] gives each block. It serializes as the CLI's `classify` lane prints a block:
/// `class`, then the fields of that class (`chars`; `kind`, `mimeType`, `sizeBytes`;
/// `shownAs`; `source`, `name`, `disposition`, `rejected`; `type`, `reason`), and `index`
/// where [`summarize`] gives one; labels cleaned and cut, never a uri.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary<'a> {
    // Each field is written where its class has it, `null` (a `Field`) where the block had no
    // such value; the fields in the order of their names.
    #[serde(skip_serializing_if = "Option::is_none")]
    chars: Option<usize>,
    class: &'static str,
    #[serde(skip_serializing_if = "Field::is_absent")]
    disposition: Field<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Field::is_absent")]
    mime_type: Field<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Field::is_absent")]
    name: Field<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejected: Option<&'a [RejectedField]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shown_as: Option<&'static str>,
    #[serde(skip_serializing_if = "Field::is_absent")]
    size_bytes: Field<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'static str>,
    #[serde(rename = "type", skip_serializing_if = "Field::is_absent")]
    type_name: Field<String>,
}

/// A field of a [`Summary`] that may be `null`: not written (its class has no such field), or
/// written, `null` where the block had no such value.
#[derive(Clone, Debug, Default, PartialEq)]
enum Field<T> {
    #[default]
    Absent,
    Written(Option<T>),
}

impl<T> Field<T> {
    fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }
}

impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Absent | Field::Written(None) => s.serialize_none(),
            Field::Written(Some(value)) => value.serialize(s),
        }
    }
}

impl Summary<'_> {
    /// The block's place among the message's blocks, from 0, where [`summarize`] gave it.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// The class's name ([`Class::name`]).
    #[must_use]
    pub fn class(&self) -> &'static str {
        self.class
    }
}

/// Every block of a message, classified, in order: `each` is given each block's
/// [`Summary`], its `index` set, as the block is read. What the packages build their
/// `classify` objects from, and [`summaries`] its lines.
///
/// `input` is JSON (bytes, text, a `Value`) or a decoded message or blocks; from bytes each
/// block is classified where it is read, in one pass, and nothing is kept of it.
///
/// ```
/// let mut classes = Vec::new();
/// mcp_agent_view::classify::summarize(br#"[{"type":"text","text":"hi"},{"type":"x"}]"#, |s| {
///     classes.push((s.index(), s.class()));
/// })?;
/// assert_eq!(classes, [(Some(0), "text"), (Some(1), "unsupported")]);
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn summarize<'a>(
    input: impl crate::input::Input<'a>,
    each: impl FnMut(Summary<'_>),
) -> Result<(), crate::error::Error> {
    use crate::input::{JsonSource, Source};
    let mut sink = Each { each, count: 0 };
    match input.source() {
        // Each summary is handed on as it is made, so the walk decides each object before it
        // reports anything of it: nothing handed on is ever taken back.
        Source::Json(JsonSource::Bytes(bytes)) => {
            crate::wire::walk_decided(bytes, &mut sink)?;
        }
        Source::Json(JsonSource::Value(value)) => {
            crate::wire::walk_decided(&crate::wire::json_of(value)?, &mut sink)?;
        }
        Source::Message(message) => message.blocks().for_each(|block| sink.add(block)),
        Source::Blocks(blocks) => blocks.iter().for_each(|block| sink.add(block)),
    }
    Ok(())
}

/// [`summarize`]'s summaries as the CLI's `classify` lane prints them: one line of JSON a
/// block.
///
/// ```
/// let lines = mcp_agent_view::classify::summaries(br#"[{"type":"text","text":"hi"}]"#)?;
/// assert_eq!(lines, "{\"chars\":2,\"class\":\"text\",\"index\":0}\n");
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn summaries<'a>(input: impl crate::input::Input<'a>) -> Result<String, crate::error::Error> {
    let mut out = Vec::new();
    summarize(input, |summary| {
        // A summary holds strings, numbers and `null`s only; writing it to memory cannot fail.
        if serde_json::to_writer(&mut out, &summary).is_ok() {
            out.push(b'\n');
        }
    })?;
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// [`summarize`]'s sink: each block's summary, numbered, handed on as the walk reads it.
struct Each<F> {
    each: F,
    count: usize,
}

impl<F: FnMut(Summary<'_>)> Each<F> {
    fn add(&mut self, block: &Block<'_>) {
        let class = classify_block(block);
        let mut summary = class.summary_view();
        summary.index = Some(self.count);
        self.count += 1;
        (self.each)(summary);
    }
}

impl<'a, F: FnMut(Summary<'_>)> crate::wire::Sink<'a> for Each<F> {
    fn block(&mut self, block: Block<'a>) {
        self.add(&block);
    }
}
