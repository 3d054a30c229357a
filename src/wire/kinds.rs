//! Every block type this crate knows, in one table (`block_types!`: its name, its body and
//! the fields that identify it), every field a block's reader takes, in another
//! (`block_fields!`: its name, how its value is read and where it is kept), and what a
//! block's body is, decided from the fields the wire room read.
//!
//! The wire room only reads: the fields of an object into [`Fields`] (by their names) and, for
//! the common types written type first, the same fields by a faster reader. Whether those
//! fields make a text, media, an embedded resource, a bulk reference or a link, which wins
//! where they conflict, and the reason a bad one is malformed are decided here, once, for both
//! readers. This room reads no bytes and imports nothing of the wire room's.
//!
//! Adding a block type: a line in `block_types!` (which makes `Body::of`, `Body::name` and
//! `Body::identified_by`) and its arm in [`Body::kind`] (and, where its body is new, a
//! [`BlockKind`] variant with its arms in [`BlockKind::into_owned`] and
//! [`BlockKind::type_name`]); a field no block had before, a line in `block_fields!` and its
//! place in [`Fields`]; then its class in `classify_block` and its text in `render`. The wire
//! room reads a type it has no fast reader for with every field (through
//! [`BlockField::read`]), the script lane tells a block by the fields the table names, and
//! every lane shows classes, not types.

// The kinds are built where a block is read, where the build is optimized: called, the kinds
// they return went through memory (see the wire room).
#![allow(clippy::inline_always)]

use std::borrow::Cow;

/// The block types, once: each type's name on the wire and what its body is. Everything that
/// names a type (the readers, [`is_block`](crate::classify::is_block), a block's type name) reads it
/// through [`Body::of`] and [`Body::name`], which this makes from the one list, each name
/// written once (as `http` writes its standard headers).
macro_rules! block_types {
    ($($name:literal => $variant:ident $(($arg:path))? by [$($key:ident),+],)+) => {
        /// The block types as a list, for the tests that hold every type to both lookups.
        #[cfg(test)]
        pub(crate) const BLOCK_TYPES: [(&str, Body); [$($name),+].len()] = [$(($name, Body::$variant $(($arg))?)),+];

        impl Body {
            /// The body of the type named `name`, where it is a type this crate knows.
            #[inline]
            pub(crate) fn of(name: &[u8]) -> Option<Body> {
                $(if name == $name.as_bytes() {
                    return Some(Body::$variant $(($arg))?);
                })+
                None
            }

            /// The type's name on the wire.
            #[inline]
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Body::$variant $(($arg))? => $name,)+
                }
            }

            /// The fields that make an object of this type one of its blocks, any one of
            /// them (and not, say, data with a `type` field of its own).
            #[inline]
            pub(crate) fn identified_by(self) -> FieldSet {
                match self {
                    $(Body::$variant $(($arg))? => FieldSet::of(&[$(BlockField::$key),+]),)+
                }
            }
        }
    };
}

block_types! {
    "text" => Text by [Text],
    "image" => Media(MediaKind::Image) by [Data, Uri],
    "audio" => Media(MediaKind::Audio) by [Data, Uri],
    "resource" => Resource by [Resource, Uri],
    "resource_link" => ResourceLink by [Uri],
}

/// Every field a block's reader takes, once: its name on the wire, how its value is read (a
/// [`FieldSource`] method) and where it is kept in [`Fields`]. The readers, the script lane's
/// test of an object's keys and [`BlockField::of`] read this list and no other.
macro_rules! block_fields {
    ($($name:literal => $field:ident: $read:ident $(=> |$f:ident, $v:ident| $keep:expr)?;)+) => {
        /// A field a block's reader takes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum BlockField {
            $(
                #[doc = stringify!($name)]
                $field,
            )+
        }

        // A `FieldSet` has a bit a field.
        const _: () = assert!([$(stringify!($field)),+].len() <= 32, "a FieldSet holds 32 fields");

        /// Every field, for the tests that hold each to its name.
        #[cfg(test)]
        pub(crate) const BLOCK_FIELDS: [(&[u8], BlockField); [$(stringify!($field)),+].len()] = [$(($name as &[u8], BlockField::$field)),+];

        impl BlockField {
            /// The field named `name`, where a block's reader takes one of that name.
            #[inline]
            pub(crate) fn of(name: &[u8]) -> Option<BlockField> {
                match name {
                    $($name => Some(BlockField::$field),)+
                    _ => None,
                }
            }

            /// Reads this field's value from `source` into its place in `f`, and notes that
            /// the block had it. Inlined: where the field is known, only its arm is left.
            #[cfg_attr(not(debug_assertions), inline(always))]
            pub(crate) fn read<'a, S: FieldSource<'a>>(self, source: &mut S, f: &mut Fields<'a>) -> Result<(), S::Error> {
                f.seen.insert(self);
                match self {
                    $(BlockField::$field => block_fields!(@read source, f, $read $(, |$f, $v| $keep)?),)+
                }
                Ok(())
            }
        }
    };
    (@read $source:ident, $fields:ident, $read:ident) => {
        $source.$read()?
    };
    (@read $source:ident, $fields:ident, $read:ident, |$f:ident, $v:ident| $keep:expr) => {{
        let $v = $source.$read()?;
        let $f = &mut *$fields;
        $keep;
    }};
}

block_fields! {
    b"type" => Type: scalar => |f, v| f.type_name = Some(v);
    b"text" => Text: scalar => |f, v| f.text = Some(v);
    b"data" => Data: base64 => |f, v| f.data = Some(v);
    b"mimeType" => MimeType: scalar => |f, v| f.mime_type = Some(v);
    b"resource" => Resource: resource => |f, v| f.resource = Some(v);
    b"uri" => Uri: scalar => |f, v| f.reference().uri = Some(v);
    b"name" => Name: scalar => |f, v| f.reference().name = Some(v);
    b"sizeBytes" => SizeBytes: scalar => |f, v| f.reference().size_bytes = Some(v);
    b"size" => Size: scalar => |f, v| f.size = Some(v);
    b"expiresAt" => ExpiresAt: scalar => |f, v| f.reference().expires_at = Some(v);
    b"digest" => Digest: scalar => |f, v| f.reference().digest = Some(v);
    b"disposition" => Disposition: scalar => |f, v| f.reference().disposition = Some(v);
    // Kept beside the kind, by the block reader itself.
    b"annotations" => Annotations: skip;
    b"_meta" => Meta: skip;
    // Read by no kind; named so that a link as the everything server writes it, and a
    // resource's contents, are told by their keys.
    b"description" => Description: skip;
    b"blob" => Blob: skip;
}

/// Where a block's fields are read from: the wire room's reader. Each method reads the next
/// value as one of the shapes a field's value is kept in.
pub(crate) trait FieldSource<'a> {
    type Error;
    /// Any value, as a [`Scalar`].
    fn scalar(&mut self) -> Result<Scalar<'a>, Self::Error>;
    /// A base64 string (bad where it is no string).
    fn base64(&mut self) -> Result<Field<Base64<'a>>, Self::Error>;
    /// An embedded resource's object: its kind, or `Err` where it is no object.
    fn resource(&mut self) -> Result<Result<BlockKind<'a>, ()>, Self::Error>;
    /// The value, skipped.
    fn skip(&mut self) -> Result<(), Self::Error>;
}

/// A set of [`BlockField`]s: those an object had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FieldSet(u32);

impl FieldSet {
    /// The set of `fields`.
    pub(crate) const fn of(fields: &[BlockField]) -> FieldSet {
        let mut set = 0;
        let mut i = 0;
        while i < fields.len() {
            set |= 1 << fields[i] as u32;
            i += 1;
        }
        FieldSet(set)
    }

    pub(crate) fn insert(&mut self, field: BlockField) {
        self.0 |= 1 << field as u32;
    }

    pub(crate) fn has(self, field: BlockField) -> bool {
        self.0 & (1 << field as u32) != 0
    }

    /// Whether any field of `other` is in this set.
    pub(crate) fn any(self, other: FieldSet) -> bool {
        self.0 & other.0 != 0
    }
}

/// What the body of a block of a known type is, as `BLOCK_TYPES` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// A string `text`.
    Text,
    /// Inline base64 `data`, or an MCPL `uri`.
    Media(MediaKind),
    /// A nested `resource` object (MCP), or a top-level `uri` (an MCPL bulk reference).
    Resource,
    /// A link's `uri`, `name`, `mimeType` and `size`.
    ResourceLink,
}

impl Body {
    /// Whether an object of this type with these keys is one of its blocks (and not, say,
    /// data with a `type` field of its own): it has a field [`Body::identified_by`] names.
    pub(crate) fn is_block(self, fields: FieldSet) -> bool {
        fields.any(self.identified_by())
    }

    /// The kind of a block of this type with these fields.
    pub(crate) fn kind<'a>(self, f: &mut Fields<'a>) -> BlockKind<'a> {
        match self {
            Body::Text => text_kind(f.text.take()),
            Body::Media(kind) => {
                let mime = f.mime_type.take();
                let reference = f.reference.take().map(|mut fields| {
                    fields.mime_type.clone_from(&mime);
                    fields
                });
                let mime_type = match mime {
                    Some(Scalar::Str(s)) => Some(s),
                    _ => None,
                };
                let data = f.data.take().unwrap_or_default();
                let (uri, disposition) = (f.seen.has(BlockField::Uri), f.seen.has(BlockField::Disposition));
                media_kind(kind, data, mime_type, uri, disposition, reference)
            }
            Body::Resource => {
                let resource = f.resource.take();
                // An MCP embedded resource wins over a stray top-level uri; a uri without one
                // is an MCPL bulk reference.
                if f.seen.has(BlockField::Uri) && !matches!(resource, Some(Ok(_))) {
                    BlockKind::BulkReference(f.take_reference())
                } else {
                    embedded_kind(resource)
                }
            }
            Body::ResourceLink => {
                let mut fields = f.take_reference();
                fields.size_bytes = f.size.take();
                BlockKind::ResourceLink(fields)
            }
        }
    }
}

/// The body of a [`Block`](crate::Block), by its `type`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BlockKind<'a> {
    /// `type: "text"` with a string `text`.
    Text {
        /// The text, as sent.
        text: Cow<'a, str>,
    },
    /// `type: "image"` or `type: "audio"`: inline data, or an MCPL uri.
    Media(MediaBody<'a>),
    /// `type: "resource"` with a nested `resource` object: an MCP embedded resource.
    Embedded(EmbeddedBody<'a>),
    /// `type: "resource"` with a top-level `uri`: an MCPL bulk reference (RFC-005).
    BulkReference(Box<ReferenceFields<'a>>),
    /// `type: "resource_link"`.
    ResourceLink(Box<ReferenceFields<'a>>),
    /// A block of a known type whose body is bad, or a block that is no object or has no type.
    Malformed {
        /// The block's `type`, where it had a string one.
        type_name: Option<Cow<'a, str>>,
        /// A short, fixed reason.
        reason: &'static str,
    },
    /// A block whose `type` this crate does not know. Kept verbatim.
    Unknown {
        /// The block's `type`.
        type_name: Cow<'a, str>,
        /// The whole block, as JSON text.
        raw: Cow<'a, str>,
    },
}

impl BlockKind<'_> {
    /// The block's `type` on the wire, where it had a string one.
    #[must_use]
    pub fn type_name(&self) -> Option<&str> {
        match self {
            BlockKind::Text { .. } => Some(Body::Text.name()),
            BlockKind::Media(m) => Some(m.kind.as_str()),
            BlockKind::Embedded(_) | BlockKind::BulkReference(_) => Some(Body::Resource.name()),
            BlockKind::ResourceLink(_) => Some(Body::ResourceLink.name()),
            BlockKind::Malformed { type_name, .. } => type_name.as_deref(),
            BlockKind::Unknown { type_name, .. } => Some(type_name),
        }
    }

    /// The same kind, owning its strings.
    #[must_use]
    pub fn into_owned(self) -> BlockKind<'static> {
        match self {
            BlockKind::Text { text } => BlockKind::Text { text: own(text) },
            BlockKind::Media(m) => BlockKind::Media(MediaBody {
                kind: m.kind,
                data: m.data.map(|d| Base64(own(d.0))),
                mime_type: own_opt(m.mime_type),
                has_disposition: m.has_disposition,
                reference: m.reference.map(|r| Box::new(r.into_owned())),
            }),
            BlockKind::Embedded(e) => BlockKind::Embedded(EmbeddedBody {
                uri: own_opt(e.uri),
                mime_type: own_opt(e.mime_type),
                contents: match e.contents {
                    Contents::Text(t) => Contents::Text(own(t)),
                    Contents::Blob(b) => Contents::Blob(Base64(own(b.0))),
                },
            }),
            BlockKind::BulkReference(r) => BlockKind::BulkReference(Box::new(r.into_owned())),
            BlockKind::ResourceLink(r) => BlockKind::ResourceLink(Box::new(r.into_owned())),
            BlockKind::Malformed { type_name, reason } => BlockKind::Malformed {
                type_name: own_opt(type_name),
                reason,
            },
            BlockKind::Unknown { type_name, raw } => BlockKind::Unknown {
                type_name: own(type_name),
                raw: own(raw),
            },
        }
    }
}

pub(crate) fn own<T: ?Sized + ToOwned>(cow: Cow<'_, T>) -> Cow<'static, T> {
    Cow::Owned(cow.into_owned())
}

pub(crate) fn own_opt<T: ?Sized + ToOwned>(cow: Option<Cow<'_, T>>) -> Option<Cow<'static, T>> {
    cow.map(own)
}

/// Which kind of media an `image` or `audio` block carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
        Body::Media(self).name()
    }
}

/// Base64 as it arrived: never validated as text, borrowed where the JSON string had no escape.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Base64<'a>(pub Cow<'a, [u8]>);

impl Base64<'_> {
    /// The base64 bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// The body of an `image` or `audio` block.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MediaBody<'a> {
    /// Image or audio.
    pub kind: MediaKind,
    /// The base64 `data`, where it is a string.
    pub data: Option<Base64<'a>>,
    /// The `mimeType`, where it is a string.
    pub mime_type: Option<Cow<'a, str>>,
    /// Whether the block has a `disposition` (any value): the MCPL bulk form.
    pub has_disposition: bool,
    /// The MCPL reference fields of the same object (`uri`, `name`, `sizeBytes`, …), where it
    /// has any.
    pub reference: Option<Box<ReferenceFields<'a>>>,
}

/// The body of an MCP embedded resource, or one item of a `resources/read` result.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EmbeddedBody<'a> {
    /// The resource's `uri`. Never shown to the agent.
    pub uri: Option<Cow<'a, str>>,
    /// The resource's `mimeType`, where it is a string.
    pub mime_type: Option<Cow<'a, str>>,
    /// Text or blob.
    pub contents: Contents<'a>,
}

/// The polymorphic contents of an embedded resource.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Contents<'a> {
    /// `text`.
    Text(Cow<'a, str>),
    /// `blob`: base64, as received. When a resource has both, the blob wins.
    Blob(Base64<'a>),
}

/// A JSON value of a field, as far as a field check needs to know it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scalar<'a> {
    /// A string.
    Str(Cow<'a, str>),
    /// A number, as written (`12`, `1e400`).
    Number(Cow<'a, str>),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// An array or an object.
    Compound,
}

impl Scalar<'_> {
    /// The string, where this is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }

    fn into_owned(self) -> Scalar<'static> {
        match self {
            Scalar::Str(s) => Scalar::Str(own(s)),
            Scalar::Number(n) => Scalar::Number(own(n)),
            Scalar::Bool(b) => Scalar::Bool(b),
            Scalar::Null => Scalar::Null,
            Scalar::Compound => Scalar::Compound,
        }
    }
}

/// The fields of a reference, as they arrived. [`classify_block`](crate::classify_block)
/// checks them against RFC-005.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ReferenceFields<'a> {
    /// `uri`.
    pub uri: Option<Scalar<'a>>,
    /// `name`.
    pub name: Option<Scalar<'a>>,
    /// `mimeType`.
    pub mime_type: Option<Scalar<'a>>,
    /// `sizeBytes` (MCPL), or `size` on a `resource_link` (RFC-005 §8.1).
    pub size_bytes: Option<Scalar<'a>>,
    /// `expiresAt`.
    pub expires_at: Option<Scalar<'a>>,
    /// `digest`.
    pub digest: Option<Scalar<'a>>,
    /// `disposition`.
    pub disposition: Option<Scalar<'a>>,
}

impl ReferenceFields<'_> {
    /// No field at all.
    pub(crate) const NONE: ReferenceFields<'static> = ReferenceFields {
        uri: None,
        name: None,
        mime_type: None,
        size_bytes: None,
        expires_at: None,
        digest: None,
        disposition: None,
    };

    fn into_owned(self) -> ReferenceFields<'static> {
        let own = |s: Option<Scalar<'_>>| s.map(Scalar::into_owned);
        ReferenceFields {
            uri: own(self.uri),
            name: own(self.name),
            mime_type: own(self.mime_type),
            size_bytes: own(self.size_bytes),
            expires_at: own(self.expires_at),
            digest: own(self.digest),
            disposition: own(self.disposition),
        }
    }
}

/// Which keys an object has, as far as telling a block from any other object needs
/// to know ([`object_shape`](crate::classify::object_shape)).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ObjectKeys<'k> {
    /// The `type`, where it is a string.
    pub(crate) type_name: Option<&'k str>,
    /// The fields of a block it had.
    pub(crate) fields: FieldSet,
}

/// Whether `name` is a block type this crate knows.
pub(crate) fn is_block_type(name: &[u8]) -> bool {
    Body::of(name).is_some()
}

/// A field that must be of one JSON type: absent, of it, or of another.
#[derive(Default)]
pub(crate) enum Field<T> {
    #[default]
    Absent,
    Good(T),
    Bad,
}

/// Every field a block's kind is made of, as the wire room read it. Only a reference's fields are boxed, where
/// the first of them is read, as its kind keeps them: no other block allocates as it is read.
#[derive(Default)]
pub(crate) struct Fields<'a> {
    pub(crate) type_name: Option<Scalar<'a>>,
    pub(crate) text: Option<Scalar<'a>>,
    pub(crate) data: Option<Field<Base64<'a>>>,
    pub(crate) mime_type: Option<Scalar<'a>>,
    /// `resource`: an embedded resource's kind, or `Err` where it is no object.
    pub(crate) resource: Option<Result<BlockKind<'a>, ()>>,
    pub(crate) reference: Option<Box<ReferenceFields<'a>>>,
    pub(crate) size: Option<Scalar<'a>>,
    /// The fields the block had, whatever their values.
    pub(crate) seen: FieldSet,
}

impl<'a> Fields<'a> {
    /// The reference fields, made where the first of them is read.
    pub(crate) fn reference(&mut self) -> &mut ReferenceFields<'a> {
        self.reference.get_or_insert_with(Box::default)
    }

    /// The reference fields, with the block's media type.
    fn take_reference(&mut self) -> Box<ReferenceFields<'a>> {
        let mut fields = self.reference.take().unwrap_or_default();
        fields.mime_type = self.mime_type.take();
        fields
    }

    /// The block's kind: by its type, where it has a string one (`raw`, the whole block's
    /// JSON text, for a type this crate does not know).
    pub(crate) fn kind(&mut self, raw: impl FnOnce() -> Cow<'a, str>) -> BlockKind<'a> {
        match self.type_name.take() {
            Some(Scalar::Str(type_name)) => match Body::of(type_name.as_bytes()) {
                Some(body) => body.kind(self),
                None => BlockKind::Unknown { type_name, raw: raw() },
            },
            Some(_) => malformed(None, "block with non-string type"),
            None => malformed(None, "block without type"),
        }
    }
}

pub(crate) fn malformed<'a>(type_name: Option<Cow<'a, str>>, reason: &'static str) -> BlockKind<'a> {
    BlockKind::Malformed { type_name, reason }
}

/// What an item that is no object is.
pub(crate) fn not_an_object<'a>() -> BlockKind<'a> {
    malformed(None, "block is not an object")
}

/// A `text` block's kind from its `text` field. Inlined, as the kinds below: returned, the
/// kind was copied while still being stored.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn text_kind(text: Option<Scalar<'_>>) -> BlockKind<'_> {
    let known = || Some(Cow::Borrowed(Body::Text.name()));
    match text {
        Some(Scalar::Str(text)) => BlockKind::Text { text },
        Some(_) => malformed(known(), "text block with non-string text"),
        None => malformed(known(), "text block without text"),
    }
}

/// An `image` or `audio` block's kind: inline data, or a reference where it has a `uri`
/// (`reference` holds its MCPL reference fields, where it has any).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn media_kind<'a>(
    kind: MediaKind,
    data: Field<Base64<'a>>,
    mime_type: Option<Cow<'a, str>>,
    has_uri: bool,
    has_disposition: bool,
    reference: Option<Box<ReferenceFields<'a>>>,
) -> BlockKind<'a> {
    let known = Some(Cow::Borrowed(kind.as_str()));
    let data = match data {
        Field::Good(data) => Some(data),
        Field::Bad => return malformed(known, media_reason(kind, true)),
        Field::Absent if !has_uri => return malformed(known, media_reason(kind, false)),
        Field::Absent => None,
    };
    BlockKind::Media(MediaBody {
        kind,
        data,
        mime_type,
        has_disposition,
        reference,
    })
}

/// Reasons are fixed strings, so each is spelled out per kind.
fn media_reason(kind: MediaKind, non_string_data: bool) -> &'static str {
    match (kind, non_string_data) {
        (MediaKind::Image, true) => "image block with non-string data",
        (MediaKind::Audio, true) => "audio block with non-string data",
        (MediaKind::Image, false) => "image block without data or uri",
        (MediaKind::Audio, false) => "audio block without data or uri",
    }
}

/// A `resource` block's kind from its `resource` field, where it has no top-level `uri`.
pub(crate) fn embedded_kind(resource: Option<Result<BlockKind<'_>, ()>>) -> BlockKind<'_> {
    let resource_type = || Some(Cow::Borrowed(Body::Resource.name()));
    match resource {
        Some(Ok(embedded)) => embedded,
        Some(Err(())) => malformed(resource_type(), "resource block with non-object resource"),
        None => malformed(resource_type(), "resource block without resource or uri"),
    }
}

/// An embedded resource's kind (or a read resource's contents') from its fields: a blob wins
/// over text.
pub(crate) fn contents_kind<'a>(
    uri: Option<Cow<'a, str>>,
    mime_type: Option<Cow<'a, str>>,
    text: Field<Cow<'a, str>>,
    blob: Field<Base64<'a>>,
) -> BlockKind<'a> {
    let resource = || Some(Cow::Borrowed(Body::Resource.name()));
    let contents = match (blob, text) {
        (Field::Good(blob), _) => Contents::Blob(blob),
        (Field::Bad, _) => return malformed(resource(), "embedded resource with non-string blob"),
        (Field::Absent, Field::Good(text)) => Contents::Text(text),
        (Field::Absent, Field::Bad) => return malformed(resource(), "embedded resource with non-string text"),
        (Field::Absent, Field::Absent) => return malformed(resource(), "embedded resource without text or blob"),
    };
    BlockKind::Embedded(EmbeddedBody {
        uri,
        mime_type,
        contents,
    })
}

/// A read resource's contents that are no object.
pub(crate) fn contents_not_an_object<'a>() -> BlockKind<'a> {
    malformed(
        Some(Cow::Borrowed(Body::Resource.name())),
        "resource contents are not an object",
    )
}

/// A block that nests deeper than any reader reads (`resource`: it was a read resource's
/// contents).
pub(crate) fn too_deep<'a>(resource: bool) -> BlockKind<'a> {
    let type_name = resource.then(|| Cow::Borrowed(Body::Resource.name()));
    malformed(type_name, "block nests too deep")
}

/// A block whose JSON could not be read back (it cannot happen for a `Value`'s own JSON).
pub(crate) fn not_json<'a>(resource: bool) -> BlockKind<'a> {
    let type_name = resource.then(|| Cow::Borrowed(Body::Resource.name()));
    malformed(type_name, "block is not JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_is_named_once_and_found_by_its_name() {
        for (name, body) in BLOCK_TYPES {
            assert_eq!(Body::of(name.as_bytes()), Some(body), "{name}");
            assert_eq!(body.name(), name);
        }
        let mut names: Vec<_> = BLOCK_TYPES.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), BLOCK_TYPES.len());
        assert!(BLOCK_TYPES.iter().all(|(name, _)| is_block_type(name.as_bytes())));
        assert!(!is_block_type(b"tool_result") && !is_block_type(b""));
        assert_eq!(Body::of(b"hologram"), None);
        assert_eq!(Body::of(b"Text"), None);
        assert_eq!(MediaKind::Image.as_str(), "image");
        assert_eq!(MediaKind::Audio.as_str(), "audio");
    }

    #[test]
    fn every_field_is_named_once_found_by_its_name_and_noted_as_read() {
        /// Reads nothing: every value a string scalar, a bad base64, no resource object.
        struct Nothing;
        impl<'a> FieldSource<'a> for Nothing {
            type Error = ();
            fn scalar(&mut self) -> Result<Scalar<'a>, ()> {
                Ok(Scalar::Str(Cow::Borrowed("v")))
            }
            fn base64(&mut self) -> Result<Field<Base64<'a>>, ()> {
                Ok(Field::Bad)
            }
            fn resource(&mut self) -> Result<Result<BlockKind<'a>, ()>, ()> {
                Ok(Err(()))
            }
            fn skip(&mut self) -> Result<(), ()> {
                Ok(())
            }
        }
        let mut all = FieldSet::default();
        for (name, field) in BLOCK_FIELDS {
            assert_eq!(BlockField::of(name), Some(field), "{field:?}");
            assert!(!all.has(field), "{field:?} twice");
            let mut f = Fields::default();
            field.read(&mut Nothing, &mut f).unwrap();
            assert_eq!(f.seen, FieldSet::of(&[field]), "{field:?}");
            all.insert(field);
        }
        assert_eq!(BlockField::of(b"title"), None);
        assert_eq!(BlockField::of(b"Text"), None);
        // Where each kind of value is kept.
        let mut f = Fields::default();
        for name in ["type", "text", "mimeType", "uri", "name", "size"] {
            BlockField::of(name.as_bytes())
                .unwrap()
                .read(&mut Nothing, &mut f)
                .unwrap();
        }
        let reference = f.reference.as_deref().unwrap();
        assert!(f.type_name.is_some() && f.text.is_some() && f.mime_type.is_some() && f.size.is_some());
        assert!(reference.uri.is_some() && reference.name.is_some() && reference.size_bytes.is_none());
        // Every type is told by fields the table has, each a field a reader takes.
        for (name, body) in BLOCK_TYPES {
            let by = body.identified_by();
            assert!(by != FieldSet::default() && all.any(by), "{name}");
            assert!(
                body.is_block(by) && !body.is_block(FieldSet::of(&[BlockField::Name])),
                "{name}"
            );
        }
    }
}
