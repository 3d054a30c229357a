//! Issue 48: a link whose label repeated its own uri's host and path showed a credential
//! carried in the path (a webhook's `services/T…/B…/SECRET`) on every lane, in the CLI and both
//! packages; also with a lookalike colon (`https꞉//`), `https: //`, an IDN or punycode spelling
//! of the host, or a bare path segment; a query value disguised in the label (mathematical
//! bold, a Cyrillic `О`, split by a space or a dash) passed. Labels drew a fake stub (`⎡ref_…⎤`,
//! `˹…˺`) and fake separators (`ー`, `一`, `ᅳ`, `➖`, `⎯`, `¯` standing for ` — `), and kept
//! noncharacters (U+FDD0, U+FFFE).

use mcp_agent_view::markers::clean_label;
use mcp_agent_view::{
    convert, history, script, tool_result, HistoryOptions, Message, Provenance, ReferenceRegistry, Target,
};
use serde_json::json;

const HOOK: &str = "https://hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB/report.txt";
const SECRETS: [&str; 3] = ["t0aaaaaaa", "b0bbbbbbb", "hooks.slack"];

/// Everything the model reads of `message`, on every lane and target, lowercased.
fn everything(message: &serde_json::Value) -> String {
    let decoded = Message::decode(message).unwrap();
    let registry = ReferenceRegistry::with_seed(1);
    let mut out = history(&decoded, &registry, &HistoryOptions::default()).unwrap();
    for target in [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ] {
        let blocks = convert(&decoded, Provenance::ToolResult, &registry, &target).unwrap();
        out += &target.blocks_json(&blocks.content).to_string();
        out += &script(message, &registry, &target).unwrap();
        let result = tool_result(&decoded, "t", "toolu_1", &registry, &target);
        out += &serde_json::Value::Array(target.tool_result_messages(&[result])).to_string();
    }
    out.to_lowercase()
}

#[test]
fn no_label_repeats_its_uris_host_or_path() {
    for name in [
        "hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB/report.txt",
        "https\u{A789}//hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB",
        "https: //hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB",
        "xn--hooks-slack.example T0AAAAAAA",
        "T0AAAAAAA",
        "\u{1D413}0AAAAAAA B0BBBBBBB",
        "T0AAAA-AAA B0BBB BBBB",
    ] {
        let message = json!({"content": [
            {"type": "text", "text": "before"},
            {"type": "resource_link", "uri": HOOK, "name": name, "mimeType": "text/plain"},
            {"type": "text", "text": "after"}
        ]});
        let shown = everything(&message);
        for secret in SECRETS {
            assert!(!shown.contains(secret), "{name:?}: {secret} in {shown}");
        }
        assert!(shown.contains("before") && shown.contains("after"), "{shown}");
    }
    // The file name stays: the model needs it.
    let message = json!({"content": [{"type": "resource_link", "uri": HOOK, "name": "report.txt"}]});
    assert!(everything(&message).contains("report.txt"));
}

#[test]
fn a_host_in_either_spelling_is_kept_out() {
    for (uri, name) in [
        ("https://b\u{FC}cher.example/a/x.pdf", "xn--bcher-kva.example"),
        ("https://xn--bcher-kva.example/a/x.pdf", "b\u{FC}cher.example"),
        ("https://b\u{FC}cher.example/a/x.pdf", "B\u{DC}CHER\u{2024}EXAMPLE"),
    ] {
        let message = json!({"content": [{"type": "resource_link", "uri": uri, "name": name}]});
        let shown = everything(&message);
        assert!(
            !shown.contains("bcher") && !shown.contains("b\u{FC}cher"),
            "{name}: {shown}"
        );
    }
}

#[test]
fn a_query_value_in_disguise_is_kept_out() {
    let uri = "https://h.example/r.pdf?sig=TOKEN4242";
    for name in [
        "\u{1D413}\u{1D40E}\u{1D40A}\u{1D404}\u{1D40D}4242",
        "T\u{041E}KEN4242",
        "TOK EN4242",
        "TOK-EN-4242",
    ] {
        let message = json!({"content": [{"type": "resource_link", "uri": uri, "name": name}]});
        let shown = everything(&message);
        assert!(!shown.contains("4242"), "{name}: {shown}");
    }
}

#[test]
fn labels_draw_no_stub_or_separator_and_keep_no_noncharacter() {
    for (raw, clean) in [
        ("\u{23A1}ref_0000000000000\u{23A4} x", "(ref_0000000000000) x"),
        ("\u{02F9}ref_0000000000000\u{02FA} x", "(ref_0000000000000) x"),
        ("a \u{30FC} b", "a - b"),
        ("a \u{4E00} b", "a - b"),
        ("a \u{1173} b", "a - b"),
        ("a \u{2796} b", "a - b"),
        ("a \u{23AF} b", "a - b"),
        ("a \u{AF} b", "a - b"),
        ("x\u{FDD0}y\u{FFFE}z", "xyz"),
        // Inside a word the letters stay: Japanese and Chinese names keep their meaning.
        ("\u{30B3}\u{30FC}\u{30D2}\u{30FC}", "\u{30B3}\u{30FC}\u{30D2}\u{30FC}"),
        ("\u{7B2C}\u{4E00}\u{7AE0}", "\u{7B2C}\u{4E00}\u{7AE0}"),
    ] {
        assert_eq!(clean_label(raw).as_deref(), Some(clean), "{raw:?}");
    }
}
