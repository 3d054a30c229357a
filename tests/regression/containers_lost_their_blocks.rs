//! Issue 15: a JSON-RPC notification given whole was no message this crate read (the host had
//! to dig out `params`), and an object with a string `type` and a `content` array
//! (`{"type": "tool_result", "content": […]}`, a channel message) became one
//! `[unsupported result type: …]` marker: its content was lost without a word.

use mcp_agent_view::{history, HistoryOptions, Message, ReferenceRegistry};
use serde_json::{json, Value};

#[track_caller]
fn history_both(message: &Value) -> String {
    let decoded = history(
        &Message::decode(message).unwrap(),
        &ReferenceRegistry::with_seed(1),
        &HistoryOptions::default(),
    )
    .unwrap();
    let bytes = message.to_string();
    let parsed = history(
        bytes.as_bytes(),
        &ReferenceRegistry::with_seed(1),
        &HistoryOptions::default(),
    )
    .unwrap();
    assert_eq!(decoded, parsed, "{message}");
    decoded
}

#[test]
fn a_whole_notification_gives_its_blocks() {
    let text = json!({"type": "text", "text": "hello"});
    for notification in [
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"content": [text]}}),
        json!({"jsonrpc": "2.0", "method": "notifications/event", "params": {"payload": {"content": [text]}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/channel", "params": {"type": "channel_message", "content": [text]}}),
        json!({"jsonrpc": "2.0", "method": "notifications/channel", "params": {"channel": "c", "message": {"ignored": 1}, "payload": {"type": "channel_message", "content": [text]}}}),
    ] {
        assert_eq!(history_both(&notification), "hello", "{notification}");
    }
    // A notification with nothing for the model is no error.
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}});
    assert_eq!(history_both(&progress), "");
}

#[test]
fn an_object_of_another_type_with_content_gives_its_blocks() {
    let text = json!({"type": "text", "text": "hello"});
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "result": {"type": "tool_result", "content": [text]}}),
        json!({"type": "channel_message", "content": [text]}),
        json!({"type": "channel_message", "content": text}),
    ] {
        assert_eq!(history_both(&message), "hello", "{message}");
    }
    // A block type with content stays the block it is; an unknown type without content too.
    assert_eq!(
        history_both(&json!({"type": "text", "text": "a block", "content": [text]})),
        "a block"
    );
    assert_eq!(
        history_both(&json!({"type": "hologram", "frames": 3})),
        "[unsupported result type: hologram]"
    );
}
