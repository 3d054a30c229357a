//! Abuse: a 100 MB blob on the history lane is not decoded, and memory stays near the input's
//! size. Alone in its test binary, so that the counting allocator sees nothing else.

use mcp_agent_view::{
    convert, history, parse_json, prompt_messages, tool_result, HistoryOptions, Message, Provenance, ReferenceRegistry,
    Target,
};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocator counts every thread's allocations: one test measures at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_100_mb_blob_costs_the_history_lane_no_decode_and_no_copy() {
    const MB: usize = 1024 * 1024;
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Valid base64 for 12 bytes, then 100 MB that is no base64 at all: a decode would fail
    // and say so; the lane must only count it.
    let mut blob = String::with_capacity(100 * MB + 16);
    blob.push_str("iVBORw0KGgoAAAAN");
    blob.extend(std::iter::repeat_n('!', 100 * MB));
    let bytes = format!(
        r#"{{"content":[{{"type":"text","text":"before"}},{{"type":"resource","resource":{{"uri":"file:///big","mimeType":"application/octet-stream","blob":"{blob}"}}}},{{"type":"text","text":"after"}}]}}"#
    )
    .into_bytes();
    drop(blob);
    let value = parse_json(&bytes).unwrap();
    drop(bytes);
    let message = Message::decode(&value).unwrap();
    let registry = ReferenceRegistry::new();

    let before = reset_peak();
    let text = history(&message, &registry, &HistoryOptions::default()).unwrap();
    let extra = peak() - before;

    // Its first bytes are a PNG's: a blob declared `application/octet-stream` is what its
    // bytes say.
    assert_eq!(text, "before\n[image: image/png, ~75.0MB]\nafter");
    println!(
        "history lane: {extra} bytes allocated beside a {} byte blob",
        value_len(&value)
    );
    assert!(
        extra < MB,
        "the history lane allocated {extra} bytes beside a 100 MB input"
    );
}

fn value_len(value: &serde_json::Value) -> usize {
    value["content"][1]["resource"]["blob"].as_str().map_or(0, str::len)
}

/// Issue 29: `structuredContent` of nested arrays, `type`-first chains, 200,000 prompt
/// messages, tens of thousands of links and read-resource contents cost the lanes 20 to 75
/// times their input. Every lane and every target now stays within three times it, the
/// provider JSON written out as it is serialized.
#[test]
fn hostile_shapes_cost_every_lane_and_target_at_most_three_times_their_input() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let repeat = |item: &str, size: usize| vec![item; size / item.len()].join(",");
    let nested = format!(
        r#"{{"content":[],"structuredContent":{{"rows":[{}]}}}}"#,
        repeat("[[[[1],[2]],[[3],[4]]]]", 2_000_000)
    );
    let chains = {
        let chain = format!("{}1{}", r#"{"type":"text","v":"#.repeat(100), "}".repeat(100));
        format!(
            r#"{{"content":[],"structuredContent":[{}]}}"#,
            repeat(&chain, 2_000_000)
        )
    };
    let prompts = format!(
        r#"{{"messages":[{}]}}"#,
        repeat(r#"{"role":"user","content":{"type":"text","text":"hi"}}"#, 2_000_000)
    );
    let prompt_blocks = format!(
        r#"{{"messages":[{{"role":"user","content":[{}]}}]}}"#,
        repeat(r#"{"type":"text","text":"hello world"}"#, 2_000_000)
    );
    let distinct_links = {
        let links: Vec<String> = (0..25_000)
            .map(|n| format!(r#"{{"type":"resource_link","uri":"https://h.example/f{n}","name":"f{n}"}}"#))
            .collect();
        format!(r#"{{"content":[{}]}}"#, links.join(","))
    };
    let same_link = format!(
        r#"{{"content":[{}]}}"#,
        repeat(
            r#"{"type":"resource_link","uri":"https://h.example/one","name":"one"}"#,
            2_000_000
        )
    );
    let targets = [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ];
    for (name, input) in [
        ("nested arrays", nested),
        ("type-first chains", chains),
        ("prompt messages", prompts),
        ("a prompt of many blocks", prompt_blocks),
        ("distinct links", distinct_links),
        ("links to one uri", same_link),
        ("read-resource contents", read_contents()),
        ("deep nests", deep_nests()),
        ("content given twice", given_twice()),
    ] {
        let bytes = input.into_bytes();
        let mut peaks = Vec::new();
        let mut measure = |lane: String, run: &dyn Fn(&ReferenceRegistry)| {
            let registry = ReferenceRegistry::new();
            let before = reset_peak();
            run(&registry);
            peaks.push((lane, peak() - before));
        };
        measure("history".into(), &|r| {
            drop(history(&bytes[..], r, &HistoryOptions::default()).unwrap());
        });
        measure("classify".into(), &|_| {
            drop(mcp_agent_view::classify::summaries(&bytes[..]).unwrap());
        });
        for target in &targets {
            let provider = format!("{:?}", target.provider);
            measure(format!("script {provider}"), &|r| {
                drop(mcp_agent_view::script(&bytes[..], r, target).unwrap());
            });
            measure(format!("blocks {provider}"), &|r| {
                let converted = convert(&bytes[..], Provenance::PushEvent, r, target).unwrap();
                write_out(&target.blocks_view(&converted.content));
            });
            measure(format!("tool result {provider}"), &|r| {
                let result = tool_result(&bytes[..], "t", "toolu_1", r, target);
                write_out(&target.tool_results_view(std::slice::from_ref(&result)));
            });
            measure(format!("prompt {provider}"), &|r| {
                let messages = prompt_messages(&bytes[..], r, target).unwrap();
                write_out(&target.messages_view(&messages));
            });
        }
        for (lane, used) in peaks {
            println!(
                "{name}: {lane}: {:.2} times the input",
                used as f64 / bytes.len() as f64
            );
            assert!(
                used <= 3 * bytes.len(),
                "{name}: {lane} peaked at {used} bytes for a {} byte input",
                bytes.len()
            );
        }
    }
}

/// A view written out as a host sends it, into nothing: what it costs beside the lane.
fn write_out(view: &impl serde::Serialize) {
    serde_json::to_writer(std::io::sink(), view).unwrap();
}

/// Objects and arrays nested 120 deep, each level a few bytes, 2 MB of them: what the script
/// lane notes of where containers end, to step over them, stays a fraction of the input.
fn deep_nests() -> String {
    let objects = format!(
        "{}\"{}\"{}",
        r#"{"k":1,"a":"#.repeat(120),
        "x".repeat(130),
        "}".repeat(120)
    );
    let arrays = format!("{}\"{}\"{}", "[".repeat(120), "x".repeat(130), "]".repeat(120));
    let one = format!("{objects},{arrays}");
    format!(
        r#"{{"content":[],"structuredContent":[{}]}}"#,
        vec![one.as_str(); 2_000_000 / one.len()].join(",")
    )
}

/// Content given twice, a megabyte of blocks each time: walked twice, the first walk's blocks
/// dropped.
fn given_twice() -> String {
    let blocks = vec![r#"{"type":"text","text":"hello world"}"#; 30_000].join(",");
    format!(r#"{{"content":[{blocks}],"content":[{blocks}]}}"#)
}

/// A `resources/read` result of 30,000 contents.
fn read_contents() -> String {
    let items: Vec<String> = (0..30_000)
        .map(|n| format!(r#"{{"uri":"file:///a{n}","mimeType":"text/plain","text":"x"}}"#))
        .collect();
    format!(r#"{{"contents":[{}]}}"#, items.join(","))
}
