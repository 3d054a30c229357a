//! Issue 15, compared with what codex and goose send and with the providers' SDK types: an
//! empty text block went into an Anthropic `tool_result` (a 400: "text content blocks must be
//! non-empty"); an image whose `data` was a `data:image/png;base64,…` URL became
//! `[image: …, not sent: invalid base64]`; `input_image` had no `detail`; OpenAI Chat got
//! `input_audio` by default, which only audio-capable models take.

use base64::Engine as _;
use mcp_agent_view::{
    convert, prompt_messages, provider::ImageDetail, tool_result, Message, Provenance, ReferenceRegistry, Target,
};
use serde_json::{json, Value};

fn png() -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend([7u8; 16]);
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn targets() -> [Target; 5] {
    [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_chat_audio(),
        Target::openai_responses(),
    ]
}

/// Every text an output holds at a `text` key or as a string `content` (OpenAI tool messages).
fn texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::String(s) if k == "text" || k == "content" => out.push(s.clone()),
                    _ => texts(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
        _ => {}
    }
}

/// Everything every target is sent for `message`: tool results, blocks, prompt messages.
fn sent(message: &Value) -> Vec<Value> {
    let message = Message::decode(message).unwrap();
    let registry = ReferenceRegistry::new();
    let mut out = Vec::new();
    for target in targets() {
        let result = tool_result(&message, "t", "toolu_1", &registry, &target);
        out.push(Value::Array(target.tool_result_messages(&[result])));
        out.push(
            target.blocks_json(
                &convert(&message, Provenance::PushEvent, &registry, &target)
                    .unwrap()
                    .content,
            ),
        );
        out.push(Value::Array(
            target.messages_json(&prompt_messages(&message, &registry, &target).unwrap()),
        ));
    }
    out
}

#[test]
fn no_target_is_sent_an_empty_text_block() {
    for message in [
        json!({"content": [{"type": "text", "text": ""}]}),
        json!({"content": [{"type": "text", "text": "  \n "}, {"type": "image", "data": png(), "mimeType": "image/png"}]}),
        json!({"content": [{"type": "text", "text": ""}, {"type": "text", "text": "kept"}]}),
    ] {
        for out in sent(&message) {
            let mut found = Vec::new();
            texts(&out, &mut found);
            assert!(found.iter().all(|t| !t.trim().is_empty()), "{message} gave {out}");
        }
    }
    // Beside an image, the image alone; alone, the never-empty rule.
    let beside =
        json!({"content": [{"type": "text", "text": ""}, {"type": "image", "data": png(), "mimeType": "image/png"}]});
    let message = Message::decode(&beside).unwrap();
    let result = tool_result(
        &message,
        "t",
        "toolu_1",
        &ReferenceRegistry::new(),
        &Target::anthropic(),
    );
    let out = Target::anthropic().tool_result_messages(&[result]);
    assert_eq!(
        out[0]["content"][0]["content"].as_array().unwrap().len(),
        1,
        "{}",
        out[0]
    );
    assert_eq!(out[0]["content"][0]["content"][0]["type"], "image");
    let alone = Message::decode(&json!({"content": [{"type": "text", "text": ""}]})).unwrap();
    let result = tool_result(&alone, "t", "toolu_1", &ReferenceRegistry::new(), &Target::anthropic());
    let out = Target::anthropic().tool_result_messages(&[result]);
    assert_eq!(
        out[0]["content"][0]["content"],
        json!([{"type": "text", "text": "[tool returned no content]"}])
    );
}

#[test]
fn a_data_url_image_is_sent_as_an_image() {
    let url = format!("data:image/png;base64,{}", png());
    for message in [
        json!({"content": [{"type": "image", "data": url, "mimeType": "image/png"}]}),
        json!({"content": [{"type": "image", "data": url}]}),
    ] {
        let message = Message::decode(&message).unwrap();
        let result = tool_result(
            &message,
            "t",
            "toolu_1",
            &ReferenceRegistry::new(),
            &Target::anthropic(),
        );
        let out = Target::anthropic().tool_result_messages(&[result]);
        let image = &out[0]["content"][0]["content"][0];
        assert_eq!(image["type"], "image", "{out:?}");
        assert_eq!(image["source"]["data"], png().as_str(), "the base64 inside the URL");
        assert_eq!(image["source"]["media_type"], "image/png");
    }
    // A URL of another type than the one declared is taken as it came, and refused.
    let other = json!({"content": [{"type": "image", "data": format!("data:text/html;base64,{}", png()), "mimeType": "image/png"}]});
    let message = Message::decode(&other).unwrap();
    let result = tool_result(
        &message,
        "t",
        "toolu_1",
        &ReferenceRegistry::new(),
        &Target::anthropic(),
    );
    assert_eq!(
        result.content[0].as_text(),
        Some("[image: image/png, not sent: invalid base64]")
    );
}

#[test]
fn every_input_image_has_a_detail() {
    let message =
        Message::decode(&json!({"content": [{"type": "image", "data": png(), "mimeType": "image/png"}]})).unwrap();
    let mut target = Target::openai_responses();
    for (detail, name) in [
        (ImageDetail::Auto, "auto"),
        (ImageDetail::High, "high"),
        (ImageDetail::Low, "low"),
    ] {
        target.image_detail = detail;
        let result = tool_result(&message, "t", "call_1", &ReferenceRegistry::new(), &target);
        let out = target.tool_result_messages(&[result]);
        // The output is text; the image follows in a user message, after the line naming its call.
        assert_eq!(out[1]["role"], "user");
        assert_eq!(out[1]["content"][1]["type"], "input_image");
        assert_eq!(out[1]["content"][1]["detail"], name);
        let blocks = target.blocks_json(
            &convert(&message, Provenance::PushEvent, &ReferenceRegistry::new(), &target)
                .unwrap()
                .content,
        );
        assert_eq!(blocks[0]["detail"], name);
    }
}

/// Issue 51's review: a Responses API function tool without `strict` is held to strict mode,
/// which refuses a schema that leaves an object open or a property optional (a 400), as most
/// MCP tools' schemas do. The definitions say `strict: false`, the fetch tool's too; OpenAI
/// Chat, not strict unless asked, gets no key.
#[test]
fn responses_tool_definitions_are_not_held_to_strict_mode() {
    let tool = json!({"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
    let responses = Target::openai_responses();
    assert_eq!(responses.mcp_tool_definition(&tool).unwrap()["strict"], json!(false));
    let fetch = mcp_agent_view::fetch::tool_definition(mcp_agent_view::Provider::OpenAiResponses, "fetch_reference");
    assert_eq!(fetch["strict"], json!(false));
    let chat = Target::openai_chat().mcp_tool_definition(&tool).unwrap();
    assert!(chat["function"].get("strict").is_none(), "{chat}");
}
