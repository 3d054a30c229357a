//! Bytes → the script lane, for every target, on both paths: `script_json` over the bytes,
//! and `parse_json` + `script_view`. Nothing may panic, and what `script_json` writes is JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::{parse_json, script_json, script_view, ReferenceRegistry, Target};

fuzz_target!(|bytes: &[u8]| {
    let registry = ReferenceRegistry::with_seed(0);
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        if let Ok(json) = script_json(bytes, &registry, &target) {
            assert!(parse_json(json.as_bytes()).is_ok(), "script_json wrote no JSON: {json}");
        }
        if let Ok(value) = parse_json(bytes) {
            let _ = script_view(&value, &registry, &target);
        }
    }
});
