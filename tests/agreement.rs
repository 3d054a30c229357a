//! The harness of agreement: every input through every path and lane, compared, as ripgrep's
//! searcher tester runs every input through every code path.
//!
//! What a message means is what `serde_json` makes of its bytes (the oracle): the last of a
//! repeated key, numbers as it reads them, invalid UTF-8 and nesting past 127 levels an error.
//! For each input the harness compares:
//! - the bytes path (`Message::parse`, `history_json`, `script_json`) with the `Value` path
//!   (`serde_json::from_slice`, then `Message::decode`, `script_view`), ids read as the uri
//!   they stand for (a `Value`'s keys are sorted, so a walk meets references in another order);
//! - the bytes as sent with the same JSON written again by an order-keeping writer (the last
//!   of a repeated key, at the first one's place, as JavaScript's and Python's JSON do): the
//!   same text, ids and records, exactly;
//! - what each lane shows with what its registry holds: a record for every id shown, and no
//!   other (reading has no side effects).
//!
//! The generators write the same messages compact, spaced, with keys shuffled, and with
//! decoys: a key given twice, the first time with another value (a block, a link, a scalar).

#[path = "support/generators.rs"]
mod generators;

use std::collections::BTreeSet;
use std::hash::{BuildHasher, BuildHasherDefault};

use generators::{block, result, Layout};
use mcp_agent_view::{
    convert, history, prompt_messages, script, tool_result, ErrorKind, HistoryOptions, Message, Provenance,
    ReferenceRegistry, Target,
};
use proptest::prelude::*;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Value};

/// JSON as written: keys in order, a key possibly twice.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Scalar(Value),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn from_value(value: &Value, layout: Layout) -> Json {
        match value {
            Value::Array(items) => Json::Array(items.iter().map(|v| Json::from_value(v, layout)).collect()),
            Value::Object(map) => {
                let mut entries: Vec<(String, Json)> = map
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::from_value(v, layout)))
                    .collect();
                if let Layout::Shuffled(seed) = layout {
                    entries.sort_by_key(|(k, _)| {
                        BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one((seed, k))
                    });
                }
                Json::Object(entries)
            }
            scalar => Json::Scalar(scalar.clone()),
        }
    }

    fn write(&self, spaced: bool, odd: bool, out: &mut String) {
        let (comma, colon) = if spaced { (", ", ": ") } else { (",", ":") };
        match self {
            Json::Scalar(Value::Number(n)) if odd && n.is_f64() => {
                out.push_str(&odd_spelling(n.as_f64().unwrap_or(0.0)));
            }
            Json::Scalar(v) => out.push_str(&v.to_string()),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "" } else { comma });
                    item.write(spaced, odd, out);
                }
                out.push(']');
            }
            Json::Object(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    out.push_str(if i == 0 { "" } else { comma });
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push_str(colon);
                    v.write(spaced, odd, out);
                }
                out.push('}');
            }
        }
    }

    fn text(&self, spaced: bool) -> String {
        let mut out = String::new();
        self.write(spaced, false, &mut out);
        out
    }

    /// The text with every float spelt another way that means the same (`2.5` as `2.50e0`,
    /// `1e16` as `1e+16`, `0.5` as `5e-1`), as another library might write it.
    fn text_spelt_oddly(&self, spaced: bool) -> String {
        let mut out = String::new();
        self.write(spaced, true, &mut out);
        out
    }

    /// Puts a decoy before some keys: the same key with another value, which the last one
    /// overrides. `pick` says, key by key, whether and which decoy.
    fn with_decoys(&mut self, pick: &mut impl FnMut() -> Option<Json>) {
        match self {
            Json::Scalar(_) => {}
            Json::Array(items) => items.iter_mut().for_each(|item| item.with_decoys(pick)),
            Json::Object(entries) => {
                let mut out = Vec::with_capacity(entries.len() * 2);
                for (k, mut v) in std::mem::take(entries) {
                    v.with_decoys(pick);
                    if let Some(decoy) = pick() {
                        out.push((k.clone(), decoy));
                    }
                    out.push((k, v));
                }
                *entries = out;
            }
        }
    }
}

/// `value` spelt as no `serde_json` writes it, but meaning the same `f64`: its shortest digits
/// in exponent form, a zero after them, and the exponent's sign always written (as Python writes
/// `1e+16`).
fn odd_spelling(value: f64) -> String {
    let spelt = format!("{value:e}");
    let (digits, exponent) = spelt.split_once('e').expect("exponent form");
    let digits = if digits.contains('.') {
        format!("{digits}0")
    } else {
        format!("{digits}.0")
    };
    let exponent = exponent
        .strip_prefix('-')
        .map_or_else(|| format!("+{exponent}"), |e| format!("-0{e}"));
    format!("{digits}e{exponent}")
}

/// Reads JSON as JavaScript's `JSON.parse` and Python's `json.loads` do: a repeated key keeps
/// its first place and its last value.
impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct JsonVisitor;
        impl<'de> Visitor<'de> for JsonVisitor {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Scalar(Value::Bool(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
                Ok(Json::Scalar(Value::from(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
                Ok(Json::Scalar(Value::from(v)))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
                Ok(Json::Scalar(Value::from(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Json, E> {
                Ok(Json::Scalar(Value::String(v.to_owned())))
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Scalar(Value::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut entries: Vec<(String, Json)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    match entries.iter_mut().find(|(key, _)| *key == k) {
                        Some(entry) => entry.1 = v,
                        None => entries.push((k, v)),
                    }
                }
                Ok(Json::Object(entries))
            }
        }
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Every `ref_` id in `text`, in order.
fn ids_in(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("ref_") {
        let start = at + found;
        let end = start + 17;
        if bytes.len() >= end
            && bytes[start + 4..end]
                .iter()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
        {
            ids.push(text[start..end].to_owned());
            at = end;
        } else {
            at = start + 4;
        }
    }
    ids
}

/// One path's reading of a message on one lane: what it shows, and the records behind it.
#[derive(Debug, PartialEq)]
struct Reading {
    shown: String,
    records: Vec<String>,
}

impl Reading {
    #[track_caller]
    fn of(shown: String, registry: &ReferenceRegistry) -> Reading {
        // Every stub's id was filled in: no placeholder is ever shown.
        assert!(!shown.contains("ref_?????????????"), "a placeholder shown in {shown}");
        let ids: BTreeSet<String> = ids_in(&shown).into_iter().collect();
        // Reading has no side effects: the registry holds a record for each id shown, and no
        // other.
        assert_eq!(registry.len(), ids.len(), "records beyond the ids shown in {shown}");
        let records = ids
            .iter()
            .map(|id| {
                let r = registry.lookup(id).unwrap_or_else(|e| panic!("{id} shown but: {e}"));
                format!(
                    "{} {} {:?} {:?} {:?} {:?}",
                    r.id, r.uri, r.name, r.mime_type, r.size_bytes, r.disposition
                )
            })
            .collect();
        Reading { shown, records }
    }

    /// The reading with every id replaced by the uri it stands for, and the JSON that text
    /// holds (`structuredContent`) with its keys sorted: for a path that has lost the order of
    /// the keys (a `Value`), and so meets references in another order.
    fn by_uri(&self, registry: &ReferenceRegistry) -> String {
        let mut shown = self.shown.clone();
        for id in ids_in(&self.shown) {
            let uri = registry.lookup(&id).map(|r| r.uri).unwrap_or_default();
            shown = shown.replace(&id, &format!("<ref {uri}>"));
        }
        let mut value = serde_json::from_str::<Value>(&shown).unwrap_or(Value::String(shown));
        sort_json_in_strings(&mut value);
        value.to_string()
    }
}

/// Every line of a string in `value` that is a JSON object or array, written again with its
/// keys sorted.
fn sort_json_in_strings(value: &mut Value) {
    match value {
        Value::String(s) => {
            let lines: Vec<String> = s
                .split('\n')
                .map(|line| match serde_json::from_str::<Value>(line) {
                    Ok(inner @ (Value::Object(_) | Value::Array(_))) => inner.to_string(),
                    _ => line.to_owned(),
                })
                .collect();
            *s = lines.join("\n");
        }
        Value::Array(items) => items.iter_mut().for_each(sort_json_in_strings),
        Value::Object(map) => map.values_mut().for_each(sort_json_in_strings),
        _ => {}
    }
}

const SEED: u64 = 11;

/// Every lane over a message read from bytes or decoded from a `Value`, each with a registry of
/// its own: (lane, reading, registry).
fn lanes(message: &Message<'_>) -> Vec<(&'static str, Reading, ReferenceRegistry)> {
    let mut out = Vec::new();
    let mut lane = |name, show: &dyn Fn(&ReferenceRegistry) -> String| {
        let registry = ReferenceRegistry::with_seed(SEED);
        let shown = show(&registry);
        out.push((name, Reading::of(shown, &registry), registry));
    };
    lane("history", &|r| history(message, r, &HistoryOptions::default()).unwrap());
    lane("history budget", &|r| {
        history(
            message,
            r,
            &HistoryOptions {
                budget: Some(120),
                ..HistoryOptions::default()
            },
        )
        .unwrap()
    });
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat()] {
        lane("blocks", &|r| {
            // What is held back is shown to the user: its stubs are shown too.
            let converted = convert(message, Provenance::PushEvent, r, &target).unwrap();
            json!([
                target.blocks_json(&converted.content),
                Target::neutral().blocks_json(&converted.held_for_user)
            ])
            .to_string()
        });
        lane("tool result", &|r| {
            // What is held back is shown to the user: its stubs are shown too.
            let result = tool_result(message, "t", "toolu_1", r, &target);
            let held = Target::neutral().blocks_json(&result.held_for_user);
            json!([target.tool_result_messages(&[result]), held]).to_string()
        });
        lane("prompt", &|r| {
            Value::Array(target.messages_json(&prompt_messages(message, r, &target).unwrap())).to_string()
        });
    }
    out
}

/// The script lane from bytes, as JSON text written again by `serde_json` (keys sorted).
fn script_of_bytes(bytes: &[u8], target: &Target) -> Option<(Reading, ReferenceRegistry)> {
    let registry = ReferenceRegistry::with_seed(SEED);
    let shown = script(bytes, &registry, target).ok()?;
    let value: Value = serde_json::from_str(&shown).expect("the script lane writes JSON");
    Some((Reading::of(value.to_string(), &registry), registry))
}

fn script_of_value(value: &Value, target: &Target) -> (Reading, ReferenceRegistry) {
    let registry = ReferenceRegistry::with_seed(SEED);
    let shown = serde_json::from_str::<serde_json::Value>(&script(value, &registry, target).unwrap())
        .unwrap()
        .to_string();
    (Reading::of(shown, &registry), registry)
}

/// The convert lane straight from the bytes, from a `Value` and from the decoded message.
fn convert_agrees(bytes: &[u8], value: &Value, parsed: &Message<'_>, text: &str) -> Result<(), TestCaseError> {
    for target in [Target::neutral(), Target::anthropic()] {
        let read = |convert: &dyn Fn(&ReferenceRegistry) -> mcp_agent_view::Converted<'static>| {
            let registry = ReferenceRegistry::with_seed(SEED);
            let converted = convert(&registry);
            let shown = json!([
                target.blocks_json(&converted.content),
                Target::neutral().blocks_json(&converted.held_for_user)
            ]);
            let reading = Reading::of(shown.to_string(), &registry);
            (reading.by_uri(&registry), reading)
        };
        let streamed = read(&|r| {
            convert(bytes, Provenance::PushEvent, r, &target)
                .expect("the bytes parse")
                .into_owned()
        });
        let of_value = read(&|r| {
            convert(value, Provenance::PushEvent, r, &target)
                .expect("a Value")
                .into_owned()
        });
        let of_message = read(&|r| {
            convert(parsed, Provenance::PushEvent, r, &target)
                .expect("a message")
                .into_owned()
        });
        prop_assert_eq!(
            &streamed.1,
            &of_message.1,
            "convert from bytes and from the message: {}",
            text
        );
        // A `Value` keeps no key order: what structuredContent shows is compared by its JSON.
        prop_assert_eq!(
            &streamed.0,
            &of_value.0,
            "convert from bytes and from a Value: {}",
            text
        );
    }
    Ok(())
}

/// The lanes that answer one call (tool result, prompt) straight from the bytes, in one pass,
/// and from the decoded message.
fn call_lanes_agree(bytes: &[u8], parsed: &Message<'_>, text: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        mcp_agent_view::classify::summaries(bytes).expect("the bytes parse"),
        mcp_agent_view::classify::summaries(parsed).expect("a message"),
        "classify from bytes and from the message: {}",
        text
    );
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat()] {
        let read = |show: &dyn Fn(&ReferenceRegistry) -> String| {
            let registry = ReferenceRegistry::with_seed(SEED);
            Reading::of(show(&registry), &registry)
        };
        let tool = |input: &dyn Fn(&ReferenceRegistry) -> mcp_agent_view::AgentToolResult<'static>| {
            read(&|r| {
                let result = input(r);
                let held = Target::neutral().blocks_json(&result.held_for_user);
                json!([target.tool_result_messages(&[result]), held]).to_string()
            })
        };
        prop_assert_eq!(
            tool(&|r| tool_result(bytes, "t", "toolu_1", r, &target).into_owned()),
            tool(&|r| tool_result(parsed, "t", "toolu_1", r, &target).into_owned()),
            "tool result from bytes and from the message: {}",
            text
        );
        let prompt = |input: &dyn Fn(&ReferenceRegistry) -> Vec<mcp_agent_view::AgentMessage<'static>>| {
            read(&|r| Value::Array(target.messages_json(&input(r))).to_string())
        };
        prop_assert_eq!(
            prompt(&|r| {
                prompt_messages(bytes, r, &target)
                    .expect("the bytes parse")
                    .into_iter()
                    .map(mcp_agent_view::AgentMessage::into_owned)
                    .collect()
            }),
            prompt(&|r| {
                prompt_messages(parsed, r, &target)
                    .expect("a message")
                    .into_iter()
                    .map(mcp_agent_view::AgentMessage::into_owned)
                    .collect()
            }),
            "prompt from bytes and from the message: {}",
            text
        );
    }
    Ok(())
}

/// Runs `bytes` through every path and lane and compares; fails naming the first difference.
fn agrees(bytes: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let oracle = serde_json::from_slice::<Value>(bytes);
    let parsed = Message::parse(bytes);
    let registry = ReferenceRegistry::with_seed(SEED);
    let in_one_pass = history(bytes, &registry, &HistoryOptions::default());
    let Ok(value) = oracle else {
        // Not JSON to serde_json: not JSON here either, on every path.
        prop_assert_eq!(
            parsed.map(|_| ()).map_err(|e| e.kind()),
            Err(ErrorKind::Json),
            "{}",
            text
        );
        prop_assert!(in_one_pass.is_err(), "{}", text);
        prop_assert!(script(bytes, &registry, &Target::neutral()).is_err(), "{}", text);
        return Ok(());
    };
    let decoded = Message::decode(&value);
    prop_assert_eq!(
        parsed.as_ref().map(|_| ()).map_err(mcp_agent_view::Error::kind),
        decoded.as_ref().map(|_| ()).map_err(mcp_agent_view::Error::kind),
        "{}",
        text
    );
    // Written again, keys in their order, each once.
    let ordered: Json = serde_json::from_slice(bytes).expect("serde_json read it");
    let again = ordered.text(false);
    for target in [Target::neutral(), Target::anthropic()] {
        let (from_bytes, bytes_registry) = script_of_bytes(bytes, &target).expect("serde_json read it");
        let (from_value, value_registry) = script_of_value(&value, &target);
        prop_assert_eq!(
            from_bytes.by_uri(&bytes_registry),
            from_value.by_uri(&value_registry),
            "script lane: {}",
            text
        );
        let (written_again, _) = script_of_bytes(again.as_bytes(), &target).expect("JSON");
        prop_assert_eq!(&from_bytes, &written_again, "script lane, written again: {}", text);
    }
    let (Ok(parsed), Ok(decoded)) = (parsed, decoded) else {
        return Ok(());
    };
    let once = Reading::of(in_one_pass.expect("the bytes parse"), &registry);
    let from_bytes = lanes(&parsed);
    prop_assert_eq!(
        &once,
        &from_bytes[0].1,
        "history from bytes and from the message: {}",
        text
    );
    convert_agrees(bytes, &value, &parsed, &text)?;
    call_lanes_agree(bytes, &parsed, &text)?;
    let from_value = lanes(&decoded);
    let reparsed = Message::parse(again.as_bytes()).expect("JSON written again");
    let from_again = lanes(&reparsed);
    for (((lane, bytes_reading, bytes_registry), (_, value_reading, value_registry)), (_, again_reading, _)) in
        from_bytes.iter().zip(&from_value).zip(&from_again)
    {
        prop_assert_eq!(
            bytes_reading.by_uri(bytes_registry),
            value_reading.by_uri(value_registry),
            "{}: {}",
            lane,
            text
        );
        prop_assert_eq!(bytes_reading, again_reading, "{}, written again: {}", lane, text);
    }
    Ok(())
}

/// A decoy for a key: another value of another kind, a block or a link among them.
fn decoys() -> Vec<Json> {
    [
        json!(null),
        json!(7),
        json!(-0.0),
        json!("decoy"),
        json!([]),
        json!({}),
        json!([{"type": "resource_link", "uri": "https://decoy.example/DECOY", "name": "decoy"}]),
        json!({"type": "text", "text": "DECOY"}),
        json!([{"role": "user", "content": {"type": "text", "text": "DECOY"}}]),
        json!({"content": [{"type": "resource_link", "uri": "https://decoy.example/2", "name": "d2"}]}),
        json!("resource_link"),
        json!(["user"]),
    ]
    .iter()
    .map(|v| Json::from_value(v, Layout::Servers))
    .collect()
}

/// Numbers as results hold them: whole and not, small, large, negative, any `f64`.
fn numbers() -> BoxedStrategy<Vec<Value>> {
    let number = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        (-1000i32..1000).prop_map(|n| Value::from(f64::from(n) / 4.0)),
        (-1000i32..1000).prop_map(|n| Value::from(f64::from(n))),
        prop::sample::select(vec![0.0, -0.0, 1e16, 1e21, 1e-7, 2f64.powi(53), 2f64.powi(64), 0.1])
            .prop_map(Value::from),
    ];
    prop::collection::vec(number, 0..4).boxed()
}

/// Messages of every container the crate reads.
fn message() -> BoxedStrategy<Value> {
    let block = block().boxed();
    let blocks = || prop::collection::vec(block.clone(), 0..5).boxed();
    prop_oneof![
        4 => result().boxed(),
        1 => blocks().prop_map(Value::Array),
        1 => block.clone(),
        1 => (blocks(), blocks()).prop_map(|(a, b)| json!({"messages": [
            {"role": "user", "content": a}, {"role": "assistant", "content": b}]})),
        1 => blocks().prop_map(|b| json!({"jsonrpc": "2.0", "id": 2, "result": {"contents": b}})),
        1 => (any::<i64>(), "[ -~]{0,20}").prop_map(|(code, message)| json!({"jsonrpc": "2.0", "id": 3,
            "error": {"code": code, "message": message}})),
        1 => (blocks(), numbers()).prop_map(|(b, n)| json!({"content": b, "structuredContent": {"rows": b, "n": n}})),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Every layout of every message, decoys and all, reads alike on every path.
    #[test]
    fn every_path_reads_every_message_alike(
        value in message(),
        shuffle in any::<bool>(),
        seed in any::<u64>(),
        spaced in any::<bool>(),
        picks in prop::collection::vec(0usize..40, 64),
    ) {
        let layout = if shuffle { Layout::Shuffled(seed) } else { Layout::Servers };
        let mut json = Json::from_value(&value, layout);
        let decoys = decoys();
        let mut next = picks.into_iter().cycle();
        json.with_decoys(&mut || next.next().and_then(|k| decoys.get(k).cloned()));
        agrees(json.text(spaced).as_bytes())?;
        agrees(json.text_spelt_oddly(spaced).as_bytes())?;
    }

    /// The same with a byte of the message spoilt: what `serde_json` refuses is refused on
    /// every path, and what it reads is read alike.
    #[test]
    fn a_spoilt_byte_reads_alike_or_fails_alike(value in message(), at in any::<prop::sample::Index>(), byte in prop_oneof![Just(0xffu8), Just(0xc3), Just(0x80), Just(b'"'), Just(b'\\'), Just(0x01), Just(b'{'), Just(b']')]) {
        let mut bytes = Json::from_value(&value, Layout::Servers).text(false).into_bytes();
        let at = at.index(bytes.len());
        bytes[at] = byte;
        agrees(&bytes)?;
    }
}

#[track_caller]
fn assert_agrees(json: &str) {
    if let Err(e) = agrees(json.as_bytes()) {
        panic!("{e}");
    }
}

#[test]
fn the_disagreements_issue_14_found_read_one_way() {
    for json in [
        // A repeated `content`, `messages`, `contents`, `result` and `audience`: the last.
        r#"{"content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"last"}]}"#,
        r#"{"messages":[{"role":"user","content":{"type":"text","text":"first"}}],"messages":[{"role":"user","content":{"type":"text","text":"last"}}]}"#,
        r#"{"contents":[{"uri":"file:///a","text":"first"}],"contents":[{"uri":"file:///b","text":"last"}]}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"first"}]},"result":{"content":[{"type":"text","text":"last"}]}}"#,
        r#"{"content":[{"type":"text","text":"for whom?","annotations":{"audience":["user"],"audience":["assistant"]}}]}"#,
        r#"{"content":[{"type":"text","text":"for whom?","annotations":{"audience":["assistant"],"audience":"user"}}]}"#,
        r#"{"messages":[{"role":"user","content":{"type":"text","text":"first"},"content":{"type":"text","text":"last"}}]}"#,
        // Two containers: the one the shape takes.
        r#"{"contents":[{"uri":"file:///a","text":"resource"}],"content":[{"type":"text","text":"content"}]}"#,
        // Numbers as serde_json reads them.
        r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":1023.9999999999999}]}"#,
        r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":1e3}]}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-0,"message":"zero"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m","code":"x"}}"#,
        // A link inside a block's content that is itself a block: only the block is shown.
        r#"{"content":[{"type":"resource_link","uri":"https://a.example/A","name":"A"}],"type":"resource_link","uri":"https://b.example/B","name":"B"}"#,
        // A link inside `_meta` of a block on the script lane.
        r#"{"rows":[{"type":"text","text":"t","_meta":{"type":"resource_link","uri":"https://m.example/M","name":"M"}}]}"#,
        // Not JSON: invalid UTF-8, nesting past 127, a number with a leading zero.
        "{\"content\":[{\"type\":\"text\",\"text\":\"\u{0}\"}]}",
        "[01e400]",
    ] {
        assert_agrees(json);
    }
    let mut bad = br#"{"content":[{"type":"text","t"#.to_vec();
    bad.push(0xff);
    bad.extend_from_slice(br#"ext":"x"}]}"#);
    assert!(agrees(&bad).is_ok());
    let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    assert_agrees(&deep(127));
    assert_agrees(&deep(128));
}

/// A number beyond `f64`'s range, which `serde_json` refuses, reads as the string of its
/// digits on every path and lane (`parse_json` repairs it so; the bytes path reads it so):
/// the bytes with the number show what the bytes with that string show, exactly, and the
/// `Value` `parse_json` makes of them is that of the string, whose paths `agrees` compares.
/// (A fuzz run found `structuredContent` shown with the number on one path, the string on
/// the other.)
#[test]
fn a_number_beyond_f64_reads_as_the_string_of_its_digits_on_every_path() {
    for template in [
        r#"{"content":[],"structuredContent":{"temp":N,"rows":[M,{"n":N}]}}"#,
        r#"{"content":[{"type":"text","text":"t"}],"structuredContent":[{"hour":"11:00","temp":N}]}"#,
        r#"{"content":[{"type":"resource","uri":"mcpl://bulk/1","name":"big.bin","sizeBytes":N},{"type":"text","text":"sibling"}],"structuredContent":{"n":M}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":M}]}}"#,
        r#"{"rows":[N,{"type":"text","text":"t","n":M}],"n":N,"link":{"type":"resource_link","uri":"file:///b","name":"b","size":N}}"#,
        // Where a string is read: a block's type, text, name and media type, an error's
        // message, a prompt's text, the type of a message that is one block.
        r#"{"content":[{"type":"text","text":N},{"type":M},{"type":"resource_link","uri":"file:///c","name":N,"mimeType":M}]}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":N}}"#,
        r#"{"messages":[{"role":"user","content":{"type":"text","text":M}}]}"#,
        r#"{"type":N}"#,
        r#"{"type":"text","text":N}"#,
    ] {
        let as_number = template.replace('N', "1e400").replace('M', "-17976931348623159e292");
        let as_string = template
            .replace('N', r#""1e400""#)
            .replace('M', r#""-17976931348623159e292""#);
        assert_agrees(&as_string);
        assert_eq!(
            mcp_agent_view::parse_json(as_number.as_bytes()).unwrap(),
            serde_json::from_str::<Value>(&as_string).unwrap(),
            "{as_number}"
        );
        let once = |json: &str| {
            let registry = ReferenceRegistry::with_seed(SEED);
            let shown = history(json.as_bytes(), &registry, &HistoryOptions::default()).ok();
            shown.map(|shown| Reading::of(shown, &registry))
        };
        assert_eq!(once(&as_number), once(&as_string), "{as_number}");
        for target in [Target::neutral(), Target::anthropic()] {
            assert_eq!(
                script_of_bytes(as_number.as_bytes(), &target).map(|(reading, _)| reading),
                script_of_bytes(as_string.as_bytes(), &target).map(|(reading, _)| reading),
                "script: {as_number}"
            );
        }
        // (The last is a script's result, no message: on both, and shown only by the script
        // lane.)
        match (
            Message::parse(as_number.as_bytes()),
            Message::parse(as_string.as_bytes()),
        ) {
            (Ok(number), Ok(string)) => {
                for ((lane, a, _), (_, b, _)) in lanes(&number).into_iter().zip(lanes(&string)) {
                    assert_eq!(a, b, "{lane}: {as_number}");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "{as_number}"),
            _ => panic!("a message on one only: {as_number}"),
        }
    }
}
