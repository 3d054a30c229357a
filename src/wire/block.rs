//! Reading one block: by its type's own fields where its type comes first, else with every
//! field a block may have.

// The readers of a block's fields are inlined into the one function that reads a block, where
// the build is optimized: called, the blocks and keys they return go through memory, where the
// processor waits on them. (Not in a debug build: see the reader's note.)
#![allow(clippy::inline_always)]

use std::borrow::Cow;

use super::{Annotations, Block, Role};
use crate::error::Error;
use crate::json::{Peek, RawStr, Reader, Seq};
use crate::wire::kinds::{
    contents_kind, contents_not_an_object, embedded_kind, media_kind, not_an_object, text_kind, Base64, BlockField,
    BlockKind, Body, Field, FieldSource, Fields, MediaKind, Scalar,
};

/// A key's name: its raw bytes, or its text where it has an escape. Inlined: a key is
/// matched as soon as it is named.
#[cfg_attr(not(debug_assertions), inline(always))]
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
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn read_scalar<'a>(r: &mut Reader<'a>) -> Result<Scalar<'a>, Error> {
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
pub(super) fn read_raw<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>, Error> {
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
    if let TypeFirst::Read(block) = read_type_first(r)? {
        return Ok(block);
    }
    r.rewind(start);
    read_every_field(r)
}

/// What [`read_type_first`] found.
enum TypeFirst<'a> {
    /// The block, read with its type's fields.
    Read(Block<'a>),
    /// A string `type` first, but a block its type's reader does not take (another type, or
    /// a field of another kind): to be read with every field.
    Other,
    /// No string `type` first.
    No,
}

/// A block whose type comes first and is `text`, `image`, `audio` or `resource`, read with
/// that type's fields; else what was found first.
#[cfg_attr(not(debug_assertions), inline(always))]
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
fn read_every_field<'a>(r: &mut Reader<'a>) -> Result<Block<'a>, Error> {
    let start = r.position();
    let mut seq = r.object()?;
    let mut f = Fields::default();
    let mut annotations = None;
    let mut meta = None;
    // A link as the everything server writes it, its type last: each key compared where it
    // stands, and read as any other field.
    macro_rules! eat {
        ($key:literal, $field:ident) => {{
            let found = r.eat_key(&mut seq, $key);
            if found {
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
        match BlockField::of(&key_name(&k)) {
            Some(BlockField::Annotations) => annotations = read_annotations(r)?,
            Some(BlockField::Meta) => meta = Some(read_raw(r)?),
            Some(field) => field.read(r, &mut f)?,
            None => r.skip()?,
        }
    }
    let raw = || r.text_between(start, r.position());
    let kind = f.kind(raw);
    Ok(Block {
        kind,
        annotations,
        meta,
    })
}

impl<'a> FieldSource<'a> for Reader<'a> {
    type Error = Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
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
#[cfg_attr(not(debug_assertions), inline(always))]
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
    Ok(TypeFirst::Read(Block {
        kind: text_kind(text),
        annotations,
        meta,
    }))
}

/// The rest of an `image` or `audio` block whose type came first: `data`, `mimeType`,
/// `annotations` and `_meta`; `None` at any other field (a `uri` or `disposition` changes what
/// the block is).
#[cfg_attr(not(debug_assertions), inline(always))]
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
    Ok(TypeFirst::Read(Block {
        kind: media_kind(kind, data, mime_type, false, false, None),
        annotations,
        meta,
    }))
}

/// The rest of a `resource` block whose type came first: `resource`, `annotations` and
/// `_meta`; `None` at any other field (a `uri` makes it a bulk reference).
#[cfg_attr(not(debug_assertions), inline(always))]
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
    Ok(TypeFirst::Read(Block {
        kind: embedded_kind(resource),
        annotations,
        meta,
    }))
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

#[cfg(test)]
mod tests {
    use super::*;

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
            let block = read_block(&mut r).unwrap();
            r.finish().unwrap();
            block.into_owned()
        };
        let every_field = |json: &str| {
            let mut r = Reader::new(json.as_bytes());
            let block = read_every_field(&mut r).unwrap();
            r.finish().unwrap();
            block.into_owned()
        };
        // A block as read, less the spaces of the raw JSON text it keeps as it came.
        let unspaced = |mut block: Block<'static>| {
            let unspace = |raw: &mut Cow<'static, str>| *raw = Cow::Owned(raw.replace(' ', ""));
            block.meta.as_mut().map(unspace);
            if let BlockKind::Unknown { raw, .. } = &mut block.kind {
                unspace(raw);
            }
            block
        };
        let known = crate::wire::kinds::BLOCK_TYPES.map(|(name, _)| name);
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
                // Whichever reader took it, a block is what reading every field makes of it.
                for (json, read) in [(&first, &a), (&last, &b)] {
                    assert_eq!(*read, every_field(json), "{json}");
                }
                // Where the type is said once, its place does not matter (an unknown block
                // keeps its own text, which differs in order alone).
                if let (BlockKind::Unknown { raw, .. }, BlockKind::Unknown { raw: other, .. }) = (&mut a.kind, &b.kind)
                {
                    raw.clone_from(other);
                }
                if !body.contains(r#""type""#) {
                    assert_eq!(a, b, "{first}");
                }
            }
        }
    }
}
