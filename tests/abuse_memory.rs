//! Abuse: a 100 MB blob on the history lane is not decoded, and memory stays near the input's
//! size. Alone in its test binary, so that the counting allocator sees nothing else.

use mcp_agent_view::{history, parse_json, HistoryOptions, Message, ReferenceRegistry};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_100_mb_blob_costs_the_history_lane_no_decode_and_no_copy() {
    const MB: usize = 1024 * 1024;
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
