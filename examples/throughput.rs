//! Throughput against the JSON floor, in one run: `cargo run --release --example throughput`.
//!
//! Every corpus is generated here, deterministically, and measured against the same bytes:
//! the floor (`serde_json` validating into `IgnoredAny`, building nothing), a `serde_json::Value`
//! parse for reference, this crate's lanes from bytes, and rmcp's decode into its
//! `CallToolResult`. Times are medians of several runs; ratios are taken in the same process.
//! Peak heap is counted by a counting allocator. The last line is the summary.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_agent_view::{
    convert_message, history_json, script_json, HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};
use serde_json::{json, Value};

#[path = "../tests/support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A deterministic byte stream (xorshift), so every run measures the same corpora.
struct Bytes(u64);

impl Bytes {
    fn fill(&mut self, n: usize) -> Vec<u8> {
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
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn png(rng: &mut Bytes, body: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend(rng.fill(body));
    bytes
}

/// 10,000 tool results shaped like the everything server's.
fn mixed(rng: &mut Bytes) -> Vec<Vec<u8>> {
    (0..10_000)
        .map(|i| {
            let result = json!({"content": [
                {"type": "text", "text": format!("Returning resource reference for Resource {i}:")},
                {"type": "image", "data": b64(&png(rng, 60)), "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": format!("demo://resource/dynamic/text/{i}"), "mimeType": "text/plain",
                    "text": format!("Resource {i}: This is a plaintext resource created at 8:22:02 PM")}},
                {"type": "resource_link", "uri": format!("demo://resource/dynamic/blob/{}", i % 50), "name": format!("Blob Resource {}", i % 50),
                    "description": "A plaintext resource", "mimeType": "text/plain"},
                {"type": "resource", "resource": {"uri": format!("demo://resource/dynamic/blob/{i}"), "mimeType": "application/octet-stream",
                    "blob": b64(&rng.fill(48))}}
            ]});
            serde_json::to_vec(&result).unwrap()
        })
        .collect()
}

fn blob_50mb(rng: &mut Bytes) -> Vec<u8> {
    let blob = b64(&rng.fill(50 * 1000 * 1000 * 3 / 4));
    serde_json::to_vec(&json!({"content": [
        {"type": "text", "text": "The export is attached."},
        {"type": "resource", "resource": {"uri": "file:///exports/all.bin", "mimeType": "application/octet-stream", "blob": blob}},
        {"type": "text", "text": "Done."}
    ]}))
    .unwrap()
}

fn image_4mib(rng: &mut Bytes) -> Vec<u8> {
    serde_json::to_vec(&json!({"content": [
        {"type": "text", "text": "Screenshot:"},
        {"type": "image", "data": b64(&png(rng, 4 * 1024 * 1024 - 16)), "mimeType": "image/png"}
    ]}))
    .unwrap()
}

fn wide() -> Vec<u8> {
    let content: Vec<Value> = (0..100_000)
        .map(|i| json!({"type": "text", "text": format!("line {i}")}))
        .collect();
    serde_json::to_vec(&json!({"content": content})).unwrap()
}

fn deep(rng: &mut Bytes) -> Vec<u8> {
    let mut value = json!({"done": true});
    for level in 0..100 {
        value = json!({
            "level": level,
            "note": {"type": "text", "text": format!("note at level {level}")},
            "attachment": {"type": "resource", "resource": {"uri": format!("file:///l/{level}"), "mimeType": "text/plain", "text": "embedded"}},
            "thumb": {"type": "image", "data": b64(&png(rng, 30)), "mimeType": "image/png"},
            "next": value
        });
    }
    serde_json::to_vec(&json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": value})).unwrap()
}

/// The median time of `runs` runs of `f` over every document of a corpus.
fn time(docs: &[Vec<u8>], runs: usize, mut f: impl FnMut(&[u8])) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for doc in docs {
                f(doc);
            }
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn floor(doc: &[u8]) {
    black_box(serde_json::from_slice::<serde::de::IgnoredAny>(doc).unwrap());
}

fn value(doc: &[u8]) {
    black_box(serde_json::from_slice::<Value>(doc).unwrap());
}

fn rmcp(doc: &[u8]) {
    black_box(serde_json::from_slice::<rmcp::model::CallToolResult>(doc).unwrap());
}

fn ours_history(registry: &ReferenceRegistry) -> impl FnMut(&[u8]) + '_ {
    move |doc| {
        black_box(history_json(doc, registry, &HistoryOptions::default()).unwrap());
    }
}

fn ours_convert<'r>(registry: &'r ReferenceRegistry, target: &'r Target) -> impl FnMut(&[u8]) + 'r {
    move |doc| {
        let message = Message::parse(doc).unwrap();
        black_box(convert_message(&message, Provenance::PushEvent, registry, target));
    }
}

fn ours_script<'r>(registry: &'r ReferenceRegistry, target: &'r Target) -> impl FnMut(&[u8]) + 'r {
    move |doc| {
        black_box(script_json(doc, registry, target).unwrap());
    }
}

struct Row {
    corpus: &'static str,
    bytes: usize,
    floor: Duration,
    value: Duration,
    history: Duration,
    convert: Duration,
    script: Duration,
    rmcp: Duration,
}

fn measure(corpus: &'static str, docs: &[Vec<u8>], runs: usize) -> Row {
    let registry = ReferenceRegistry::with_seed(1);
    let anthropic = Target::anthropic();
    // One warm-up pass of each, then interleaved medians.
    let row = |runs| Row {
        corpus,
        bytes: docs.iter().map(Vec::len).sum(),
        floor: time(docs, runs, floor),
        value: time(docs, runs, value),
        history: time(docs, runs, ours_history(&registry)),
        convert: time(docs, runs, ours_convert(&registry, &anthropic)),
        script: time(docs, runs, ours_script(&registry, &anthropic)),
        rmcp: time(docs, runs, rmcp),
    };
    row(1);
    row(runs)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

fn main() {
    let mut rng = Bytes(0x9e37_79b9_7f4a_7c15);
    let corpora: Vec<(&'static str, Vec<Vec<u8>>, usize)> = vec![
        ("mixed", mixed(&mut rng), 9),
        ("blob", vec![blob_50mb(&mut rng)], 9),
        ("image", vec![image_4mib(&mut rng)], 15),
        ("wide", vec![wide()], 9),
        ("deep", vec![deep(&mut rng)], 15),
    ];
    println!(
        "{:<7} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   (ms, medians; floor = serde_json into IgnoredAny)",
        "corpus", "bytes", "floor", "Value", "history", "convert", "script", "rmcp"
    );
    let mut rows = Vec::new();
    for (name, docs, runs) in &corpora {
        let row = measure(name, docs, *runs);
        println!(
            "{:<7} {:>10} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
            row.corpus,
            row.bytes,
            ms(row.floor),
            ms(row.value),
            ms(row.history),
            ms(row.convert),
            ms(row.script),
            ms(row.rmcp)
        );
        rows.push(row);
    }
    let get = |name: &str| rows.iter().find(|r| r.corpus == name).unwrap();

    // Peak heap during one history run on the 50 MB blob, over the input's size.
    let blob = &corpora[1].1[0];
    let registry = ReferenceRegistry::with_seed(1);
    let before = reset_peak();
    ours_history(&registry)(blob);
    let peak = peak();
    // The input itself is live heap too: count it, as a host that read it would.
    let peak_over_input = (peak - before + blob.len()) as f64 / blob.len() as f64;

    let rmcp_over_ours_min = ["mixed", "blob", "image", "wide"]
        .iter()
        .map(|c| ratio(get(c).rmcp, get(c).history))
        .fold(f64::INFINITY, f64::min);
    println!(
        "summary: history_vs_floor_mixed={:.2} history_vs_floor_blob={:.2} history_vs_floor_wide={:.2} convert_vs_floor_image={:.2} script_vs_floor_deep={:.2} rmcp_over_ours_min={:.2} blob_peak_heap_over_input={:.2}",
        ratio(get("mixed").history, get("mixed").floor),
        ratio(get("blob").history, get("blob").floor),
        ratio(get("wide").history, get("wide").floor),
        ratio(get("image").convert, get("image").floor),
        ratio(get("deep").script, get("deep").floor),
        rmcp_over_ours_min,
        peak_over_input,
    );
}
