//! Issue 15: the history lane ignored what the tool-result lane honours. A result with only
//! `structuredContent` rendered as `""` (the defect of the official example clients, on another
//! lane); an `isError` result was not marked as an error; blocks for the user only were shown
//! to the model. And the filesystem server's `read_media_file`, whose `structuredContent` only
//! repeats its content, gave the model the image and a redundant JSON text.

use mcp_agent_view::{
    convert, history, markers::TOOL_ERROR_LINE, tool_result, HistoryOptions, Message, Provenance, ReferenceRegistry,
    Target,
};
use serde_json::{json, Value};

/// The history string from a `Value` and from its bytes (they must agree), and the texts of
/// the tool result; the blocks lane (`convert_message`) must give the history's lines.
fn both(message: &Value) -> (String, Vec<String>) {
    let decoded = Message::decode(message).unwrap();
    let converted = convert(
        &decoded,
        Provenance::ToolResult,
        &ReferenceRegistry::with_seed(1),
        &Target::neutral(),
    )
    .unwrap();
    let blocks: Vec<String> = converted
        .content
        .iter()
        .filter_map(|b| b.as_text().map(str::to_owned))
        .collect();
    let shown = history(&decoded, &ReferenceRegistry::with_seed(1), &HistoryOptions::default()).unwrap();
    if converted.content.iter().all(|b| b.as_text().is_some()) {
        assert_eq!(blocks.join("\n"), shown, "the blocks lane tells what history tells");
    }
    let from_value = history(&decoded, &ReferenceRegistry::with_seed(1), &HistoryOptions::default()).unwrap();
    let bytes = message.to_string();
    let from_bytes = history(
        bytes.as_bytes(),
        &ReferenceRegistry::with_seed(1),
        &HistoryOptions::default(),
    )
    .unwrap();
    assert_eq!(from_value, from_bytes);
    let result = tool_result(
        &decoded,
        "t",
        "toolu_1",
        &ReferenceRegistry::with_seed(1),
        &Target::neutral(),
    );
    let texts = result
        .content
        .iter()
        .filter_map(|b| b.as_text().map(str::to_owned))
        .collect();
    (from_value, texts)
}

#[test]
fn a_structured_only_result_reads_its_structured_content() {
    let (history, tool) = both(&json!({"content": [], "structuredContent": {"temperature": 22.5}}));
    assert_eq!(history, r#"{"temperature":22.5}"#);
    assert_eq!(tool, [history]);
}

#[test]
fn an_error_result_is_marked_as_one() {
    let (history, tool) = both(&json!({"content": [{"type": "text", "text": "disk full"}], "isError": true}));
    assert_eq!(history, format!("{TOOL_ERROR_LINE}\ndisk full"));
    assert_eq!(tool, ["disk full"]);
}

#[test]
fn blocks_for_the_user_only_are_held_back() {
    let user_only = json!({"audience": ["user"]});
    let (history, tool) = both(&json!({"content": [
        {"type": "text", "text": "for the model"},
        {"type": "text", "text": "for the user", "annotations": user_only},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": user_only}
    ]}));
    assert_eq!(history, "for the model");
    assert_eq!(tool, ["for the model"]);
    let (history, tool) =
        both(&json!({"content": [{"type": "text", "text": "for the user", "annotations": user_only}]}));
    assert_eq!(history, "[output displayed to user]");
    assert_eq!(tool, [history]);
}

#[test]
fn history_is_never_empty_for_a_tool_result() {
    let (history, tool) = both(&json!({"content": []}));
    assert_eq!(history, "[tool returned no content]");
    assert_eq!(tool, [history]);
}

#[test]
fn structured_content_that_repeats_the_content_is_not_shown_again() {
    // As the official filesystem server's `read_media_file` sends an image.
    let image = json!({"type": "image", "data": "iVBORw0KGgoAAAANSUhEUg==", "mimeType": "image/png"});
    let (history, tool) = both(&json!({"content": [image], "structuredContent": {"content": [image]}}));
    assert_eq!(history, "[image: image/png, 16B]");
    assert!(tool.is_empty(), "the image alone: {tool:?}");
    // Structured content that says more is still shown.
    let (history, _) = both(&json!({"content": [image], "structuredContent": {"content": [image], "width": 1}}));
    assert!(history.ends_with(r#""width":1}"#), "{history}");
}

#[test]
fn stubs_before_and_inside_what_the_result_adds_resolve() {
    let link = json!({"type": "resource_link", "uri": "https://a.example/a", "name": "a"});
    let message = json!({"content": [link], "isError": true,
        "structuredContent": {"see": {"type": "resource_link", "uri": "https://b.example/b", "name": "b", "mimeType": "text/csv"}}});
    let decoded = Message::decode(&message).unwrap();
    let bytes = message.to_string();
    let lanes: [&dyn Fn(&ReferenceRegistry) -> String; 3] = [
        &|r| history(&decoded, r, &HistoryOptions::default()).unwrap(),
        &|r| history(bytes.as_bytes(), r, &HistoryOptions::default()).unwrap(),
        &|r| {
            convert(&decoded, Provenance::ToolResult, r, &Target::neutral())
                .unwrap()
                .content
                .iter()
                .filter_map(|b| b.as_text().map(str::to_owned))
                .collect::<Vec<_>>()
                .join("\n")
        },
    ];
    for lane in lanes {
        // A registry of its own each: what one lane registers, the next must not mend.
        let registry = ReferenceRegistry::with_seed(2);
        let shown = lane(&registry);
        assert!(shown.starts_with(&format!("{TOOL_ERROR_LINE}\n[ref_")), "{shown}");
        assert!(!shown.contains('?'), "every id filled in: {shown}");
        let ids: Vec<&str> = shown.match_indices("ref_").map(|(at, _)| &shown[at..at + 17]).collect();
        // The link, then the structured content (no text block is left), with its own link.
        assert_eq!(ids.len(), 2, "{shown}");
        let (a, b) = (registry.lookup(ids[0]).unwrap(), registry.lookup(ids[1]).unwrap());
        assert_eq!((a.uri.as_str(), a.name.as_deref()), ("https://a.example/a", Some("a")));
        assert_eq!((b.uri.as_str(), b.name.as_deref()), ("https://b.example/b", Some("b")));
        assert_eq!(b.mime_type.as_deref(), Some("text/csv"));
    }
    let registry = ReferenceRegistry::with_seed(2);
    // Structured content with a link, shown: its stub resolves too.
    let message = json!({"content": [], "structuredContent": {"see": {"type": "resource_link", "uri": "https://b.example/b", "name": "b"}}});
    let shown = history(
        &Message::decode(&message).unwrap(),
        &registry,
        &HistoryOptions::default(),
    )
    .unwrap();
    let at = shown.find("ref_").expect("a stub in the structured content");
    assert_eq!(
        registry.lookup(&shown[at..at + 17]).unwrap().uri,
        "https://b.example/b",
        "{shown}"
    );
}
