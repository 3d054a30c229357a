//! The benchmark corpora, generated deterministically: shared by the throughput example and
//! the criterion benches.
#![allow(dead_code)]

use base64::Engine as _;

/// A deterministic byte stream (xorshift), so every run measures the same corpora.
pub struct Bytes(pub u64);

impl Bytes {
    pub fn fill(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0.to_le_bytes()[0]
            })
            .collect()
    }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn png(rng: &mut Bytes, body: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend(rng.fill(body));
    bytes
}

/// A JSON string.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// 10,000 tool results shaped like the everything server's, keys in its order (a link names
/// its type last, after its name and uri, as in `vectors/mcp/everything.get-resource-links.json`).
pub fn mixed(rng: &mut Bytes) -> Vec<Vec<u8>> {
    (0..10_000)
        .map(|i| {
            let text = format!(r#"{{"type":"text","text":{}}}"#, q(&format!("Returning resource reference for Resource {i}:")));
            let image = format!(r#"{{"type":"image","data":"{}","mimeType":"image/png"}}"#, b64(&png(rng, 60)));
            let embedded = format!(
                r#"{{"type":"resource","resource":{{"uri":"demo://resource/dynamic/text/{i}","mimeType":"text/plain","text":{}}}}}"#,
                q(&format!("Resource {i}: This is a plaintext resource created at 8:22:02 PM"))
            );
            let link = format!(
                r#"{{"name":"Blob Resource {n}","uri":"demo://resource/dynamic/blob/{n}","description":"A plaintext resource","mimeType":"text/plain","type":"resource_link"}}"#,
                n = i % 50
            );
            let blob = format!(
                r#"{{"type":"resource","resource":{{"uri":"demo://resource/dynamic/blob/{i}","mimeType":"application/octet-stream","blob":"{}"}}}}"#,
                b64(&rng.fill(48))
            );
            format!(r#"{{"content":[{text},{image},{embedded},{link},{blob}]}}"#).into_bytes()
        })
        .collect()
}

/// The same documents with a space after every comma and colon between tokens, as Python's
/// `json.dumps` writes by default: no key stands where a block reader expects it compact, so
/// every key is read the general way.
pub fn spaced(docs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    docs.iter()
        .map(|doc| {
            let mut out = Vec::with_capacity(doc.len() + doc.len() / 8);
            let (mut in_string, mut escaped) = (false, false);
            for &b in doc {
                out.push(b);
                if in_string {
                    (in_string, escaped) = (escaped || b != b'"', !escaped && b == b'\\');
                } else if b == b'"' {
                    in_string = true;
                } else if b == b',' || b == b':' {
                    out.push(b' ');
                }
            }
            out
        })
        .collect()
}

/// The same documents with their keys in a seeded random order, each object's own: no block
/// reader finds a key where it expects it. Values and arrays as they were.
pub fn shuffled(docs: &[Vec<u8>], seed: u64) -> Vec<Vec<u8>> {
    docs.iter()
        .map(|doc| {
            let tree: Tree = serde_json::from_slice(doc).expect("a corpus is JSON");
            let mut out = String::with_capacity(doc.len());
            tree.write(seed, &mut out);
            out.into_bytes()
        })
        .collect()
}

/// JSON with its keys in their order (for writing them in another).
enum Tree {
    Scalar(serde_json::Value),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

impl Tree {
    fn write(&self, seed: u64, out: &mut String) {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        match self {
            Tree::Scalar(v) => out.push_str(&v.to_string()),
            Tree::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(seed, out);
                }
                out.push(']');
            }
            Tree::Object(entries) => {
                let mut order: Vec<&(String, Tree)> = entries.iter().collect();
                order.sort_by_key(|(k, _)| BuildHasherDefault::<DefaultHasher>::default().hash_one((seed, k)));
                out.push('{');
                for (i, (k, v)) in order.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&q(k));
                    out.push(':');
                    v.write(seed, out);
                }
                out.push('}');
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Tree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Tree;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Tree, E> {
                Ok(Tree::Scalar(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Tree, E> {
                Ok(Tree::Scalar(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Tree, E> {
                Ok(Tree::Scalar(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Tree, E> {
                Ok(Tree::Scalar(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Tree, E> {
                Ok(Tree::Scalar(v.into()))
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Scalar(serde_json::Value::Null))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Tree::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Tree::Object(entries))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// A prompt of 1,000,000 text blocks: 1,000 messages of 1,000 blocks each, roles alternating.
pub fn huge_prompt() -> Vec<u8> {
    use std::fmt::Write as _;
    let mut out = String::from(r#"{"description":"a long conversation","messages":["#);
    for m in 0..1000 {
        if m > 0 {
            out.push(',');
        }
        let role = if m % 2 == 0 { "user" } else { "assistant" };
        let _ = write!(out, r#"{{"role":"{role}","content":["#);
        for b in 0..1000 {
            if b > 0 {
                out.push(',');
            }
            let _ = write!(out, r#"{{"type":"text","text":"m{m} b{b}"}}"#);
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    out.into_bytes()
}

/// One tool result of 1,000,000 resource links, each to its own resource, as the everything
/// server writes a link (name, uri, description, mimeType, type).
pub fn many_links() -> Vec<u8> {
    let links: Vec<String> = (0..1_000_000)
        .map(|i| {
            format!(
                r#"{{"name":"r{i}","uri":"demo://resource/{i}","description":"d","mimeType":"text/plain","type":"resource_link"}}"#
            )
        })
        .collect();
    format!(r#"{{"content":[{}]}}"#, links.join(",")).into_bytes()
}

/// One result with a 50 MB embedded blob beside two texts.
pub fn blob_50mb(rng: &mut Bytes) -> Vec<u8> {
    let blob = b64(&rng.fill(50 * 1000 * 1000 * 3 / 4));
    format!(
        r#"{{"content":[{{"type":"text","text":"The export is attached."}},{{"type":"resource","resource":{{"uri":"file:///exports/all.bin","mimeType":"application/octet-stream","blob":"{blob}"}}}},{{"type":"text","text":"Done."}}]}}"#
    )
    .into_bytes()
}

/// One result with a 4 MiB PNG.
pub fn image_4mib(rng: &mut Bytes) -> Vec<u8> {
    let data = b64(&png(rng, 4 * 1024 * 1024 - 16));
    format!(r#"{{"content":[{{"type":"text","text":"Screenshot:"}},{{"type":"image","data":"{data}","mimeType":"image/png"}}]}}"#)
        .into_bytes()
}

/// One result with 100,000 small text blocks.
pub fn wide() -> Vec<u8> {
    let blocks: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"type":"text","text":"line {i}"}}"#))
        .collect();
    format!(r#"{{"content":[{}]}}"#, blocks.join(",")).into_bytes()
}

/// `structuredContent` nested 100 levels, with blocks at every level.
pub fn deep(rng: &mut Bytes) -> Vec<u8> {
    let mut value = String::from(r#"{"done":true}"#);
    for level in 0..100 {
        value = format!(
            r#"{{"level":{level},"note":{{"type":"text","text":"note at level {level}"}},"attachment":{{"type":"resource","resource":{{"uri":"file:///l/{level}","mimeType":"text/plain","text":"embedded"}}}},"thumb":{{"type":"image","data":"{}","mimeType":"image/png"}},"next":{value}}}"#,
            b64(&png(rng, 30))
        );
    }
    format!(r#"{{"content":[{{"type":"text","text":"{{}}"}}],"structuredContent":{value}}}"#).into_bytes()
}
