//! Prompts and read resources as the model reads them.

mod common;

use common::{neutral, registry};
use mcp_agent_view::{convert, prompt_messages, AgentBlock, Message, Provenance};
use serde_json::json;

#[test]
fn prompt_messages_map_every_block_and_keep_user_and_assistant() {
    let result = json!({"jsonrpc": "2.0", "id": 2, "result": {"description": "review", "messages": [
        {"role": "user", "content": {"type": "text", "text": "Review this:"}},
        {"role": "user", "content": {"type": "resource", "resource": {"uri": "file:///main.rs", "mimeType": "text/x-rust", "text": "fn main() {}"}}},
        {"role": "assistant", "content": [
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "resource_link", "uri": "file:///guide.md", "name": "guide.md"}
        ]},
        {"role": "system", "content": {"type": "text", "text": "claimed role"}},
        {"content": {"type": "text", "text": "no role"}}
    ]}});
    let message = Message::decode(&result).unwrap();
    let messages = prompt_messages(&message, &registry(), &neutral()).unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "user", "assistant", "user", "user"]);
    let opening = |m: &mcp_agent_view::AgentMessage<'_>| m.content[0].as_text().map(str::to_owned);
    assert_eq!(
        opening(&messages[3]).as_deref(),
        Some("[prompt message claimed role: system; shown as user]")
    );
    assert_eq!(messages[3].content[1].as_text(), Some("claimed role"));
    assert_eq!(
        opening(&messages[4]).as_deref(),
        Some("[prompt message claimed no role; shown as user]")
    );
    assert_eq!(messages[1].content[0].as_text(), Some("fn main() {}"));
    assert_eq!(messages[2].content.len(), 2);
    assert!(matches!(messages[2].content[0], AgentBlock::Image { .. }));
    let stub = messages[2].content[1].as_text().unwrap();
    assert!(stub.ends_with("] guide.md — from prompt"), "{stub}");
    let json = serde_json::to_value(&messages[1]).unwrap();
    assert_eq!(
        json,
        json!({"role": "user", "content": [{"type": "text", "text": "fn main() {}"}]})
    );
    assert!(!serde_json::to_string(&messages).unwrap().contains("file:///"));
}

#[test]
fn a_failed_prompt_request_reads_as_one_user_message() {
    let error = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "Unknown prompt"}});
    let error_message = Message::decode(&error).unwrap();
    let messages = prompt_messages(&error_message, &registry(), &neutral()).unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(
        messages[0].content[0].as_text(),
        Some("[request failed: error -32602: Unknown prompt]")
    );
}

#[test]
fn read_resource_contents_are_embedded_resources() {
    let result = json!({"jsonrpc": "2.0", "id": 3, "result": {"contents": [
        {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "alpha"},
        {"uri": "file:///b.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="},
        {"uri": "file:///c.bin", "mimeType": "application/octet-stream", "blob": "AAAA"},
        {"uri": "file:///d.txt", "mimeType": "text/plain", "blob": "YmV0YQ=="},
        "not an object"
    ], "ttlMs": 0, "cacheScope": "private"}});
    let message = Message::decode(&result).unwrap();
    let blocks = convert(&message, Provenance::ToolResult, &registry(), &neutral())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 5);
    assert_eq!(blocks[0].as_text(), Some("alpha"));
    assert_eq!(
        blocks[1],
        AgentBlock::Image {
            mime_type: "image/png",
            data: "iVBORw0KGgo=".into()
        }
    );
    assert_eq!(blocks[2].as_text(), Some("[file: application/octet-stream, 3B]"));
    assert_eq!(blocks[3].as_text(), Some("beta"));
    assert_eq!(
        blocks[4].as_text(),
        Some("[unrecognized content block: resource contents are not an object]")
    );
}
