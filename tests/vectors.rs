//! Every real MCP message in `tests/vectors/mcp` through every lane.
//!
//! The expectations come from the raw JSON, not from this crate's classification: the text of
//! every text block and every embedded text resource must be read; every inline image must
//! reach `convert_block` as an image with its data; no embedded resource's or reference's uri
//! may be read unless the server's own text writes it; no base64 may appear in history text.

mod common;

use common::{neutral, read_json, registry, strings_at, vector, vector_files, vectors_dir};
use mcp_agent_view::{convert, history, script, AgentBlock, HistoryOptions, Message, Provenance};
use serde_json::{json, Value};

/// Vectors that hold no MCP message with content to read, and why. Everything else must
/// decode.
const NOT_MESSAGES: &[(&str, &str)] = &[
    (
        "json-schema-2020-12.tools-list.json",
        "a tool definition from tools/list, no content",
    ),
    (
        "vectors-self-validation.json",
        "a report of schema validity, no message",
    ),
];

/// Vectors expected to fail a check, with the reason. Empty is the goal, and it is empty.
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// The MCP messages a vector file holds: its response, example value, observed results, and
/// each case of the schema matrix.
fn messages_of(file: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for key in [
        "response",
        "value",
        "final_tool_result",
        "round1_response",
        "round2_response",
        "client_stub_response",
    ] {
        if let Some(v) = file.get(key) {
            out.push((key.to_owned(), v.clone()));
        }
    }
    if let Some(Value::Array(cases)) = file.get("cases") {
        for (i, case) in cases.iter().enumerate() {
            if let Some(v) = case.get("value") {
                let name = case.get("case").and_then(Value::as_str).unwrap_or("?");
                out.push((format!("cases[{i}] {name}"), v.clone()));
            }
        }
    }
    out
}

/// Every object in `value` that is a content block of `type_name`, at any depth; not inside
/// blocks of types the classification table does not know (`tool_use`, `tool_result`: shown as
/// unsupported), nor inside `inputRequests` (requests to the client, not content).
fn blocks_of_type<'v>(value: &'v Value, type_name: &str, out: &mut Vec<&'v Value>) {
    const KNOWN: &[&str] = &["text", "image", "audio", "resource", "resource_link"];
    match value {
        Value::Object(obj) => {
            match obj.get("type").and_then(Value::as_str) {
                Some(t) if t == type_name => out.push(value),
                Some(t) if !KNOWN.contains(&t) => return,
                _ => {}
            }
            for (key, v) in obj {
                if key != "inputRequests" {
                    blocks_of_type(v, type_name, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| blocks_of_type(v, type_name, out)),
        _ => {}
    }
}

/// The uris the agent must not read: of embedded resources, `resources/read` contents,
/// resource links and MCPL references, and each icon's `src`. A uri the server wrote into its
/// own text (a text block, an error message) is exempt.
fn secret_uris(message: &Value) -> Vec<String> {
    let mut uris = Vec::new();
    strings_at(message, "uri", &mut uris);
    strings_at(message, "src", &mut uris);
    let mut texts = Vec::new();
    strings_at(message, "text", &mut texts);
    strings_at(message, "message", &mut texts);
    uris.retain(|u| u.chars().count() >= 8 && !texts.iter().any(|t| t.contains(u.as_str())));
    uris
}

/// Windows of the base64 the message carries (`data` and `blob`), for a search in the output.
fn base64_windows(message: &Value) -> Vec<String> {
    let mut data = Vec::new();
    strings_at(message, "data", &mut data);
    strings_at(message, "blob", &mut data);
    data.iter()
        .filter(|d| d.is_ascii() && d.len() >= 16)
        .flat_map(|d| (0..=d.len() - 16).step_by(16).map(move |i| d[i..i + 16].to_owned()))
        .collect()
}

struct Outcome {
    failures: Vec<String>,
    blocks_checked: usize,
}

/// What the three lanes made of one message.
struct Lanes<'m> {
    message: &'m Message<'static>,
    history: String,
    converted: Vec<AgentBlock<'m>>,
    converted_text: Vec<String>,
    script: String,
}

fn check_message(name: &str, value: &Value, outcome: &mut Outcome) {
    let message = match Message::decode(value) {
        Ok(m) => m,
        Err(e) => return outcome.failures.push(format!("{name}: does not decode: {e}")),
    };
    let registry = registry();
    // Every block is accounted for: for the model, or held back for the user.
    let converted = convert(&message, Provenance::PushEvent, &registry, &neutral()).unwrap();
    let converted: Vec<AgentBlock<'_>> = converted.content.into_iter().chain(converted.held_for_user).collect();
    let lanes = Lanes {
        history: history(&message, &registry, &HistoryOptions::default()).unwrap(),
        converted_text: converted
            .iter()
            .filter_map(AgentBlock::as_text)
            .map(str::to_owned)
            .collect(),
        converted,
        script: serde_json::from_str::<serde_json::Value>(&script(value, &registry, &neutral()).unwrap())
            .unwrap()
            .to_string(),
        message: &message,
    };
    outcome.blocks_checked += lanes.message.blocks().count();
    // The bytes path, borrowing, reads what the Value path reads.
    let bytes = serde_json::to_vec(value).unwrap();
    match history(&bytes, &registry, &HistoryOptions::default()) {
        Ok(text) if text == lanes.history => {}
        other => outcome.failures.push(format!(
            "{name}: history_json gave {other:?}, history {:?}",
            lanes.history
        )),
    }
    let mut failures = Vec::new();
    check_accounted_for(&lanes, &mut failures);
    check_content_is_read(value, &lanes, &mut failures);
    check_nothing_leaks(value, &lanes, &mut failures);
    outcome
        .failures
        .extend(failures.into_iter().map(|f| format!("{name}: {f}")));
}

/// Every block is accounted for: one agent block each, and a piece of history each.
fn check_accounted_for(lanes: &Lanes<'_>, failures: &mut Vec<String>) {
    // Blocks for the user only are held back from the history lane, as from every lane.
    let for_model = |b: &&mcp_agent_view::Block<'_>| {
        b.annotations
            .as_ref()
            .and_then(|a| a.audience.as_ref())
            .is_none_or(|a| a.contains(&mcp_agent_view::wire::Role::Assistant))
    };
    let count = lanes.message.blocks().filter(for_model).count();
    if let Message::RpcError(e) = lanes.message {
        if !lanes.history.starts_with("[request failed: ") || !lanes.history.contains(&*e.message) {
            failures.push(format!("a JSON-RPC error reads {:?}", lanes.history));
        }
        return;
    }
    if lanes.converted.len() < lanes.message.blocks().count() {
        failures.push(format!("{count} blocks gave {} agent blocks", lanes.converted.len()));
    }
    let pieces = lanes.history.split('\n').count();
    if count > 0 && pieces < count {
        failures.push(format!("{count} blocks gave {pieces} history lines"));
    }
}

/// The text the server sent is read; inline media reaches `convert_block` as media or as its
/// not-sent marker.
fn check_content_is_read(value: &Value, lanes: &Lanes<'_>, failures: &mut Vec<String>) {
    let mut texts = Vec::new();
    blocks_of_type(value, "text", &mut texts);
    let for_model = |b: &&&Value| {
        b.pointer("/annotations/audience")
            .and_then(Value::as_array)
            .is_none_or(|a| a.contains(&Value::from("assistant")))
    };
    for t in texts
        .iter()
        .filter(for_model)
        .filter_map(|b| b.get("text").and_then(Value::as_str))
    {
        if !lanes.history.contains(t) {
            failures.push(format!("text {t:?} not in history"));
        }
    }
    let mut resources = Vec::new();
    blocks_of_type(value, "resource", &mut resources);
    for t in resources
        .iter()
        .filter_map(|b| b.pointer("/resource/text").and_then(Value::as_str))
    {
        if !lanes.history.contains(t) || !lanes.converted_text.iter().any(|c| c == t) {
            failures.push(format!("embedded text {t:?} not read on history and convert"));
        }
        if !lanes.script.contains(&serde_json::to_string(t).unwrap()) {
            failures.push(format!("embedded text {t:?} not in the script view"));
        }
    }
    if let Some(Value::Array(contents)) = value.pointer("/result/contents").or_else(|| value.get("contents")) {
        for item in contents {
            // When both are present the blob wins, so the text is not read.
            if let (Some(t), None) = (item.get("text").and_then(Value::as_str), item.get("blob")) {
                if !lanes.history.contains(t) {
                    failures.push(format!("resource contents {t:?} not in history"));
                }
            }
        }
    }
    for kind in ["image", "audio"] {
        let mut media = Vec::new();
        blocks_of_type(value, kind, &mut media);
        for block in media {
            let (Some(data), Some(mime)) = (block.get("data").and_then(Value::as_str), block["mimeType"].as_str())
            else {
                continue;
            };
            // Media goes out as media, or, where its bytes fail the target's checks (the schema
            // matrix sends `AAAA`), as its marker saying why.
            let refused = format!("[{kind}: {mime}, ");
            let found = lanes.converted.iter().any(|b| match b {
                AgentBlock::Image { data: d, .. } | AgentBlock::Audio { data: d, .. } => d == data,
                AgentBlock::Text { text } => text.starts_with(&refused) && text.contains(", not sent: "),
                _ => false,
            });
            if !found {
                failures.push(format!(
                    "{kind} data neither converted to media nor refused with a reason"
                ));
            }
        }
    }
}

/// No uri of an embedded resource or a reference on any lane; no base64 in history text.
fn check_nothing_leaks(value: &Value, lanes: &Lanes<'_>, failures: &mut Vec<String>) {
    for uri in secret_uris(value) {
        for (lane, out) in [("history", &lanes.history), ("script", &lanes.script)] {
            if out.contains(&uri) {
                failures.push(format!("uri {uri} leaks on the {lane} lane"));
            }
        }
        if lanes.converted_text.iter().any(|c| c.contains(&uri)) {
            failures.push(format!("uri {uri} leaks on convert_block"));
        }
    }
    for window in base64_windows(value) {
        if lanes.history.contains(&window) {
            failures.push(format!("base64 {window} in history"));
        }
    }
    if lanes.history.contains("without a link") {
        failures.push("a no-link line".to_owned());
    }
}

#[test]
fn every_vector_goes_through_every_lane() {
    let dir = vectors_dir();
    let files = vector_files();
    assert!(
        files.len() >= 60,
        "found only {} vectors in {}",
        files.len(),
        dir.display()
    );

    let mut outcome = Outcome {
        failures: Vec::new(),
        blocks_checked: 0,
    };
    let mut messages = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let file = read_json(path);
        let found = messages_of(&file);
        if let Some((_, why)) = NOT_MESSAGES.iter().find(|(n, _)| *n == name) {
            assert!(found.is_empty(), "{name} is listed as no message ({why}) but holds one");
            continue;
        }
        assert!(!found.is_empty(), "{name} holds no message this harness knows");
        let before = outcome.failures.len();
        for (key, value) in found {
            messages += 1;
            check_message(&format!("{name} {key}"), &value, &mut outcome);
        }
        let failed = outcome.failures.len() > before;
        let expected = EXPECTED_FAILURES.iter().any(|(n, _)| *n == name);
        if expected && !failed {
            outcome
                .failures
                .push(format!("{name} is listed as an expected failure but passes"));
        }
        if expected {
            outcome.failures.truncate(before);
        }
    }
    assert!(
        outcome.failures.is_empty(),
        "{} failures:\n{}",
        outcome.failures.len(),
        outcome.failures.join("\n")
    );
    assert!(messages > 100, "only {messages} messages checked");
    assert!(
        outcome.blocks_checked > 100,
        "only {} blocks checked",
        outcome.blocks_checked
    );
    println!("{messages} messages, {} blocks checked", outcome.blocks_checked);
}

/// The two vectors of the embedded-resource bug: the text must be read, on every lane.
#[test]
fn everything_server_resource_references_show_the_resource_text() {
    for (file, needle) in [
        (
            "everything.get-resource-reference.Text.json",
            "This is a plaintext resource created at",
        ),
        (
            "everything.get-resource-reference.Blob.json",
            "This is a base64 blob created at",
        ),
        (
            "everything.resource-prompt.Text.json",
            "This is a plaintext resource created at",
        ),
        (
            "everything.resource-prompt.Blob.json",
            "This is a base64 blob created at",
        ),
    ] {
        let file_value = vector(file);
        let response = &file_value["response"];
        let mut server_text = Vec::new();
        blocks_of_type(response, "text", &mut server_text);
        assert!(
            !server_text.iter().any(|b| b["text"].as_str().unwrap().contains(needle)),
            "{file}: the needle must come from the resource, not from a text block"
        );
        let message = Message::decode(response).unwrap();
        let text = history(&message, &registry(), &HistoryOptions::default()).unwrap();
        assert!(text.contains(needle), "{file}: {text}");
        let converted = convert(&message, Provenance::ContextInjection, &registry(), &neutral())
            .unwrap()
            .content;
        assert!(
            converted
                .iter()
                .any(|b| b.as_text().is_some_and(|t| t.contains(needle))),
            "{file}"
        );
        assert!(
            serde_json::from_str::<serde_json::Value>(&script(response, &registry(), &neutral()).unwrap())
                .unwrap()
                .to_string()
                .contains(needle),
            "{file}"
        );
    }
}

/// What the model reads for one vector, through the mapping its request calls for.
struct Mapped {
    content: Vec<AgentBlock<'static>>,
    held: Vec<AgentBlock<'static>>,
    is_error: bool,
}

/// The request and the response of a vector (the sampling vector names them otherwise).
fn request_and_response(file: &Value) -> Option<(&Value, &Value)> {
    let request = file.get("request").or_else(|| file.get("tools_call_request"))?;
    let response = file.get("response").or_else(|| file.get("final_tool_result"))?;
    Some((request, response))
}

fn map_vector(file: &Value) -> Option<Mapped> {
    let (request, response) = request_and_response(file)?;
    let method = request.get("method").and_then(Value::as_str)?;
    let message = Message::decode(response).unwrap();
    let registry = registry();
    let owned = |blocks: Vec<AgentBlock<'_>>| blocks.into_iter().map(AgentBlock::into_owned).collect();
    Some(match method {
        "tools/call" => {
            let name = request.pointer("/params/name").and_then(Value::as_str).unwrap();
            let r = mcp_agent_view::tool_result(&message, name, "toolu_v", &registry, &neutral());
            Mapped {
                content: owned(r.content),
                held: owned(r.held_for_user),
                is_error: r.is_error,
            }
        }
        "prompts/get" => Mapped {
            content: owned(
                mcp_agent_view::prompt_messages(&message, &registry, &neutral())
                    .unwrap()
                    .into_iter()
                    .flat_map(|m| m.content)
                    .collect(),
            ),
            held: Vec::new(),
            is_error: false,
        },
        "resources/read" => Mapped {
            content: owned(
                convert(&message, Provenance::ToolResult, &registry, &neutral())
                    .unwrap()
                    .content,
            ),
            held: Vec::new(),
            is_error: false,
        },
        _ => return None,
    })
}

fn has_text(blocks: &[AgentBlock<'_>], needle: &str) -> bool {
    blocks.iter().any(|b| b.as_text().is_some_and(|t| t.contains(needle)))
}

fn has_media(blocks: &[AgentBlock<'_>], kind: &str, mime: Option<&str>) -> bool {
    blocks.iter().any(|b| match (kind, b) {
        ("image", AgentBlock::Image { mime_type, data }) | ("audio", AgentBlock::Audio { mime_type, data }) => {
            !data.is_empty() && mime.is_none_or(|m| m == *mime_type)
        }
        _ => false,
    })
}

/// Each conformance check's expectation, and each everything-server tool's, holds in what the
/// model reads through `tool_result`, `prompt_messages` and `convert_message`.
#[test]
fn conformance_expectations_hold_in_what_the_model_reads() {
    const FAMILIES: &[&str] = &[
        "tools-call-",
        "prompts-get-",
        "resources-read-",
        "resources-templates-",
        "everything.",
    ];
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in vector_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.extension().is_none_or(|x| x != "json") || !FAMILIES.iter().any(|f| name.starts_with(f)) {
            continue;
        }
        let file = read_json(&path);
        let mapped = map_vector(&file).unwrap_or_else(|| panic!("{name} has no request and response"));
        checked += 1;
        failures.extend(
            check_conformance(&name, &file, &mapped)
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 44, "every vector of these families is mapped");
}

fn is_user_only(block: &Value) -> bool {
    block
        .pointer("/annotations/audience")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.contains(&json!("assistant")))
}

fn check_conformance(name: &str, file: &Value, mapped: &Mapped) -> Vec<String> {
    let mut failures = Vec::new();
    let mut expect = |ok: bool, what: &str| {
        if !ok {
            failures.push(what.to_owned());
        }
    };
    let (request, response) = request_and_response(file).unwrap();
    expect(!mapped.content.is_empty(), "the model reads something");
    if let Some(is_error) = response.pointer("/result/isError").and_then(Value::as_bool) {
        expect(mapped.is_error == is_error, "isError is kept");
    }
    if response.get("error").is_some() && request.get("method") == Some(&json!("tools/call")) {
        expect(mapped.is_error, "a protocol error is an error");
    }
    // Every text the server wrote is read by the model, or held for the user.
    let mut texts = Vec::new();
    blocks_of_type(response, "text", &mut texts);
    for block in texts {
        let t = block["text"].as_str().unwrap_or_default();
        let place = if is_user_only(block) {
            &mapped.held
        } else {
            &mapped.content
        };
        expect(has_text(place, t), &format!("text {t:?} read (or held for the user)"));
    }
    let mut resources = Vec::new();
    blocks_of_type(response, "resource", &mut resources);
    for t in resources
        .iter()
        .filter_map(|b| b.pointer("/resource/text").and_then(Value::as_str))
    {
        expect(has_text(&mapped.content, t), "the resource's text is read");
    }
    for kind in ["image", "audio"] {
        let mut media = Vec::new();
        blocks_of_type(response, kind, &mut media);
        for block in media {
            let place = if is_user_only(block) {
                &mapped.held
            } else {
                &mapped.content
            };
            expect(
                has_media(place, kind, block["mimeType"].as_str()),
                &format!("{kind} with data and media type"),
            );
        }
    }
    // The scenario-level checks.
    let content = &mapped.content;
    match name.split('.').next().unwrap() {
        "tools-call-audio" => expect(has_media(content, "audio", Some("audio/wav")), "audio/wav"),
        "tools-call-image" | "prompts-get-with-image" => {
            expect(has_media(content, "image", None), "an image");
        }
        "tools-call-error" => expect(
            mapped.is_error && has_text(content, "intentionally"),
            "isError with text",
        ),
        "prompts-get-with-args" => {
            expect(
                has_text(content, "testValue1") && has_text(content, "testValue2"),
                "both args",
            );
        }
        "resources-templates-read" => expect(has_text(content, "123"), "the template's text"),
        _ => {}
    }
    if name.starts_with("everything.get-annotated-message.success") {
        expect(
            has_text(content, "[output displayed to user]") && mapped.held.len() == 1,
            "user-only held back",
        );
    }
    if name.starts_with("everything.resources-read.not-found") {
        expect(
            has_text(content, "[request failed: error -32602"),
            "the failure is read",
        );
    }
    failures
}

#[test]
fn a_missing_test_input_names_its_path() {
    let missing = common::vectors_dir().join("no-such-vector.json");
    let panic = std::panic::catch_unwind(|| common::read_json(&missing)).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with(&format!("cannot read the test input {}: ", missing.display())),
        "{message}"
    );
}
