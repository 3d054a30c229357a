//! The CI fuzz smoke found it (`decode_lanes`, after issue 51's moves; the walk was as before): an
//! object that is no JSON-RPC message (no `jsonrpc`, no `id`) holding a `result` beside its own
//! container (`contents`, `content`) was walked a second time, decided, and that walk reported
//! the `result`'s blocks although the message it decided is the object's own container.
//! `history` from the bytes showed them; `Message::parse` (and so the decoded message, and
//! the `Value`) did not. The decided walk now leaves a `result` or `params` out wherever the
//! object itself is the message, as the decision does.

use mcp_agent_view::{convert, history, parse_json, HistoryOptions, Message, Provenance, ReferenceRegistry, Target};

#[test]
fn a_result_beside_the_objects_own_container_reads_alike_on_every_path() {
    for input in [
        // The fuzzer's input, as it found it.
        r#"{"contents":[],"result":{"messages":[{"role":"user","coktent":{"type":"text","text":"This is a simple prompt le pfot r testing."}}]},"jsonrpi)":17}"#,
        r#"{"result":{"content":[{"type":"text","text":"A"}]},"content":[{"type":"text","text":"B"}]}"#,
        r#"{"content":[{"type":"text","text":"B"}],"params":{"content":[{"type":"text","text":"A"}]}}"#,
        r#"{"contents":[{"uri":"file:///b","text":"B"}],"result":{"content":[{"type":"text","text":"A"}]}}"#,
    ] {
        let options = HistoryOptions::default();
        let from_bytes = history(input.as_bytes(), &ReferenceRegistry::with_seed(0), &options).unwrap();
        let message = Message::parse(input.as_bytes()).unwrap();
        let parsed = history(&message, &ReferenceRegistry::with_seed(0), &options).unwrap();
        let value = parse_json(input.as_bytes()).unwrap();
        let decoded = history(
            &Message::decode(&value).unwrap(),
            &ReferenceRegistry::with_seed(0),
            &options,
        )
        .unwrap();
        assert_eq!(from_bytes, parsed, "{input}");
        assert_eq!(from_bytes, decoded, "{input}");
        // The object's own blocks are what it shows; the result's are not.
        assert!(
            !from_bytes.contains('A') || input.contains("coktent"),
            "{input}: {from_bytes}"
        );
        let converted = convert(
            input.as_bytes(),
            Provenance::PushEvent,
            &ReferenceRegistry::with_seed(0),
            &Target::neutral(),
        )
        .unwrap();
        assert_eq!(converted.content.len(), message.blocks().count(), "{input}");
    }
}
