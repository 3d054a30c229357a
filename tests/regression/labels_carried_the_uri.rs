//! Issue 29: a label carried the uri to the model. A `resource_link` named by its own uri, a
//! `mimeType` of `application/pdf; source=<uri>`, an embedded blob's `application/x-<uri>`,
//! and a name holding only the query showed the uri's secret in the stub, on every lane and
//! target: 199 of 240 such cases leaked.

use mcp_agent_view::{convert, history, script, HistoryOptions, Message, Provenance, ReferenceRegistry, Target};
use serde_json::json;

#[test]
fn no_label_shows_the_uri_or_its_query() {
    let uri = "https://h.example/x?X-Amz-Signature=SECRET123";
    let message = json!({"content": [
        {"type": "resource_link", "uri": uri, "name": uri},
        {"type": "resource_link", "uri": "https://h.example/x?sig=SECRET123", "name": "report.pdf",
         "mimeType": "application/pdf; source=https://h.example/x?sig=SECRET123"},
        {"type": "resource", "resource": {"uri": "https://h.example/x?sig=SECRET123",
         "mimeType": "application/x-https://h.example/x?sig=SECRET123", "blob": "aGk="}},
        {"type": "resource_link", "uri": uri, "name": "X-Amz-Signature=SECRET123"},
        {"type": "resource_link", "uri": uri, "name": "secret123"}
    ]});
    let decoded = Message::decode(&message).unwrap();
    let registry = ReferenceRegistry::with_seed(1);
    let text = history(&decoded, &registry, &HistoryOptions::default()).unwrap();
    let ids: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("[ref_"))
        .map(|l| &l[..19])
        .collect();
    assert_eq!(
        text,
        format!(
            "{} — from tool result\n\
             {} report.pdf — application/pdf — from tool result\n\
             [file: unknown type, 2B]\n\
             {} — from tool result\n\
             {} — from tool result",
            ids[0], ids[1], ids[2], ids[3]
        )
    );
    for target in [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ] {
        let blocks = convert(&decoded, Provenance::PushEvent, &registry, &target)
            .unwrap()
            .content;
        let shown = target.blocks_json(&blocks).to_string() + &script(&message, &registry, &target).unwrap();
        assert!(
            !shown.to_ascii_lowercase().contains("secret123") && !shown.contains("://"),
            "{shown}"
        );
    }
    // The host's record keeps the uri, and the name that would have shown it is gone.
    let record = registry.records().into_iter().find(|r| r.uri == uri).unwrap();
    assert_eq!(record.name, None);
}
