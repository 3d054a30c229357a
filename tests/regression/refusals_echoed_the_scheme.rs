//! Issue 29: refusals echoed the uri's scheme (`refused scheme: x-amz-signature-secret123`),
//! which a server can fill with a secret.

use mcp_agent_view::fetch::{fetch_reference, FetchPolicy, Fetcher};
use mcp_agent_view::{classify_block, Block, Class, ReferenceRegistry, Target};
use serde_json::json;

#[test]
fn a_refusal_names_what_is_allowed_and_no_part_of_the_uri() {
    let registry = ReferenceRegistry::new();
    let block = json!({"type": "resource", "uri": "x-amz-signature-secret123://h/x", "name": "n"});
    let block = Block::decode(&block);
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    let fetcher = Fetcher::new(FetchPolicy::new().allow_scheme("http").unwrap());
    let answer = fetch_reference(&json!({"ref_id": id}), "t", &registry, &fetcher, &Target::anthropic());
    let text = answer.content[0].as_text().unwrap();
    assert_eq!(
        text,
        format!("[fetch_reference failed: refused: the uri's scheme is not allowed (allowed: https, http) ({id})]")
    );
}
