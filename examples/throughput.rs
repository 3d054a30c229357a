//! Throughput against the JSON floor, in one run: `cargo run --release --example throughput`.
//!
//! Every corpus is generated here, deterministically, and written in three layouts: compact
//! in the official servers' key order, *spaced* (a space after every comma and colon, as
//! Python's `json.dumps` writes), and *shuffled* (each object's keys in a seeded random
//! order). Each is measured against the same bytes: the floor (`serde_json` validating into
//! `IgnoredAny`, building nothing), this crate's lanes from bytes, decoding alone (this crate's
//! reader, and a prototype of the same decoding with `serde_json` itself), rmcp's decode into
//! its `CallToolResult` (tool results only), the history lane's output written again alone
//! (its text pushed a line at a time into a new `String` of its size, then dropped: what any
//! lane that returns that text pays before it has read a byte), the convert lane's output
//! built again alone (its blocks cloned, each text it owns allocated anew, then dropped: what
//! returning those blocks costs, whatever reads them), and the floor with the bytes checked
//! to be UTF-8 first (which `IgnoredAny` does not check). Times are medians of several
//! runs; ratios are taken in the same process. Peak heap is counted by a counting allocator,
//! for every lane on every corpus (counting only then: the times are the system allocator's
//! own). The last line is the summary.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_agent_view::{
    convert, history, script, AgentBlock, HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};

#[path = "../tests/support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{counting, peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[path = "../benches/support/corpora.rs"]
mod corpora;

#[path = "../benches/support/serde_prototype.rs"]
mod serde_prototype;

use corpora::{blob_50mb, deep, huge_prompt, image_4mib, many_links, mixed, shuffled, spaced, wide, Bytes};

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

/// The floor with the bytes checked to be UTF-8 first. `serde_json` into `IgnoredAny` skips a
/// string's bytes without checking them (it takes `["\xff"]`), where this crate, as
/// `serde_json` into any value that keeps a string, refuses invalid UTF-8: what reading the
/// JSON as JSON costs at least.
fn floor_utf8(doc: &[u8]) {
    let text = std::str::from_utf8(doc).unwrap();
    black_box(serde_json::from_str::<serde::de::IgnoredAny>(text).unwrap());
}

/// `text` written again, a line at a time, into a new string of its size: the least a lane
/// returning it does, whatever it reads.
fn written_again(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        out.push_str(line);
    }
    out
}

fn rmcp(doc: &[u8]) {
    black_box(serde_json::from_slice::<rmcp::model::CallToolResult>(doc).unwrap());
}

fn ours_history(registry: &ReferenceRegistry) -> impl FnMut(&[u8]) + '_ {
    move |doc| {
        black_box(history(doc, registry, &HistoryOptions::default()).unwrap());
    }
}

fn ours_convert<'r>(registry: &'r ReferenceRegistry, target: &'r Target) -> impl FnMut(&[u8]) + 'r {
    move |doc| {
        black_box(convert(doc, Provenance::PushEvent, registry, target).unwrap().content);
    }
}

fn ours_script<'r>(registry: &'r ReferenceRegistry, target: &'r Target) -> impl FnMut(&[u8]) + 'r {
    move |doc| {
        black_box(script(doc, registry, target).unwrap());
    }
}

/// A lane that makes `f` of one of `outputs` a pass, in the order the documents come, and
/// drops it: a lane's output made again alone, nothing read.
fn again<'r, T: 'r, U>(outputs: Vec<T>, f: impl Fn(&T) -> U + 'r) -> Lane<'r> {
    let mut next = 0;
    Box::new(move |_: &[u8]| {
        black_box(f(&outputs[next % outputs.len()]));
        next += 1;
    })
}

/// What one corpus in one layout measured.
struct Row {
    corpus: &'static str,
    layout: &'static str,
    bytes: usize,
    floor: Duration,
    history: Duration,
    convert: Duration,
    script: Duration,
    /// Decoding alone: this crate's reader (`Message::parse`), and the `serde_json` prototype.
    parse: Duration,
    serde: Duration,
    /// The history lane's output written again alone ([`written_again`]).
    output: Duration,
    /// The convert lane's output built again alone: its blocks cloned (each text it owns
    /// allocated anew), then dropped.
    convert_output: Duration,
    /// The floor with the bytes checked to be UTF-8 first ([`floor_utf8`]).
    floor_utf8: Duration,
    rmcp: Option<Duration>,
}

/// One lane of the benchmark: what it does to one document.
type Lane<'r> = Box<dyn FnMut(&[u8]) + 'r>;

/// A corpus: its name, its documents, how many runs to take the median of, how many times one
/// timed pass goes over it (a corpus read in microseconds is timed over many passes, so that
/// the clock's grain and one cold start do not weigh on it), and whether rmcp can decode it.
struct Corpus {
    name: &'static str,
    docs: Vec<Vec<u8>>,
    runs: usize,
    repeat: usize,
    tool_result: bool,
}

fn measure(corpus: &Corpus, layout: &'static str, docs: &[Vec<u8>]) -> Row {
    let registry = ReferenceRegistry::with_seed(1);
    let anthropic = Target::anthropic();
    // What the history lane shows of each document (a registry of its own), to be written
    // again in the order the documents come.
    let shown: Vec<String> = {
        let registry = ReferenceRegistry::with_seed(1);
        docs.iter()
            .map(|doc| history(doc.as_slice(), &registry, &HistoryOptions::default()).unwrap())
            .collect()
    };
    // What the convert lane gives for each document (a registry of its own), to be built
    // again: each text it owns allocated anew in a new vector, then all of it dropped.
    let converted: Vec<Vec<AgentBlock<'_>>> = {
        let registry = ReferenceRegistry::with_seed(1);
        docs.iter()
            .map(|doc| {
                convert(doc.as_slice(), Provenance::PushEvent, &registry, &anthropic)
                    .unwrap()
                    .content
            })
            .collect()
    };
    let mut lanes: Vec<Lane<'_>> = vec![
        Box::new(floor),
        Box::new(ours_history(&registry)),
        Box::new(ours_convert(&registry, &anthropic)),
        Box::new(ours_script(&registry, &anthropic)),
        Box::new(|doc: &[u8]| {
            black_box(Message::parse(doc).unwrap());
        }),
        Box::new(|doc: &[u8]| {
            black_box(serde_prototype::decode(doc));
        }),
        again(shown, |text| written_again(text)),
        again(converted, Clone::clone),
        Box::new(floor_utf8),
    ];
    if corpus.tool_result {
        lanes.push(Box::new(rmcp));
    }
    // Interleaved: every run times each lane once, so that what the machine is doing weighs
    // on all of them alike. The first run warms up and is not counted. Medians of the rest.
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); lanes.len()];
    for run in 0..=corpus.runs {
        // Forward on even runs, backward on odd ones: no lane always follows the same one.
        let mut order: Vec<usize> = (0..lanes.len()).collect();
        if run % 2 == 1 {
            order.reverse();
        }
        for k in order {
            let t = pass(docs, corpus.repeat, lanes[k].as_mut());
            if run > 0 {
                times[k].push(t);
            }
        }
    }
    let mut medians = times.into_iter().map(median);
    Row {
        corpus: corpus.name,
        layout,
        bytes: docs.iter().map(Vec::len).sum(),
        floor: medians.next().unwrap_or_default(),
        history: medians.next().unwrap_or_default(),
        convert: medians.next().unwrap_or_default(),
        script: medians.next().unwrap_or_default(),
        parse: medians.next().unwrap_or_default(),
        serde: medians.next().unwrap_or_default(),
        output: medians.next().unwrap_or_default(),
        convert_output: medians.next().unwrap_or_default(),
        floor_utf8: medians.next().unwrap_or_default(),
        rmcp: medians.next(),
    }
}

/// The peak heap of one run of each lane over `docs`, over their size (the input counts: a
/// host holds it): history, convert, script.
fn peak_heap(docs: &[Vec<u8>]) -> [f64; 3] {
    counting(true);
    let registry = ReferenceRegistry::with_seed(1);
    let anthropic = Target::anthropic();
    let input: usize = docs.iter().map(Vec::len).sum();
    let mut lanes: [Lane<'_>; 3] = [
        Box::new(ours_history(&registry)),
        Box::new(ours_convert(&registry, &anthropic)),
        Box::new(ours_script(&registry, &anthropic)),
    ];
    let peaks = lanes.each_mut().map(|lane| {
        let before = reset_peak();
        // One document at a time, as a host would hand them over.
        for doc in docs {
            lane(doc);
        }
        (peak() - before + input) as f64 / input as f64
    });
    counting(false);
    peaks
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

fn main() {
    // Timed with the system allocator as it is: the counters are on only while peaks are
    // taken (their atomic operations would cost every allocation, and so the lanes, what
    // a host's allocator does not).
    counting(false);
    let mut rng = Bytes(0x9e37_79b9_7f4a_7c15);
    let corpus = |name, docs, runs, repeat, tool_result| Corpus {
        name,
        docs,
        runs,
        repeat,
        tool_result,
    };
    let corpora = [
        corpus("mixed", mixed(&mut rng), 31, 1, true),
        corpus("blob", vec![blob_50mb(&mut rng)], 9, 1, true),
        corpus("image", vec![image_4mib(&mut rng)], 15, 1, true),
        corpus("wide", vec![wide()], 11, 1, true),
        corpus("deep", vec![deep(&mut rng)], 51, 100, true),
        corpus("huge-prompt", vec![huge_prompt()], 5, 1, false),
        corpus("many-links", vec![many_links()], 5, 1, true),
    ];
    println!(
        "{:<12} {:<8} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9}   (ms, medians; floor = serde_json into IgnoredAny)",
        "corpus", "layout", "bytes", "floor", "history", "convert", "script", "rmcp"
    );
    let mut rows = Vec::new();
    for corpus in &corpora {
        let layouts = [
            ("compact", corpus.docs.clone()),
            ("spaced", spaced(&corpus.docs)),
            ("shuffled", shuffled(&corpus.docs, 7)),
        ];
        for (layout, docs) in &layouts {
            let row = measure(corpus, layout, docs);
            println!(
                "{:<12} {:<8} {:>10} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9}   history {:.2}, convert {:.2}, script {:.2} floors; decoding: ours {:.2}, serde prototype {:.2}; history's output alone {:.2}, convert's {:.2}; the floor with UTF-8 checked {:.2}",
                row.corpus,
                row.layout,
                row.bytes,
                ms(row.floor),
                ms(row.history),
                ms(row.convert),
                ms(row.script),
                row.rmcp.map_or_else(|| "-".to_owned(), |t| format!("{:.3}", ms(t))),
                ratio(row.history, row.floor),
                ratio(row.convert, row.floor),
                ratio(row.script, row.floor),
                ratio(row.parse, row.floor),
                ratio(row.serde, row.floor),
                ratio(row.output, row.floor),
                ratio(row.convert_output, row.floor),
                ratio(row.floor_utf8, row.floor),
            );
            rows.push(row);
        }
    }
    println!(
        "{:<12} {:>9} {:>9} {:>9}   (peak heap over input, compact layout)",
        "corpus", "history", "convert", "script"
    );
    let mut peaks = Vec::new();
    for corpus in &corpora {
        let [history, convert, script] = peak_heap(&corpus.docs);
        println!("{:<12} {history:>9.2} {convert:>9.2} {script:>9.2}", corpus.name);
        peaks.push((corpus.name, [history, convert, script]));
    }
    let get = |name: &str| rows.iter().find(|r| r.corpus == name && r.layout == "compact").unwrap();
    // The worst of one time over the floor, over every corpus and layout.
    let worst = |time: fn(&Row) -> Duration| rows.iter().map(|r| ratio(time(r), r.floor)).fold(0.0, f64::max);
    let history_worst = worst(|r| r.history);
    let worst_lane = rows
        .iter()
        .flat_map(|r| [r.history, r.convert, r.script].map(|t| ratio(t, r.floor)))
        .fold(0.0, f64::max);
    let rmcp_over_ours_min = rows
        .iter()
        .filter_map(|r| r.rmcp.map(|t| ratio(t, r.history)))
        .fold(f64::INFINITY, f64::min);
    let output_alone_max = worst(|r| r.output);
    let convert_output_alone_max = worst(|r| r.convert_output);
    let floor_utf8_max = worst(|r| r.floor_utf8);
    let peak_max = peaks.iter().flat_map(|(_, p)| *p).fold(0.0, f64::max);
    let blob_peak = peaks.iter().find(|(n, _)| *n == "blob").map_or(0.0, |(_, p)| p[0]);
    println!(
        "summary: history_vs_floor_mixed={:.2} history_vs_floor_blob={:.2} history_vs_floor_wide={:.2} convert_vs_floor_image={:.2} script_vs_floor_deep={:.2} rmcp_over_ours_min={:.2} blob_peak_heap_over_input={:.2} history_worst_vs_floor={:.2} worst_lane_vs_floor={:.2} peak_heap_over_input_max={:.2} history_output_alone_vs_floor_max={:.2} convert_output_alone_vs_floor_max={:.2} floor_utf8_vs_floor_max={:.2}",
        ratio(get("mixed").history, get("mixed").floor),
        ratio(get("blob").history, get("blob").floor),
        ratio(get("wide").history, get("wide").floor),
        ratio(get("image").convert, get("image").floor),
        ratio(get("deep").script, get("deep").floor),
        rmcp_over_ours_min,
        blob_peak,
        history_worst,
        worst_lane,
        peak_max,
        output_alone_max,
        convert_output_alone_max,
        floor_utf8_max,
    );
}
