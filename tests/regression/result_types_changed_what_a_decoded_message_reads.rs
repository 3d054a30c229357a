//! Issue 50's fuzz smoke found it: reading `resultType` made `Message::parse` read a prompt with
//! an unknown `resultType` (and an input-required result beside content) otherwise than the
//! bytes path did, so the history of the decoded message lost its messages. Only a result that
//! is nothing but what the server asks is decoded as `Message::Pending` now; every other shape
//! reads as it did, on every path.

use mcp_agent_view::{history, HistoryOptions, Message, ReferenceRegistry};

#[test]
fn every_shape_with_a_result_type_reads_alike_from_its_bytes_and_decoded() {
    for input in [
        r#"{"resultType":"compl%te","messages":[{"role":"system","content":{"type":"text","text":"a"}}]}"#,
        r#"{"resultType":"zzz"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"zzz"}}"#,
        r#"{"resultType":"input_required","requestState":"s","messages":[{"role":"user","content":{"type":"text","text":"a"}}]}"#,
        r#"{"resultType":"input_required","content":[{"type":"text","text":"x"}]}"#,
        r#"{"resultType":"task","taskId":"t","contents":[{"uri":"file:///x","text":"y"}]}"#,
        r#"{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}"#,
    ] {
        let options = HistoryOptions::default();
        let from_bytes = history(input.as_bytes(), &ReferenceRegistry::with_seed(0), &options).unwrap();
        let message = Message::parse(input.as_bytes()).unwrap();
        let decoded = history(&message, &ReferenceRegistry::with_seed(0), &options).unwrap();
        assert_eq!(from_bytes, decoded, "{input}");
    }
    let pending = Message::parse(br#"{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}"#);
    assert!(matches!(pending, Ok(Message::Pending(_))));
}
