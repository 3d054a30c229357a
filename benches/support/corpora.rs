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
