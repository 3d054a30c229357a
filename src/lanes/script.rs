//! The script lane: a code-execution script's structured result, walked at any depth.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

use serde_json::Value;

use crate::classify::{classify_block, object_shape, BlockField, FieldSet, ObjectKeys, ObjectShape as Shape};
use crate::error::{Error, ErrorKind};
use crate::input::{Json, JsonSource};
use crate::json::{is_plain, write_number, KeySet, Mark, Peek, RawStr, Reader};
use crate::lanes::agent::{convert_class_deferred, AgentBlock};
use crate::media::target::Target;
use crate::reference::{write_id, ReferenceRegistry, Stubs};
use crate::render::{self, Provenance};
use crate::wire::{key_name, nests_too_deep, read_block, read_resource_contents, Block};

use crate::render::{SCRIPT_MAX_DEPTH, TOO_DEEP};

/// Shows a script's result (a content array, `structuredContent`, any JSON) to the agent.
///
/// Every object that *is* a content block (its `type` is a block type and it has that type's
/// identifying field: `text`; `data` or `uri`; `resource` or `uri`), and every object that
/// is a read resource's contents (no string `type`, a `uri`, and one of `text`, `blob` or
/// `mimeType`, of any JSON type: a bad one becomes an `[unrecognized content block: …]`
/// marker, never its uri), is
/// replaced by its agent block as [`convert`](crate::convert) gives it, in the neutral JSON:
/// text stays text, embedded text becomes `{"type":"text","text":…}`, media stays media
/// without any uri, and a reference, withheld, invalid or unsupported block becomes a text
/// block with its stub or marker. Every other value is left as it is, keys in their order; a
/// number is written by its value, so that the same JSON written by any library shows the same
/// (a whole number as its digits: `1.0` and `1e2` give `1` and `100`; any other as the
/// shortest decimal that reads back, as `serde_json` writes it: `2.50` gives `2.5`; `-0` gives
/// `0`; a number beyond `f64`'s range, `1e400`, as the string of its digits, `"1e400"`, as
/// [`parse_json`](crate::parse_json) reads it). Nesting deeper than [`SCRIPT_MAX_DEPTH`] is cut with a marker, never a stack
/// overflow.
///
/// `json` is bytes, text or a `serde_json::Value`: one pass, nothing parsed into a tree (a
/// `Value` is written out first). Gives the view as compact JSON text; fails where bytes are
/// not JSON or nest deeper than 127 levels (a `Value` that deep is cut instead).
///
/// ```
/// use mcp_agent_view::{script, ReferenceRegistry, Target};
///
/// let bytes = br#"{"rows": [{"note": {"type": "resource", "resource": {
///     "uri": "file:///n.txt", "text": "Quarterly notes: revenue up 4%."}}}], "n": 1.50, "m": 2.0}"#;
/// let view = script(bytes, &ReferenceRegistry::new(), &Target::neutral())?;
/// assert_eq!(view, r#"{"rows":[{"note":{"text":"Quarterly notes: revenue up 4%.","type":"text"}}],"n":1.5,"m":2}"#);
///
/// let value = serde_json::json!({"note": {"type": "text", "text": "hi", "_meta": {"k": 1}}});
/// let view: serde_json::Value = serde_json::from_str(&script(&value, &ReferenceRegistry::new(), &Target::neutral())?)?;
/// assert_eq!(view, serde_json::json!({"note": {"type": "text", "text": "hi"}}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn script<'a>(json: impl Json<'a>, registry: &ReferenceRegistry, target: &Target) -> Result<String, Error> {
    match json.json() {
        JsonSource::Bytes(bytes) => script_bytes(bytes, registry, target),
        JsonSource::Value(value) => {
            // One walker: the value is written out and walked as bytes are. Deeper than the
            // walk reads, what is below is cut first, as the walk cuts it.
            let bytes = if nests_too_deep(value) {
                serde_json::to_vec(&pruned(value, 0))
            } else {
                serde_json::to_vec(value)
            };
            let bytes = bytes.map_err(|e| Error::new(ErrorKind::Json, format!("value is not JSON: {e}")))?;
            script_bytes(&bytes, registry, target)
        }
    }
}

/// `value`, its containers at depth [`SCRIPT_MAX_DEPTH`] and below replaced by [`TOO_DEEP`].
/// Recurses at most that deep.
fn pruned(value: &Value, depth: usize) -> Value {
    match value {
        Value::Object(_) | Value::Array(_) if depth >= SCRIPT_MAX_DEPTH => Value::String(TOO_DEEP.to_owned()),
        Value::Object(fields) => Value::Object(fields.iter().map(|(k, v)| (k.clone(), pruned(v, depth + 1))).collect()),
        Value::Array(items) => Value::Array(items.iter().map(|v| pruned(v, depth + 1)).collect()),
        other => other.clone(),
    }
}

fn script_bytes(bytes: &[u8], registry: &ReferenceRegistry, target: &Target) -> Result<String, Error> {
    let mut lane = Lane {
        provenance: Provenance::ScriptResult,
        media: Some(target),
        stubs: RefCell::new(Stubs::new(registry)),
        next: Cell::new(Object::Top),
        content_is_blocks: true,
        spans: Vec::new(),
    };
    let mut out = transcode(bytes, &mut lane)?;
    // Only now is it known which stubs are shown.
    registry.register_shown(&lane.stubs.into_inner(), |at, id| write_id(&mut out, at, id));
    Ok(out)
}

/// `structuredContent` as compact JSON text for the model: walked as the script lane walks it,
/// but every block in it (media too) replaced by a text block holding what the history lane
/// shows, so that neither a uri nor base64 reaches the text.
///
/// Its stubs join `stubs`, at their places in the text: the caller moves them to where it shows
/// the text.
pub(crate) fn structured_text(json: &str, stubs: &mut Stubs<'_>, provenance: Provenance) -> String {
    let first = stubs.len();
    let registry = stubs.registry();
    let mut lane = Lane {
        provenance,
        media: None,
        stubs: RefCell::new(std::mem::replace(stubs, Stubs::new(registry))),
        next: Cell::new(Object::Other),
        content_is_blocks: false,
        spans: Vec::new(),
    };
    // Fail closed: the raw text could hold the uris this walk exists to take out.
    let text = transcode(json.as_bytes(), &mut lane);
    *stubs = lane.stubs.into_inner();
    text.unwrap_or_else(|_| {
        stubs.truncate(first);
        render::STRUCTURED_UNREADABLE.to_owned()
    })
}

/// The walk of the JSON in `bytes`, its stubs left in `lane.stubs`.
fn transcode(bytes: &[u8], lane: &mut Lane<'_>) -> Result<String, Error> {
    let mut reader = Reader::new(bytes);
    // Bad JSON fails here, where the walk would have failed first.
    lane.spans = reader.clone().spans(SPAN_MIN)?;
    let lane = &*lane;
    let mut out = String::with_capacity(bytes.len().min(1 << 20));
    // Only an object at the top is a JSON-RPC message.
    if reader.peek()? != Peek::Object {
        lane.next.set(Object::Other);
    }
    transcode_value(&mut reader, &mut out, lane)?;
    reader.finish()?;
    Ok(out)
}

/// Copies the next value to `out`, every block in it replaced. The reader bounds the depth.
fn transcode_value(r: &mut Reader<'_>, out: &mut String, lane: &Lane<'_>) -> Result<(), Error> {
    match r.peek()? {
        Peek::Object => transcode_object(r, out, lane),
        Peek::Array => copy_array(r, out, |r, out| transcode_value(r, out, lane)),
        scalar => copy_scalar(r, out, scalar),
    }
}

/// Copies the string, number, `true`, `false` or `null` at `r`, of kind `peek`, to `out`.
fn copy_scalar(r: &mut Reader<'_>, out: &mut String, peek: Peek) -> Result<(), Error> {
    match peek {
        Peek::String => out_string(out, &r.string()?),
        Peek::Number => write_number(out, r.number()?),
        Peek::Bool => out.push_str(if r.boolean()? { "true" } else { "false" }),
        // `null`; a container never comes here (and would fail as no `null`).
        Peek::Null | Peek::Object | Peek::Array => {
            r.null()?;
            out.push_str("null");
        }
    }
    Ok(())
}

/// Copies the array at `r` to `out`, each item written by `item`.
fn copy_array<'a>(
    r: &mut Reader<'a>,
    out: &mut String,
    mut item: impl FnMut(&mut Reader<'a>, &mut String) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut items = r.array()?;
    out.push('[');
    let mut first = true;
    while r.next_element(&mut items)? {
        if !std::mem::take(&mut first) {
            out.push(',');
        }
        item(r, out)?;
    }
    out.push(']');
    Ok(())
}

/// Shows an object: its keys read first, each value stepped over, so that what it is is
/// decided before anything of it is written. A block (or a read resource's contents) is then
/// read from its start as one; any other object is copied, every value transcoded, as
/// `serde_json` reads it where a key comes twice.
///
/// What is not the walk into the object's values is in functions of its own, so that each
/// level of nesting holds only this frame and [`copy_object`]'s on the stack.
fn transcode_object(r: &mut Reader<'_>, out: &mut String, lane: &Lane<'_>) -> Result<(), Error> {
    let this = lane.next.replace(Object::Other);
    let start = r.mark();
    let (shape, repeated) = object_keys(r, lane)?;
    let end = r.mark();
    r.rewind(start);
    match shape {
        Shape::Plain => copy_object(r, out, lane, this, repeated)?,
        shape => write_object_block(r, out, lane, shape)?,
    }
    r.rewind(end);
    Ok(())
}

/// What the object at `r` is, from its keys, and whether a key comes twice; the reader left
/// past it.
fn object_keys(r: &mut Reader<'_>, lane: &Lane<'_>) -> Result<(Shape, bool), Error> {
    let mut names = KeySet::default();
    let mut repeated = false;
    let mut type_at = None;
    let mut fields = FieldSet::default();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        repeated |= !names.insert(&key);
        match &*key_name(&key) {
            b"type" => type_at = Some(r.mark()),
            name => {
                if let Some(field) = BlockField::of(name) {
                    fields.insert(field);
                }
            }
        }
        lane.step_over(r)?;
    }
    let end = r.mark();
    let mut type_name = None;
    if let Some(at) = type_at {
        r.rewind(at);
        if r.peek()? == Peek::String {
            type_name = Some(r.string()?.text());
        }
    }
    r.rewind(end);
    let shape = object_shape(&ObjectKeys {
        type_name: type_name.as_deref(),
        fields,
    });
    Ok((shape, repeated))
}

/// Copies the object at `r`, which is no block, every value transcoded.
fn copy_object(
    r: &mut Reader<'_>,
    out: &mut String,
    lane: &Lane<'_>,
    this: Object,
    repeated: bool,
) -> Result<(), Error> {
    out.push('{');
    let mut first = true;
    if repeated {
        for (key, name, mark) in last_values(r, lane)? {
            if !this.hides(&name) {
                out_key(out, &mut first, &key);
                r.rewind(mark);
                transcode_member(&name, r, out, lane, this)?;
            }
        }
    } else {
        let mut seq = r.object()?;
        while let Some(key) = r.next_key(&mut seq)? {
            let name = key_name(&key);
            if this.hides(&name) {
                lane.step_over(r)?;
            } else {
                out_key(out, &mut first, &key);
                transcode_member(&name, r, out, lane, this)?;
            }
        }
    }
    out.push('}');
    Ok(())
}

/// Writes the block (or read resource's contents) at `r` as the lane shows it.
fn write_object_block(r: &mut Reader<'_>, out: &mut String, lane: &Lane<'_>, shape: Shape) -> Result<(), Error> {
    let block = match shape {
        Shape::ResourceContents => read_resource_contents(r)?,
        _ => read_block(r)?,
    };
    write_shown(out, &block, lane);
    Ok(())
}

/// A member of an object: its key, as written and as a name, and where its value stands.
type Member<'a> = (RawStr<'a>, Cow<'a, [u8]>, Mark);

/// The members of the object at `r` as `serde_json` reads them where a key comes twice: each
/// key once, at its first place (as JavaScript's and Python's JSON keep it), with where its
/// last value stands.
#[inline(never)]
fn last_values<'a>(r: &mut Reader<'a>, lane: &Lane<'_>) -> Result<Vec<Member<'a>>, Error> {
    let mut members: Vec<Member<'a>> = Vec::new();
    // Where each name stands in `members`: one lookup a key, however many the object has.
    let mut places: HashMap<Cow<'a, [u8]>, usize> = HashMap::new();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        let name = key_name(&key);
        match places.entry(name.clone()) {
            Entry::Occupied(at) => members[*at.get()].2 = r.mark(),
            Entry::Vacant(place) => {
                place.insert(members.len());
                members.push((key, name, r.mark()));
            }
        }
        lane.step_over(r)?;
    }
    Ok(members)
}

/// Writes a block as the lane shows it, in the neutral JSON `script` gives (keys in its
/// order), without building a `Value`.
fn write_shown(out: &mut String, block: &Block<'_>, lane: &Lane<'_>) {
    let stubs = lane.stubs.borrow().len();
    let (kind, mime_type, data) = match agent_block(block, lane) {
        AgentBlock::Text { text } => return write_text(out, &text, stubs, lane),
        AgentBlock::Image { mime_type, data } => ("image", mime_type, data),
        AgentBlock::Audio { mime_type, data } => ("audio", mime_type, data),
        AgentBlock::Document { mime_type, data } => ("document", mime_type, data),
    };
    // Checked base64 needs no escaping.
    out.push_str("{\"data\":\"");
    out.push_str(&data);
    out.push_str("\",\"mimeType\":");
    write_str(out, mime_type);
    out.push_str(",\"type\":\"");
    out.push_str(kind);
    out.push_str("\"}");
}

/// Writes a text block; the stubs in `text` (the lane's from the `stubs`th on) move to their
/// places in `out`.
fn write_text(out: &mut String, text: &str, stubs: usize, lane: &Lane<'_>) {
    out.push_str("{\"text\":");
    let start = out.len() + 1;
    let plain = write_str(out, text);
    out.push_str(",\"type\":\"text\"}");
    lane.stubs.borrow_mut().moved_from(stubs, |at| {
        // Where the text was escaped, each stub moved by the escapes before it.
        let before = match text.get(..usize::try_from(at).unwrap_or(usize::MAX)) {
            Some(before) if !plain => serde_json::to_string(before).map_or(at, |s| s.len() as u64 - 2),
            _ => at,
        };
        start as u64 + before
    });
}

/// `s` as a JSON string, escaped as `serde_json` escapes.
fn push_escaped(out: &mut String, s: &str) {
    // Writing a string into a string cannot fail.
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

/// A string as JSON: as it stands where nothing in it needs escaping (most strings), else
/// escaped as `serde_json` escapes. Tells whether it stood as it was.
fn write_str(out: &mut String, s: &str) -> bool {
    let plain = is_plain(s.as_bytes());
    if plain {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        push_escaped(out, s);
    }
    plain
}

/// Where an object stands, for what of it the model may read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Object {
    /// The top of what the script lane shows: a JSON-RPC message, where it is one.
    Top,
    /// The `error` of the top object: its `data` is the server's, not for the model.
    Error,
    /// Any other.
    Other,
}

impl Object {
    /// Whether a member of this object is left out: `_meta`, metadata for the host, on every
    /// object; an error's `data`.
    fn hides(self, name: &[u8]) -> bool {
        name == b"_meta" || (self == Object::Error && name == b"data")
    }
}

/// Copies the value of an object's member `name` (the object no block), every block in it
/// replaced: on the script lane, every item of a `content` array is a block whatever its
/// type (an unknown type, or no object, shows its marker), as a message's are on every lane.
fn transcode_member(
    name: &[u8],
    r: &mut Reader<'_>,
    out: &mut String,
    lane: &Lane<'_>,
    this: Object,
) -> Result<(), Error> {
    match (name, r.peek()?) {
        (b"content", Peek::Array) if lane.content_is_blocks => copy_array(r, out, |r, out| {
            write_shown(out, &read_block(r)?, lane);
            Ok(())
        }),
        (b"error", Peek::Object) if this == Object::Top => {
            lane.next.set(Object::Error);
            transcode_value(r, out, lane)
        }
        _ => transcode_value(r, out, lane),
    }
}

fn out_key(out: &mut String, first: &mut bool, key: &RawStr<'_>) {
    if !std::mem::take(first) {
        out.push(',');
    }
    out_string(out, key);
    out.push(':');
}

/// A string as written where it has no escape; else escaped anew, so that an escaped lone
/// surrogate goes out as U+FFFD.
fn out_string(out: &mut String, raw: &RawStr<'_>) {
    if let Some(text) = raw.is_escaped().then(|| raw.text()) {
        push_escaped(out, &text);
    } else {
        out.push('"');
        out.push_str(raw.as_str());
        out.push('"');
    }
}

/// What every block on the walk is shown with.
struct Lane<'r> {
    provenance: Provenance,
    /// The target media is checked against, or `None` where media is shown as its marker.
    media: Option<&'r Target>,
    /// The stubs written into the output, registered when the walk is done. Those of the
    /// block being shown are at their places in its text until it is written.
    stubs: RefCell<Stubs<'r>>,
    /// What the next object the walk meets is: the top of a message, the `error` of one, or
    /// any other; taken by that object.
    next: Cell<Object>,
    /// Whether the objects of a `content` array are blocks whatever their type, as a
    /// message's are (a script's result holds tool results); not in a tool's own
    /// `structuredContent`, whose data is its own.
    content_is_blocks: bool,
    /// Where containers of the input start and end ([`Reader::spans`]), found before the walk:
    /// an object's keys are read before anything of it is written, stepping over its values,
    /// and the walk then reads the values it shows.
    spans: Vec<(usize, usize)>,
}

/// The bytes of input for each container [`Lane::spans`] notes: its notes take at most half
/// the input (sixteen bytes each), and a container not noted is read again only by the
/// objects that hold it within a few such lengths.
const SPAN_MIN: usize = 32;

impl Lane<'_> {
    /// Steps over the value at `r`, at once over each container [`Lane::spans`] noted.
    fn step_over(&self, r: &mut Reader<'_>) -> Result<(), Error> {
        r.step_over(&self.spans)
    }
}

/// What a block is on this walk: its `convert` output, or, where media is shown as its
/// marker, a text block with what the history lane shows.
fn agent_block<'b>(block: &'b Block<'_>, lane: &Lane<'_>) -> AgentBlock<'b> {
    let mut stubs = lane.stubs.borrow_mut();
    if let Some(target) = lane.media {
        return convert_class_deferred(classify_block(block), lane.provenance, &mut stubs, target);
    }
    let mut text = String::with_capacity(128);
    render::show(&classify_block(block), lane.provenance, &mut stubs, &mut text);
    AgentBlock::Text { text: Cow::Owned(text) }
}
