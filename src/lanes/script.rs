//! The script lane: a code-execution script's structured result, walked at any depth.

use std::borrow::Cow;

use serde_json::Value;

use crate::classify::{is_block, object_shape, ObjectKeys, ObjectShape as Shape};
use crate::error::Error;
use crate::json::{is_plain, Peek, RawStr, Reader};
use crate::lanes::convert::AgentBlock;
use crate::wire::{key_name, nests_too_deep, read_block, read_block_if_type_first, read_resource_contents};

use crate::classify::classify_block;
use crate::lanes::convert::convert_block;
use crate::reference::ReferenceRegistry;
use crate::render::{self, Provenance};
use crate::target::Target;
use crate::wire::Block;

/// How deep the script lane walks; anything deeper is replaced by [`TOO_DEEP`].
pub const SCRIPT_MAX_DEPTH: usize = crate::json::MAX_DEPTH;

/// What stands in for a value nested deeper than [`SCRIPT_MAX_DEPTH`].
pub const TOO_DEEP: &str = "[nesting too deep: content below depth 127 not shown]";

/// Shows a script's result (a content array, `structuredContent`, any JSON) to the agent.
///
/// Every object that *is* a content block (its `type` is a block type and it has that type's
/// identifying field: `text`; `data` or `uri`; `resource` or `uri`), and every object that
/// is a read resource's contents (no string `type`, a `uri`, and one of `text`, `blob` or
/// `mimeType`, of any JSON type: a bad one becomes an `[unrecognized content block: …]`
/// marker, never its uri), is
/// replaced by its agent block as [`convert_block`] gives it, in the neutral JSON: text stays text, embedded text
/// becomes `{"type":"text","text":…}`, media stays media without any uri, and a reference,
/// withheld, invalid or unsupported block becomes a text block with its stub or marker. Every
/// other value is left as it is. Nesting deeper than [`SCRIPT_MAX_DEPTH`] is cut with a
/// marker, never a stack overflow.
///
/// ```
/// use mcp_agent_view::{script_view, ReferenceRegistry, Target};
/// use serde_json::json;
///
/// let result = json!({"rows": [{"note": {"type": "resource", "resource": {
///     "uri": "file:///n.txt", "text": "Quarterly notes: revenue up 4%."}}}]});
/// let view = script_view(&result, &ReferenceRegistry::new(), &Target::neutral());
/// assert_eq!(view, json!({"rows": [{"note": {"type": "text", "text": "Quarterly notes: revenue up 4%."}}]}));
/// ```
#[must_use]
pub fn script_view(value: &Value, registry: &ReferenceRegistry, target: &Target) -> Value {
    // One walker: the value is written out and walked as `script_json` walks bytes.
    let bytes = if nests_too_deep(value) {
        serde_json::to_vec(&pruned(value, 0))
    } else {
        serde_json::to_vec(value)
    };
    let shown = bytes
        .map_err(|e| e.to_string())
        .and_then(|bytes| script_json(&bytes, registry, target).map_err(|e| e.to_string()));
    // A `Value` writes out as JSON no deeper than the walk reads, and the walk writes JSON.
    shown.map_or(Value::Null, |json| serde_json::from_str(&json).unwrap_or(Value::Null))
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

/// Shows a script's result given as JSON bytes, as [`script_view`] shows a [`Value`], in one
/// pass: every value that is no block is copied as written, and each block is replaced by its
/// agent block in the neutral JSON. Nothing is parsed into a tree. Fails where `bytes` are not
/// JSON or nest deeper than 127 levels.
///
/// ```
/// use mcp_agent_view::{script_json, ReferenceRegistry, Target};
///
/// let bytes = br#"{"rows": [{"note": {"type": "resource", "resource": {
///     "uri": "file:///n.txt", "text": "Quarterly notes: revenue up 4%."}}}], "n": 1.50}"#;
/// let view = script_json(bytes, &ReferenceRegistry::new(), &Target::neutral())?;
/// assert_eq!(view, r#"{"rows":[{"note":{"text":"Quarterly notes: revenue up 4%.","type":"text"}}],"n":1.50}"#);
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn script_json(bytes: &[u8], registry: &ReferenceRegistry, target: &Target) -> Result<String, Error> {
    let lane = Lane {
        registry,
        provenance: Provenance::ScriptResult,
        media: Some(target),
    };
    transcode_all(bytes, &lane)
}

/// `structuredContent` as compact JSON text for the model: walked as the script lane walks it,
/// but every block in it (media too) replaced by a text block holding what the history lane
/// shows, so that neither a uri nor base64 reaches the text.
pub(crate) fn structured_text(json: &str, registry: &ReferenceRegistry, provenance: Provenance) -> String {
    let lane = Lane {
        registry,
        provenance,
        media: None,
    };
    // Fail closed: the raw text could hold the uris this walk exists to take out.
    transcode_all(json.as_bytes(), &lane).unwrap_or_else(|_| render::STRUCTURED_UNREADABLE.to_owned())
}

fn transcode_all(bytes: &[u8], lane: &Lane<'_>) -> Result<String, Error> {
    let mut reader = Reader::new(bytes);
    let mut out = Vec::with_capacity(bytes.len().min(1 << 20));
    transcode(&mut reader, &mut out, lane, true)?;
    reader.finish()?;
    Ok(match String::from_utf8(out) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Copies the next value to `out`, every block in it replaced. The reader bounds the depth.
///
/// With `first_type`, an object whose first key is a string `type` is read as a block at once,
/// and copied only where it turns out to be none; that copy reads its values without
/// `first_type`, so that no value is read more than twice however deep such objects nest.
fn transcode(r: &mut Reader<'_>, out: &mut Vec<u8>, lane: &Lane<'_>, first_type: bool) -> Result<(), Error> {
    match r.peek()? {
        Peek::Object => transcode_object(r, out, lane, first_type),
        Peek::Array => {
            let mut items = r.array()?;
            out.push(b'[');
            let mut first = true;
            while r.next_element(&mut items)? {
                if !std::mem::take(&mut first) {
                    out.push(b',');
                }
                transcode(r, out, lane, first_type)?;
            }
            out.push(b']');
            Ok(())
        }
        Peek::String => {
            let raw = r.string()?;
            out_string(out, &raw);
            Ok(())
        }
        Peek::Number => {
            out.extend_from_slice(r.number()?.as_bytes());
            Ok(())
        }
        Peek::Bool => {
            out.extend_from_slice(if r.boolean()? { b"true" } else { b"false" });
            Ok(())
        }
        Peek::Null => {
            r.null()?;
            out.extend_from_slice(b"null");
            Ok(())
        }
    }
}

/// An object's `type`.
#[derive(Default)]
enum TypeKey<'k> {
    #[default]
    Absent,
    NotString,
    Is(Cow<'k, str>),
}

/// The keys that tell whether an object is a block, on both walks, for
/// [`object_shape`] to decide on.
#[derive(Default)]
struct Keys<'k> {
    type_name: TypeKey<'k>,
    present: ObjectKeys<'static>,
}

impl Keys<'_> {
    fn shape(&self) -> Shape {
        let type_name = match &self.type_name {
            TypeKey::Is(t) => Some(&**t),
            TypeKey::Absent | TypeKey::NotString => None,
        };
        object_shape(&ObjectKeys {
            type_name,
            ..self.present
        })
    }
}

fn transcode_object(r: &mut Reader<'_>, out: &mut Vec<u8>, lane: &Lane<'_>, first_type: bool) -> Result<(), Error> {
    let start_in = r.position();
    // Most blocks name their type first: read it as one, once.
    if first_type {
        let mut block_reader = r.clone();
        let shown = read_block_if_type_first(&mut block_reader, |block, present| {
            let shown = block.type_name().is_some_and(|t| is_block(t, &present));
            if shown {
                write_shown(out, &block, lane);
            }
            shown
        })?;
        match shown {
            Some(true) => {
                *r = block_reader;
                return Ok(());
            }
            Some(false) => {
                copy_object(r, out, lane, true, false)?;
                return Ok(());
            }
            None => {}
        }
    }
    let start_out = out.len();
    let (shape, skipped) = copy_object(r, out, lane, false, first_type)?;
    if shape == Shape::Plain {
        if skipped {
            // Its keys looked like a block's for a while, and some values were not copied.
            out.truncate(start_out);
            copy_object(
                &mut Reader::new(r.slice(start_in, r.position())),
                out,
                lane,
                true,
                first_type,
            )?;
        }
        return Ok(());
    }
    out.truncate(start_out);
    let mut again = Reader::new(r.slice(start_in, r.position()));
    let block = match shape {
        Shape::ResourceContents => read_resource_contents(&mut again)?,
        _ => read_block(&mut again)?,
    };
    write_shown(out, &block, lane);
    Ok(())
}

/// Writes a block as the lane shows it, in the neutral JSON `script_view` gives (keys in its
/// order), without building a `Value`.
fn write_shown(out: &mut Vec<u8>, block: &Block<'_>, lane: &Lane<'_>) {
    let (kind, mime_type, data) = match agent_block(block, lane) {
        AgentBlock::Text { text } => return write_text(out, &text),
        AgentBlock::Image { mime_type, data } => ("image", mime_type, data),
        AgentBlock::Audio { mime_type, data } => ("audio", mime_type, data),
        AgentBlock::Document { mime_type, data } => ("document", mime_type, data),
    };
    // Checked base64 needs no escaping.
    out.extend_from_slice(b"{\"data\":\"");
    out.extend_from_slice(data.as_bytes());
    out.extend_from_slice(b"\",\"mimeType\":");
    write_str(out, &mime_type);
    out.extend_from_slice(b",\"type\":\"");
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(b"\"}");
}

fn write_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(b"{\"text\":");
    write_str(out, text);
    out.extend_from_slice(b",\"type\":\"text\"}");
}

/// A string as JSON: as it stands where nothing in it needs escaping (most strings), else
/// escaped as `serde_json` escapes.
fn write_str(out: &mut Vec<u8>, s: &str) {
    if is_plain(s.as_bytes()) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Copies an object to `out`, its values transcoded, and tells what it is. Once its keys show
/// a block (and `copy_all` is off), the rest of its values are skipped: it will be read again.
fn copy_object(
    r: &mut Reader<'_>,
    out: &mut Vec<u8>,
    lane: &Lane<'_>,
    copy_all: bool,
    first_type: bool,
) -> Result<(Shape, bool), Error> {
    let mut keys = Keys::default();
    let mut skipped = false;
    let mut seq = r.object()?;
    out.push(b'{');
    let mut first = true;
    while let Some(key) = r.next_key(&mut seq)? {
        let name = key_name(&key);
        let is_string = r.peek()? == Peek::String;
        out_key(out, &mut first, &key);
        match &*name {
            b"type" if is_string => {
                let raw = r.string()?;
                keys.type_name = TypeKey::Is(raw.text());
                out_string(out, &raw);
                continue;
            }
            b"type" => keys.type_name = TypeKey::NotString,
            b"text" => keys.present.text = true,
            b"data" => keys.present.data = true,
            b"uri" => keys.present.uri = true,
            b"resource" => keys.present.resource = true,
            b"blob" => keys.present.blob = true,
            b"mimeType" => keys.present.mime_type = true,
            _ => {}
        }
        if copy_all || keys.shape() == Shape::Plain {
            transcode(r, out, lane, first_type)?;
        } else {
            r.skip()?;
            skipped = true;
        }
    }
    out.push(b'}');
    Ok((if copy_all { Shape::Plain } else { keys.shape() }, skipped))
}

fn out_key(out: &mut Vec<u8>, first: &mut bool, key: &RawStr<'_>) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out_string(out, key);
    out.push(b':');
}

/// A string as written where it has no escape; else escaped anew, so that an escaped lone
/// surrogate goes out as U+FFFD.
fn out_string(out: &mut Vec<u8>, raw: &RawStr<'_>) {
    if let Some(text) = raw.is_escaped().then(|| raw.text()) {
        let _ = serde_json::to_writer(&mut *out, &*text);
    } else {
        out.push(b'"');
        out.extend_from_slice(raw.raw());
        out.push(b'"');
    }
}

/// What every block on the walk is shown with.
struct Lane<'r> {
    registry: &'r ReferenceRegistry,
    provenance: Provenance,
    /// The target media is checked against, or `None` where media is shown as its marker.
    media: Option<&'r Target>,
}

/// What a block is on this walk: its `convert_block` output, or, where media is shown as its
/// marker, a text block with what the history lane shows.
fn agent_block<'b>(block: &'b Block<'_>, lane: &Lane<'_>) -> AgentBlock<'b> {
    if let Some(target) = lane.media {
        return convert_block(block, lane.provenance, lane.registry, target);
    }
    let mut text = String::new();
    render::show(&classify_block(block), lane.provenance, lane.registry, &mut text);
    AgentBlock::Text { text: Cow::Owned(text) }
}
