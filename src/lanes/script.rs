//! The script lane: a code-execution script's structured result, walked at any depth.

use serde_json::{Map, Value};

use crate::classify::classify_block;
use crate::lanes::convert::convert_block;
use crate::reference::ReferenceRegistry;
use crate::render::{self, Provenance};
use crate::target::Target;
use crate::wire::Block;

/// How deep the script lane walks; anything deeper is replaced by [`TOO_DEEP`].
pub const SCRIPT_MAX_DEPTH: usize = 128;

/// What stands in for a value nested deeper than [`SCRIPT_MAX_DEPTH`].
pub const TOO_DEEP: &str = "[nesting too deep: content below depth 128 not shown]";

/// Shows a script's result (a content array, `structuredContent`, any JSON) to the agent.
///
/// Every object that *is* a content block (its `type` is a block type and it has that type's
/// identifying field: `text`; `data` or `uri`; `resource` or `uri`), and every object that
/// is a read resource's contents (no `type`, a string `uri`, a string `text` or `blob`), is
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
    let lane = Lane {
        registry,
        provenance: Provenance::ScriptResult,
        media: Some(target),
    };
    walk(value, 0, &lane)
}

/// `structuredContent` as compact JSON text for the model: walked as the script lane walks it,
/// but every block in it (media too) replaced by a text block holding what the history lane
/// shows, so that neither a uri nor base64 reaches the text.
pub(crate) fn structured_text(json: &str, registry: &ReferenceRegistry, provenance: Provenance) -> String {
    let Ok(value) = crate::parse_json(json.as_bytes()) else {
        return json.to_owned();
    };
    let lane = Lane {
        registry,
        provenance,
        media: None,
    };
    walk(&value, 0, &lane).to_string()
}

/// What every block on the walk is shown with.
struct Lane<'r> {
    registry: &'r ReferenceRegistry,
    provenance: Provenance,
    /// The target media is checked against, or `None` where media is shown as its marker.
    media: Option<&'r Target>,
}

fn walk(value: &Value, depth: usize, lane: &Lane<'_>) -> Value {
    if depth >= SCRIPT_MAX_DEPTH && (value.is_object() || value.is_array()) {
        return Value::String(TOO_DEEP.to_owned());
    }
    match value {
        Value::Object(obj) => match shape(obj) {
            Shape::Block => show(&Block::decode(value), lane),
            Shape::ResourceContents => show(&Block::decode_resource_contents(value), lane),
            Shape::Other => Value::Object(
                obj.iter()
                    .map(|(k, v)| (k.clone(), walk(v, depth + 1, lane)))
                    .collect::<Map<String, Value>>(),
            ),
        },
        Value::Array(items) => Value::Array(items.iter().map(|v| walk(v, depth + 1, lane)).collect()),
        other => other.clone(),
    }
}

fn show(block: &Block<'_>, lane: &Lane<'_>) -> Value {
    if let Some(target) = lane.media {
        return convert_block(block, lane.provenance, lane.registry, target).to_json();
    }
    let mut text = String::new();
    render::show(&classify_block(block), lane.provenance, lane.registry, &mut text);
    serde_json::json!({"type": "text", "text": text})
}

enum Shape {
    /// A block type with that type's identifying field.
    Block,
    /// No `type`, a string `uri`, and a string `text` or `blob`.
    ResourceContents,
    /// Any other object.
    Other,
}

fn shape(obj: &Map<String, Value>) -> Shape {
    let has = |key| obj.contains_key(key);
    let has_string = |key| obj.get(key).is_some_and(Value::is_string);
    let is_block = match obj.get("type") {
        None => {
            return if has_string("uri") && (has_string("text") || has_string("blob")) {
                Shape::ResourceContents
            } else {
                Shape::Other
            };
        }
        Some(Value::String(t)) => match t.as_str() {
            "text" => has("text"),
            "image" | "audio" => has("data") || has("uri"),
            "resource" => has("resource") || has("uri"),
            "resource_link" => has("uri"),
            _ => false,
        },
        Some(_) => false,
    };
    if is_block {
        Shape::Block
    } else {
        Shape::Other
    }
}
