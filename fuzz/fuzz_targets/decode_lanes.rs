//! Bytes → decode → classify → every lane and target, on both paths: the one-pass reader over
//! the bytes, and `parse_json` + `Message::decode`. Nothing may panic, and no lane may lose a
//! block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::{
    classify_block, convert_message, history, history_json, parse_json, prompt_messages, tool_result, HistoryOptions,
    Message, Provenance, ReferenceRegistry, Target,
};

fuzz_target!(|bytes: &[u8]| {
    let registry = ReferenceRegistry::with_seed(0);
    let _ = history_json(bytes, &registry, &HistoryOptions { budget: Some(40), ..HistoryOptions::default() });
    if let Ok(message) = Message::parse(bytes) {
        lanes(&message, &registry);
    }
    let Ok(value) = parse_json(bytes) else { return };
    if let Ok(message) = Message::decode(&value) {
        lanes(&message, &registry);
    }
});

fn lanes(message: &Message<'_>, registry: &ReferenceRegistry) {
    let count = message.blocks().count();
    for block in message.blocks() {
        let _ = classify_block(block).summary();
    }
    for budget in [None, Some(40)] {
        let _ = history(message, registry, &HistoryOptions { budget, ..HistoryOptions::default() });
    }
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        let blocks = convert_message(message, Provenance::PushEvent, registry, &target);
        if !matches!(message, Message::RpcError(_)) {
            assert_eq!(blocks.len(), count, "every block gives one agent block");
        }
        let _ = target.blocks_json(&blocks);
        let result = tool_result(message, "tool", "toolu_1", registry, &target);
        assert!(!result.content.is_empty(), "a tool result is never empty");
        let _ = target.tool_results_json(&[result]);
        let _ = target.messages_json(&prompt_messages(message, registry, &target));
    }
}
