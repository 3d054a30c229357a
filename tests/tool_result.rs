//! The tool result the model reads: protocol errors, isError, structuredContent, audience,
//! empty results, and the Anthropic `tool_result` shape.

mod common;

use base64::Engine as _;

use common::{neutral, registry};
use mcp_agent_view::{tool_call_failed, tool_result, AgentBlock, AgentToolResult, Message, Pending};
use serde_json::{json, Value};

#[track_caller]
fn result_of(message: &Value) -> AgentToolResult<'static> {
    let decoded = Message::decode(message).expect("the message decodes");
    tool_result(&decoded, "get_weather", "toolu_01", &registry(), &neutral()).into_owned()
}

#[track_caller]
fn texts(result: &AgentToolResult<'_>) -> Vec<String> {
    result
        .content
        .iter()
        .map(|b| {
            b.as_text()
                .unwrap_or_else(|| panic!("a text block, got {b:?}"))
                .to_owned()
        })
        .collect()
}

#[test]
fn a_protocol_error_tells_the_model_its_call_failed() {
    let response =
        json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message": "Unknown tool: get_weather"}});
    let result = result_of(&response);
    assert!(result.is_error);
    assert_eq!(result.tool_use_id, "toolu_01");
    assert_eq!(
        texts(&result),
        ["Tool call get_weather failed: Unknown tool: get_weather"]
    );
    assert!(result.held_for_user.is_empty());
}

#[test]
fn a_transport_failure_gets_a_matching_tool_result_too() {
    let result = tool_call_failed("get_weather", "toolu_07", "the server exited with status 1");
    assert!(result.is_error);
    assert_eq!(result.tool_use_id, "toolu_07");
    assert_eq!(
        texts(&result),
        ["Tool call get_weather failed: the server exited with status 1"]
    );
}

#[test]
fn structured_content_alone_reaches_the_model_as_json_text() {
    for (structured, expected) in [
        (json!({"temperature": 22.5}), r#"{"temperature":22.5}"#),
        (json!([1, "two", {"three": 3}]), r#"[1,"two",{"three":3}]"#),
        (json!(42), "42"),
        (json!("just a string"), r#""just a string""#),
        (json!(false), "false"),
    ] {
        let result = result_of(&json!({"content": [], "structuredContent": structured}));
        assert_eq!(texts(&result), [expected]);
        let result = result_of(&json!({"structuredContent": structured}));
        assert_eq!(texts(&result), [expected], "content missing altogether");
    }
}

#[test]
fn text_beside_structured_content_goes_alone() {
    let result = result_of(&json!({
        "content": [{"type": "text", "text": "{\"temperature\":22.5}"}],
        "structuredContent": {"temperature": 22.5}
    }));
    assert_eq!(texts(&result), ["{\"temperature\":22.5}"]);
}

#[test]
fn structured_content_joins_an_image_only_result() {
    let result = result_of(&json!({
        "content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}],
        "structuredContent": {"width": 1}
    }));
    assert_eq!(result.content.len(), 2);
    assert!(matches!(result.content[0], AgentBlock::Image { .. }));
    assert_eq!(result.content[1].as_text(), Some(r#"{"width":1}"#));
}

#[test]
fn null_structured_content_counts_as_none() {
    let result = result_of(&json!({"content": [], "structuredContent": null}));
    assert_eq!(texts(&result), ["[tool returned no content]"]);
}

#[test]
fn results_with_no_text_still_give_the_model_something() {
    let image = result_of(&json!({"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}));
    assert_eq!(
        image.content,
        [AgentBlock::Image {
            mime_type: "image/png",
            data: "iVBORw0KGgo=".into()
        }]
    );

    let embedded = result_of(&json!({"content": [{"type": "resource", "resource": {
        "uri": "file:///r.txt", "mimeType": "text/plain", "text": "the resource's text"}}]}));
    assert_eq!(texts(&embedded), ["the resource's text"]);

    let link = result_of(&json!({"content": [{"type": "resource_link", "uri": "file:///r.pdf", "name": "r.pdf"}]}));
    let stub = &texts(&link)[0];
    assert!(
        stub.starts_with("[ref_") && stub.ends_with("] r.pdf — from tool result"),
        "{stub}"
    );
}

#[test]
fn an_empty_result_says_so() {
    assert_eq!(
        texts(&result_of(&json!({"content": []}))),
        ["[tool returned no content]"]
    );
    assert_eq!(
        texts(&result_of(&json!({"resultType": "complete"}))),
        ["[tool returned no content]"]
    );
}

#[test]
fn is_error_results_keep_their_text() {
    let result = result_of(&json!({"content": [{"type": "text", "text": "city not found"}], "isError": true}));
    assert!(result.is_error);
    assert_eq!(texts(&result), ["city not found"]);
}

#[test]
fn is_error_with_only_structured_content_gives_the_json() {
    let result = result_of(
        &json!({"content": [], "isError": true, "structuredContent": {"error": "quota exceeded", "retryAfter": 30}}),
    );
    assert!(result.is_error);
    assert_eq!(texts(&result), [r#"{"error":"quota exceeded","retryAfter":30}"#]);
}

#[test]
fn is_error_that_is_no_boolean_reads_as_false() {
    let result = result_of(&json!({"content": [{"type": "text", "text": "boom"}], "isError": "true"}));
    assert!(!result.is_error);
}

#[test]
fn user_only_blocks_are_held_back_for_the_user() {
    let result = result_of(&json!({"content": [
        {"type": "text", "text": "for both", "annotations": {"audience": ["user", "assistant"]}},
        {"type": "text", "text": "for the user", "annotations": {"audience": ["user"]}},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"audience": ["user"]}},
        {"type": "text", "text": "for the model", "annotations": {"audience": ["assistant"]}},
        {"type": "text", "text": "no audience"}
    ]}));
    assert_eq!(texts(&result), ["for both", "for the model", "no audience"]);
    assert_eq!(result.held_for_user.len(), 2);
    assert_eq!(result.held_for_user[0].as_text(), Some("for the user"));
    assert!(matches!(result.held_for_user[1], AgentBlock::Image { .. }));
}

#[test]
fn an_all_user_result_says_it_was_displayed() {
    let result = result_of(&json!({"content": [
        {"type": "text", "text": "shown to the user", "annotations": {"audience": ["user"]}}
    ]}));
    assert_eq!(texts(&result), ["[output displayed to user]"]);
    assert_eq!(result.held_for_user[0].as_text(), Some("shown to the user"));
}

#[test]
fn unknown_audience_roles_are_ignored_never_an_error() {
    let result = result_of(&json!({"content": [
        {"type": "text", "text": "a", "annotations": {"audience": ["assistant", "auditor"]}},
        {"type": "text", "text": "b", "annotations": {"audience": ["auditor"]}},
        {"type": "text", "text": "c", "annotations": {"audience": "assistant"}}
    ]}));
    assert_eq!(texts(&result), ["a", "c"]);
    assert_eq!(
        result.held_for_user.len(),
        1,
        "an audience of unknown roles leaves out the assistant"
    );
}

#[test]
fn structured_content_is_appended_when_the_only_text_was_held_back() {
    let result = result_of(&json!({
        "content": [{"type": "text", "text": "{\"a\":1}", "annotations": {"audience": ["user"]}}],
        "structuredContent": {"a": 1}
    }));
    assert_eq!(texts(&result), [r#"{"a":1}"#]);
}

#[test]
fn bad_blocks_keep_their_markers_and_siblings() {
    let result = result_of(&json!({"content": [
        {"type": "text", "text": "ok"},
        {"type": "video", "data": "AAAA"},
        {"type": "resource", "resource": {"uri": "file:///x"}}
    ]}));
    assert_eq!(
        texts(&result),
        [
            "ok",
            "[unsupported result type: video]",
            "[unrecognized content block: embedded resource without text or blob]"
        ]
    );
}

#[test]
fn media_checked_for_one_target_is_checked_again_for_another() {
    // A 6 MiB PNG passes OpenAI's 20 MiB; Anthropic's limit is 5 MiB.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.resize(6 * 1024 * 1024, 7);
    let data = base64::engine::general_purpose::STANDARD.encode(&png);
    let message = mcp_agent_view::Message::decode(
        &json!({"content": [{"type": "image", "data": data, "mimeType": "image/png"}]}),
    )
    .unwrap();
    let registry = mcp_agent_view::ReferenceRegistry::new();
    let checked_for_openai = mcp_agent_view::tool_result(
        &message,
        "t",
        "toolu_1",
        &registry,
        &mcp_agent_view::Target::openai_responses(),
    );
    assert!(matches!(
        checked_for_openai.content[0],
        mcp_agent_view::AgentBlock::Image { .. }
    ));
    let out = mcp_agent_view::Target::anthropic().tool_result_messages(&[checked_for_openai]);
    assert_eq!(
        out[0]["content"][0]["content"],
        json!([{"type": "text", "text": "[image: image/png, ~6.0MB, not sent: over 5MB]"}])
    );
}

#[test]
fn serializes_to_the_neutral_shape_and_each_provider_shape_comes_from_its_target() {
    let result = result_of(&json!({"content": [
        {"type": "text", "text": "Here:"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"}
    ], "isError": true}));
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({
            "type": "tool_result",
            "toolUseId": "toolu_01",
            "name": "get_weather",
            "isError": true,
            "content": [
                {"type": "text", "text": "Here:"},
                {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
                {"type": "audio", "mimeType": "audio/wav", "data": "UklGRiQAAABXQVZF"}
            ],
            "heldForUser": []
        })
    );
    assert_eq!(
        mcp_agent_view::Target::anthropic().tool_result_messages(&[result])[0]["content"][0],
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": [
                {"type": "text", "text": "Here:"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                // Checked for the neutral target, audio is checked again for Anthropic.
                {"type": "text", "text": "[audio: audio/wav, 12B, not sent: unsupported type]"}
            ],
            "is_error": true
        })
    );
}

#[test]
fn blocks_inside_structured_content_read_as_their_history_text() {
    let result = result_of(&json!({"content": [], "structuredContent": {
        "attachment": {"type": "resource", "resource": {"uri": "file:///secret?token=abc123", "text": "the text"}},
        "thumb": {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "mimeType": "image/png"},
        "count": 2
    }}));
    assert_eq!(
        texts(&result),
        [
            r#"{"attachment":{"text":"the text","type":"text"},"count":2,"thumb":{"text":"[image: image/png, 70B]","type":"text"}}"#
        ]
    );
}

#[test]
fn structured_content_repeating_the_blocks_is_not_shown_again_but_lookalikes_are() {
    let image = json!({"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "mimeType": "image/png"});
    let shown = |structured: Value| {
        let result = result_of(&json!({"content": [image.clone()], "structuredContent": structured}));
        result.content.len()
    };
    // The blocks again, as the SDKs' `structuredContent` of a content-only result: not shown.
    assert_eq!(shown(json!({"content": [image.clone()]})), 1);
    // An item of a type no block has, another count, or another key: data, shown as text.
    assert_eq!(shown(json!({"content": [{"type": "chart"}]})), 2);
    assert_eq!(shown(json!({"content": [image.clone(), image.clone()]})), 2);
    assert_eq!(shown(json!({"content": [image.clone()], "page": 1})), 2);
}

/// Every way an answer can be given: its bytes, its `Value`, and decoded before.
#[track_caller]
fn every_way(answer: &Value) -> Vec<AgentToolResult<'static>> {
    let ways = json_ways(answer);
    assert_eq!(result_of(answer), ways[0]);
    ways
}

/// Its bytes and its `Value`. (A decoded `Message` with no content keeps no unknown
/// `resultType` and no input-required result that asks nothing: it reads as no content.)
#[track_caller]
fn json_ways(answer: &Value) -> Vec<AgentToolResult<'static>> {
    let bytes = answer.to_string();
    let ways = [
        tool_result(bytes.as_bytes(), "get_weather", "toolu_01", &registry(), &neutral()).into_owned(),
        tool_result(answer, "get_weather", "toolu_01", &registry(), &neutral()).into_owned(),
    ];
    assert!(ways.iter().all(|way| way == &ways[0]), "{ways:#?}");
    ways.into()
}

#[test]
fn an_input_required_result_is_no_content_but_what_the_server_asks() {
    // The schema's own example (2026-07-28), as a JSON-RPC response.
    let example = json!({"resultType": "input_required",
        "inputRequests": {
            "github_login": {"method": "elicitation/create", "params": {"message": "Please provide your GitHub username",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
            "capital_of_france": {"method": "sampling/createMessage", "params": {"messages": [
                {"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}], "maxTokens": 100}}},
        "requestState": "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"});
    for answer in [example.clone(), json!({"jsonrpc": "2.0", "id": 3, "result": example})] {
        let result = &every_way(&answer)[0];
        assert!(!result.is_error);
        assert_eq!(texts(result), ["[tool call waiting for input]"]);
        let Some(Pending::InputRequired(asked)) = &result.pending else {
            panic!("no input required: {result:?}")
        };
        let asks: Vec<_> = asked
            .requests
            .iter()
            .map(|r| (r.key.as_str(), r.method.as_str()))
            .collect();
        assert_eq!(
            asks,
            [
                ("capital_of_france", "sampling/createMessage"),
                ("github_login", "elicitation/create")
            ]
        );
        assert_eq!(asked.requests[0].params["maxTokens"], 100);
        assert_eq!(asked.request_state.as_deref(), Some("eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"));
        // What a provider is sent, if a host sends it anyway: the marker, nothing the server asked.
        let sent = result.to_json().to_string();
        assert!(!sent.contains("capital") && !sent.contains("GitHub"), "{sent}");
    }
}

#[test]
fn request_state_alone_asks_for_nothing_but_a_retry() {
    let result = &every_way(&json!({"resultType": "input_required", "requestState": "abc"}))[0];
    let Some(Pending::InputRequired(asked)) = &result.pending else {
        panic!("no input required: {result:?}")
    };
    assert!(asked.requests.is_empty());
    assert_eq!(asked.request_state.as_deref(), Some("abc"));
}

#[test]
fn an_input_required_result_asking_nothing_is_a_failed_call() {
    for answer in [
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "inputRequests": {}}}),
        json!({"resultType": "input_required"}),
    ] {
        let result = &json_ways(&answer)[0];
        assert!(result.is_error && result.pending.is_none());
        assert_eq!(
            texts(result),
            ["Tool call get_weather failed: the server asked for input but sent no request and no state"]
        );
    }
}

#[test]
fn a_task_is_a_handle_for_the_host() {
    let answer = json!({"resultType": "task", "taskId": "task-7", "status": "working",
        "createdAt": "2026-07-28T10:00:00Z", "lastUpdatedAt": "2026-07-28T10:00:00Z", "ttlMs": null, "pollIntervalMs": 2000});
    let result = &every_way(&answer)[0];
    assert!(!result.is_error);
    assert_eq!(texts(result), ["[tool call running as a task: working]"]);
    let Some(Pending::Task(task)) = &result.pending else {
        panic!("no task: {result:?}")
    };
    assert_eq!(
        (task.task_id.as_str(), task.status.as_str(), task.poll_interval_ms),
        ("task-7", "working", Some(2000))
    );
    let no_id = &json_ways(&json!({"resultType": "task", "status": "working"}))[0];
    assert!(no_id.is_error && no_id.pending.is_none());
    assert_eq!(
        texts(no_id),
        ["Tool call get_weather failed: the server answered with a task that has no taskId"]
    );
}

#[test]
fn an_unknown_result_type_is_a_failed_call_naming_the_word() {
    let result = &every_way(&json!({"resultType": "hologram", "content": [{"type": "text", "text": "not read"}]}))[0];
    assert!(result.is_error && result.pending.is_none());
    assert_eq!(
        texts(result),
        ["Tool call get_weather failed: the server answered with resultType hologram, which this client does not know"]
    );
    // A word that is a URL (a credential in it) is not shown; terminal escapes are not either.
    let result = &json_ways(&json!({"resultType": "https://x.example/?token=SECRET"}))[0];
    assert_eq!(
        texts(result),
        ["Tool call get_weather failed: the server answered with resultType that cannot be shown, which this client does not know"]
    );
    let result = &json_ways(&json!({"resultType": "a\u{1b}[31mb"}))[0];
    assert!(!texts(result)[0].contains('\u{1b}'), "{:?}", texts(result));
}

/// The turn as a host puts it together from each result's parts
/// ([`mcp_agent_view::Target::tool_result_parts`]'s documented rule).
fn turn_from_parts(target: &mcp_agent_view::Target, results: &[AgentToolResult<'_>]) -> Vec<Value> {
    let parts: Vec<Value> = results
        .iter()
        .map(|r| serde_json::to_value(target.tool_result_parts(r)).expect("parts serialize"))
        .collect();
    let Some(first) = parts.first() else {
        return Vec::new();
    };
    let items: Vec<Value> = parts.iter().map(|p| p["item"].clone()).collect();
    let mut turn = if first["oneUserMessage"] == json!(true) {
        vec![json!({"content": items, "role": "user"})]
    } else {
        items
    };
    let attachments: Vec<Value> = parts
        .iter()
        .flat_map(|p| p["attachments"].as_array().expect("an array").clone())
        .collect();
    if !attachments.is_empty() {
        turn.push(json!({"content": attachments, "role": "user"}));
    }
    turn
}

#[test]
fn a_turn_put_together_from_each_results_parts_is_the_turn() {
    let registry = registry();
    let mut answers: Vec<Value> = common::vector_files()
        .iter()
        .map(|path| common::read_json(path))
        .filter_map(|file| file.get("response").cloned())
        .collect();
    answers.push(json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "  "}]}}));
    answers.push(json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "image", "mimeType": "image/bmp", "data": "Qk0="}]}}));
    assert!(answers.len() > 20, "the vectors hold tool results");
    for (_, name) in mcp_agent_view::Provider::NAMES {
        let target = mcp_agent_view::Target::for_provider(name.parse().expect("a target name"));
        let mut results: Vec<AgentToolResult<'static>> = answers
            .iter()
            .enumerate()
            .map(|(i, answer)| {
                let bytes = serde_json::to_vec(answer).unwrap();
                tool_result(&bytes, "t", &format!("call_{i}"), &registry, &target).into_owned()
            })
            .collect();
        results.push(tool_call_failed("t", "call_failed", "the server went away"));
        assert_eq!(
            turn_from_parts(&target, &[]),
            target.tool_result_messages(&[]),
            "{name}"
        );
        for one in results.chunks(1).chain(results.chunks(3)).chain([&results[..]]) {
            assert_eq!(
                turn_from_parts(&target, one),
                target.tool_result_messages(one),
                "{name}"
            );
        }
    }
}
