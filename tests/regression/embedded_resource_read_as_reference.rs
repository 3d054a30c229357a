//! An agent framework read every `type:"resource"` block as a bulk reference whose link is a
//! top-level `uri`. An embedded resource has its uri under `resource`, so the agent read
//! "[Reference not shown: it arrived without a link.]" and never saw the text.

use crate::common::{class_name, convert_text, history_of, script_of};
use serde_json::json;

#[test]
fn an_embedded_resource_is_inline_text_not_a_reference() {
    let block = json!({"type": "resource", "resource": {
        "uri": "file:///notes.txt", "mimeType": "text/plain", "text": "Quarterly notes: revenue up 4%."}});
    assert_eq!(class_name(&block), "embedded_text");
    let outputs = [
        history_of(&json!([block.clone()])),
        convert_text(&block),
        script_of(&block).to_string(),
    ];
    for out in outputs {
        assert!(out.contains("Quarterly notes: revenue up 4%."), "{out}");
        assert!(
            !out.contains("without a link") && !out.contains("Reference not shown"),
            "{out}"
        );
        assert!(!out.contains("[ref_"), "not a stub: {out}");
        assert!(!out.contains("file:///notes.txt"), "{out}");
    }
}

#[test]
fn a_bulk_reference_with_a_top_level_uri_is_still_a_reference() {
    let block = json!({"type": "resource", "uri": "mcpl://bulk/9", "name": "big.parquet", "sizeBytes": 1_073_741_824});
    assert_eq!(class_name(&block), "reference");
    let text = history_of(&json!([block]));
    assert!(
        text.contains("] big.parquet — ~1.0GB claimed — from tool result"),
        "{text}"
    );
}
