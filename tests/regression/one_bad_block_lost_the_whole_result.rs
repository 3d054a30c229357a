//! A Go SDK could not decode an embedded resource, and the error threw away the whole tool
//! result, text and images included. Here a block that cannot be read is one marker; its
//! siblings arrive untouched.

use crate::common::{history_of, neutral};
use mcp_agent_view::{convert, Message, Provenance, ReferenceRegistry};
use serde_json::json;

#[test]
fn undecodable_blocks_never_sink_the_result() {
    let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [
        {"type": "text", "text": "Screenshot attached."},
        {"type": "resource", "resource": {"uri": "file:///x", "mimeType": "text/plain"}},
        {"type": "resource", "resource": {"uri": "file:///y", "text": {"not": "a string"}}},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "text", "text": "Done."}
    ], "isError": false}});
    assert_eq!(
        history_of(&result),
        "Screenshot attached.\n\
         [unrecognized content block: embedded resource without text or blob]\n\
         [unrecognized content block: embedded resource with non-string text]\n\
         [image: image/png, 8B]\n\
         Done."
    );
    let message = Message::decode(&result).unwrap();
    let blocks = convert(&message, Provenance::PushEvent, &ReferenceRegistry::new(), &neutral())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 5);
    assert!(matches!(blocks[3], mcp_agent_view::AgentBlock::Image { .. }));
}

#[test]
fn unknown_annotation_roles_never_sink_the_result() {
    let result = json!({"content": [
        {"type": "text", "text": "kept", "annotations": {"audience": ["assistant", "auditor"], "priority": "high"}},
        {"type": "text", "text": "held", "annotations": {"audience": ["system", "auditor"], "priority": "high"}}
    ]});
    // An audience that leaves out the assistant holds the block back, on history as on every lane.
    assert_eq!(history_of(&result), "kept");
}
