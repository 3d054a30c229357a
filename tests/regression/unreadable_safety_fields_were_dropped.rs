//! Issue 29: a digest in a shape the crate cannot check (padded base64url, `SHA256:`,
//! `sha-256:`, `sha512:`, hex, too short, empty, a number) was dropped at classification, and
//! the bytes were fetched, saved and shown as unverified; an `expiresAt` over 64 characters or
//! not a string was dropped, so an expired reference was fetched.

use mcp_agent_view::fetch::{FetchPolicy, Fetcher, Refusal};
use mcp_agent_view::{classify_block, Block, Class, ReferenceRegistry};
use serde_json::{json, Value};

fn fetch(field: &str, value: Value) -> Result<(), Refusal> {
    let registry = ReferenceRegistry::new();
    let mut block = json!({"type": "resource", "uri": "data:text/plain,hello", "name": "n"});
    block[field] = value;
    let block = Block::decode(&block);
    let Class::Reference(reference) = classify_block(&block) else {
        panic!("a reference")
    };
    let id = registry.register(&reference);
    Fetcher::new(FetchPolicy::new().allow_scheme("data").unwrap())
        .fetch(&registry, &id)
        .map(|_| ())
}

#[test]
fn an_unreadable_digest_or_expiry_refuses_the_fetch() {
    let b64 = "LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ";
    for digest in [
        json!(format!("sha256:{b64}=")),
        json!(format!("SHA256:{b64}")),
        json!(format!("sha-256:{b64}")),
        json!(format!("sha512:{b64}")),
        json!("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
        json!("sha256:LPJNul"),
        json!(""),
        json!(42),
    ] {
        assert_eq!(fetch("digest", digest.clone()), Err(Refusal::BadDigest), "{digest}");
    }
    assert_eq!(fetch("digest", json!(format!("sha256:{b64}"))), Ok(()));
    for expiry in [
        json!(format!("2999-01-01T00:00:00.{}Z", "1".repeat(50))),
        json!(32_503_680_000u64),
        json!(["2999-01-01T00:00:00Z"]),
    ] {
        assert_eq!(fetch("expiresAt", expiry.clone()), Err(Refusal::BadExpiry), "{expiry}");
    }
}
