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

// The readers of a block's fields are inlined into the one function that reads a block: called,
// the blocks and keys they return go through memory, where the processor waits on them.
#![allow(clippy::inline_always)]

use std::borrow::Cow;

use serde_json::Value;

use crate::classify::kinds::{
    contents_kind, contents_not_an_object, embedded_kind, is_block_type, malformed, media_kind, not_an_object,
    not_json, own, own_opt, text_kind, too_deep, BlockField, Body, Field, FieldSet, FieldSource, Fields, ObjectKeys,
};
pub use crate::classify::kinds::{
    Base64, BlockKind, Contents, EmbeddedBody, MediaBody, MediaKind, ReferenceFields, Scalar,
};
use crate::error::{Error, ErrorKind};
use crate::json::{whole_number, Peek, RawStr, Reader, Seq, MAX_DEPTH};

/// One content block, decoded tolerantly. Borrows from the bytes it was read from.
#[derive(Clone, Debug, PartialEq)]
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
    /// A JSON-RPC result that carries no content (for example `resultType: "input_required"`).
    NoContent,
}

/// A `CallToolResult`.
#[derive(Clone, Debug, PartialEq)]
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
pub struct Prompt<'a> {
    /// `description`, where it is a string.
    pub description: Option<Cow<'a, str>>,
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

/// A JSON number as an `i64`, where its value is a whole number in range: `-32602`, and
/// `-32602.0` or `-3.2602e4` too (JavaScript writes no fraction of a whole number, Python
/// keeps one, so the same code reads the same however it was written; `-0` is `0`).
fn json_integer(number: &str) -> Option<i64> {
    whole_number(number).and_then(|n| i64::try_from(n).ok())
}

/// A key's name: its raw bytes, or its text where it has an escape. Inlined: a key is
/// matched as soon as it is named.
#[inline(always)]
pub(crate) fn key_name<'k>(key: &RawStr<'k>) -> Cow<'k, [u8]> {
    if key.is_escaped() {
        unescaped_key(key)
    } else {
        Cow::Borrowed(key.raw())
    }
}

#[cold]
fn unescaped_key<'k>(key: &RawStr<'k>) -> Cow<'k, [u8]> {
    Cow::Owned(key.text().into_owned().into_bytes())
}

/// Reads any value as a [`Scalar`]. Inlined, as the reader's token functions are.
#[inline(always)]
fn read_scalar<'a>(r: &mut Reader<'a>) -> Result<Scalar<'a>, Error> {
    Ok(match r.peek()? {
        Peek::String => Scalar::Str(r.string()?.text()),
        Peek::Number => Scalar::Number(Cow::Borrowed(r.number()?)),
        Peek::Bool => Scalar::Bool(r.boolean()?),
        Peek::Null => {
            r.null()?;
            Scalar::Null
        }
        Peek::Object | Peek::Array => {
            r.skip()?;
            Scalar::Compound
        }
    })
}

/// Reads a string's text, or skips any other value: `None`.
pub(crate) fn read_text<'a>(r: &mut Reader<'a>) -> Result<Option<Cow<'a, str>>, Error> {
    Ok(match read_scalar(r)? {
        Scalar::Str(s) => Some(s),
        _ => None,
    })
}

fn read_base64<'a>(r: &mut Reader<'a>) -> Result<Field<Base64<'a>>, Error> {
    if r.peek()? != Peek::String {
        r.skip()?;
        return Ok(Field::Bad);
    }
    let raw = r.string()?;
    Ok(if raw.is_escaped() {
        Field::Good(Base64(Cow::Owned(raw.text().into_owned().into_bytes())))
    } else {
        Field::Good(Base64(Cow::Borrowed(raw.raw())))
    })
}

fn read_string_field<'a>(r: &mut Reader<'a>) -> Result<Field<Cow<'a, str>>, Error> {
    Ok(match read_scalar(r)? {
        Scalar::Str(s) => Field::Good(s),
        _ => Field::Bad,
    })
}

/// The JSON text of the next value, skipped.
fn read_raw<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>, Error> {
    r.peek()?;
    let start = r.position();
    r.skip()?;
    Ok(r.text_between(start, r.position()))
}

fn read_annotations<'a>(r: &mut Reader<'a>) -> Result<Option<Box<Annotations<'a>>>, Error> {
    if r.peek()? != Peek::Object {
        r.skip()?;
        return Ok(None);
    }
    let mut annotations = Box::<Annotations>::default();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        let key = key_name(&key);
        if &*key == b"audience" && r.peek()? != Peek::Array {
            // The last `audience` counts, as in `serde_json`: not an array, there is none.
            r.skip()?;
            annotations.audience = None;
        } else if &*key == b"audience" {
            let mut roles = Vec::new();
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                if let Some(role) = read_text(r)? {
                    roles.push(Role::parse(role));
                }
            }
            annotations.audience = Some(roles);
        } else if &*key == b"priority" {
            annotations.priority = match read_scalar(r)? {
                Scalar::Number(n) => n.parse().ok(),
                _ => None,
            };
        } else if &*key == b"lastModified" {
            annotations.last_modified = read_text(r)?;
        } else {
            r.skip()?;
        }
    }
    Ok(Some(annotations))
}

/// Reads one block at the reader's position.
///
/// Most blocks name their type first and have only their type's few fields: those are read
/// with those fields alone. Any other block, or one with a field its type's reader does not
/// take, is read again from its start with every field a block may have.
#[inline]
pub(crate) fn read_block<'a>(r: &mut Reader<'a>) -> Result<Block<'a>, Error> {
    if r.peek()? != Peek::Object {
        r.skip()?;
        return Ok(Block::bare(not_an_object()));
    }
    let start = r.mark();
    if let TypeFirst::Read(block, _) = read_type_first(r)? {
        return Ok(block);
    }
    r.rewind(start);
    Ok(read_every_field(r)?.0)
}

/// Reads the object at the reader's position as a block where its first key is a string
/// `type`, and hands it to `then` with the identifying fields it had; `None`, and the reader
/// where it stood, where it is not. The block is handed on where it was read: returned, it
/// was copied while its fields were still being stored, and the copy waited on them.
pub(crate) fn read_block_if_type_first<'a, T>(
    r: &mut Reader<'a>,
    then: impl FnOnce(Block<'a>, FieldSet) -> T,
) -> Result<Option<T>, Error> {
    let start = r.mark();
    match read_type_first(r)? {
        TypeFirst::Read(block, present) => Ok(Some(then(block, present))),
        TypeFirst::Other => {
            r.rewind(start);
            let (block, present) = read_every_field(r)?;
            Ok(Some(then(block, present)))
        }
        TypeFirst::No => {
            r.rewind(start);
            Ok(None)
        }
    }
}

/// What [`read_type_first`] found.
enum TypeFirst<'a> {
    /// The block, read with its type's fields.
    Read(Block<'a>, FieldSet),
    /// A string `type` first, but a block its type's reader does not take (another type, or
    /// a field of another kind): to be read with every field.
    Other,
    /// No string `type` first.
    No,
}

/// A block whose type comes first and is `text`, `image`, `audio` or `resource`, read with
/// that type's fields; else what was found first.
#[inline(always)]
fn read_type_first<'a>(r: &mut Reader<'a>) -> Result<TypeFirst<'a>, Error> {
    let mut seq = r.object()?;
    let typed = r.eat_key(&mut seq, b"\"type\":") || r.next_key(&mut seq)?.is_some_and(|k| k.raw() == b"type");
    if !typed {
        return Ok(TypeFirst::No);
    }
    // The type as servers write it, compared at once; any other way of writing it, read.
    if r.eat(b"\"text\"") {
        return read_text_block(r, &mut seq);
    }
    if r.eat(b"\"image\"") {
        return read_media_block(r, &mut seq, MediaKind::Image);
    }
    if r.eat(b"\"resource\"") {
        return read_resource_block(r, &mut seq);
    }
    if r.peek()? != Peek::String {
        return Ok(TypeFirst::No);
    }
    match Body::of(r.string()?.raw()) {
        Some(Body::Text) => read_text_block(r, &mut seq),
        Some(Body::Media(kind)) => read_media_block(r, &mut seq, kind),
        Some(Body::Resource) => read_resource_block(r, &mut seq),
        // Every other type (and a type of a body no fast reader knows) is read with every
        // field.
        _ => Ok(TypeFirst::Other),
    }
}

/// Reads a block with every field a block may have, in any order.
fn read_every_field<'a>(r: &mut Reader<'a>) -> Result<(Block<'a>, FieldSet), Error> {
    let read = read_fields::<false>(r)?;
    // Never `None`: only a flat read stops.
    Ok(read.unwrap_or_else(|| (Block::bare(not_an_object()), FieldSet::default())))
}

/// The object at the reader's position read as a block, as [`read_every_field`] reads it,
/// where it is flat: every key a field of a block ([`BlockField`]) and every value a scalar;
/// with the fields it had, which tell it from other objects
/// ([`object_shape`](crate::classify::object_shape) decides). `None` at its first other key
/// or value, the reader then anywhere inside it: an object that is not flat is no block the
/// script lane can tell by its keys alone, and no value is read here that the lane would read
/// again (however deep objects nest). `None` too where it is no JSON: the lane's own reading
/// tells the error.
pub(crate) fn read_flat_block<'a>(r: &mut Reader<'a>) -> Option<(Block<'a>, ObjectKeys<'static>)> {
    let (block, fields) = read_fields::<true>(r).ok()??;
    Some((
        block,
        ObjectKeys {
            type_name: None,
            fields,
        },
    ))
}

/// [`read_every_field`], and where `FLAT`, [`read_flat_block`]'s reading: `None` at a key no
/// block reads or a value that is an object or an array.
#[inline(always)]
fn read_fields<'a, const FLAT: bool>(r: &mut Reader<'a>) -> Result<Option<(Block<'a>, FieldSet)>, Error> {
    let start = r.position();
    let mut seq = r.object()?;
    let mut f = Fields::default();
    let mut annotations = None;
    let mut meta = None;
    // Where `FLAT`, whether the value at the reader is no scalar.
    let compound = |r: &mut Reader<'a>| FLAT && matches!(r.peek(), Ok(Peek::Object | Peek::Array));
    // A link as the everything server writes it, its type last: each key compared where it
    // stands, and read as any other field.
    macro_rules! eat {
        ($key:literal, $field:ident) => {{
            let found = r.eat_key(&mut seq, $key);
            if found {
                if compound(r) {
                    return Ok(None);
                }
                BlockField::$field.read(r, &mut f)?;
            }
            found
        }};
    }
    if eat!(b"\"name\":", Name) && eat!(b"\"uri\":", Uri) {
        eat!(b"\"description\":", Description);
        if eat!(b"\"mimeType\":", MimeType) {
            eat!(b"\"type\":", Type);
        }
    }
    while let Some(k) = r.next_key(&mut seq)? {
        let field = BlockField::of(&key_name(&k));
        if FLAT && (field.is_none() || compound(r)) {
            return Ok(None);
        }
        match field {
            Some(BlockField::Annotations) => annotations = read_annotations(r)?,
            Some(BlockField::Meta) => meta = Some(read_raw(r)?),
            Some(field) => field.read(r, &mut f)?,
            None => r.skip()?,
        }
    }
    let fields = f.seen;
    let raw = || r.text_between(start, r.position());
    let kind = f.kind(raw);
    let block = Block {
        kind,
        annotations,
        meta,
    };
    Ok(Some((block, fields)))
}

impl<'a> FieldSource<'a> for Reader<'a> {
    type Error = Error;

    #[inline(always)]
    fn scalar(&mut self) -> Result<Scalar<'a>, Error> {
        read_scalar(self)
    }

    fn base64(&mut self) -> Result<Field<Base64<'a>>, Error> {
        read_base64(self)
    }

    fn resource(&mut self) -> Result<Result<BlockKind<'a>, ()>, Error> {
        read_resource_field(self)
    }

    fn skip(&mut self) -> Result<(), Error> {
        Reader::skip(self)
    }
}

/// The rest of a block whose `type`, read first, is `text`. Every other field is skipped, as
/// [`Fields::kind`] reads none of them for a text block; `None` at a second `type`, which is
/// the one that counts.
#[inline(always)]
fn read_text_block<'a>(r: &mut Reader<'a>, seq: &mut Seq) -> Result<TypeFirst<'a>, Error> {
    let mut text = None;
    let mut annotations = None;
    let mut meta = None;
    if r.eat_key(seq, b"\"text\":") {
        text = Some(read_scalar(r)?);
    }
    while let Some(key) = r.next_key(seq)? {
        match &*key_name(&key) {
            b"text" => text = Some(read_scalar(r)?),
            b"annotations" => annotations = read_annotations(r)?,
            b"_meta" => meta = Some(read_raw(r)?),
            // A second type is the one that counts, as in a `serde_json::Value`.
            b"type" => return Ok(TypeFirst::Other),
            _ => r.skip()?,
        }
    }
    let present = FieldSet::of(if text.is_some() { &[BlockField::Text] } else { &[] });
    let kind = text_kind(text);
    let block = Block {
        kind,
        annotations,
        meta,
    };
    Ok(TypeFirst::Read(block, present))
}

/// The rest of an `image` or `audio` block whose type came first: `data`, `mimeType`,
/// `annotations` and `_meta`; `None` at any other field (a `uri` or `disposition` changes what
/// the block is).
#[inline(always)]
fn read_media_block<'a>(r: &mut Reader<'a>, seq: &mut Seq, kind: MediaKind) -> Result<TypeFirst<'a>, Error> {
    let mut data = Field::Absent;
    let mut mime_type = None;
    let mut annotations = None;
    let mut meta = None;
    // As the TypeScript, Python and Rust SDKs write it; or as the Go SDK does.
    if r.eat_key(seq, b"\"data\":") {
        data = read_base64(r)?;
        if r.eat_key(seq, b"\"mimeType\":") {
            mime_type = read_text(r)?;
        }
    } else if r.eat_key(seq, b"\"mimeType\":") {
        mime_type = read_text(r)?;
        if r.eat_key(seq, b"\"data\":") {
            data = read_base64(r)?;
        }
    }
    while let Some(key) = r.next_key(seq)? {
        match &*key_name(&key) {
            b"data" => data = read_base64(r)?,
            b"mimeType" => mime_type = read_text(r)?,
            b"annotations" => annotations = read_annotations(r)?,
            b"_meta" => meta = Some(read_raw(r)?),
            _ => return Ok(TypeFirst::Other),
        }
    }
    let present = FieldSet::of(if matches!(data, Field::Absent) {
        &[]
    } else {
        &[BlockField::Data]
    });
    let block = Block {
        kind: media_kind(kind, data, mime_type, false, false, None),
        annotations,
        meta,
    };
    Ok(TypeFirst::Read(block, present))
}

/// The rest of a `resource` block whose type came first: `resource`, `annotations` and
/// `_meta`; `None` at any other field (a `uri` makes it a bulk reference).
#[inline(always)]
fn read_resource_block<'a>(r: &mut Reader<'a>, seq: &mut Seq) -> Result<TypeFirst<'a>, Error> {
    let mut resource = None;
    let mut annotations = None;
    let mut meta = None;
    if r.eat_key(seq, b"\"resource\":") {
        resource = Some(read_resource_field(r)?);
    }
    while let Some(key) = r.next_key(seq)? {
        match &*key_name(&key) {
            b"resource" => resource = Some(read_resource_field(r)?),
            b"annotations" => annotations = read_annotations(r)?,
            b"_meta" => meta = Some(read_raw(r)?),
            _ => return Ok(TypeFirst::Other),
        }
    }
    let present = FieldSet::of(if resource.is_some() {
        &[BlockField::Resource]
    } else {
        &[]
    });
    let block = Block {
        kind: embedded_kind(resource),
        annotations,
        meta,
    };
    Ok(TypeFirst::Read(block, present))
}

/// A block's `resource` field: an embedded resource's kind, or `Err` where it is no object.
fn read_resource_field<'a>(r: &mut Reader<'a>) -> Result<Result<BlockKind<'a>, ()>, Error> {
    if r.peek()? == Peek::Object {
        Ok(Ok(read_embedded(r)?))
    } else {
        r.skip()?;
        Ok(Err(()))
    }
}

/// Reads the object of an embedded resource (or of a read resource's contents).
fn read_embedded<'a>(r: &mut Reader<'a>) -> Result<BlockKind<'a>, Error> {
    let mut uri = None;
    let mut mime_type = None;
    let mut text = Field::Absent;
    let mut blob = Field::Absent;
    let mut seq = r.object()?;
    if r.eat_key(&mut seq, b"\"uri\":") {
        uri = read_text(r)?;
        if r.eat_key(&mut seq, b"\"mimeType\":") {
            mime_type = read_text(r)?;
            if r.eat_key(&mut seq, b"\"text\":") {
                text = read_string_field(r)?;
            } else if r.eat_key(&mut seq, b"\"blob\":") {
                blob = read_base64(r)?;
            }
        }
    }
    while let Some(key) = r.next_key(&mut seq)? {
        match &*key_name(&key) {
            b"uri" => uri = read_text(r)?,
            b"mimeType" => mime_type = read_text(r)?,
            b"text" => text = read_string_field(r)?,
            b"blob" => blob = read_base64(r)?,
            _ => r.skip()?,
        }
    }
    Ok(contents_kind(uri, mime_type, text, blob))
}

pub(crate) fn read_resource_contents<'a>(r: &mut Reader<'a>) -> Result<Block<'a>, Error> {
    if r.peek()? != Peek::Object {
        r.skip()?;
        return Ok(Block::bare(contents_not_an_object()));
    }
    Ok(Block::bare(read_embedded(r)?))
}

/// What decoding a message finds, in order. The one walk over a message reports to a sink:
/// [`Message::parse`] collects, a lane renders as it goes.
pub(crate) trait Sink<'a> {
    /// A block of the message's content, prompt message or read resource.
    fn block(&mut self, block: Block<'a>);
    /// Where the sink stands.
    type Mark: Copy;
    /// Saves where the sink stands, for [`Sink::reset`].
    fn mark(&self) -> Self::Mark;
    /// Forgets what was reported since `mark`: the object turned out to be one block.
    fn reset(&mut self, mark: Self::Mark);
    /// The end of one prompt message, with its role.
    fn end_prompt_message(&mut self, _role: Option<Role<'a>>) {}
}

/// What the walk learned of the message's shape beside its blocks.
#[derive(Default)]
struct Shape<'a> {
    kind: Option<ShapeKind>,
    structured_content: Option<Cow<'a, str>>,
    is_error: bool,
    result_type: Option<Cow<'a, str>>,
    meta: Option<Cow<'a, str>>,
    description: Option<Cow<'a, str>>,
    rpc_error: Option<Box<RpcError<'a>>>,
}

impl Shape<'_> {
    fn of(kind: ShapeKind) -> Self {
        Shape {
            kind: Some(kind),
            ..Shape::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeKind {
    ToolResult,
    RoleContent,
    Prompt,
    Resource,
    Blocks,
    RpcError,
    NoContent,
}

fn unrecognized() -> Error {
    Error::new(
        ErrorKind::UnrecognizedMessage,
        "unrecognized message: expected a JSON-RPC response, a tool, prompt or resource result, a content block or an array of blocks",
    )
}

/// Walks a message at the reader's position, reporting its blocks to `sink`.
fn walk_message<'a>(r: &mut Reader<'a>, sink: &mut impl Sink<'a>) -> Result<Shape<'a>, Error> {
    match r.peek()? {
        Peek::Array => {
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                sink.block(read_block(r)?);
            }
            Ok(Shape::of(ShapeKind::Blocks))
        }
        Peek::Object => walk_object(r, sink, true),
        _ => {
            // JSON first, then the shape: bad bytes are a JSON error.
            r.skip()?;
            r.finish()?;
            Err(unrecognized())
        }
    }
}

/// Which keys an object had, for deciding what it is.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)] // one flag a key: the plainest record of what was seen
struct Seen {
    rpc: bool,
    role: bool,
    string_type: bool,
    /// The string `type` is a block type this crate knows.
    block_type: bool,
    content: bool,
    structured: bool,
    result_type: bool,
}

/// What the walk of one object keeps as it reads its members.
#[derive(Default)]
struct ObjectWalk<'a> {
    shape: Shape<'a>,
    seen: Seen,
    result: Option<Shape<'a>>,
    /// A nested `payload` object's shape (an event's, inside a notification's `params`).
    payload: Option<Shape<'a>>,
    /// How many members streamed blocks to the sink (`content`, an array `messages` or
    /// `contents`, `result`): more than one, and which to keep is decided as `serde_json`
    /// would (the last of each key, one container), on a second walk.
    streamed: u32,
}

/// The keys of a message object the walk reads, each once: where a key is repeated, the last
/// counts, as in `serde_json`.
const MESSAGE_KEYS: [&[u8]; 16] = [
    b"jsonrpc",
    b"id",
    b"result",
    b"params",
    b"payload",
    b"error",
    b"type",
    b"role",
    b"content",
    b"structuredContent",
    b"isError",
    b"resultType",
    b"_meta",
    b"description",
    b"messages",
    b"contents",
];

/// Walks an object that may be a JSON-RPC response (`outer`), a result, or a single block.
///
/// One pass, blocks streamed to `sink` as they are read. Where the object turns out to be one
/// block (a string `type`), or where more than one member streamed blocks (a key repeated, or
/// two containers), the sink forgets them and the object is read again: as one block, or by
/// [`walk_object_as_serde_json`].
fn walk_object<'a>(r: &mut Reader<'a>, sink: &mut impl Sink<'a>, outer: bool) -> Result<Shape<'a>, Error> {
    let start = r.position();
    let mark = sink.mark();
    let mut walk = ObjectWalk::default();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        member(&key_name(&key), r, sink, &mut walk, outer)?;
    }
    if walk.is_one_block() {
        // The object is one block: forget what its fields reported, and read it again as one.
        sink.reset(mark);
        let mut again = r.reader_between(start, r.position());
        sink.block(read_block(&mut again)?);
        return Ok(Shape::of(ShapeKind::Blocks));
    }
    if walk.streamed > 1 {
        sink.reset(mark);
        return walk_object_as_serde_json(&mut r.reader_between(start, r.position()), sink, outer);
    }
    walk.decide(outer)
}

/// Walks an object as `serde_json` reads it into a `Value`: each key's last value alone, and
/// of `content`, `messages` and `contents` the one the message's shape takes (`content`,
/// else an array `messages`, else an array `contents`). Two passes: the first finds where
/// each key's last value stands; the second reads those values.
fn walk_object_as_serde_json<'a>(
    r: &mut Reader<'a>,
    sink: &mut impl Sink<'a>,
    outer: bool,
) -> Result<Shape<'a>, Error> {
    let sink_start = sink.mark();
    let start = r.mark();
    let mut last = [None; MESSAGE_KEYS.len()];
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        if let Some(k) = MESSAGE_KEYS.iter().position(|name| *name == &*key_name(&key)) {
            last[k] = Some(r.mark());
        }
        r.skip()?;
    }
    let end = r.mark();
    let at = |name: &[u8]| MESSAGE_KEYS.iter().position(|n| *n == name).and_then(|k| last[k]);
    let mut is_array = |name: &[u8]| -> Result<bool, Error> {
        Ok(match at(name) {
            Some(mark) => {
                r.rewind(mark);
                r.peek()? == Peek::Array
            }
            None => false,
        })
    };
    let rpc = at(b"jsonrpc").is_some() || at(b"id").is_some();
    let container: &[u8] = if outer && rpc && (at(b"result").is_some() || at(b"params").is_some()) {
        // A JSON-RPC response or notification: its result or params is the message, whatever
        // else the object holds.
        b""
    } else if at(b"content").is_some() {
        b"content"
    } else if is_array(b"messages")? {
        b"messages"
    } else {
        b"contents"
    };
    let mut walk = ObjectWalk::default();
    for (name, mark) in MESSAGE_KEYS.iter().zip(last) {
        let Some(mark) = mark else { continue };
        let streams = matches!(*name, b"content" | b"messages" | b"contents");
        if streams && *name != container {
            continue;
        }
        // Of a result and params, the one the message is (a response's result first).
        if *name == b"params" && at(b"result").is_some()
            || *name == b"payload" && !container.is_empty() && at(container).is_some()
        {
            continue;
        }
        r.rewind(mark);
        member(name, r, sink, &mut walk, outer)?;
    }
    if walk.is_one_block() {
        sink.reset(sink_start);
        r.rewind(start);
        sink.block(read_block(r)?);
        return Ok(Shape::of(ShapeKind::Blocks));
    }
    r.rewind(end);
    walk.decide(outer)
}

/// Reads one member of a message object, its key `name` read, into `walk`.
fn member<'a>(
    name: &[u8],
    r: &mut Reader<'a>,
    sink: &mut impl Sink<'a>,
    walk: &mut ObjectWalk<'a>,
    outer: bool,
) -> Result<(), Error> {
    let ObjectWalk {
        shape, seen, result, ..
    } = walk;
    match name {
        b"jsonrpc" | b"id" if outer => {
            seen.rpc = true;
            r.skip()?;
        }
        // A notification's `params` is its message, as a response's `result` is.
        b"result" | b"params" if outer => {
            walk.streamed += 1;
            *result = Some(if r.peek()? == Peek::Object {
                walk_object(r, sink, false)?
            } else {
                r.skip()?;
                Shape::of(ShapeKind::NoContent)
            });
        }
        b"payload" if !outer && r.peek()? == Peek::Object => {
            walk.streamed += 1;
            walk.payload = Some(walk_object(r, sink, false)?);
        }
        b"error" if outer => shape.rpc_error = Some(Box::new(read_rpc_error(r)?)),
        b"type" => {
            seen.string_type = r.peek()? == Peek::String;
            seen.block_type = seen.string_type && is_block_type(r.string()?.text().as_bytes());
            if !seen.string_type {
                r.skip()?;
            }
        }
        b"role" => {
            seen.role = true;
            r.skip()?;
        }
        b"content" => {
            walk.streamed += 1;
            seen.content = true;
            read_content(r, sink)?;
        }
        b"structuredContent" => {
            seen.structured = true;
            let raw = read_raw(r)?;
            shape.structured_content = (raw != "null").then_some(raw);
        }
        b"isError" => shape.is_error = matches!(read_scalar(r)?, Scalar::Bool(true)),
        b"resultType" => {
            seen.result_type = true;
            shape.result_type = read_text(r)?;
        }
        b"_meta" => shape.meta = Some(read_raw(r)?),
        b"description" => shape.description = read_text(r)?,
        b"messages" if r.peek()? == Peek::Array => {
            walk.streamed += 1;
            shape.kind = Some(ShapeKind::Prompt);
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                read_prompt_message(r, sink)?;
            }
        }
        b"contents" if r.peek()? == Peek::Array => {
            walk.streamed += 1;
            shape.kind.get_or_insert(ShapeKind::Resource);
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                sink.block(read_resource_contents(r)?);
            }
        }
        b"messages" | b"contents" => {
            // The last value of the key counts: not an array, it takes back an earlier one.
            walk.streamed += 2;
            r.skip()?;
        }
        _ => r.skip()?,
    }
    Ok(())
}

impl<'a> ObjectWalk<'a> {
    /// Whether the object is one block: a string `type`, and no `content` unless the type is
    /// a block type (an object of another type with content is a result carrying its blocks,
    /// as `{"type": "channel_message", "content": […]}`).
    fn is_one_block(&self) -> bool {
        self.seen.string_type && (self.seen.block_type || !self.seen.content)
    }

    /// What the object is, from what its members were.
    fn decide(self, outer: bool) -> Result<Shape<'a>, Error> {
        let has_own = self.seen.content || self.shape.kind.is_some() || self.seen.structured;
        if let (false, Some(payload)) = (has_own || self.seen.rpc, self.payload) {
            return Ok(payload);
        }
        decide(self.shape, &self.seen, self.result, outer)
    }
}

/// What an object that is no block is, from the keys it had.
fn decide<'a>(mut shape: Shape<'a>, seen: &Seen, result: Option<Shape<'a>>, outer: bool) -> Result<Shape<'a>, Error> {
    if seen.rpc {
        if let Some(result) = result {
            return Ok(result);
        }
        if let Some(error) = shape.rpc_error.take() {
            return Ok(Shape {
                rpc_error: Some(error),
                ..Shape::of(ShapeKind::RpcError)
            });
        }
    }
    shape.kind = if seen.content {
        Some(if seen.role && !seen.structured {
            ShapeKind::RoleContent
        } else {
            ShapeKind::ToolResult
        })
    } else if shape.kind.is_some() {
        shape.kind
    } else if seen.structured {
        Some(ShapeKind::ToolResult)
    } else if seen.result_type || !outer {
        Some(ShapeKind::NoContent)
    } else {
        return Err(unrecognized());
    };
    Ok(shape)
}

/// `content`: one block, or an array of blocks.
fn read_content<'a>(r: &mut Reader<'a>, sink: &mut impl Sink<'a>) -> Result<(), Error> {
    if r.peek()? == Peek::Array {
        let mut items = r.array()?;
        while r.next_element(&mut items)? {
            sink.block(read_block(r)?);
        }
    } else {
        sink.block(read_block(r)?);
    }
    Ok(())
}

fn read_prompt_message<'a>(r: &mut Reader<'a>, sink: &mut impl Sink<'a>) -> Result<(), Error> {
    if r.peek()? != Peek::Object {
        r.skip()?;
        sink.block(Block::bare(malformed(None, "prompt message is not an object")));
        sink.end_prompt_message(None);
        return Ok(());
    }
    let mut role = None;
    let mut has_content = false;
    let mark = sink.mark();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        match &*key_name(&key) {
            b"role" => role = read_text(r)?.map(Role::parse),
            b"content" => {
                // The last `content` counts, as in `serde_json`.
                if std::mem::replace(&mut has_content, true) {
                    sink.reset(mark);
                }
                read_content(r, sink)?;
            }
            _ => r.skip()?,
        }
    }
    if !has_content {
        sink.block(Block::bare(malformed(None, "prompt message without content")));
    }
    sink.end_prompt_message(role);
    Ok(())
}

fn read_rpc_error<'a>(r: &mut Reader<'a>) -> Result<RpcError<'a>, Error> {
    let mut error = RpcError {
        code: None,
        message: Cow::Borrowed(""),
        data: None,
    };
    if r.peek()? != Peek::Object {
        r.skip()?;
        return Ok(error);
    }
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        match &*key_name(&key) {
            b"code" => {
                error.code = match read_scalar(r)? {
                    Scalar::Number(n) => json_integer(&n),
                    _ => None,
                }
            }
            b"message" => error.message = read_text(r)?.unwrap_or_default(),
            b"data" => error.data = Some(read_raw(r)?),
            _ => r.skip()?,
        }
    }
    Ok(error)
}

/// Collects a message's blocks into a [`Message`].
#[derive(Default)]
struct Collect<'a> {
    blocks: Vec<Block<'a>>,
    messages: Vec<PromptMessage<'a>>,
}

impl<'a> Sink<'a> for Collect<'a> {
    fn block(&mut self, block: Block<'a>) {
        self.blocks.push(block);
    }

    type Mark = (usize, usize);

    fn mark(&self) -> (usize, usize) {
        (self.blocks.len(), self.messages.len())
    }

    fn reset(&mut self, (blocks, messages): (usize, usize)) {
        self.blocks.truncate(blocks);
        self.messages.truncate(messages);
    }

    fn end_prompt_message(&mut self, role: Option<Role<'a>>) {
        let mut content = std::mem::take(&mut self.blocks);
        // A message of one block would otherwise keep room for four: memory linear in the
        // input, not in four blocks a message.
        content.shrink_to_fit();
        self.messages.push(PromptMessage { role, content });
    }
}

/// Walks the message in `bytes`, reporting its blocks to `sink`, and checks the JSON ends.
pub(crate) fn walk<'a>(bytes: &'a [u8], sink: &mut impl Sink<'a>) -> Result<MessageShape<'a>, Error> {
    let mut reader = Reader::new(bytes);
    let shape = walk_message(&mut reader, sink);
    if let Err(e) = &shape {
        if e.kind() == ErrorKind::Json {
            return Err(e.clone());
        }
    }
    // Trailing bytes make the input no JSON, whatever its shape.
    reader.finish()?;
    Ok(MessageShape(shape?))
}

/// What a walk found beside the blocks, opaque outside this module.
pub(crate) struct MessageShape<'a>(Shape<'a>);

impl<'a> MessageShape<'a> {
    /// Whether the message is a prompt (`messages[]`).
    pub(crate) fn is_prompt(&self) -> bool {
        self.0.kind == Some(ShapeKind::Prompt)
    }

    /// The JSON-RPC error, where the message is one.
    pub(crate) fn rpc_error(&self) -> Option<&RpcError<'a>> {
        self.0.rpc_error.as_deref()
    }

    /// Where the message is a tool result: its `isError`, and its `structuredContent` as JSON
    /// text.
    pub(crate) fn tool_result(&self) -> Option<(bool, Option<&str>)> {
        (self.0.kind == Some(ShapeKind::ToolResult)).then_some((self.0.is_error, self.0.structured_content.as_deref()))
    }
}

impl<'a> Message<'a> {
    /// Detects and decodes the message in `bytes`: a JSON-RPC response (`result` or `error`), a
    /// `CallToolResult`, a `GetPromptResult`, a `ReadResourceResult`, an event payload
    /// `{content: […]}`, a bare array of blocks or a single block. Strings are borrowed from
    /// `bytes`.
    ///
    /// Fails where `bytes` are not JSON (or nest deeper than 127 levels, as `serde_json`), or are JSON of none of
    /// these shapes; a bad block inside is never an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Message<'a>, Error> {
        // Most messages have a few blocks: room for them at once, not grown one at a time.
        let mut collect = Collect {
            blocks: Vec::with_capacity(8),
            messages: Vec::new(),
        };
        let MessageShape(shape) = walk(bytes, &mut collect)?;
        let Collect { blocks, messages, .. } = collect;
        Ok(match shape.kind {
            Some(ShapeKind::ToolResult) => Message::ToolResult(ToolResult {
                content: blocks,
                structured_content: shape.structured_content,
                is_error: shape.is_error,
                result_type: shape.result_type,
                meta: shape.meta,
            }),
            Some(ShapeKind::Prompt) => Message::Prompt(Prompt {
                description: shape.description,
                messages,
            }),
            Some(ShapeKind::Resource) => Message::Resource(blocks),
            Some(ShapeKind::Blocks | ShapeKind::RoleContent) => Message::Blocks(blocks),
            Some(ShapeKind::RpcError) => Message::RpcError(shape.rpc_error.map_or_else(
                || RpcError {
                    code: None,
                    message: Cow::Borrowed(""),
                    data: None,
                },
                |error| *error,
            )),
            Some(ShapeKind::NoContent) | None => Message::NoContent,
        })
    }

    /// Decodes the message in a [`Value`], as [`Message::parse`] does its bytes. The bytes path
    /// borrows; this one owns.
    pub fn decode(value: &Value) -> Result<Message<'static>, Error> {
        Message::parse(&json_of(value)?).map(Message::into_owned)
    }

    /// Where the message is a tool result: its `isError`, and its `structuredContent` as JSON
    /// text (what every lane shows beside its blocks), as [`MessageShape::tool_result`] gives
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
            Message::RpcError(_) | Message::NoContent => Box::new(std::iter::empty()),
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat object is read as the field bag reads it, with the keys that tell what it is;
    /// any other is not read.
    #[test]
    fn a_flat_object_is_read_with_its_keys() {
        fn flat(json: &str) -> Option<(Block<'_>, ObjectKeys<'static>)> {
            read_flat_block(&mut Reader::new(json.as_bytes()))
        }
        let keys = |json: &str| {
            let (block, keys) = flat(json).unwrap_or_else(|| panic!("{json} is flat"));
            let every = read_every_field(&mut Reader::new(json.as_bytes())).unwrap().0;
            assert_eq!(block, every, "{json}");
            [
                BlockField::Text,
                BlockField::Data,
                BlockField::Uri,
                BlockField::Resource,
                BlockField::Blob,
                BlockField::MimeType,
            ]
            .map(|field| keys.fields.has(field))
        };
        let link = r#"{"name":"r","uri":"demo://r","description":"d","mimeType":"text/plain","type":"resource_link"}"#;
        assert_eq!(keys(link), [false, false, true, false, false, true]);
        assert_eq!(flat(link).unwrap().0.type_name(), Some("resource_link"));
        assert_eq!(
            keys(r#"{"uri":"file:///a","blob":"aGk="}"#),
            [false, false, true, false, true, false]
        );
        assert_eq!(
            keys(r#"{"text":"t","data":"aGk=","resource":"x","uri":"u"}"#),
            [true, true, true, true, false, false]
        );
        assert_eq!(keys(r#"{"name":"r"}"#), [false; 6]);
        for not_flat in [
            r#"{"name":"r","title":"t"}"#,
            r#"{"uri":"u","text":{"a":1}}"#,
            r#"{"uri":"u","mimeType":"text/plain","annotations":{}}"#,
            r#"{"name":["r"]}"#,
            r#"{"name":"r","uri":"u","description":{},"mimeType":"m","type":"resource_link"}"#,
            r#"{"name":"r""#,
        ] {
            assert!(flat(not_flat).is_none(), "{not_flat}");
        }
    }

    /// Block bodies, each read with a `type` before and after it.
    const BODIES: &[&str] = &[
        r#""text":"hi""#,
        r#""text":7"#,
        r#""text":"hi","annotations":{"priority":0.5},"_meta":{"a":[1]}"#,
        r#""data":"aGk=","mimeType":"image/png""#,
        r#""data":"aGk=","mimeType":7"#,
        r#""data":7,"mimeType":"image/png""#,
        r#""mimeType":"image/png""#,
        r#""data":"aGk=","mimeType":"image/png","annotations":{"audience":["user"]},"_meta":null"#,
        r#""data":"aGk=","mimeType":"image/png","uri":"file:///x","name":"x""#,
        r#""uri":"file:///x","mimeType":"image/png","sizeBytes":3"#,
        r#""data":"aGk=","disposition":"ref""#,
        r#""data":"aGk=","title":"extra""#,
        r#""resource":{"uri":"file:///a","mimeType":"text/plain","text":"body"}"#,
        r#""resource":{"uri":"file:///a","blob":"aGk="},"annotations":{"priority":1}"#,
        r#""resource":"no""#,
        r#""resource":{"uri":"file:///a"}"#,
        r#""uri":"file:///bulk","name":"b","sizeBytes":10,"disposition":"never""#,
        r#""resource":{"text":"t"},"uri":"file:///both""#,
        r#""resource":7,"uri":"file:///bulk""#,
        r#""uri":"file:///l","name":"n","description":"d","mimeType":"text/plain","size":12"#,
        r#""uri":"file:///l","size":"12","sizeBytes":3,"expiresAt":"2026-01-01T00:00:00Z","digest":"sha256:x""#,
        r#""uri":"file:///l","annotations":{"audience":["assistant"]},"_meta":{"k":[1,{"a":2}]},"title":"t""#,
        r#""type":"resource_link","uri":"file:///dup""#,
        r#""uri":7,"name":{"x":1},"mimeType":null"#,
        // Keys in the order servers write them, then again: the later one counts.
        r#""text":"a","text":"b""#,
        r#""data":"aGk=","mimeType":"image/png","data":"b3RoZXI=""#,
        r#""data":"aGk=","mimeType":"image/png","mimeType":"audio/wav""#,
        r#""mimeType":"image/png","data":"aGk=""#,
        r#""mimeType":"image/png","data":"aGk=","mimeType":"audio/wav","data":7"#,
        r#""mimeType":7,"data":"aGk=","annotations":{"priority":1}"#,
        r#""resource":{"uri":"file:///a","mimeType":"text/plain","text":"a","text":"b"}"#,
        r#""resource":{"uri":"file:///a","mimeType":"text/plain","blob":"aGk=","text":"t"}"#,
        r#""resource":{"uri":"file:///a","mimeType":"text/plain","text":"t","blob":7}"#,
        r#""resource":{"uri":7,"mimeType":null,"text":"t"}"#,
        r#""resource":{"uri":"file:///a","uri":"file:///b","mimeType":"text/plain","text":"t"}"#,
        r#""resource":{"uri":"file:///a"},"resource":{"uri":"file:///b","text":"t"}"#,
        r#""name":"n","uri":"file:///a","description":"d","mimeType":"text/plain""#,
        r#""name":"n","uri":"file:///a","description":"d","mimeType":"text/plain","uri":"file:///b","name":7"#,
        r#""name":"n","uri":"file:///a","mimeType":"text/plain","type":"resource","resource":{"text":"t"}"#,
        r#""name":"n","uri":"file:///a","description":{"long":["d"]},"mimeType":7,"type":7"#,
        r#""name":"n","uri":7,"mimeType":"text/plain","size":3"#,
        "",
    ];

    /// A block read by its type's own reader is the block read with every field, whatever
    /// fields it has and wherever its type stands (a second `type` counts, as in a `Value`),
    /// and however its keys and values are spaced.
    #[test]
    fn type_first_reads_as_every_field_does() {
        let read = |json: &str| {
            let mut r = Reader::new(json.as_bytes());
            let read = read_block_if_type_first(&mut r, |block, present| (block, present)).unwrap();
            let (block, present) = read.unwrap_or_else(|| read_every_field(&mut r).unwrap());
            r.finish().unwrap();
            (block.into_owned(), present)
        };
        let every_field = |json: &str| {
            let mut r = Reader::new(json.as_bytes());
            let (block, present) = read_every_field(&mut r).unwrap();
            r.finish().unwrap();
            (block.into_owned(), present)
        };
        // A block as read, less the spaces of the raw JSON text it keeps as it came.
        let unspaced = |(mut block, _): (Block<'static>, FieldSet)| {
            let unspace = |raw: &mut Cow<'static, str>| *raw = Cow::Owned(raw.replace(' ', ""));
            block.meta.as_mut().map(unspace);
            if let BlockKind::Unknown { raw, .. } = &mut block.kind {
                unspace(raw);
            }
            block
        };
        let known = crate::classify::kinds::BLOCK_TYPES.map(|(name, _)| name);
        for ty in known.into_iter().chain([r"resource\u005flink", r"t\u0065xt", "other"]) {
            for body in BODIES {
                let sep = if body.is_empty() { "" } else { "," };
                let first = format!(r#"{{"type":"{ty}"{sep}{body}}}"#);
                let last = format!(r#"{{{body}{sep}"type":"{ty}"}}"#);
                let (mut a, b) = (read(&first), read(&last));
                // Keys that do not follow `{` or `,` at once, and values that do not follow
                // their colon at once, are read one by one: the same block as where each is
                // compared as it stands.
                for json in [&first, &last] {
                    let spaced = json.replace("{\"", "{ \"").replace(",\"", ", \"");
                    assert_eq!(unspaced(read(&spaced)), unspaced(read(json)), "{spaced}");
                    let spaced = json.replace("\":", "\": ");
                    assert_eq!(unspaced(read(&spaced)), unspaced(read(json)), "{spaced}");
                }
                // Whichever reader took it, a block is what reading every field makes of it,
                // and is a block alike (each reader tells the fields its type is known by).
                for (json, read) in [(&first, &a), (&last, &b)] {
                    let every = every_field(json);
                    assert_eq!(read.0, every.0, "{json}");
                    assert_eq!(
                        crate::classify::is_block(ty, read.1),
                        crate::classify::is_block(ty, every.1),
                        "{json}"
                    );
                }
                // Where the type is said once, its place does not matter (an unknown block
                // keeps its own text, which differs in order alone).
                if let (BlockKind::Unknown { raw, .. }, BlockKind::Unknown { raw: other, .. }) =
                    (&mut a.0.kind, &b.0.kind)
                {
                    raw.clone_from(other);
                }
                if !body.contains(r#""type""#) {
                    assert_eq!(a.0, b.0, "{first}");
                }
            }
        }
    }

    #[test]
    fn an_error_code_is_read_by_its_value() {
        for (number, code) in [
            ("-32602", Some(-32602)),
            ("-32602.0", Some(-32602)),
            ("-3.2602e4", Some(-32602)),
            ("-0", Some(0)),
            ("-0.0", Some(0)),
            ("9223372036854775807", Some(i64::MAX)),
            ("-9223372036854775808", Some(i64::MIN)),
            ("-9.223372036854775808e18", Some(i64::MIN)),
            ("9223372036854775808", None),
            ("9.223372036854775808e18", None),
            ("-32602.5", None),
            ("1e400", None),
        ] {
            assert_eq!(json_integer(number), code, "{number}");
        }
    }
}
