//! Issue 29: the script lane copied what the other lanes mark. An unknown block type in a
//! `content` array (`{"type":"hologram","uri":…}`) was copied verbatim with its uri, while
//! history showed `[unsupported result type: hologram]`; a result's `_meta` and a JSON-RPC
//! error's `data` were copied to the model.

use mcp_agent_view::{history, script, HistoryOptions, ReferenceRegistry, Target};
use serde_json::{json, Value};

fn script_view(message: &Value) -> Value {
    let text = script(message, &ReferenceRegistry::new(), &Target::anthropic()).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn an_unknown_block_in_a_content_array_shows_its_marker() {
    let result = json!({"content": [
        {"type": "hologram", "uri": "https://h.example/x?token=SECRET1"},
        {"type": "text", "text": "kept"}
    ]});
    let history = history(&result, &ReferenceRegistry::new(), &HistoryOptions::default()).unwrap();
    assert_eq!(history, "[unsupported result type: hologram]\nkept");
    let view = script_view(&result);
    assert_eq!(
        view,
        json!({"content": [
            {"type": "text", "text": "[unsupported result type: hologram]"},
            {"type": "text", "text": "kept"}
        ]})
    );
    // The same inside a script's own result, and in a prompt's and a notification's content.
    for message in [
        json!({"calls": [result.clone()]}),
        json!({"messages": [{"role": "user", "content": [{"type": "hologram", "uri": "https://h.example/x?token=SECRET1"}]}]}),
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"content": [{"type": "hologram", "uri": "https://h.example/x?token=SECRET1"}]}}),
    ] {
        let text = script_view(&message).to_string();
        assert!(
            !text.contains("SECRET1") && text.contains("[unsupported result type: hologram]"),
            "{text}"
        );
    }
}

#[test]
fn meta_and_an_errors_data_never_reach_the_model() {
    let result = json!({"content": [{"type": "text", "text": "hi", "_meta": {"k": "SECRET2"}}],
        "_meta": {"progressToken": "SECRET3"}, "rows": [{"_meta": "SECRET4", "n": 1}]});
    let view = script_view(&result);
    assert_eq!(
        view,
        json!({"content": [{"type": "text", "text": "hi"}], "rows": [{"n": 1}]})
    );
    let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "it failed",
        "data": {"stack": "SECRET5", "uri": "https://h.example/?token=SECRET6"}, "_meta": {"k": "SECRET7"}}});
    assert_eq!(
        script_view(&error),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "it failed"}})
    );
    // A script's own `error` field deeper down is its data, and stays.
    let own = json!({"rows": [{"error": {"data": 1}}]});
    assert_eq!(script_view(&own), own);
    // structuredContent shown on history leaves `_meta` out too.
    let structured = json!({"content": [], "structuredContent": {"n": 1, "_meta": {"k": "SECRET8"}}});
    let history = history(&structured, &ReferenceRegistry::new(), &HistoryOptions::default()).unwrap();
    assert_eq!(history, r#"{"n":1}"#);
}
