//! Bytes → the script lane, for every target, on both paths: `script_json` over the bytes,
//! and `parse_json` + `script_view`. Nothing may panic; what `script_json` writes is JSON;
//! both paths read the bytes or neither does; where both do and no reference is shown, they
//! show the same JSON (unless the bytes read objects again past the bound, which a `Value`'s
//! keys given once may not); the registry holds a record for each id shown and no other; no object
//! shown has a `_meta`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::{parse_json, script, ReferenceRegistry, Target};

fuzz_target!(|bytes: &[u8]| {
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        let registry = ReferenceRegistry::with_seed(0);
        let from_bytes = script(bytes, &registry, &target);
        let value = parse_json(bytes);
        assert_eq!(from_bytes.is_ok(), value.is_ok(), "both paths read the bytes, or neither");
        let (Ok(json), Ok(value)) = (from_bytes, value) else { continue };
        let written = parse_json(json.as_bytes()).unwrap_or_else(|e| panic!("script_json wrote no JSON ({e}): {json}"));
        assert!(!has_meta(&written), "_meta never reaches the model: {json}");
        let shown = json.matches("[ref_").count();
        assert!(registry.len() <= shown, "a record for each stub shown, and no other");
        let from_value = serde_json::from_str::<serde_json::Value>(&script(&value, &ReferenceRegistry::with_seed(0), &target).unwrap()).unwrap();
        if shown == 0 {
            assert_eq!(written, from_value, "the bytes and the Value show one script result");
        }
    }
});

/// Whether any object in `value` has a `_meta` key.
fn has_meta(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(fields) => fields.contains_key("_meta") || fields.values().any(has_meta),
        serde_json::Value::Array(items) => items.iter().any(has_meta),
        _ => false,
    }
}
