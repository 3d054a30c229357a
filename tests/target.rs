//! Targets: the media checks every lane runs before media goes out as media, and each
//! provider's JSON shape.

mod common;

use base64::Engine as _;
use common::{convert_one, registry};
use mcp_agent_view::{history, tool_result, AgentBlock, Block, HistoryOptions, Message, Provenance, Target};
use serde_json::{json, Value};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn png(extra: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.resize(bytes.len() + extra, 7);
    bytes
}

fn jpeg() -> Vec<u8> {
    b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01".to_vec()
}

fn pdf() -> Vec<u8> {
    b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".to_vec()
}

fn wav() -> Vec<u8> {
    b"RIFF\x24\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0".to_vec()
}

fn image(bytes: &[u8], mime: &str) -> Value {
    json!({"type": "image", "data": B64.encode(bytes), "mimeType": mime})
}

fn embedded(bytes: &[u8], mime: &str) -> Value {
    json!({"type": "resource", "resource": {"uri": "file:///secret/x", "mimeType": mime, "blob": B64.encode(bytes)}})
}

#[track_caller]
fn convert(block: &Value, target: &Target) -> AgentBlock<'static> {
    convert_one(&Block::decode(block), Provenance::PushEvent, &registry(), target).into_owned()
}

#[track_caller]
fn refused(block: &Value, target: &Target) -> String {
    match convert(block, target) {
        AgentBlock::Text { text } => text.into_owned(),
        other => panic!("expected a marker, got {other:?}"),
    }
}

#[test]
fn an_svg_is_never_an_image_block() {
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect/></svg>"#.repeat(40);
    assert_eq!(
        refused(&image(&svg, "image/svg+xml"), &Target::anthropic()),
        "[image: image/svg+xml, ~3KB, not sent: unsupported type]"
    );
}

#[test]
fn bytes_of_no_accepted_type_are_not_sent() {
    let bmp = b"BM\x36\0\0\0\0\0\0\0\x36\0\0\0".repeat(4);
    assert_eq!(
        refused(&image(&bmp, "image/png"), &Target::anthropic()),
        "[image: image/png, 56B, not sent: data does not match type]"
    );
    assert_eq!(
        refused(&image(&bmp, "image/bmp"), &Target::anthropic()),
        "[image: image/bmp, 56B, not sent: unsupported type]"
    );
    // A PDF dressed as an image is no image.
    assert_eq!(
        refused(&image(&pdf(), "image/png"), &Target::anthropic()),
        "[image: image/png, 51B, not sent: unsupported type]"
    );
}

#[test]
fn broken_base64_is_not_sent_wherever_the_break_is() {
    let at_start = json!({"type": "image", "data": "!!!!iVBORw0KGgo=", "mimeType": "image/png"});
    assert_eq!(
        refused(&at_start, &Target::anthropic()),
        "[image: image/png, not sent: invalid base64]"
    );
    let mut data = B64.encode(png(300));
    data.insert(200, '*');
    let in_the_middle = json!({"type": "image", "data": data, "mimeType": "image/png"});
    assert_eq!(
        refused(&in_the_middle, &Target::anthropic()),
        "[image: image/png, not sent: invalid base64]"
    );
}

#[test]
fn an_image_over_the_limit_is_not_sent() {
    let big = image(&png(6 * 1024 * 1024), "image/png");
    assert_eq!(
        refused(&big, &Target::anthropic()),
        "[image: image/png, ~6.0MB, not sent: over 5MB]"
    );
    // OpenAI's limit is higher: the same image goes.
    assert!(matches!(
        convert(&big, &Target::openai_chat()),
        AgentBlock::Image { .. }
    ));
    // Hosts adjust the policy.
    let mut strict = Target::anthropic();
    strict.max_image_bytes = Some(1024);
    assert_eq!(
        refused(&image(&png(2000), "image/png"), &strict),
        "[image: image/png, ~2KB, not sent: over 1KB]"
    );
}

#[test]
fn the_real_type_wins_over_the_declared_one() {
    let out = convert(&image(&jpeg(), "image/png"), &Target::anthropic());
    assert_eq!(
        out,
        AgentBlock::Image {
            mime_type: "image/jpeg",
            data: B64.encode(jpeg()).into()
        }
    );
    let out = convert(&embedded(&png(10), "image/jpeg"), &Target::anthropic());
    assert!(
        matches!(out, AgentBlock::Image { mime_type, .. } if mime_type == "image/png"),
        "{out:?}"
    );
}

#[test]
fn base64_with_line_breaks_and_no_padding_goes_out_clean() {
    let clean = B64.encode(png(100));
    let wrapped: String = clean
        .trim_end_matches('=')
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\r\n");
    let out = convert(
        &json!({"type": "image", "data": wrapped, "mimeType": "image/png"}),
        &Target::anthropic(),
    );
    assert_eq!(
        out,
        AgentBlock::Image {
            mime_type: "image/png",
            data: clean.into()
        }
    );
}

#[test]
fn blocks_around_refused_media_come_through() {
    let message = json!({"content": [
        {"type": "text", "text": "before"},
        image(b"<svg/>", "image/svg+xml"),
        image(&png(10), "image/png"),
        {"type": "image", "data": "%%%", "mimeType": "image/png"},
        {"type": "text", "text": "after"}
    ]});
    let decoded = Message::decode(&message).unwrap();
    let blocks = mcp_agent_view::convert(&decoded, Provenance::PushEvent, &registry(), &Target::anthropic())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 5);
    assert_eq!(blocks[0].as_text(), Some("before"));
    assert!(blocks[1].as_text().unwrap().ends_with("not sent: unsupported type]"));
    assert!(matches!(blocks[2], AgentBlock::Image { .. }));
    assert_eq!(
        blocks[3].as_text(),
        Some("[image: image/png, not sent: invalid base64]")
    );
    assert_eq!(blocks[4].as_text(), Some("after"));
}

#[test]
fn a_pdf_is_a_document_where_the_target_takes_one() {
    let block = embedded(&pdf(), "application/pdf");
    let data = B64.encode(pdf());
    assert_eq!(
        convert(&block, &Target::anthropic()),
        AgentBlock::Document {
            mime_type: "application/pdf",
            data: data.clone().into()
        }
    );
    let mut no_pdf = Target::anthropic();
    no_pdf.pdf = false;
    assert_eq!(refused(&block, &no_pdf), "[file: application/pdf, 51B]");
    assert_eq!(
        refused(
            &embedded(b"not a pdf at all, just words", "application/pdf"),
            &Target::anthropic()
        ),
        "[file: application/pdf, 28B, not sent: data does not match type]"
    );

    let blocks = [convert(&block, &Target::anthropic())];
    assert_eq!(
        Target::anthropic().blocks_json(&blocks),
        json!([{"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": data}}])
    );
    assert_eq!(
        Target::openai_chat().blocks_json(&blocks),
        json!([{"type": "file", "file": {"filename": "document.pdf", "file_data": format!("data:application/pdf;base64,{data}")}}])
    );
    assert_eq!(
        Target::openai_responses().blocks_json(&blocks),
        json!([{"type": "input_file", "filename": "document.pdf", "file_data": format!("data:application/pdf;base64,{data}")}])
    );
}

#[test]
fn audio_goes_where_the_target_takes_it() {
    let block = json!({"type": "audio", "data": B64.encode(wav()), "mimeType": "audio/wav"});
    assert_eq!(
        refused(&block, &Target::anthropic()),
        "[audio: audio/wav, 24B, not sent: unsupported type]"
    );
    assert_eq!(
        refused(&block, &Target::openai_responses()),
        "[audio: audio/wav, 24B, not sent: unsupported type]"
    );
    // OpenAI Chat: only where the host says its model takes audio.
    assert_eq!(
        refused(&block, &Target::openai_chat()),
        "[audio: audio/wav, 24B, not sent: unsupported type]"
    );
    let out = convert(&block, &Target::openai_chat_audio());
    assert_eq!(
        Target::openai_chat_audio().blocks_json(&[out]),
        json!([{"type": "input_audio", "input_audio": {"data": B64.encode(wav()), "format": "wav"}}])
    );
    let ogg = json!({"type": "audio", "data": B64.encode(b"OggS\0\x02\0\0\0\0\0\0"), "mimeType": "audio/ogg"});
    assert_eq!(
        refused(&ogg, &Target::openai_chat_audio()),
        "[audio: audio/ogg, 12B, not sent: unsupported type]"
    );
}

#[test]
fn anthropic_takes_images_and_documents_inside_a_tool_result() {
    let message = json!({"content": [{"type": "text", "text": "chart:"}, image(&png(4), "image/png"), embedded(&pdf(), "application/pdf")]});
    let message_message = Message::decode(&message).unwrap();
    let result = tool_result(&message_message, "t", "toolu_1", &registry(), &Target::anthropic());
    let out = Target::anthropic().tool_result_messages(&[result]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["role"], "user");
    let content = &out[0]["content"][0]["content"];
    assert_eq!(content[0], json!({"type": "text", "text": "chart:"}));
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["source"]["media_type"], "image/png");
    assert_eq!(content[2]["type"], "document");
}

#[test]
fn openai_chat_tool_messages_carry_text_only_and_media_follows_in_a_user_message() {
    let target = Target::openai_chat();
    let first = json!({"content": [{"type": "text", "text": "Here is the chart."}, image(&png(4), "image/png")]});
    let second = json!({"content": [{"type": "text", "text": "nothing to see"}], "isError": true});
    let first_message = Message::decode(&first).unwrap();
    let second_message = Message::decode(&second).unwrap();
    let results = [
        tool_result(&first_message, "chart", "call_1", &registry(), &target),
        tool_result(&second_message, "other", "call_2", &registry(), &target),
    ];
    let out = target.tool_result_messages(&results);
    assert_eq!(out.len(), 3, "two tool messages, then one user message");
    assert_eq!(
        out[0],
        json!({"role": "tool", "tool_call_id": "call_1",
               "content": "Here is the chart.\n[image: image/png, 20B, sent in the next user message]"})
    );
    assert_eq!(
        out[1],
        json!({"role": "tool", "tool_call_id": "call_2", "content": "[tool returned an error]\nnothing to see"})
    );
    assert_eq!(out[2]["role"], "user");
    assert_eq!(
        out[2]["content"][0],
        json!({"type": "text", "text": "[attachments of tool call call_1]"})
    );
    assert_eq!(out[2]["content"][1]["type"], "image_url");
    assert!(out[2]["content"][1]["image_url"]["url"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,iVBORw0KGgo"));
    for message in &out[..2] {
        assert!(message["content"].is_string(), "a tool message is text only: {message}");
    }
    // No media, no user message.
    let second_message = Message::decode(&second).unwrap();
    let text_only = [tool_result(&second_message, "other", "call_2", &registry(), &target)];
    assert_eq!(target.tool_result_messages(&text_only).len(), 1);
}

#[test]
fn openai_responses_gives_function_call_output_items() {
    let target = Target::openai_responses();
    let message = json!({"content": [{"type": "text", "text": "see"}, image(&png(4), "image/png")], "isError": true});
    let message_message = Message::decode(&message).unwrap();
    let result = tool_result(&message_message, "t", "call_9", &registry(), &target);
    let out = target.tool_result_messages(&[result]);
    assert_eq!(
        out,
        [
            json!({"type": "function_call_output", "call_id": "call_9",
                   "output": "[tool returned an error]\nsee\n[image: image/png, 20B, sent in the next user message]"}),
            json!({"role": "user", "content": [
                {"type": "input_text", "text": "[attachments of tool call call_9]"},
                {"type": "input_image", "image_url": format!("data:image/png;base64,{}", B64.encode(png(4))), "detail": "auto"}
            ]})
        ]
    );
}

#[test]
fn neutral_is_the_default_and_checks_too() {
    assert_eq!(Target::default(), Target::neutral());
    assert_eq!(
        refused(&image(b"<svg/>", "image/svg+xml"), &Target::neutral()),
        "[image: image/svg+xml, 6B, not sent: unsupported type]"
    );
    let out = convert(&image(&png(4), "image/png"), &Target::neutral());
    assert_eq!(
        Target::neutral().blocks_json(&[out]),
        json!([{"type": "image", "mimeType": "image/png", "data": B64.encode(png(4))}])
    );
}

#[test]
fn a_50_mb_blob_is_not_decoded_on_the_history_lane() {
    // Not base64 at all past its first characters: any decode would notice and say so.
    let mut blob = B64.encode(png(16));
    blob.push_str(&"*".repeat(50 * 1024 * 1024));
    let message = json!([
        {"type": "image", "data": blob, "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///big.bin", "mimeType": "application/octet-stream", "blob": blob}}
    ]);
    let message_message = Message::decode(&message).unwrap();
    let text = history(&message_message, &registry(), &HistoryOptions::default()).unwrap();
    // The blob's first bytes are a PNG's: declared `application/octet-stream`, it is an image.
    assert_eq!(text, "[image: image/png, ~37.5MB]\n[image: image/png, ~37.5MB]");
}

#[test]
fn a_png_and_a_pdf_declared_generic_go_to_anthropic_as_image_and_document() {
    let pdf = B64.encode(b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
    let png = B64.encode(png(8));
    for declared in [
        json!("application/octet-stream"),
        json!(null),
        json!("binary/octet-stream"),
    ] {
        let resource = |data: &str| {
            let mut resource = json!({"uri": "file:///x", "blob": data});
            if !declared.is_null() {
                resource["mimeType"] = declared.clone();
            }
            json!({"type": "resource", "resource": resource})
        };
        let message = Message::decode(&json!({"content": [resource(&png), resource(&pdf)]})).unwrap();
        let result = tool_result(
            &message,
            "read_media_file",
            "toolu_1",
            &registry(),
            &Target::anthropic(),
        );
        let out = Target::anthropic().tool_result_messages(&[result]);
        let content = &out[0]["content"][0]["content"];
        assert_eq!(content[0]["type"], "image", "{declared}: {content}");
        assert_eq!(content[0]["source"]["media_type"], "image/png");
        assert_eq!(content[1]["type"], "document", "{declared}: {content}");
        assert_eq!(content[1]["source"]["media_type"], "application/pdf");
    }
    // Bytes of no format this crate knows stay a file.
    let other = json!({"type": "resource", "resource": {"uri": "file:///x", "mimeType": "application/octet-stream", "blob": B64.encode(b"\x00\x01\x02\x03 some bytes")}});
    assert!(history(
        &Message::decode(&json!([other])).unwrap(),
        &registry(),
        &HistoryOptions::default()
    )
    .unwrap()
    .starts_with("[file: application/octet-stream"));
}

#[test]
fn real_vectors_reach_each_target_in_its_shape() {
    let load = common::vector;

    let tiny = load("everything.get-tiny-image.json");
    let message = Message::decode(&tiny["response"]).unwrap();
    let anthropic = Target::anthropic();
    let result = tool_result(&message, "get-tiny-image", "toolu_t", &registry(), &anthropic);
    let blocks = anthropic.tool_result_messages(&[result]);
    let content = &blocks[0]["content"][0]["content"];
    assert_eq!(content[1]["type"], "image", "{content}");
    assert_eq!(content[1]["source"]["media_type"], "image/png");

    let chat = Target::openai_chat();
    let result = tool_result(&message, "get-tiny-image", "call_t", &registry(), &chat);
    let messages = chat.tool_result_messages(&[result]);
    assert_eq!(messages.len(), 2);
    assert!(messages[0]["content"]
        .as_str()
        .unwrap()
        .contains("sent in the next user message"));
    assert_eq!(messages[1]["content"][1]["type"], "image_url");

    let audio = load("tools-call-audio.2025-11-25.json");
    let message = Message::decode(&audio["response"]).unwrap();
    let chat = Target::openai_chat_audio();
    let result = tool_result(&message, "test_audio_content", "call_a", &registry(), &chat);
    let messages = chat.tool_result_messages(&[result]);
    assert_eq!(messages[1]["content"][1]["type"], "input_audio");
    assert_eq!(messages[1]["content"][1]["input_audio"]["format"], "wav");
}

#[test]
fn prompt_messages_take_each_providers_message_shape() {
    let prompt = json!({"messages": [
        {"role": "user", "content": [{"type": "text", "text": "Describe:"}, image(&png(4), "image/png")]},
        {"role": "assistant", "content": image(&png(4), "image/png")}
    ]});
    let message = Message::decode(&prompt).unwrap();
    for target in [Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        let messages = mcp_agent_view::prompt_messages(&message, &registry(), &target).unwrap();
        let out = target.messages_json(&messages);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0]["role"], "user");
        assert_eq!(out[0]["content"].as_array().unwrap().len(), 2, "{target:?}: {}", out[0]);
        if target == Target::anthropic() {
            assert_eq!(out[1]["content"][0]["type"], "image");
        } else {
            // OpenAI assistant messages take text only: the image is its marker.
            assert_eq!(out[1]["content"], "[image: image/png, 20B]", "{target:?}");
        }
    }
}

#[test]
fn providers_read_and_write_the_clis_names() {
    use mcp_agent_view::{ErrorKind, Provider};
    for (name, provider) in [
        ("neutral", Provider::Neutral),
        ("anthropic", Provider::Anthropic),
        ("openai-chat", Provider::OpenAiChat),
        ("openai-responses", Provider::OpenAiResponses),
    ] {
        assert_eq!(name.parse::<Provider>().unwrap(), provider);
        assert_eq!(provider.to_string(), name);
        assert_eq!(serde_json::to_value(provider).unwrap(), json!(name));
        let config: std::collections::HashMap<String, Provider> =
            serde_json::from_str(&format!(r#"{{"target": "{name}"}}"#)).unwrap();
        assert_eq!(config["target"], provider);
    }
    let error = "OpenAI".parse::<Provider>().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::UnknownProvider);
    assert_eq!(
        error.to_string(),
        r#"unknown provider "OpenAI"; expected one of neutral, anthropic, openai-chat, openai-responses"#
    );
    let error = serde_json::from_str::<Provider>(r#""gemini""#).unwrap_err();
    assert!(error.to_string().starts_with(r#"unknown provider "gemini""#), "{error}");
    assert!(serde_json::from_str::<Provider>("3").is_err());
}

#[cfg(feature = "rmcp")]
#[test]
fn tool_definitions_take_each_providers_shape_and_the_fetch_tool_where_offered() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    let tools = [
        rmcp::model::Tool::new(
            "search",
            "Searches",
            std::sync::Arc::new(schema.as_object().unwrap().clone()),
        ),
        rmcp::model::Tool::new_with_raw("bare", None, std::sync::Arc::new(serde_json::Map::new())),
    ];
    assert_eq!(
        Target::anthropic().tool_definitions(&tools, None),
        [
            json!({"name": "search", "description": "Searches", "input_schema": schema}),
            json!({"name": "bare", "input_schema": {}})
        ]
    );
    assert_eq!(
        Target::openai_chat().tool_definitions(&tools[..1], None),
        [json!({"type": "function", "function": {"name": "search", "description": "Searches", "parameters": schema}})]
    );
    assert_eq!(
        Target::openai_responses().tool_definitions(&tools[..1], None),
        [
            json!({"type": "function", "name": "search", "description": "Searches", "parameters": schema, "strict": false})
        ]
    );
    let with_fetch = Target::anthropic().tool_definitions(&tools[..1], Some("fetch_reference"));
    assert_eq!(with_fetch.len(), 2);
    assert_eq!(with_fetch[1]["name"], "fetch_reference");
    assert_eq!(with_fetch[1]["input_schema"]["required"][0], "ref_id");
}
