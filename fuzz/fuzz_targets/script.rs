//! Bytes → the script lane, for every target. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::{parse_json, script_view, ReferenceRegistry, Target};

fuzz_target!(|bytes: &[u8]| {
    let Ok(value) = parse_json(bytes) else { return };
    let registry = ReferenceRegistry::with_seed(0);
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        let _ = script_view(&value, &registry, &target);
    }
});
