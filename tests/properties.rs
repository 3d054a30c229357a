//! Properties that hold for every input: generated blocks and results, and arbitrary JSON,
//! through every lane and target.

use base64::Engine as _;
use mcp_agent_view::{
    classify_block, convert_message, history, history_blocks, prompt_messages, script_view, tool_result, AgentBlock,
    HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, BuildHasherDefault};

/// How many cases each property runs; `PROPTEST_CASES` overrides it.
const CASES: u32 = 1024;

/// Any character a server might send, controls and bidi marks included.
fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,24}",
        "\\PC{0,24}",
        "[\\x00-\\x1f\\x7f-\\x9f\u{200e}\u{202a}-\u{202e}\u{2066}-\u{2069}a-z]{0,24}",
        (1usize..3000).prop_map(|n| "L".repeat(n)),
    ]
}

/// Uris the tests look for: at least eight characters, with a marker no text shares.
fn uri() -> impl Strategy<Value = String> {
    "(file|https|demo|mcpl)://h[a-z0-9]{4,8}/p[a-z0-9]{2,6}\\?token=SECRET[A-Z0-9]{12}"
}

fn mime() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("image/png".to_owned()),
        Just("image/jpeg".to_owned()),
        Just("image/svg+xml".to_owned()),
        Just("audio/wav".to_owned()),
        Just("audio/mpeg".to_owned()),
        Just("text/plain".to_owned()),
        Just("application/json".to_owned()),
        Just("application/pdf".to_owned()),
        Just("application/octet-stream".to_owned()),
        label(),
    ]
}

/// Base64 as servers send it: valid, of a real format, broken, wrapped.
fn data() -> impl Strategy<Value = String> {
    let b64 = |bytes: Vec<u8>| base64::engine::general_purpose::STANDARD.encode(bytes);
    let with_magic =
        |magic: &'static [u8]| prop::collection::vec(any::<u8>(), 0..200).prop_map(move |tail| [magic, &tail].concat());
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300).prop_map(b64),
        with_magic(b"\x89PNG\r\n\x1a\n").prop_map(b64),
        with_magic(b"\xff\xd8\xff").prop_map(b64),
        with_magic(b"RIFF\0\0\0\0WAVE").prop_map(b64),
        with_magic(b"%PDF-1.7\n").prop_map(b64),
        "[A-Za-z0-9+/=!*\\n -]{0,200}",
        prop::collection::vec(any::<u8>(), 60..300).prop_map(move |bytes| {
            let text = b64(bytes);
            text.as_bytes()
                .chunks(76)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
                .join("\r\n")
        }),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        label().prop_map(Value::String),
    ]
}

/// Any JSON, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    label(),
                    Just("type".to_owned()),
                    Just("text".to_owned()),
                    Just("uri".to_owned())
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An optional field: absent, the right type, or any scalar at all.
fn field(good: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![3 => Just(None), 6 => good.prop_map(Some), 1 => scalar().prop_map(Some)]
}

fn object(fields: Vec<(&'static str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect::<Map<_, _>>(),
    )
}

fn annotations() -> impl Strategy<Value = Option<Value>> {
    let role = prop_oneof![Just("user".to_owned()), Just("assistant".to_owned()), label()];
    prop::option::of(prop::collection::vec(role, 0..3).prop_map(|audience| json!({"audience": audience})))
}

fn block() -> impl Strategy<Value = Value> {
    let string = |s: BoxedStrategy<String>| s.prop_map(Value::String);
    let text = (field(string(label().boxed())), annotations()).prop_map(|(text, ann)| {
        object(vec![
            ("type", Some(json!("text"))),
            ("text", text),
            ("annotations", ann),
        ])
    });
    let media = (
        prop_oneof![Just("image"), Just("audio")],
        field(string(data().boxed())),
        field(string(mime().boxed())),
        prop::option::of(uri().prop_map(Value::String)),
        prop::option::of(prop_oneof![Just(json!("never")), Just(json!("ref"))]),
        annotations(),
    )
        .prop_map(|(kind, data, mime, uri, disposition, ann)| {
            object(vec![
                ("type", Some(json!(kind))),
                ("data", data),
                ("mimeType", mime),
                ("uri", uri),
                ("disposition", disposition),
                ("annotations", ann),
            ])
        });
    let embedded = (
        uri(),
        field(string(mime().boxed())),
        field(string(label().boxed())),
        field(string(data().boxed())),
        annotations(),
    )
        .prop_map(|(uri, mime, text, blob, ann)| {
            let resource = object(vec![
                ("uri", Some(json!(uri))),
                ("mimeType", mime),
                ("text", text),
                ("blob", blob),
            ]);
            object(vec![
                ("type", Some(json!("resource"))),
                ("resource", Some(resource)),
                ("annotations", ann),
            ])
        });
    let reference = (
        prop_oneof![Just("resource"), Just("resource_link")],
        uri(),
        field(string(label().boxed())),
        field(string(mime().boxed())),
        field(prop_oneof![
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from)
        ]),
        field(prop_oneof![
            Just(json!("never")),
            Just(json!("ref")),
            label().prop_map(Value::String)
        ]),
    )
        .prop_map(|(kind, uri, name, mime, size, disposition)| {
            let size_key = if kind == "resource" { "sizeBytes" } else { "size" };
            object(vec![
                ("type", Some(json!(kind))),
                ("uri", Some(json!(uri))),
                ("name", name),
                ("mimeType", mime),
                (size_key, size),
                ("disposition", disposition),
            ])
        });
    let unknown = (label(), any_json()).prop_map(|(t, extra)| json!({"type": t, "extra": extra}));
    prop_oneof![3 => text, 3 => media, 3 => embedded, 3 => reference, 1 => unknown, 1 => scalar()]
}

/// A tool result, alone or in a JSON-RPC envelope.
fn result() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(block(), 0..8),
        prop::option::of(any_json()),
        prop::option::of(any::<bool>()),
        any::<bool>(),
    )
        .prop_map(|(content, structured, is_error, envelope)| {
            let mut result = json!({"content": content});
            if let Some(structured) = structured {
                result["structuredContent"] = structured;
            }
            if let Some(is_error) = is_error {
                result["isError"] = json!(is_error);
            }
            if envelope {
                json!({"jsonrpc": "2.0", "id": 1, "result": result})
            } else {
                result
            }
        })
}

fn targets() -> [Target; 4] {
    [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ]
}

/// Everything the model reads of `input`, on every lane and target: (texts, everything).
fn everything_read(input: &Value, seed: u64) -> (Vec<String>, Vec<String>) {
    let registry = ReferenceRegistry::with_seed(seed);
    let message = Message::decode(input).expect("generated results decode");
    let mut texts = vec![history(&message, &registry, &HistoryOptions::default())];
    let mut all = Vec::new();
    for target in targets() {
        let blocks = convert_message(&message, Provenance::PushEvent, &registry, &target);
        texts.extend(blocks.iter().filter_map(AgentBlock::as_text).map(str::to_owned));
        all.push(target.blocks_json(&blocks).to_string());
        let result = tool_result(&message, "tool", "toolu_1", &registry, &target);
        texts.extend(result.content.iter().filter_map(AgentBlock::as_text).map(str::to_owned));
        let shaped = Value::Array(target.tool_results_json(std::slice::from_ref(&result)));
        collect_texts(&shaped, &mut texts);
        all.push(shaped.to_string());
        let script = script_view(input, &registry, &target);
        collect_texts(&script, &mut texts);
        all.push(script.to_string());
        let prompt = json!({"messages": [{"role": "user", "content": message_content(input)}]});
        let prompt_message = Message::decode(&prompt).unwrap();
        let messages = prompt_messages(&prompt_message, &registry, &target);
        all.push(Value::Array(target.messages_json(&messages)).to_string());
    }
    all.extend(texts.iter().cloned());
    (texts, all)
}

fn message_content(input: &Value) -> Value {
    input.get("result").unwrap_or(input)["content"].clone()
}

/// Every string at a `text` key, and every string `content` (OpenAI tool messages).
fn collect_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            for (k, v) in obj {
                match v {
                    Value::String(s) if k == "text" || k == "content" => out.push(s.clone()),
                    _ => collect_texts(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_texts(v, out)),
        _ => {}
    }
}

/// Every string and key in `value` but the strings at `data` and `blob` keys.
fn words(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Object(obj) => {
            out.extend(obj.keys().cloned());
            obj.iter()
                .filter(|(k, _)| *k != "data" && *k != "blob")
                .for_each(|(_, v)| words(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| words(v, out)),
        _ => {}
    }
}

fn strings_at(value: &Value, key: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            for (k, v) in obj {
                if let (true, Value::String(s)) = (k == key, v) {
                    out.push(s.clone());
                }
                strings_at(v, key, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| strings_at(v, key, out)),
        _ => {}
    }
}

/// How a server might lay out the same JSON: its keys' order, and white space.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Keys in the order the official servers write them: a block's type first, a link's
    /// last (after its name, uri, description and mime type).
    Servers,
    /// Keys in an order drawn from the seed.
    Shuffled(u64),
}

/// `value` written in `layout`, compact or with a space after every comma and colon.
fn write_laid_out(value: &Value, layout: Layout, spaced: bool, out: &mut String) {
    const ORDER: [&str; 14] = [
        "type",
        "name",
        "uri",
        "description",
        "data",
        "mimeType",
        "text",
        "blob",
        "resource",
        "size",
        "sizeBytes",
        "disposition",
        "annotations",
        "_meta",
    ];
    let (comma, colon) = if spaced { (", ", ": ") } else { (",", ":") };
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { comma });
                write_laid_out(item, layout, spaced, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            match layout {
                Layout::Servers => {
                    let link = map.get("type") == Some(&json!("resource_link"));
                    keys.sort_by_key(|k| match ORDER.iter().position(|o| o == k) {
                        Some(0) if link => ORDER.len() + 1,
                        rank => rank.unwrap_or(ORDER.len()),
                    });
                }
                // A keyed hash of each key: an order of its own for every seed and key set.
                Layout::Shuffled(seed) => {
                    keys.sort_by_key(|k| BuildHasherDefault::<DefaultHasher>::default().hash_one((seed, k)));
                }
            }
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { comma });
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push_str(colon);
                write_laid_out(&map[*key], layout, spaced, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// The block readers compare the keys they expect where servers write them, compact, and
    /// read any other layout key by key: what the model reads is the same in every layout.
    #[test]
    fn layout_does_not_change_what_is_read(mut input in result(), seed in any::<u64>()) {
        // Structured content is shown as the server wrote it, spacing and order included.
        if let Some(object) = input.as_object_mut() {
            object.remove("structuredContent");
        }
        if let Some(object) = input.get_mut("result").and_then(Value::as_object_mut) {
            object.remove("structuredContent");
        }
        let read = |bytes: &[u8]| {
            let history = mcp_agent_view::history_json(bytes, &ReferenceRegistry::with_seed(5), &HistoryOptions::default()).unwrap();
            let message = Message::parse(bytes).unwrap();
            let tool = tool_result(&message, "tool", "toolu_1", &ReferenceRegistry::with_seed(5), &Target::anthropic());
            (history, Target::anthropic().tool_results_json(std::slice::from_ref(&tool)))
        };
        let bytes = serde_json::to_vec(&input).unwrap();
        let sorted = read(&bytes);
        let value = serde_json::from_slice::<Value>(&bytes).unwrap();
        for layout in [Layout::Servers, Layout::Shuffled(seed)] {
            for spaced in [false, true] {
                let mut json = String::new();
                write_laid_out(&input, layout, spaced, &mut json);
                prop_assert_eq!(&serde_json::from_str::<Value>(&json).unwrap(), &value);
                prop_assert_eq!(&read(json.as_bytes()), &sorted, "{}", json);
            }
        }
    }

    /// No uri of an embedded resource or a reference is read, unless the input's own text
    /// carries it; nothing panics on the way, on any lane or target.
    #[test]
    fn no_uri_leaks(input in result()) {
        // The uris of embedded resources and references: of the blocks of known types.
        let mut uris = Vec::new();
        for block in message_content(&input).as_array().into_iter().flatten() {
            if matches!(block["type"].as_str(), Some("image" | "audio" | "resource" | "resource_link")) {
                strings_at(block, "uri", &mut uris);
            }
        }
        let mut own_text = Vec::new();
        strings_at(&input, "text", &mut own_text);
        let (_, all) = everything_read(&input, 1);
        for uri in uris.iter().filter(|u| u.chars().count() >= 8 && !own_text.iter().any(|t| t.contains(u.as_str()))) {
            for out in &all {
                prop_assert!(!out.contains(uri.as_str()), "{} leaks into {}", uri, out);
            }
        }
    }

    /// No run of 64 base64 characters from the input's data or blobs is in any text read, unless
/// the input's own words (a text, a name) carry it.
    #[test]
    fn no_base64_in_text(input in result()) {
        let mut data = Vec::new();
        strings_at(&input, "data", &mut data);
        strings_at(&input, "blob", &mut data);
        // The input's own words: every string that is no data or blob (texts, names, types).
        let mut own_text = Vec::new();
        words(&input, &mut own_text);
        let (texts, _) = everything_read(&input, 1);
        for d in data.iter().filter(|d| d.is_ascii() && d.len() >= 64) {
            for start in (0..=d.len() - 64).step_by(16) {
                let run = &d[start..start + 64];
                let base64 = run.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
                if base64 && !own_text.iter().any(|t| t.contains(run)) {
                    for text in &texts {
                        prop_assert!(!text.contains(run), "base64 {} in text {}", run, text);
                    }
                }
            }
        }
    }

    /// Each block gives one agent block, and one piece of the history string; a piece is
    /// bounded by the block's own text, or by a constant.
    #[test]
    fn every_block_is_accounted_for_and_bounded(input in result()) {
        let registry = ReferenceRegistry::with_seed(3);
        let message = Message::decode(&input).unwrap();
        let blocks: Vec<_> = message.blocks().collect();
        for target in targets() {
            prop_assert_eq!(convert_message(&message, Provenance::PushEvent, &registry, &target).len(), blocks.len());
        }
        let whole = history(&message, &registry, &HistoryOptions::default());
        let mut pieces = Vec::new();
        for block in &blocks {
            let piece = history_blocks([*block], &registry, &HistoryOptions::default());
            let class = classify_block(block);
            let own = if class.is_text() { piece.chars().count() } else { 0 };
            prop_assert!(piece.chars().count() <= own + 400, "{} chars for {:?}", piece.chars().count(), class.name());
            if !class.is_text() {
                prop_assert!(!piece.is_empty(), "a marker for every non-text block");
            }
            pieces.push(piece);
        }
        prop_assert_eq!(whole, pieces.join("\n"));
    }

    /// The bytes path reads what the `Value` path reads.
    #[test]
    fn bytes_and_values_read_alike(input in result()) {
        let bytes = serde_json::to_vec(&input).unwrap();
        let from_value = history(&Message::decode(&input).unwrap(), &ReferenceRegistry::with_seed(5), &HistoryOptions::default());
        let from_bytes = mcp_agent_view::history_json(&bytes, &ReferenceRegistry::with_seed(5), &HistoryOptions::default()).unwrap();
        prop_assert_eq!(&from_value, &from_bytes);
        let parsed = Message::parse(&bytes).unwrap();
        prop_assert_eq!(Message::decode(&input).unwrap(), parsed.into_owned());
        for target in targets() {
            let view = script_view(&input, &ReferenceRegistry::with_seed(5), &target);
            let json = mcp_agent_view::script_json(&bytes, &ReferenceRegistry::with_seed(5), &target).unwrap();
            // As text: serde_json's own float parsing may differ in the last place.
            prop_assert_eq!(serde_json::to_string(&view).unwrap(), json);
        }
    }

    /// The same input with the same registry state gives the same output.
    #[test]
    fn output_is_deterministic(input in result()) {
        prop_assert_eq!(everything_read(&input, 9), everything_read(&input, 9));
    }

    /// Any JSON at all: decoding and every lane either work or say why; nothing panics.
    #[test]
    fn any_json_is_safe(input in any_json()) {
        let registry = ReferenceRegistry::new();
        for target in targets() {
            let _ = script_view(&input, &registry, &target);
        }
        if let Ok(message) = Message::decode(&input) {
            for target in targets() {
                let _ = history(&message, &registry, &HistoryOptions { budget: Some(50), ..HistoryOptions::default() });
                let blocks = convert_message(&message, Provenance::ContextInjection, &registry, &target);
                let _ = target.blocks_json(&blocks);
                let result = tool_result(&message, "t", "toolu_1", &registry, &target);
                let _ = target.tool_results_json(&[result]);
                let _ = target.messages_json(&prompt_messages(&message, &registry, &target));
            }
            for block in message.blocks() {
                let _ = classify_block(block).summary();
            }
        }
    }

    /// Any bytes at all: `parse_json` either gives a value or an error.
    #[test]
    fn any_bytes_parse_or_fail_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(value) = mcp_agent_view::parse_json(&bytes) {
            let _ = Message::decode(&value);
        }
    }
}
