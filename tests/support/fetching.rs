//! What the fetch tests (and the regressions of the fetch policy) share: policies, a record,
//! a registry holding one block.

#![allow(dead_code)]

use mcp_agent_view::fetch::FetchPolicy;
use mcp_agent_view::{
    classify::ReferenceSource, classify_block, reference::ReferenceRecord, Block, Class, ReferenceRegistry,
};

/// A policy that allows `http` besides `https`.
pub fn http_policy() -> FetchPolicy {
    FetchPolicy::new().allow_scheme("http").unwrap()
}

/// A bulk reference's record for `uri`, nothing else claimed.
pub fn record(uri: &str) -> ReferenceRecord {
    ReferenceRecord {
        id: "ref_0000000000001".into(),
        uri: uri.into(),
        source: ReferenceSource::BulkResource,
        name: None,
        mime_type: None,
        size_bytes: None,
        disposition: None,
        expires_at: None,
        digest: None,
        verified: None,
        connection: None,
    }
}

/// A registry holding the reference `block` is, and its id.
pub fn registered(block: &serde_json::Value) -> (ReferenceRegistry, String) {
    let registry = ReferenceRegistry::new();
    let block = Block::decode(block);
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    (registry, id)
}
