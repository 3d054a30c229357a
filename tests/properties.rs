//! Properties that hold for every input: generated blocks and results, and arbitrary JSON,
//! through every lane and target.

use mcp_agent_view::{
    classify_block, convert, history, prompt_messages, script, tool_result, wire::Role, AgentBlock, Block,
    HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};
use proptest::prelude::*;

#[path = "support/generators.rs"]
mod generators;

use generators::*;
use serde_json::{json, Value};

/// How many cases each property runs; `PROPTEST_CASES` overrides it.
const CASES: u32 = 1024;

/// Everything the model reads of `input`, on every lane and target: (texts, everything).
fn everything_read(input: &Value, seed: u64) -> (Vec<String>, Vec<String>) {
    let registry = ReferenceRegistry::with_seed(seed);
    let message = Message::decode(input).expect("generated results decode");
    let mut texts = vec![history(&message, &registry, &HistoryOptions::default()).unwrap()];
    let mut all = Vec::new();
    for target in targets() {
        let blocks = convert(&message, Provenance::PushEvent, &registry, &target)
            .unwrap()
            .content;
        texts.extend(blocks.iter().filter_map(AgentBlock::as_text).map(str::to_owned));
        all.push(target.blocks_json(&blocks).to_string());
        let result = tool_result(&message, "tool", "toolu_1", &registry, &target);
        texts.extend(result.content.iter().filter_map(AgentBlock::as_text).map(str::to_owned));
        let shaped = Value::Array(target.tool_result_messages(std::slice::from_ref(&result)));
        collect_texts(&shaped, &mut texts);
        all.push(shaped.to_string());
        let script = serde_json::from_str::<serde_json::Value>(&script(input, &registry, &target).unwrap()).unwrap();
        collect_texts(&script, &mut texts);
        all.push(script.to_string());
        let prompt = json!({"messages": [{"role": "user", "content": message_content(input)}]});
        let prompt_message = Message::decode(&prompt).unwrap();
        let messages = prompt_messages(&prompt_message, &registry, &target).unwrap();
        all.push(Value::Array(target.messages_json(&messages)).to_string());
    }
    all.extend(texts.iter().cloned());
    (texts, all)
}

fn message_content(input: &Value) -> Value {
    input.get("result").unwrap_or(input)["content"].clone()
}

/// Every string at a `text` key, and every string `content` (OpenAI tool messages).
fn collect_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            for (k, v) in obj {
                match v {
                    Value::String(s) if k == "text" || k == "content" => out.push(s.clone()),
                    _ => collect_texts(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_texts(v, out)),
        _ => {}
    }
}

/// Every string and key in `value` but the strings at `data` and `blob` keys.
fn words(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Object(obj) => {
            out.extend(obj.keys().cloned());
            obj.iter()
                .filter(|(k, _)| *k != "data" && *k != "blob")
                .for_each(|(_, v)| words(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| words(v, out)),
        _ => {}
    }
}

fn strings_at(value: &Value, key: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            for (k, v) in obj {
                if let (true, Value::String(s)) = (k == key, v) {
                    out.push(s.clone());
                }
                strings_at(v, key, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| strings_at(v, key, out)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// The block readers compare the keys they expect where servers write them, compact, and
    /// read any other layout key by key: what the model reads is the same in every layout.
    /// The script lane reads a block by its type's reader where its type comes first, as a
    /// flat object where its values are scalars, and by copying it otherwise: what it shows
    /// (as JSON, whose objects' keys keep no order) is the same too.
    #[test]
    fn layout_does_not_change_what_is_read(mut input in result(), seed in any::<u64>()) {
        // Structured content is shown with its keys in the server's order.
        if let Some(object) = input.as_object_mut() {
            object.remove("structuredContent");
        }
        if let Some(object) = input.get_mut("result").and_then(Value::as_object_mut) {
            object.remove("structuredContent");
        }
        let read = |bytes: &[u8]| {
            let history = history(bytes, &ReferenceRegistry::with_seed(5), &HistoryOptions::default()).unwrap();
            let message = Message::parse(bytes).unwrap();
            let tool = tool_result(&message, "tool", "toolu_1", &ReferenceRegistry::with_seed(5), &Target::anthropic());
            let script = script(bytes, &ReferenceRegistry::with_seed(5), &Target::anthropic()).unwrap();
            (
                history,
                Target::anthropic().tool_result_messages(std::slice::from_ref(&tool)),
                serde_json::from_str::<Value>(&script).unwrap(),
            )
        };
        let bytes = serde_json::to_vec(&input).unwrap();
        let sorted = read(&bytes);
        let value = serde_json::from_slice::<Value>(&bytes).unwrap();
        for layout in [Layout::Servers, Layout::Shuffled(seed)] {
            for spaced in [false, true] {
                let mut json = String::new();
                write_laid_out(&input, layout, spaced, &mut json);
                prop_assert_eq!(&serde_json::from_str::<Value>(&json).unwrap(), &value);
                prop_assert_eq!(&read(json.as_bytes()), &sorted, "{}", json);
            }
        }
    }

    /// No uri of an embedded resource or a reference is read, unless the input's own text
    /// carries it; nothing panics on the way, on any lane or target.
    #[test]
    fn no_uri_leaks(input in result()) {
        // The uris of embedded resources and references: of the blocks of known types.
        let mut uris = Vec::new();
        for block in message_content(&input).as_array().into_iter().flatten() {
            if matches!(block["type"].as_str(), Some("image" | "audio" | "resource" | "resource_link")) {
                strings_at(block, "uri", &mut uris);
            }
        }
        let mut own_text = Vec::new();
        strings_at(&input, "text", &mut own_text);
        let (_, all) = everything_read(&input, 1);
        for uri in uris.iter().filter(|u| u.chars().count() >= 8 && !own_text.iter().any(|t| t.contains(u.as_str()))) {
            for out in &all {
                prop_assert!(!out.contains(uri.as_str()), "{} leaks into {}", uri, out);
            }
        }
    }

    /// No run of 64 base64 characters from the input's data or blobs is in any text read, unless
/// the input's own words (a text, a name) carry it.
    #[test]
    fn no_base64_in_text(input in result()) {
        let mut data = Vec::new();
        strings_at(&input, "data", &mut data);
        strings_at(&input, "blob", &mut data);
        // The input's own words: every string that is no data or blob (texts, names, types).
        let mut own_text = Vec::new();
        words(&input, &mut own_text);
        let (texts, _) = everything_read(&input, 1);
        for d in data.iter().filter(|d| d.is_ascii() && d.len() >= 64) {
            for start in (0..=d.len() - 64).step_by(16) {
                let run = &d[start..start + 64];
                let base64 = run.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
                if base64 && !own_text.iter().any(|t| t.contains(run)) {
                    for text in &texts {
                        prop_assert!(!text.contains(run), "base64 {} in text {}", run, text);
                    }
                }
            }
        }
    }

    /// Each block gives one agent block, and one piece of the history string; a piece is
    /// bounded by the block's own text, or by a constant.
    #[test]
    fn every_block_is_accounted_for_and_bounded(input in result()) {
        let registry = ReferenceRegistry::with_seed(3);
        let message = Message::decode(&input).unwrap();
        let blocks: Vec<_> = message.blocks().cloned().collect();
        for target in targets() {
            let converted = convert(&message, Provenance::PushEvent, &registry, &target).unwrap();
            // One agent block a block, and for a tool result at most an error line and its
            // structured content (or the marker of nothing) beside them.
            let given = converted.content.len() + converted.held_for_user.len();
            prop_assert!(given >= blocks.len() && given <= blocks.len() + 2, "{} agent blocks for {} blocks", given, blocks.len());
        }
        // The blocks' own string: each block's piece, but those for the user only, held back.
        let whole = history(&blocks, &registry, &HistoryOptions::default()).unwrap();
        let for_user_only = |block: &Block<'_>| {
            block.annotations.as_ref().and_then(|a| a.audience.as_ref()).is_some_and(|a| !a.contains(&Role::Assistant))
        };
        let held = blocks.iter().filter(|b| for_user_only(b)).count();
        let mut pieces = Vec::new();
        for block in blocks.iter().filter(|b| !for_user_only(b)) {
            let piece = history(block, &registry, &HistoryOptions::default()).unwrap();
            let class = classify_block(block);
            let own = if class.is_text() { piece.chars().count() } else { 0 };
            prop_assert!(piece.chars().count() <= own + 400, "{} chars for {:?}", piece.chars().count(), class.name());
            if !class.is_text() {
                prop_assert!(!piece.is_empty(), "a marker for every non-text block");
            }
            pieces.push(piece);
        }
        if pieces.is_empty() && held > 0 {
            prop_assert_eq!(whole, "[output displayed to user]");
        } else {
            prop_assert_eq!(whole, pieces.join("\n"));
        }
        // The message's history is never empty.
        prop_assert!(!history(&message, &registry, &HistoryOptions::default()).unwrap().is_empty());
    }

    /// The bytes path reads what the `Value` path reads.
    #[test]
    fn bytes_and_values_read_alike(input in result()) {
        let bytes = serde_json::to_vec(&input).unwrap();
        let from_value = history(&Message::decode(&input).unwrap(), &ReferenceRegistry::with_seed(5), &HistoryOptions::default()).unwrap();
        let from_bytes = history(&bytes, &ReferenceRegistry::with_seed(5), &HistoryOptions::default()).unwrap();
        prop_assert_eq!(&from_value, &from_bytes);
        let parsed = Message::parse(&bytes).unwrap();
        prop_assert_eq!(Message::decode(&input).unwrap(), parsed.into_owned());
        for target in targets() {
            let view = serde_json::from_str::<serde_json::Value>(&script(&input, &ReferenceRegistry::with_seed(5), &target).unwrap()).unwrap();
            let json = script(&bytes, &ReferenceRegistry::with_seed(5), &target).unwrap();
            // As text: serde_json's own float parsing may differ in the last place.
            prop_assert_eq!(serde_json::to_string(&view).unwrap(), json);
        }
    }

    /// The same input with the same registry state gives the same output.
    #[test]
    fn output_is_deterministic(input in result()) {
        prop_assert_eq!(everything_read(&input, 9), everything_read(&input, 9));
    }

    /// Any JSON at all: decoding and every lane either work or say why; nothing panics.
    #[test]
    fn any_json_is_safe(input in any_json()) {
        let registry = ReferenceRegistry::new();
        for target in targets() {
            let _ = serde_json::from_str::<serde_json::Value>(&script(&input, &registry, &target).unwrap()).unwrap();
        }
        if let Ok(message) = Message::decode(&input) {
            for target in targets() {
                let _ = history(&message, &registry, &HistoryOptions { budget: Some(50), ..HistoryOptions::default() }).unwrap();
                let blocks = convert(&message, Provenance::ContextInjection, &registry, &target).unwrap().content;
                let _ = target.blocks_json(&blocks);
                let result = tool_result(&message, "t", "toolu_1", &registry, &target);
                let _ = target.tool_result_messages(&[result]);
                let _ = target.messages_json(&prompt_messages(&message, &registry, &target).unwrap());
            }
            for block in message.blocks() {
                let _ = classify_block(block).summary();
            }
        }
    }

    /// Any bytes at all: `parse_json` either gives a value or an error.
    #[test]
    fn any_bytes_parse_or_fail_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(value) = mcp_agent_view::parse_json(&bytes) {
            let _ = Message::decode(&value);
        }
    }
}
