//! `classify_block`: the one decision of what a block is. Every lane calls it; no lane looks at
//! a block's JSON itself.

use std::borrow::Cow;

use serde::Serialize;

mod beside;
mod summary;

pub(crate) use crate::wire::kinds::{self, BlockField, FieldSet, ObjectKeys};
pub(crate) use beside::{beside_blocks, Beside};
pub use summary::{summaries, summarize, Summary};

use crate::json::{as_u53, Reader};
use crate::text::{base64_decoded_len, cleaned_label, media_type_mentions_uri, mentions_uri, mime_label, type_label};
use crate::wire::{
    key_name, read_text, Block, BlockKind, Contents, EmbeddedBody, MediaBody, MediaKind, ReferenceFields, Role, Scalar,
};

/// What a block is for the agent.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Class<'a> {
    /// A `text` block.
    Text {
        /// The text, verbatim.
        text: &'a str,
    },
    /// Inline image or audio data.
    Media(InlineMedia<'a>),
    /// An embedded resource with text contents.
    EmbeddedText {
        /// The resource's media type, where it had one.
        mime_type: Option<&'a str>,
        /// The text, verbatim.
        text: &'a str,
    },
    /// An embedded resource with blob contents.
    EmbeddedBlob(EmbeddedBlob<'a>),
    /// A reference to content elsewhere: an MCPL bulk reference, a `resource_link`, or an image
    /// or audio block with a `uri` and no data.
    Reference(Reference<'a>),
    /// Inline data that claims a bulk disposition (a `uri` or `disposition` beside `data`):
    /// withheld, failing closed.
    Withheld {
        /// Image or audio.
        kind: MediaKind,
    },
    /// A block of a known type with a bad body.
    Invalid {
        /// The block's type, where it had one.
        type_name: Option<&'a str>,
        /// A short, fixed reason, e.g. `reference without string uri`.
        reason: &'static str,
    },
    /// A block whose type this crate does not know.
    Unsupported {
        /// The block's type, as it arrived.
        type_name: &'a str,
    },
}

impl Class<'_> {
    /// The class's name, as the `classify` lane of the CLI prints it: `text`, `media`,
    /// `embedded_text`, `embedded_blob`, `reference`, `withheld`, `invalid`, `unsupported`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Class::Text { .. } => "text",
            Class::Media(_) => "media",
            Class::EmbeddedText { .. } => "embedded_text",
            Class::EmbeddedBlob(_) => "embedded_blob",
            Class::Reference(_) => "reference",
            Class::Withheld { .. } => "withheld",
            Class::Invalid { .. } => "invalid",
            Class::Unsupported { .. } => "unsupported",
        }
    }

    /// Whether the agent reads this block as text, verbatim: a text block, an embedded text
    /// resource, or an embedded blob whose media type is textual and whose bytes are UTF-8.
    /// Every other class reads as media, a marker or a stub.
    #[must_use]
    pub fn is_text(&self) -> bool {
        matches!(
            self,
            Class::Text { .. }
                | Class::EmbeddedText { .. }
                | Class::EmbeddedBlob(EmbeddedBlob {
                    form: BlobForm::Text(_),
                    ..
                })
        )
    }

    /// What a host may want to log about this block: why it is invalid, unsupported or
    /// withheld, and which reference fields were rejected. Empty for a good block.
    #[must_use]
    pub fn warnings(&self) -> Vec<String> {
        match self {
            Class::Invalid { reason, .. } => vec![format!("invalid block: {reason}")],
            Class::Unsupported { type_name } => vec![format!(
                "unsupported block type: {}",
                type_label(type_name).as_deref().unwrap_or("unnamed")
            )],
            Class::Withheld { kind } => vec![format!(
                "{} block withheld: inline data claims a bulk disposition",
                kind.as_str()
            )],
            Class::Reference(r) => r
                .rejected
                .iter()
                .map(|f| format!("reference field {} dropped: {}", f.field, f.reason))
                .collect(),
            Class::EmbeddedBlob(EmbeddedBlob {
                form: BlobForm::NotText(reason),
                ..
            }) => vec![format!("textual blob shown as a marker: {reason}")],
            _ => Vec::new(),
        }
    }
}

/// Inline image or audio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlineMedia<'a> {
    /// Image or audio.
    pub kind: MediaKind,
    /// The declared media type, as received.
    pub mime_type: &'a str,
    /// The base64 data, as received.
    pub data: &'a [u8],
    /// The decoded size in bytes, from the data's length.
    pub size: u64,
}

/// An embedded resource's blob, and how it is to be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedBlob<'a> {
    /// The resource's media type, where it had one.
    pub mime_type: Option<&'a str>,
    /// The base64 blob, as received.
    pub data: &'a [u8],
    /// The decoded size in bytes, from the blob's length.
    pub size: u64,
    /// How the blob is shown.
    pub form: BlobForm,
}

/// How an embedded blob is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlobForm {
    /// As media (`image/*`, `audio/*`), or its marker where a lane shows no media.
    Media(MediaKind),
    /// As its text: the media type is textual and the bytes are UTF-8.
    Text(String),
    /// As a `[file: …]` marker with the reason it is not text (`not text: invalid UTF-8`,
    /// `not text: invalid base64`), though its media type is textual.
    NotText(&'static str),
    /// As a `[file: <mime>, <size>]` marker.
    File,
}

/// Where a reference came from on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceSource {
    /// `type: "resource"` with a top-level `uri` (MCPL, RFC-005).
    BulkResource,
    /// `type: "resource_link"`.
    ResourceLink,
    /// `type: "image"` or `"audio"` with a `uri` and no `data`.
    Media(MediaKind),
}

/// A reference's `disposition` (RFC-005).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    /// `never`: the content is never to be inlined into the context.
    Never,
    /// `ref`: the content is shown by reference.
    Ref,
}

/// A reference's fields, checked against RFC-005. The `uri` is here for the
/// [`ReferenceRegistry`](crate::ReferenceRegistry) and the host's fetcher only; no lane shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference<'a> {
    /// Where it came from.
    pub source: ReferenceSource,
    /// The uri: a non-empty string of at most 4096 characters.
    pub uri: &'a str,
    /// `name`, at most 255 characters.
    pub name: Option<&'a str>,
    /// `mimeType`, at most 255 characters.
    pub mime_type: Option<&'a str>,
    /// `sizeBytes` (`size` on a `resource_link`): an integer from 0 to 2^53−1, as claimed by
    /// the server.
    pub size_bytes: Option<u64>,
    /// `expiresAt` as claimed, in whatever shape (RFC 3339 in at most 64 characters, or
    /// anything else: a fetch refuses what it cannot read).
    pub expires_at: Option<&'a str>,
    /// `digest` as claimed, in whatever shape (`sha256:` and 43 base64url characters, or
    /// anything else: a fetch refuses what it cannot check).
    pub digest: Option<&'a str>,
    /// `disposition`.
    pub disposition: Option<Disposition>,
    /// Optional fields that were present but bad: dropped, but for the safety fields
    /// (`digest`, `expiresAt`), which are kept as claimed so that a fetch refuses them.
    pub rejected: Vec<RejectedField>,
}

/// An optional reference field that was dropped, and why; serialized `{"field", "reason"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RejectedField {
    /// The field's name on the wire.
    pub field: &'static str,
    /// Why it was dropped.
    pub reason: &'static str,
}

/// What an object met anywhere inside a JSON value is, for the lanes that walk any JSON (the
/// script lane, `structuredContent`): decided here, from which keys it has, like every other
/// decision about a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ObjectShape {
    /// A content block: its `type` is a block type and it has that type's identifying field
    /// (`text`; `data` or `uri`; `resource` or `uri`; `uri`).
    Block,
    /// A resource's contents, as a `resources/read` result holds them: no string `type`, a
    /// `uri` (of any JSON type) and one of `text`, `blob` or `mimeType` (of any JSON type).
    /// Read as an embedded resource: good ones show their text or a marker, bad ones an
    /// `[invalid …]` marker; the uri never shows.
    ResourceContents,
    /// Anything else: plain JSON, walked into.
    Plain,
}

/// Beside a `uri`, what makes an object with no `type` a resource's contents (any one of them).
const CONTENTS_BESIDE_URI: FieldSet = FieldSet::of(&[BlockField::Text, BlockField::Blob, BlockField::MimeType]);

/// What an object with these keys is. The script lane's and `structuredContent`'s one test of
/// an object inside any JSON.
pub(crate) fn object_shape(keys: &ObjectKeys<'_>) -> ObjectShape {
    match keys.type_name {
        Some(type_name) if is_block(type_name, keys.fields) => ObjectShape::Block,
        None if keys.fields.has(BlockField::Uri) && keys.fields.any(CONTENTS_BESIDE_URI) => {
            ObjectShape::ResourceContents
        }
        Some(_) | None => ObjectShape::Plain,
    }
}

/// Whether `block` is not for the model: its `annotations.audience` is present and leaves out
/// the assistant (`["user"]`, or roles this crate does not know). Every lane holds such a
/// block back from the model, for the host to show the user.
pub(crate) fn for_user_only(block: &Block<'_>) -> bool {
    block
        .annotations
        .as_ref()
        .and_then(|annotations| annotations.audience.as_ref())
        .is_some_and(|audience| !audience.contains(&Role::Assistant))
}

/// The text a text block or an embedded text resource shows (its class's text), where it is
/// borrowed from the input: the same string, for as long as the input lives.
pub(crate) fn lasting_text<'a>(block: &Block<'a>) -> Option<&'a str> {
    match &block.kind {
        BlockKind::Text {
            text: Cow::Borrowed(text),
        }
        | BlockKind::Embedded(EmbeddedBody {
            contents: Contents::Text(Cow::Borrowed(text)),
            ..
        }) => Some(text),
        _ => None,
    }
}

/// Whether `type_name` is a block type this crate knows.
pub(crate) fn is_block_type(type_name: &str) -> bool {
    kinds::is_block_type(type_name.as_bytes())
}

/// Whether an object of this `type` with these fields is a content block.
pub(crate) fn is_block(type_name: &str, fields: FieldSet) -> bool {
    kinds::Body::of(type_name.as_bytes()).is_some_and(|body| body.is_block(fields))
}

/// The longest uri a reference may have, in characters (RFC-005).
pub const URI_MAX_CHARS: usize = 4096;
const NAME_MAX_CHARS: usize = 255;
const MIME_MAX_CHARS: usize = 255;
const EXPIRES_MAX_CHARS: usize = 64;

/// Decides what `block` is for the agent. The one decision every lane shows.
///
/// ```
/// use mcp_agent_view::{classify_block, Block, Class};
///
/// let json = serde_json::json!({
///     "type": "resource",
///     "resource": {"uri": "file:///x.txt", "mimeType": "text/plain", "text": "body"}
/// });
/// let block = Block::decode(&json);
/// assert_eq!(
///     classify_block(&block),
///     Class::EmbeddedText { mime_type: Some("text/plain"), text: "body" }
/// );
/// ```
#[must_use]
pub fn classify_block<'a>(block: &'a Block<'_>) -> Class<'a> {
    match &block.kind {
        BlockKind::Text { text } => Class::Text { text },
        BlockKind::Media(media) => classify_media(media),
        BlockKind::Embedded(embedded) => classify_embedded(embedded),
        BlockKind::BulkReference(fields) => {
            reference(ReferenceSource::BulkResource, fields, "sizeBytes", Some("resource"))
        }
        BlockKind::ResourceLink(fields) => {
            reference(ReferenceSource::ResourceLink, fields, "size", Some("resource_link"))
        }
        BlockKind::Malformed { type_name, reason } => Class::Invalid {
            type_name: type_name.as_deref(),
            reason,
        },
        BlockKind::Unknown { type_name, raw } => Class::Unsupported {
            type_name: if unknown_type_repeats_uri(type_name, raw) {
                ""
            } else {
                type_name
            },
        },
    }
}

fn classify_media<'a>(media: &'a MediaBody<'_>) -> Class<'a> {
    let type_name = Some(media.kind.as_str());
    match &media.data {
        Some(_) if media.reference.as_ref().is_some_and(|r| r.uri.is_some()) || media.has_disposition => {
            Class::Withheld { kind: media.kind }
        }
        Some(data) => match data_url(data.as_bytes(), media.mime_type.as_deref()) {
            Some((mime_type, data)) => Class::Media(InlineMedia {
                kind: media.kind,
                mime_type,
                data,
                size: base64_decoded_len(data),
            }),
            None => Class::Invalid {
                type_name,
                reason: match media.kind {
                    MediaKind::Image => "image block without string mimeType",
                    MediaKind::Audio => "audio block without string mimeType",
                },
            },
        },
        None => reference(
            ReferenceSource::Media(media.kind),
            media.reference.as_deref().unwrap_or(&ReferenceFields::NONE),
            "sizeBytes",
            type_name,
        ),
    }
}

/// Media `data` and its media type: the data as it came, with the declared type; or, where the
/// data is a `data:` URL of base64 (some servers send one), the base64 inside it, with the
/// declared type, or the URL's where none is declared. A URL whose type is not the declared
/// one is taken as it came (and fails the base64 check). `None` where no type is known.
fn data_url<'a>(data: &'a [u8], declared: Option<&'a str>) -> Option<(&'a str, &'a [u8])> {
    let Some(rest) = data.strip_prefix(b"data:") else {
        return declared.map(|mime| (mime, data));
    };
    let marker = b";base64,";
    let Some(at) = rest.windows(marker.len()).position(|w| w.eq_ignore_ascii_case(marker)) else {
        return declared.map(|mime| (mime, data));
    };
    let url_type = std::str::from_utf8(&rest[..at]).ok()?;
    let url_essence = url_type.split(';').next().unwrap_or("").trim();
    let payload = &rest[at + marker.len()..];
    match declared {
        None if !url_essence.is_empty() => Some((url_essence, payload)),
        None => None,
        Some(mime) => {
            let essence = mime.split(';').next().unwrap_or("").trim();
            Some(if essence.eq_ignore_ascii_case(url_essence) {
                (mime, payload)
            } else {
                (mime, data)
            })
        }
    }
}

fn classify_embedded<'a>(embedded: &'a EmbeddedBody<'_>) -> Class<'a> {
    // A media type that repeats part of the resource's uri is no type to show.
    let declared = embedded.mime_type.as_deref().filter(|mime| {
        embedded
            .uri
            .as_deref()
            .is_none_or(|uri| shown_mime_keeps_uri_out(mime, uri))
    });
    match &embedded.contents {
        Contents::Text(text) => Class::EmbeddedText {
            mime_type: declared,
            text,
        },
        Contents::Blob(data) => {
            // A generic or missing type says nothing: the first bytes say what the blob is.
            let mime_type = if is_generic(declared) {
                crate::media::check::sniffed_type(data.as_bytes()).or(declared)
            } else {
                declared
            };
            Class::EmbeddedBlob(EmbeddedBlob {
                mime_type,
                data: data.as_bytes(),
                size: base64_decoded_len(data.as_bytes()),
                form: blob_form(mime_type, data.as_bytes()),
            })
        }
    }
}

/// Whether a declared media type says nothing of what the bytes are: none, empty, or one of
/// the generic binary types.
fn is_generic(mime_type: Option<&str>) -> bool {
    // The commonest types, at once.
    match mime_type {
        Some("application/octet-stream") | None => return true,
        Some(m) if m.starts_with("image/") || m.starts_with("text/") || m.starts_with("audio/") => return false,
        _ => {}
    }
    match mime_type.map(|m| m.split(';').next().unwrap_or("").trim()) {
        None | Some("") => true,
        Some(m) => [
            "application/octet-stream",
            "binary/octet-stream",
            "application/binary",
            "application/unknown",
            "application/x-binary",
        ]
        .iter()
        .any(|g| m.eq_ignore_ascii_case(g)),
    }
}

fn blob_form(mime_type: Option<&str>, data: &[u8]) -> BlobForm {
    // The commonest binary types need no parse.
    if let Some("application/octet-stream" | "application/gzip" | "application/zip" | "application/pdf") = mime_type {
        return BlobForm::File;
    }
    let Some(mime) = mime_type.and_then(|m| m.parse::<mime::Mime>().ok()) else {
        return BlobForm::File;
    };
    if is_textual(&mime) {
        return match crate::media::check::decode_base64(data) {
            None => BlobForm::NotText("not text: invalid base64"),
            Some(bytes) => match String::from_utf8(bytes) {
                Ok(text) => BlobForm::Text(text),
                Err(_) => BlobForm::NotText("not text: invalid UTF-8"),
            },
        };
    }
    match mime.type_() {
        mime::IMAGE => BlobForm::Media(MediaKind::Image),
        mime::AUDIO => BlobForm::Media(MediaKind::Audio),
        _ => BlobForm::File,
    }
}

/// `text/*`, JSON, XML, JavaScript, YAML and SVG, by type, subtype or `+json` / `+xml` suffix.
pub(crate) fn is_textual(mime: &mime::Mime) -> bool {
    if mime.type_() == mime::TEXT {
        return true;
    }
    if let Some(suffix) = mime.suffix() {
        if suffix == mime::JSON || suffix == mime::XML {
            return true;
        }
    }
    matches!(
        mime.essence_str(),
        "application/json" | "application/xml" | "application/javascript" | "application/yaml" | "image/svg+xml"
    )
}

fn reference<'a>(
    source: ReferenceSource,
    fields: &'a ReferenceFields<'_>,
    size_field: &'static str,
    type_name: Option<&'a str>,
) -> Class<'a> {
    let uri = match &fields.uri {
        Some(Scalar::Str(uri)) if !uri.is_empty() => &**uri,
        _ => {
            return Class::Invalid {
                type_name,
                reason: "reference without string uri",
            }
        }
    };
    if longer_than(uri, URI_MAX_CHARS) {
        return Class::Invalid {
            type_name,
            reason: "uri exceeds schema maximum",
        };
    }
    let mut rejected = Vec::new();
    // A label that repeats the uri, or any part of it a credential may be in, would carry it
    // to the model beside the stub that keeps it away.
    let name = optional(&mut rejected, "name", fields.name.as_ref(), |v| {
        bounded(v, NAME_MAX_CHARS).and_then(|name| keeps_uri_out(cleaned_label(name).as_deref(), name, uri))
    });
    let mime_type = optional(&mut rejected, "mimeType", fields.mime_type.as_ref(), |v| {
        bounded(v, MIME_MAX_CHARS).and_then(|mime| {
            if shown_mime_keeps_uri_out(mime, uri) {
                Ok(mime)
            } else {
                Err("holds part of the uri")
            }
        })
    });
    // The two safety fields are kept as claimed whatever their shape, so that a fetch refuses
    // what it cannot check rather than go ahead unchecked.
    let expires_at = safety_claim(&mut rejected, "expiresAt", fields.expires_at.as_ref(), |v| {
        (!longer_than(v, EXPIRES_MAX_CHARS))
            .then_some(())
            .ok_or("exceeds schema maximum: a fetch is refused")
    });
    let size_bytes = optional(&mut rejected, size_field, fields.size_bytes.as_ref(), |v| match v {
        Scalar::Number(n) => as_u53(n).ok_or("not an integer from 0 to 2^53-1"),
        _ => Err("not an integer from 0 to 2^53-1"),
    });
    let digest = safety_claim(&mut rejected, "digest", fields.digest.as_ref(), |v| {
        is_sha256_digest(v)
            .then_some(())
            .ok_or("not sha256: and 43 base64url characters: a fetch is refused")
    });
    let disposition = optional(&mut rejected, "disposition", fields.disposition.as_ref(), |v| {
        match v.as_str() {
            Some("never") => Ok(Disposition::Never),
            Some("ref") => Ok(Disposition::Ref),
            _ => Err("not never or ref"),
        }
    });
    Class::Reference(Reference {
        source,
        uri,
        name,
        mime_type,
        size_bytes,
        expires_at,
        digest,
        disposition,
        rejected,
    })
}

/// Whether an unknown block's type, as it would be shown, holds part of the block's own `uri`
/// (its raw JSON read for it): such a type is shown as unnamed.
fn unknown_type_repeats_uri(type_name: &str, raw: &str) -> bool {
    // Most unknown blocks have no uri at all.
    if memchr::memmem::find(raw.as_bytes(), b"uri").is_none() {
        return false;
    }
    let Some(shown) = crate::text::type_label(type_name) else {
        return false;
    };
    own_uri(raw).is_some_and(|uri| mentions_uri(&shown, &uri))
}

/// A block's own `uri` in its JSON text: the last `uri`'s value where it is a string, as
/// `serde_json` reads it.
fn own_uri(raw: &str) -> Option<Cow<'_, str>> {
    let mut r = Reader::new(raw.as_bytes());
    let mut seq = r.object().ok()?;
    let mut uri = None;
    while let Some(key) = r.next_key(&mut seq).ok()? {
        if &*key_name(&key) == b"uri" {
            uri = read_text(&mut r).ok()?;
        } else {
            r.skip().ok()?;
        }
    }
    uri
}

/// Whether what is shown of a claimed media type keeps `uri` out: a media type's essence by
/// the credential parts, anything else (shown as the server's testimony, cleaned as a label)
/// by the whole label rule.
fn shown_mime_keeps_uri_out(mime: &str, uri: &str) -> bool {
    match mime_label(mime) {
        Some(essence) => !media_type_mentions_uri(&essence, uri),
        None => cleaned_label(mime).is_none_or(|shown| !mentions_uri(&shown, uri)),
    }
}

/// `label` as it came, where what is shown of it (`shown`) holds no part of `uri`.
fn keeps_uri_out<'a>(shown: Option<&str>, label: &'a str, uri: &str) -> Result<&'a str, &'static str> {
    match shown {
        Some(shown) if mentions_uri(shown, uri) => Err("holds part of the uri"),
        _ => Ok(label),
    }
}

/// The longest a safety claim is kept, in characters: longer is no claim this crate can check
/// in any case, and the record stays small.
const CLAIM_MAX_CHARS: usize = 256;

/// A safety field (`digest`, `expiresAt`): absent or `null` is `None`; any other value is kept
/// as claimed (a string cut at [`CLAIM_MAX_CHARS`] characters, a number as written, `true`,
/// `false`, `[array or object]`), with a rejection where `check` fails on it or it is no
/// string, so that a fetch refuses it.
fn safety_claim<'a>(
    rejected: &mut Vec<RejectedField>,
    field: &'static str,
    value: Option<&'a Scalar<'a>>,
    check: impl FnOnce(&str) -> Result<(), &'static str>,
) -> Option<&'a str> {
    let claim: &'a str = match value? {
        Scalar::Null => return None,
        Scalar::Str(s) => s.char_indices().nth(CLAIM_MAX_CHARS).map_or(&**s, |(at, _)| &s[..at]),
        Scalar::Number(n) => n,
        Scalar::Bool(true) => "true",
        Scalar::Bool(false) => "false",
        _ => "[array or object]",
    };
    let string = matches!(value, Some(Scalar::Str(_)));
    let checked = if string {
        check(claim)
    } else {
        Err("not a string: a fetch is refused")
    };
    if let Err(reason) = checked {
        rejected.push(RejectedField { field, reason });
    }
    Some(claim)
}

/// An optional field: absent is `None`; present and bad is `None` and a rejection.
fn optional<'a, T>(
    rejected: &mut Vec<RejectedField>,
    field: &'static str,
    value: Option<&'a Scalar<'a>>,
    check: impl FnOnce(&'a Scalar<'a>) -> Result<T, &'static str>,
) -> Option<T> {
    match check(value?) {
        Ok(ok) => Some(ok),
        Err(reason) => {
            rejected.push(RejectedField { field, reason });
            None
        }
    }
}

fn bounded<'a>(value: &'a Scalar<'_>, max: usize) -> Result<&'a str, &'static str> {
    match value {
        Scalar::Str(s) if longer_than(s, max) => Err("exceeds schema maximum"),
        Scalar::Str(s) => Ok(s),
        _ => Err("not a string"),
    }
}

/// Whether `s` has more than `max` Unicode code points; reads at most `max + 1` of them.
fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().nth(max).is_some()
}

fn is_sha256_digest(d: &str) -> bool {
    d.strip_prefix("sha256:").is_some_and(|rest| {
        rest.len() == 43
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

#[cfg(test)]
mod tests {
    use super::own_uri;

    #[test]
    fn a_blocks_own_uri_is_its_last_uri_where_that_is_a_string() {
        let uri = |raw| own_uri(raw).map(std::borrow::Cow::into_owned);
        assert_eq!(uri(r#"{"type":"x","uri":"a://b"}"#).as_deref(), Some("a://b"));
        assert_eq!(uri(r#"{"uri":"a://b","name":"n"}"#).as_deref(), Some("a://b"));
        assert_eq!(uri(r#"{"uri":"a://b","\u0075ri":"c://d"}"#).as_deref(), Some("c://d"));
        assert_eq!(uri(r#"{"uri":"a://\u0062"}"#).as_deref(), Some("a://b"));
        for none in [
            r#"{"uri":"a://b","uri":1}"#,
            r#"{"inner":{"uri":"a://b"}}"#,
            r#"["uri","a://b"]"#,
            r#"{"uri":null}"#,
        ] {
            assert_eq!(uri(none), None, "{none}");
        }
    }
}
