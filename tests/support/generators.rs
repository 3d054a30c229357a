//! Generators shared by the property tests and the agreement harness: blocks, results and
//! any JSON as servers send them, and the layouts they are written in.
#![allow(dead_code)]

use base64::Engine as _;
use mcp_agent_view::Target;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, BuildHasherDefault};

/// Any character a server might send, controls and bidi marks included.
pub fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,24}",
        "\\PC{0,24}",
        "[\\x00-\\x1f\\x7f-\\x9f\u{200e}\u{202a}-\u{202e}\u{2066}-\u{2069}a-z]{0,24}",
        (1usize..3000).prop_map(|n| "L".repeat(n)),
    ]
}

/// Uris the tests look for: at least eight characters, with a marker no text shares.
pub fn uri() -> impl Strategy<Value = String> {
    "(file|https|demo|mcpl)://h[a-z0-9]{4,8}/p[a-z0-9]{2,6}\\?token=SECRET[A-Z0-9]{12}"
}

pub fn mime() -> impl Strategy<Value = String> {
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
pub fn data() -> impl Strategy<Value = String> {
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

pub fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        label().prop_map(Value::String),
    ]
}

/// Any JSON, a few levels deep.
pub fn any_json() -> impl Strategy<Value = Value> {
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
pub fn field(good: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![3 => Just(None), 6 => good.prop_map(Some), 1 => scalar().prop_map(Some)]
}

pub fn object(fields: Vec<(&'static str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect::<Map<_, _>>(),
    )
}

pub fn annotations() -> impl Strategy<Value = Option<Value>> {
    let role = prop_oneof![Just("user".to_owned()), Just("assistant".to_owned()), label()];
    prop::option::of(prop::collection::vec(role, 0..3).prop_map(|audience| json!({"audience": audience})))
}

pub fn block() -> impl Strategy<Value = Value> {
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
pub fn result() -> impl Strategy<Value = Value> {
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

pub fn targets() -> [Target; 4] {
    [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ]
}

/// How a server might lay out the same JSON: its keys' order, and white space.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Keys in the order the official servers write them: a block's type first, a link's
    /// last (after its name, uri, description and mime type).
    Servers,
    /// Keys in an order drawn from the seed.
    Shuffled(u64),
}

/// `value` written in `layout`, compact or with a space after every comma and colon.
pub fn write_laid_out(value: &Value, layout: Layout, spaced: bool, out: &mut String) {
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
