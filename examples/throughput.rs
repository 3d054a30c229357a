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
use serde_json::Value;

#[path = "../tests/support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[path = "../benches/support/corpora.rs"]
mod corpora;

use corpora::{blob_50mb, deep, image_4mib, mixed, spaced, wide, Bytes};

/// The time of one pass of `f` over every document of a corpus, `repeat` times over.
fn pass(docs: &[Vec<u8>], repeat: usize, f: &mut dyn FnMut(&[u8])) -> Duration {
    let start = Instant::now();
    for _ in 0..repeat {
        for doc in docs {
            f(doc);
        }
    }
    start.elapsed() / u32::try_from(repeat).unwrap_or(1)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
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

/// One lane of the benchmark: what it does to one document.
type Lane<'r> = Box<dyn FnMut(&[u8]) + 'r>;

/// A corpus: its name, its documents, how many runs to take the median of, and how many times
/// one timed pass goes over it (a corpus read in microseconds is timed over many passes, so
/// that the clock's grain and one cold start do not weigh on it).
struct Corpus {
    name: &'static str,
    docs: Vec<Vec<u8>>,
    runs: usize,
    repeat: usize,
}

fn measure(corpus: &Corpus) -> Row {
    let Corpus {
        name,
        ref docs,
        runs,
        repeat,
    } = *corpus;
    let registry = ReferenceRegistry::with_seed(1);
    let anthropic = Target::anthropic();
    let mut lanes: [Lane<'_>; 6] = [
        Box::new(floor),
        Box::new(value),
        Box::new(ours_history(&registry)),
        Box::new(ours_convert(&registry, &anthropic)),
        Box::new(ours_script(&registry, &anthropic)),
        Box::new(rmcp),
    ];
    // Interleaved: every run times each lane once, so that what the machine is doing weighs
    // on all of them alike. The first run warms up and is not counted. Medians of the rest.
    let mut times: [Vec<Duration>; 6] = Default::default();
    for run in 0..=runs {
        // Forward on even runs, backward on odd ones: no lane always follows the same one.
        let mut order: Vec<usize> = (0..lanes.len()).collect();
        if run % 2 == 1 {
            order.reverse();
        }
        for k in order {
            let t = pass(docs, repeat, lanes[k].as_mut());
            if run > 0 {
                times[k].push(t);
            }
        }
    }
    let [floor, value, history, convert, script, rmcp] = times.map(median);
    Row {
        corpus: name,
        bytes: docs.iter().map(Vec::len).sum(),
        floor,
        value,
        history,
        convert,
        script,
        rmcp,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

fn main() {
    let mut rng = Bytes(0x9e37_79b9_7f4a_7c15);
    let corpus = |name, docs, runs, repeat| Corpus {
        name,
        docs,
        runs,
        repeat,
    };
    let mixed = mixed(&mut rng);
    // Not in the summary: how much of *mixed*'s figure comes from keys standing where the
    // block readers expect them.
    let spaced = spaced(&mixed);
    let corpora = [
        corpus("mixed", mixed, 21, 1),
        corpus("spaced", spaced, 21, 1),
        corpus("blob", vec![blob_50mb(&mut rng)], 15, 1),
        corpus("image", vec![image_4mib(&mut rng)], 21, 1),
        corpus("wide", vec![wide()], 15, 1),
        corpus("deep", vec![deep(&mut rng)], 21, 100),
    ];
    println!(
        "{:<7} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   (ms, medians; floor = serde_json into IgnoredAny)",
        "corpus", "bytes", "floor", "Value", "history", "convert", "script", "rmcp"
    );
    let mut rows = Vec::new();
    for corpus in &corpora {
        let row = measure(corpus);
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
    let blob = &corpora.iter().find(|c| c.name == "blob").unwrap().docs[0];
    let registry = ReferenceRegistry::with_seed(1);
    let before = reset_peak();
    ours_history(&registry)(blob);
    let peak = peak();
    // The input itself is live heap too: count it, as a host that read it would.
    let peak_over_input = (peak - before + blob.len()) as f64 / blob.len() as f64;

    let rmcp_over_ours_min = ["mixed", "spaced", "blob", "image", "wide"]
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
