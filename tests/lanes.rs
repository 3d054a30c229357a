//! What each lane shows: history, `convert_block` and the script lane.

mod common;

use common::{convert_of, convert_one, convert_text, history_of, history_with_budget, neutral, registry, script_of};
use mcp_agent_view::{
    convert, history, markers::SCRIPT_MAX_DEPTH, markers::TOO_DEEP, prompt_messages, tool_result, AgentBlock,
    HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};
use serde_json::{json, Value};

const NO_LINK: &str = "without a link";

fn embedded_body() -> Value {
    json!({"type": "resource", "resource": {"uri": "file:///x.txt", "mimeType": "text/plain", "text": "body"}})
}

fn report() -> Value {
    json!({"content": [
        {"type": "text", "text": "Here is the report."},
        {"type": "resource", "resource": {
            "uri": "file:///reports/q3.txt?token=s3cret-token",
            "mimeType": "text/plain",
            "text": "Quarterly notes: revenue up 4%."
        }}
    ]})
}

#[test]
fn embedded_text_shows_its_text_on_every_lane_and_never_its_uri() {
    let block = embedded_body();
    assert_eq!(history_of(&json!([block.clone()])), "body");
    assert_eq!(convert_text(&block), "body");
    assert_eq!(script_of(&block), json!({"type": "text", "text": "body"}));
    for out in [
        history_of(&json!([block.clone()])),
        convert_text(&block),
        script_of(&block).to_string(),
    ] {
        assert!(!out.contains("file:///x.txt"), "{out}");
    }
}

#[test]
fn report_with_embedded_notes_reads_the_notes_on_every_lane() {
    let result = report();
    let text = history_of(&result);
    assert_eq!(text, "Here is the report.\nQuarterly notes: revenue up 4%.");

    let message = Message::decode(&result).unwrap();
    let blocks = convert(&message, Provenance::ContextInjection, &registry(), &neutral())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[1].as_text(), Some("Quarterly notes: revenue up 4%."));

    let deep = json!({"run": {"steps": [{"output": [{"nested": {"result": result.clone()}}]}]}});
    let view = script_of(&deep);
    assert_eq!(
        view["run"]["steps"][0]["output"][0]["nested"]["result"]["content"][1],
        json!({"type": "text", "text": "Quarterly notes: revenue up 4%."})
    );
    for out in [text, view.to_string(), format!("{blocks:?}")] {
        assert!(!out.contains("file:///reports"), "{out}");
        assert!(!out.contains("s3cret"), "{out}");
        assert!(!out.contains(NO_LINK), "{out}");
    }
}

#[test]
fn a_bad_or_unknown_block_costs_its_siblings_nothing() {
    let message = json!({"content": [
        {"type": "text", "text": "before"},
        {"type": "image", "data": 42, "mimeType": "image/png"},
        {"type": "hologram", "frames": [1, 2, 3]},
        "not even an object",
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///n.txt", "text": "after"}}
    ]});
    assert_eq!(
        history_of(&message),
        "before\n\
         [unrecognized content block: image block with non-string data]\n\
         [unsupported result type: hologram]\n\
         [unrecognized content block: block is not an object]\n\
         [image: image/png, 8B]\n\
         after"
    );
    let decoded = Message::decode(&message).unwrap();
    let blocks = convert(&decoded, Provenance::PushEvent, &registry(), &neutral())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 6);
    assert_eq!(blocks[0].as_text(), Some("before"));
    assert_eq!(
        blocks[4],
        AgentBlock::Image {
            mime_type: "image/png",
            data: "iVBORw0KGgo=".into()
        }
    );
    assert_eq!(blocks[5].as_text(), Some("after"));
    let view = script_of(&message);
    assert_eq!(view["content"][0], json!({"type": "text", "text": "before"}));
    // A content array's items are blocks on the script lane too: their markers, as on history.
    assert_eq!(
        view["content"][2],
        json!({"type": "text", "text": "[unsupported result type: hologram]"})
    );
    assert_eq!(
        view["content"][3],
        json!({"type": "text", "text": "[unrecognized content block: block is not an object]"})
    );
    assert_eq!(view["content"][5], json!({"type": "text", "text": "after"}));
}

#[test]
fn media_and_file_markers_name_type_and_size() {
    let blocks = json!([
        {"type": "image", "data": "A".repeat(4096), "mimeType": "image/png"},
        {"type": "audio", "data": "A".repeat(40), "mimeType": "audio/wav"},
        {"type": "resource", "resource": {"uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "A".repeat(2_000_000)}},
        {"type": "resource", "resource": {"uri": "file:///a.png", "mimeType": "image/png", "blob": "A".repeat(400)}},
        {"type": "resource", "resource": {"uri": "file:///a", "blob": "AAAA"}},
        {"type": "resource", "resource": {"uri": "file:///l.txt", "mimeType": "text/plain", "blob": "/w=="}}
    ]);
    assert_eq!(
        history_of(&blocks),
        "[image: image/png, ~3KB]\n\
         [audio: audio/wav, 30B]\n\
         [file: application/gzip, ~1.4MB]\n\
         [image: image/png, 300B]\n\
         [file: unknown type, 3B]\n\
         [file: text/plain, 1B, not text: invalid UTF-8]"
    );
}

#[test]
fn textual_blob_shows_as_its_text() {
    // "Resource 1: This is a base64 blob" as the everything server sends it.
    let block = json!({"type": "resource", "resource": {"uri": "demo://resource/dynamic/blob/1", "mimeType": "text/plain",
        "blob": "UmVzb3VyY2UgMTogVGhpcyBpcyBhIGJhc2U2NCBibG9i"}});
    assert_eq!(history_of(&json!([block.clone()])), "Resource 1: This is a base64 blob");
    assert_eq!(convert_text(&block), "Resource 1: This is a base64 blob");
    assert_eq!(
        script_of(&block),
        json!({"type": "text", "text": "Resource 1: This is a base64 blob"})
    );
}

#[test]
fn withheld_invalid_and_unsupported_markers_are_exact() {
    let blocks = json!([
        {"type": "image", "data": "AAAA", "mimeType": "image/png", "disposition": "ref"},
        {"type": "resource_link", "name": "no uri"},
        {"type": "video/\u{202E}evil\u{0007}"}
    ]);
    assert_eq!(
        history_of(&blocks),
        "[inline content withheld: nonconformant bulk disposition on inline data]\n\
         [unrecognized content block: reference without string uri]\n\
         [unsupported result type: video/evil]"
    );
}

#[test]
fn reference_stub_shows_name_type_and_claimed_size_never_the_uri() {
    let uri = "https://files.example.com/exports/q3.csv?X-Amz-Signature=deadbeefcafebabe&token=hunter2";
    let block =
        json!({"type": "resource", "uri": uri, "name": "q3.csv", "mimeType": "text/csv", "sizeBytes": 52_428_800});
    let text = history_of(&json!([block.clone()]));
    let block_block = mcp_agent_view::Block::decode(&block);
    let id = registry().register(&match mcp_agent_view::classify_block(&block_block) {
        mcp_agent_view::Class::Reference(r) => r,
        other => panic!("{other:?}"),
    });
    assert_eq!(
        text,
        format!("[{id}] q3.csv — text/csv, ~50.0MB claimed — from tool result")
    );
    for secret in ["files.example.com", "hunter2", "deadbeef", "X-Amz"] {
        assert!(!text.contains(secret));
    }
}

#[test]
fn stub_skips_absent_parts() {
    let text = history_of(&json!([{"type": "resource_link", "uri": "file:///only-a-uri"}]));
    assert!(text.starts_with("[ref_"), "{text}");
    assert!(text.ends_with("] — from tool result"), "{text}");
    let sized = history_of(&json!([{"type": "resource_link", "uri": "file:///s", "size": 10}]));
    assert!(sized.ends_with("] — 10B claimed — from tool result"), "{sized}");
}

#[test]
fn huge_and_control_laden_labels_give_a_short_clean_stub() {
    let huge = "n".repeat(1_000_000);
    let dirty = "re\u{202E}port\u{0000}\u{009B}\u{2066}.pdf\nline two";
    for (name, mime) in [
        (huge.as_str(), huge.as_str()),
        (dirty, "application/\u{200F}pdf\u{001B}[31m"),
    ] {
        // A name over 255 characters is dropped by RFC-005; the stub stays short either way.
        let text = history_of(&json!([{"type": "resource_link", "uri": "file:///r", "name": name, "mimeType": mime}]));
        assert!(text.chars().count() < 400, "{} chars", text.chars().count());
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() || ('\u{2066}'..='\u{2069}').contains(&c) || c == '\u{202E}'),
            "{text:?}"
        );
    }
    let text = history_of(
        &json!([{"type": "resource_link", "uri": "file:///r", "name": dirty, "mimeType": "application/\u{200F}pdf"}]),
    );
    assert!(
        text.contains("] report.pdf line two — application/pdf — from tool result"),
        "{text}"
    );
    // A name within 255 characters but over 120 is cut with an ellipsis.
    let long = "x".repeat(200);
    let text = history_of(&json!([{"type": "resource_link", "uri": "file:///r", "name": long}]));
    assert!(
        text.contains(&format!(" {}… — from tool result", "x".repeat(119))),
        "{text}"
    );
}

#[test]
fn markers_do_not_grow_with_server_labels() {
    let mime = format!("image/{}", "p".repeat(100_000));
    let text = history_of(&json!([{"type": "resource", "resource": {"uri": "u:1", "mimeType": mime, "blob": "AAAA"}}]));
    assert!(text.chars().count() <= 140, "{text}");
    let unknown = history_of(&json!([{"type": "t".repeat(100_000)}]));
    assert!(unknown.chars().count() <= 160, "{unknown}");
}

#[test]
fn budget_cuts_text_but_never_a_stub_or_marker() {
    let message = json!([
        {"type": "text", "text": "a".repeat(50)},
        {"type": "resource_link", "uri": "file:///big", "name": "big.bin", "size": 99},
        {"type": "text", "text": "tail"}
    ]);
    let full = history_of(&message);
    let total = full.chars().count();
    assert_eq!(
        history_with_budget(&message, total),
        full,
        "a budget that fits changes nothing"
    );

    let notice = format!("[truncated — original was {total} chars]");
    // Room for the text and half of the stub: the stub goes whole.
    let cut = history_with_budget(&message, 51 + 20 + notice.chars().count() + 1);
    assert_eq!(cut, format!("{}\n{notice}", "a".repeat(50)));

    // Room for part of the text: the text is cut.
    let cut = history_with_budget(&message, 20 + notice.chars().count() + 1);
    assert_eq!(cut, format!("{}\n{notice}", "a".repeat(20)));
    assert_eq!(cut.chars().count(), 20 + notice.chars().count() + 1);

    // A budget with room for the notice and nothing more: the notice alone.
    assert_eq!(history_with_budget(&message, notice.chars().count() + 1), notice);
    // Budgets smaller than the notice: a shorter one, with what fits before it.
    let short = notice.chars().count() - 1;
    assert_eq!(
        history_with_budget(&message, short),
        format!("{}\n[truncated]", "a".repeat(short - 12))
    );
    assert_eq!(history_with_budget(&message, 12), "[truncated]");
    assert_eq!(history_with_budget(&message, 11), "[truncated]");
    assert_eq!(history_with_budget(&message, 10), "aaaaaaaa\n…");
    assert_eq!(history_with_budget(&message, 2), "…");
    assert_eq!(history_with_budget(&message, 1), "…");
    assert_eq!(history_with_budget(&message, 0), "");
}

#[test]
fn budget_is_a_hard_maximum_whatever_the_budget() {
    let message = json!([
        {"type": "text", "text": "é".repeat(40)},
        {"type": "resource_link", "uri": "file:///big", "name": "big.bin", "size": 99},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "text", "text": "tail"}
    ]);
    let total = history_of(&message).chars().count();
    for budget in 0..=total + 2 {
        let cut = history_with_budget(&message, budget);
        assert!(
            cut.chars().count() <= budget,
            "budget {budget} gave {} chars: {cut:?}",
            cut.chars().count()
        );
        if budget > 0 {
            assert!(!cut.is_empty(), "budget {budget} gave nothing");
        }
    }
    let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "x".repeat(100)}});
    for budget in 0..=130 {
        assert!(
            history_with_budget(&error, budget).chars().count() <= budget,
            "budget {budget}"
        );
    }
}

#[test]
fn budget_counts_characters_not_bytes() {
    let message = json!([{"type": "text", "text": "é".repeat(100)}]);
    let cut = history_with_budget(&message, 60);
    assert!(cut.starts_with(&"é".repeat(60 - 1 - "[truncated — original was 100 chars]".chars().count())));
    assert!(cut.chars().count() <= 60);
}

#[test]
fn convert_block_gives_media_as_media_and_everything_else_as_its_history_text() {
    let image = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
    assert_eq!(
        convert_of(&image, Provenance::PushEvent),
        AgentBlock::Image {
            mime_type: "image/png",
            data: "iVBORw0KGgo=".into()
        }
    );
    let audio = json!({"type": "resource", "resource": {"uri": "file:///a.wav", "mimeType": "audio/wav", "blob": "UklGRiQAAABXQVZF"}});
    assert_eq!(
        convert_of(&audio, Provenance::PushEvent),
        AgentBlock::Audio {
            mime_type: "audio/wav",
            data: "UklGRiQAAABXQVZF".into()
        }
    );
    let gz = json!({"type": "resource", "resource": {"uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sIAAAA"}});
    assert_eq!(convert_text(&gz), "[file: application/gzip, 6B]");
    assert_eq!(
        convert_of(&gz, Provenance::PushEvent).to_json(),
        json!({"type": "text", "text": "[file: application/gzip, 6B]"})
    );
}

#[test]
fn convert_block_says_where_a_reference_came_from() {
    let link = json!({"type": "resource_link", "uri": "file:///a", "name": "a"});
    for (provenance, words) in [
        (Provenance::PushEvent, "attachment on push event"),
        (Provenance::ChannelMessage, "attachment on channel message"),
        (Provenance::ContextInjection, "context injection"),
    ] {
        let text = convert_of(&link, provenance).as_text().unwrap().to_owned();
        assert!(text.ends_with(&format!("] a — {words}")), "{text}");
    }
}

#[test]
fn a_uri_form_image_is_a_stub_never_a_url_to_fetch() {
    let image = json!({"type": "image", "uri": "https://cdn.example/cat.png?key=abc123", "mimeType": "image/png"});
    let out = convert_of(&image, Provenance::ChannelMessage);
    let text = out.as_text().expect("a stub, not an image");
    assert!(text.contains("image/png — attachment on channel message"), "{text}");
    assert!(!text.contains("cdn.example") && !text.contains("abc123"));
    let view = script_of(&image).to_string();
    assert!(!view.contains("cdn.example"), "{view}");
}

#[test]
fn script_lane_replaces_blocks_at_any_depth_and_leaves_the_rest() {
    let value = json!({
        "count": 3,
        "type": "text",
        "items": [
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"audience": ["user"]}},
            {"type": "resource_link", "uri": "file:///secret/path", "name": "p"},
            {"type": "resource", "resource": {"uri": "file:///z", "mimeType": "application/zip", "blob": "UEsDBA=="}},
            {"type": "text", "text": 7},
            {"type": "text", "note": "no text field: not a block"},
            {"kind": "plain object", "uri": "left as it is"}
        ]
    });
    let view = script_of(&value);
    assert_eq!(view["count"], 3);
    assert_eq!(view["type"], "text", "no `text` field: not a block, left alone");
    assert_eq!(
        view["items"][0],
        json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="})
    );
    let stub = view["items"][1]["text"].as_str().unwrap();
    assert!(
        stub.starts_with("[ref_") && stub.ends_with("] p — in script result"),
        "{stub}"
    );
    assert_eq!(
        view["items"][2],
        json!({"type": "text", "text": "[file: application/zip, 4B]"})
    );
    assert_eq!(
        view["items"][3],
        json!({"type": "text", "text": "[unrecognized content block: text block with non-string text]"})
    );
    assert_eq!(view["items"][4], value["items"][4]);
    assert_eq!(view["items"][5], value["items"][5]);
    assert!(!view.to_string().contains("file:///"));
}

/// Objects whose values are all scalars are told block or not by their keys alone: a string
/// that names a block type under another key makes no block, nor does a `type` of no string.
#[test]
fn script_lane_tells_flat_objects_by_their_keys() {
    let value = json!({"rows": [
        {"uri": 5, "name": "resource_link"},
        {"data": 1, "kind": "image", "mimeType": "image/png"},
        {"name": "n", "uri": "https://h.example/a", "type": 7},
        {"name": "n", "uri": "https://h.example/b", "description": "d", "mimeType": "text/plain", "type": "resource_link"},
        {"uri": "file:///c.txt", "mimeType": "text/plain", "text": "contents, type last in no type"}
    ]});
    let view = script_of(&value);
    for i in 0..3 {
        assert_eq!(view["rows"][i], value["rows"][i], "row {i}");
    }
    let stub = view["rows"][3]["text"].as_str().unwrap();
    assert!(
        stub.starts_with("[ref_") && stub.contains("] n — text/plain — in script result"),
        "{stub}"
    );
    assert_eq!(
        view["rows"][4],
        json!({"type": "text", "text": "contents, type last in no type"})
    );
}

#[test]
fn script_lane_bounds_deep_nesting_with_a_marker() {
    let mut value = json!({"type": "text", "text": "bottom"});
    for _ in 0..(SCRIPT_MAX_DEPTH + 50) {
        value = json!([value]);
    }
    let view = script_of(&value);
    let mut cursor = &view;
    let mut depth = 0;
    while let Value::Array(items) = cursor {
        cursor = &items[0];
        depth += 1;
    }
    assert_eq!(depth, SCRIPT_MAX_DEPTH);
    assert_eq!(cursor, &json!(TOO_DEEP));

    let mut shallow = json!({"type": "text", "text": "bottom"});
    for _ in 0..100 {
        shallow = json!({"next": shallow});
    }
    assert!(
        script_of(&shallow).to_string().contains("\"bottom\""),
        "100 levels are walked whole"
    );
}

#[test]
fn history_of_a_json_rpc_error_says_the_request_failed() {
    let error = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Resource not found"}});
    assert_eq!(history_of(&error), "[request failed: error -32602: Resource not found]");
    let message = Message::decode(&error).unwrap();
    let blocks = convert(&message, Provenance::PushEvent, &registry(), &neutral())
        .unwrap()
        .content;
    assert_eq!(blocks.len(), 1);
    assert_eq!(
        blocks[0].as_text(),
        Some("[request failed: error -32602: Resource not found]")
    );
}

#[test]
fn history_provenance_is_an_option() {
    let message = json!([{"type": "resource_link", "uri": "file:///a", "name": "a"}]);
    let options = HistoryOptions {
        provenance: Provenance::Prompt,
        budget: None,
    };
    let message_message = Message::decode(&message).unwrap();
    let text = history(&message_message, &ReferenceRegistry::with_seed(1), &options).unwrap();
    assert!(text.ends_with("] a — from prompt"), "{text}");
}

#[test]
fn the_same_uri_gets_the_same_id_across_lanes() {
    let link = json!({"type": "resource_link", "uri": "file:///same", "name": "same"});
    let registry = ReferenceRegistry::new();
    let message = json!([link.clone()]);
    let message_message = Message::decode(&message).unwrap();
    let text = history(&message_message, &registry, &HistoryOptions::default()).unwrap();
    let link_block = mcp_agent_view::Block::decode(&link);
    let converted = convert_one(&link_block, Provenance::PushEvent, &registry, &neutral());
    let id = |s: &str| s.split(']').next().unwrap().to_owned();
    assert_eq!(id(&text), id(converted.as_text().unwrap()));
    assert_eq!(registry.len(), 1);
}

#[test]
fn history_shows_structured_content_only_where_no_text_is_shown() {
    let structured = json!({"temperature": 22.5});
    let with_text = json!({"content": [{"type": "text", "text": "22.5 degrees"}], "structuredContent": structured});
    assert_eq!(history_of(&with_text), "22.5 degrees");
    let bytes = with_text.to_string();
    assert_eq!(
        history(&bytes, &registry(), &HistoryOptions::default()).unwrap(),
        "22.5 degrees"
    );
    let image = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
    let image_only = json!({"content": [image], "structuredContent": structured});
    assert_eq!(
        history_of(&image_only),
        "[image: image/png, 8B]\n{\"temperature\":22.5}"
    );
}

/// Issue 50: revision 2025-11-25's icons (`icons: [{src, mimeType, sizes, theme}]`) on a link,
/// and 2026-07-28's structuredContent of any JSON value, through every lane and target: no
/// `src` and no uri anywhere (a link inside the structured value too), the structured value
/// read.
#[test]
fn icons_never_show_their_src_and_any_structured_value_is_read_on_every_lane() {
    let icon = "https://cdn.example/i.png?sig=ICON-SECRET";
    let link = json!({"type": "resource_link", "uri": "https://files.example/r?sig=LINK-SECRET", "name": "r.csv",
        "mimeType": "text/csv", "icons": [{"src": icon, "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"},
        {"src": "data:image/png;base64,iVBORw0KGgo="}]});
    for structured in [
        json!([{"id": 1, "name": "Ada"}]),
        json!(42),
        json!("plain"),
        json!({"file": link.clone()}),
    ] {
        let result =
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [link.clone()], "structuredContent": structured}});
        let registry = registry();
        let history = history(&result, &registry, &HistoryOptions::default()).unwrap();
        let script = script_of(&result).to_string();
        let mut shown = vec![history, script];
        for target in [
            Target::neutral(),
            Target::anthropic(),
            Target::openai_chat(),
            Target::openai_responses(),
        ] {
            let converted = convert(&result, Provenance::ToolResult, &registry, &target).unwrap();
            shown.push(target.blocks_json(&converted.content).to_string());
            let tool = tool_result(&result, "t", "u", &registry, &target);
            shown.push(Value::Array(target.tool_result_messages(&[tool])).to_string());
            let prompt = json!({"messages": [{"role": "user", "content": link.clone()}]});
            let messages = prompt_messages(&prompt, &registry, &target).unwrap();
            shown.push(Value::Array(target.messages_json(&messages)).to_string());
        }
        for text in &shown {
            assert!(
                !text.contains("SECRET") && !text.contains("iVBORw0KGgo=") && !text.contains("cdn.example"),
                "{text}"
            );
            assert!(text.contains("r.csv"), "{text}");
        }
        let tool = tool_result(&result, "t", "u", &registry, &Target::anthropic());
        let read = tool.to_json().to_string();
        if !structured.is_object() {
            // The link is the only content and no text: the structured value is read beside it.
            assert!(read.contains(&structured.to_string().replace('"', "\\\"")), "{read}");
        }
    }
}
