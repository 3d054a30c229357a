//! Helpers shared by the black-box tests.
#![allow(dead_code)]

use mcp_agent_view::{
    classify_block, convert, history, script, AgentBlock, Block, Class, HistoryOptions, Message, Provenance,
    ReferenceRegistry,
};
use serde_json::Value;

/// A registry with fixed ids, so that two lanes over the same input agree.
pub fn registry() -> ReferenceRegistry {
    ReferenceRegistry::with_seed(7)
}

/// The class of one block, owned enough to compare in tests.
#[track_caller]
pub fn class_name(block: &Value) -> &'static str {
    classify_block(&Block::decode(block)).name()
}

/// The history lane over a whole message, with default options.
#[track_caller]
pub fn history_of(message: &Value) -> String {
    let message = Message::decode(message).expect("the message decodes");
    history(&message, &registry(), &HistoryOptions::default()).unwrap()
}

/// The history lane with a budget.
#[track_caller]
pub fn history_with_budget(message: &Value, budget: usize) -> String {
    let message = Message::decode(message).expect("the message decodes");
    let options = HistoryOptions {
        budget: Some(budget),
        ..HistoryOptions::default()
    };
    history(&message, &registry(), &options).unwrap()
}

/// The one agent block `convert` gives for one block: for the model, or held for the user.
#[track_caller]
pub fn convert_one<'a>(
    block: &'a Block<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &mcp_agent_view::Target,
) -> AgentBlock<'a> {
    let converted = convert(block, provenance, registry, target).expect("decoded blocks always convert");
    let mut blocks: Vec<_> = converted.content.into_iter().chain(converted.held_for_user).collect();
    assert_eq!(blocks.len(), 1, "one block in, one agent block out");
    blocks.remove(0)
}

/// `convert` over one block.
#[track_caller]
pub fn convert_of(block: &Value, provenance: Provenance) -> AgentBlock<'static> {
    convert_one(&Block::decode(block), provenance, &registry(), &neutral()).into_owned()
}

/// The text `convert` gives for one block; fails where it gives media.
#[track_caller]
pub fn convert_text(block: &Value) -> String {
    match convert_of(block, Provenance::PushEvent) {
        AgentBlock::Text { text } => text.into_owned(),
        other => panic!("expected a text block, got {other:?}"),
    }
}

/// The script lane.
#[track_caller]
pub fn script_of(value: &Value) -> Value {
    serde_json::from_str::<serde_json::Value>(&script(value, &registry(), &neutral()).unwrap()).unwrap()
}

/// The reason of an invalid block; fails where the block is not invalid.
#[track_caller]
pub fn invalid_reason(block: &Value) -> &'static str {
    match classify_block(&Block::decode(block)) {
        Class::Invalid { reason, .. } => reason,
        other => panic!("expected an invalid block, got {other:?}"),
    }
}

/// Every string in `value` at a key named `key`, at any depth.
pub fn strings_at(value: &Value, key: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            for (k, v) in obj {
                if k == key {
                    if let Value::String(s) = v {
                        out.push(s.clone());
                    }
                }
                strings_at(v, key, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| strings_at(v, key, out)),
        _ => {}
    }
}

/// The neutral target.
pub fn neutral() -> mcp_agent_view::Target {
    mcp_agent_view::Target::neutral()
}

/// A bulk reference to `uri` with no other field.
pub fn reference(uri: &str) -> mcp_agent_view::classify::Reference<'_> {
    mcp_agent_view::classify::Reference {
        source: mcp_agent_view::classify::ReferenceSource::BulkResource,
        uri,
        name: None,
        mime_type: None,
        size_bytes: None,
        expires_at: None,
        digest: None,
        disposition: None,
        rejected: Vec::new(),
    }
}

/// Registers `each` distinct uris from each of `threads` threads at once, and checks that no
/// id was issued twice and that the registry keeps at most its limit.
#[track_caller]
pub fn assert_threads_never_share_an_id(threads: usize, each: usize) {
    let registry = std::sync::Arc::new(ReferenceRegistry::new());
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let registry = std::sync::Arc::clone(&registry);
            std::thread::spawn(move || {
                (0..each)
                    .map(|i| registry.register(&reference(&format!("mcpl://t{t}/u{i}"))))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut seen = std::collections::HashSet::with_capacity(threads * each);
    for handle in handles {
        for id in handle.join().expect("no thread panics") {
            assert!(seen.insert(id), "an id was issued twice");
        }
    }
    assert_eq!(seen.len(), threads * each);
    assert_eq!(
        registry.len(),
        (threads * each).min(mcp_agent_view::reference::MAX_RECORDS)
    );
}

/// Where the wire vectors live in the repository: copied from the MCP conformance suite, the
/// everything server and the schema examples (`tests/vectors/README.md` says what each is).
pub fn vectors_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/mcp")
}

/// The `.json` files in the vectors folder, sorted; fails naming the folder where it is missing.
#[track_caller]
pub fn vector_files() -> Vec<std::path::PathBuf> {
    let dir = vectors_dir();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read the vectors at {}: {e}", dir.display()));
    let mut files: Vec<_> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// One test input as JSON; fails naming the path where it is missing or not JSON.
#[track_caller]
pub fn read_json(path: &std::path::Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read the test input {}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("the test input {} is not JSON: {e}", path.display()))
}

/// One vector by file name, as JSON.
#[track_caller]
pub fn vector(name: &str) -> Value {
    read_json(&vectors_dir().join(name))
}
