//! Issue 14: the script lane had its own test of "is this object a resource's contents" (a
//! string `text` or `blob`), apart from classify, so contents with no text, or a `null` one,
//! went through the script lane and `structuredContent` with their uris, signed query and all.
//! Now classify decides (`uri` and one of `text`, `blob`, `mimeType`: a resource's contents),
//! and every lane reads such items as bad embedded resources.

use mcp_agent_view::{
    convert, history, prompt_messages, script, tool_result, HistoryOptions, Message, Provenance, ReferenceRegistry,
    Target,
};
use serde_json::{json, Value};

/// Everything every lane gives for `input`, on every target, from the bytes and from a `Value`.
fn everything_read(input: &Value) -> Vec<String> {
    let bytes = input.to_string();
    let registry = ReferenceRegistry::with_seed(3);
    let mut out = Vec::new();
    for target in [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ] {
        out.push(script(bytes.as_bytes(), &registry, &target).unwrap());
        out.push(
            serde_json::from_str::<serde_json::Value>(&script(input, &registry, &target).unwrap())
                .unwrap()
                .to_string(),
        );
        for message in [
            Message::parse(bytes.as_bytes()).unwrap(),
            Message::decode(input).unwrap(),
        ] {
            out.push(history(&message, &registry, &HistoryOptions::default()).unwrap());
            let blocks = convert(&message, Provenance::PushEvent, &registry, &target)
                .unwrap()
                .content;
            out.push(target.blocks_json(&blocks).to_string());
            let result = tool_result(&message, "t", "toolu_1", &registry, &target);
            out.push(Value::from(target.tool_result_messages(&[result])).to_string());
            out.push(
                Value::from(target.messages_json(&prompt_messages(&message, &registry, &target).unwrap())).to_string(),
            );
        }
    }
    out.push(history(bytes.as_bytes(), &registry, &HistoryOptions::default()).unwrap());
    out
}

#[test]
fn contents_without_a_string_text_or_blob_show_no_uri_on_any_lane() {
    let read = json!({"jsonrpc": "2.0", "id": 3, "result": {"contents": [
        {"uri": "https://files.example/q3.pdf?X-Amz-Signature=SECRET", "mimeType": "application/pdf"},
        {"uri": "file:///notes.txt?token=SECRET2", "mimeType": "text/plain", "text": null}
    ]}});
    let structured = json!({"content": [], "structuredContent": {"file":
        {"uri": "https://h/q.pdf?sig=SECRET", "mimeType": "application/pdf", "blob": null}}});
    for input in [read, structured] {
        for shown in everything_read(&input) {
            assert!(
                !shown.contains("SECRET") && !shown.contains("q3.pdf"),
                "{input}: {shown}"
            );
        }
    }
}

#[test]
fn such_contents_read_as_bad_embedded_resources_on_the_script_lane_as_in_history() {
    let read = json!({"contents": [
        {"uri": "https://files.example/q3.pdf?X-Amz-Signature=SECRET", "mimeType": "application/pdf"},
        {"uri": "file:///notes.txt", "text": null}
    ]});
    assert_eq!(
        crate::common::history_of(&read),
        "[unrecognized content block: embedded resource without text or blob]\n\
         [unrecognized content block: embedded resource with non-string text]"
    );
    assert_eq!(
        crate::common::script_of(&read),
        json!({"contents": [
            {"type": "text", "text": "[unrecognized content block: embedded resource without text or blob]"},
            {"type": "text", "text": "[unrecognized content block: embedded resource with non-string text]"}
        ]})
    );
    // A uri beside other keys alone is plain data, and stays.
    let plain = json!({"hits": [{"uri": "https://example.com/a", "title": "A"}]});
    assert_eq!(crate::common::script_of(&plain), plain);
}
