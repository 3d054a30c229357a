//! Live end-to-end tests: real servers over stdio, through `mcp-agent-view call` and through
//! the rmcp bridge. They need the pinned everything server: `npm ci --prefix live` (`.ci/run`
//! does it). Without it they fail, saying so; they are never skipped.
#![cfg(feature = "call")]

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-agent-view");

/// The good blocks of the misbehaving server's `mixed` tool, which must all reach the model.
const GOOD_BLOCKS: [&str; 5] = [
    "good text before",
    "for an unknown role",
    "notes from a blob",
    "embedded text survives",
    "good text after",
];

fn live_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("live")
}

fn everything() -> String {
    let server = live_dir().join("node_modules/.bin/mcp-server-everything");
    assert!(
        server.exists(),
        "the everything server is not installed: run `npm ci --prefix live` (looked for {})",
        server.display()
    );
    server.to_string_lossy().into_owned()
}

fn misbehaving() -> String {
    live_dir().join("misbehaving-server.mjs").to_string_lossy().into_owned()
}

/// Runs `call` with `options`, against `server`, asking `name` with `arguments`.
#[track_caller]
fn call(options: &[&str], server: &[&str], name: &str, arguments: Option<&str>) -> String {
    let mut args: Vec<&str> = vec!["call"];
    args.extend(options);
    args.push("--");
    args.extend(server);
    args.push("--");
    args.push(name);
    args.extend(arguments);
    let out = Command::new(BIN).args(&args).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
fn everything_tool(options: &[&str], name: &str, arguments: Option<&str>) -> Value {
    let server = everything();
    serde_json::from_str(&call(options, &[&server, "stdio"], name, arguments)).unwrap()
}

#[track_caller]
fn misbehaving_tool(options: &[&str], name: &str) -> Value {
    let script = misbehaving();
    serde_json::from_str(&call(options, &["node", &script], name, None)).unwrap()
}

/// The texts of a neutral tool result.
fn texts(out: &Value) -> Vec<String> {
    out["messages"][0]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["text"].as_str().map(str::to_owned))
        .collect()
}

/// A run of 64 or more base64 characters.
fn has_base64_run(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        run = if c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=') {
            run + 1
        } else {
            0
        };
        if run >= 64 {
            return true;
        }
    }
    false
}

#[track_caller]
fn assert_clean(texts: &[String]) {
    for text in texts {
        assert!(!has_base64_run(text), "base64 in text: {text}");
    }
}

#[test]
fn resource_references_show_the_resource_text_and_no_uri_of_their_own() {
    for (kind, uri, needle) in [
        (
            "Text",
            "demo://resource/dynamic/text/2",
            "Resource 2: This is a plaintext resource created at",
        ),
        (
            "Blob",
            "demo://resource/dynamic/blob/2",
            "Resource 2: This is a base64 blob created at",
        ),
    ] {
        let arguments = format!(r#"{{"resourceType":"{kind}","resourceId":2}}"#);
        let out = everything_tool(&[], "get-resource-reference", Some(&arguments));
        let texts = texts(&out);
        assert_eq!(texts.len(), 3, "{out}");
        assert!(texts[1].starts_with(needle), "{kind}: {texts:?}");
        assert!(!texts[1].contains(uri));
        // The uri appears only where the server's own text writes it.
        let everywhere = out.to_string();
        assert_eq!(everywhere.matches(uri).count(), 1, "{everywhere}");
        assert!(texts[2].contains(uri));
        assert_clean(&texts);
    }
}

#[test]
fn the_resource_prompt_shows_the_resource_text() {
    let server = everything();
    for (kind, needle) in [
        ("Text", "This is a plaintext resource"),
        ("Blob", "This is a base64 blob"),
    ] {
        let arguments = format!(r#"{{"resourceType":"{kind}","resourceId":"1"}}"#);
        let out: Value = serde_json::from_str(&call(
            &["--prompt"],
            &[&server, "stdio"],
            "resource-prompt",
            Some(&arguments),
        ))
        .unwrap();
        let last = &out[out.as_array().unwrap().len() - 1];
        let text = last["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(needle), "{kind}: {out}");
        assert!(!out.to_string().contains("demo://resource/dynamic"), "{out}");
    }
}

#[test]
fn the_tiny_image_is_an_image_for_anthropic_and_a_user_message_image_for_openai_chat() {
    let out = everything_tool(&["--target", "anthropic"], "get-tiny-image", None);
    let content = &out["messages"][0]["content"][0]["content"];
    assert_eq!(content[1]["type"], "image", "{out}");
    assert_eq!(content[1]["source"]["media_type"], "image/png");

    let out = everything_tool(&["--target", "openai-chat", "--id", "call_7"], "get-tiny-image", None);
    let messages = out["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "{out}");
    assert_eq!(messages[0]["role"], "tool");
    assert!(messages[0]["content"].is_string());
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["content"][1]["type"], "image_url");
    assert!(messages[1]["content"][1]["image_url"]["url"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,"));
}

#[test]
fn user_only_blocks_are_held_back() {
    let out = everything_tool(&[], "get-annotated-message", Some(r#"{"messageType":"success"}"#));
    assert_eq!(texts(&out), ["[output displayed to user]"], "{out}");
    assert_eq!(out["heldForUser"][0]["text"], "Operation completed successfully");

    let out = everything_tool(
        &[],
        "get-annotated-message",
        Some(r#"{"messageType":"error","includeImage":true}"#),
    );
    assert_eq!(texts(&out), ["Error: Operation failed"], "{out}");
    assert_eq!(
        out["heldForUser"][0]["type"], "image",
        "the user-only image is held back"
    );
}

#[test]
fn resource_links_are_stubs_without_uris() {
    let out = everything_tool(&[], "get-resource-links", Some(r#"{"count":3}"#));
    let texts = texts(&out);
    assert_eq!(texts.len(), 4, "{out}");
    for stub in &texts[1..] {
        assert!(
            stub.starts_with("[ref_") && stub.ends_with("— from tool result"),
            "{stub}"
        );
    }
    assert!(!out.to_string().contains("demo://"), "{out}");
}

#[test]
fn fetched_links_give_the_linked_resources_text_through_the_same_connection() {
    let out = everything_tool(
        &["--fetch-references", "--seed", "3"],
        "get-resource-links",
        Some(r#"{"count":3}"#),
    );
    // First the stubs, as before any fetch.
    let stubs = texts(&out["shown"]);
    assert_eq!(stubs.len(), 4, "{out}");
    let ids: Vec<&str> = stubs[1..].iter().map(|stub| &stub[1..18]).collect();
    // Then one fetch_reference answer per stub, each the linked resource's own text.
    let fetched = out["fetched"].as_array().expect("fetched");
    assert_eq!(fetched.len(), 3, "{out}");
    for (n, answer) in fetched.iter().enumerate() {
        let texts = texts(answer);
        assert_eq!(texts.len(), 1, "{answer}");
        assert!(
            texts[0].starts_with(&format!("Resource {}: This is a ", n + 1)),
            "{}: {}",
            ids[n],
            texts[0]
        );
        assert_eq!(answer["messages"][0]["isError"], false);
    }
    assert!(!out.to_string().contains("demo://"), "{out}");
}

#[test]
fn structured_content_and_gzip_resources_read_well() {
    let out = everything_tool(&[], "get-structured-content", Some(r#"{"location":"Chicago"}"#));
    assert!(texts(&out)[0].contains("temperature"), "{out}");
    assert_eq!(out["messages"][0]["isError"], false);

    let arguments = r#"{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8K","outputType":"resource"}"#;
    let out = everything_tool(&[], "gzip-file-as-resource", Some(arguments));
    assert!(texts(&out)[0].starts_with("[file: application/gzip, "), "{out}");
    let arguments = r#"{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8K","outputType":"resourceLink"}"#;
    let out = everything_tool(&[], "gzip-file-as-resource", Some(arguments));
    assert!(texts(&out)[0].starts_with("[ref_"), "{out}");
    assert!(!out.to_string().contains("demo://"), "{out}");
}

#[test]
fn errors_reach_the_model_as_errors() {
    for (name, arguments) in [
        ("get-structured-content", Some(r#"{"location":"Atlantis"}"#)),
        (
            "get-resource-reference",
            Some(r#"{"resourceType":"Text","resourceId":0}"#),
        ),
        ("no-such-tool", None),
    ] {
        let out = everything_tool(&[], name, arguments);
        assert_eq!(out["messages"][0]["isError"], true, "{name}: {out}");
        assert!(!texts(&out)[0].is_empty());
    }
}

#[test]
fn every_good_block_of_a_misbehaving_server_reaches_the_model_through_call() {
    let out = misbehaving_tool(&[], "mixed");
    let shown = texts(&out);
    for expected in GOOD_BLOCKS {
        assert!(shown.iter().any(|t| t == expected), "{expected} missing: {out}");
    }
    assert!(shown.contains(&"[unsupported result type: hologram]".to_owned()));
    assert!(shown.contains(&"[unrecognized content block: image block with non-string data]".to_owned()));
    assert!(shown
        .iter()
        .any(|t| t.starts_with("[ref_") && t.contains("report.pdf — application/pdf, ~2.3MB claimed")));
    let content = out["messages"][0]["content"].as_array().unwrap();
    assert!(
        content.iter().any(|b| b["type"] == "image"),
        "the good image arrives: {out}"
    );
    assert_eq!(out["heldForUser"][0]["text"], "for the user only");
    let everywhere = out.to_string();
    for secret in ["s3cr3t", "file:///srv", "files.example.com"] {
        assert!(!everywhere.contains(secret), "{secret} leaks: {everywhere}");
    }
    assert_clean(&shown);

    let out = misbehaving_tool(&[], "fails");
    assert_eq!(out["messages"][0]["isError"], true);
    assert_eq!(
        out["messages"][0]["content"][0]["text"],
        "Tool call fails failed: backend exploded"
    );

    let out = misbehaving_tool(&[], "only-unknown");
    assert_eq!(
        texts(&out),
        ["[unsupported result type: hologram]"],
        "never an empty result"
    );
}

#[test]
fn a_very_large_blob_costs_no_sibling() {
    let script = misbehaving();
    let out = call(&["--lane", "history"], &["node", &script], "huge", None);
    assert_eq!(
        out,
        "before the blob\n[file: application/octet-stream, ~20.0MB]\nafter the blob\n"
    );
}

#[test]
fn a_prompt_with_an_unknown_block_keeps_its_resource() {
    let script = misbehaving();
    let out: Value = serde_json::from_str(&call(&["--prompt"], &["node", &script], "odd", None)).unwrap();
    assert_eq!(out[0]["content"][0]["text"], "[unsupported result type: hologram]");
    assert_eq!(out[1]["content"][0]["text"], "prompt resource text");
}

#[test]
fn a_server_that_fails_gives_one_line_and_a_non_zero_exit() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.stdout.is_empty(),
        )
    };
    let (code, stderr, quiet) = run(&["call", "--", "/no/such/server", "--", "t"]);
    assert_eq!((code, quiet), (Some(2), true));
    assert_eq!(
        stderr,
        "mcp-agent-view: start: cannot run /no/such/server: No such file or directory (os error 2)\n"
    );
    let (code, stderr, _) = run(&["call", "--", "false", "--", "t"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "mcp-agent-view: initialize: the server exited with status 1\n");
    let (code, stderr, _) = run(&["call", "--", "sh", "-c", "exit 7", "--", "t"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "mcp-agent-view: initialize: the server exited with status 7\n");
    let started = std::time::Instant::now();
    let (code, stderr, _) = run(&[
        "call",
        "--timeout",
        "20",
        "--",
        "sh",
        "-c",
        "echo hello; sleep 30",
        "--",
        "t",
    ]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "mcp-agent-view: initialize: the server wrote a line that is not JSON: \"hello\"\n"
    );
    assert!(
        started.elapsed().as_secs() < 15,
        "it failed at once, not at the timeout"
    );
    let started = std::time::Instant::now();
    let (code, stderr, _) = run(&["call", "--timeout", "1", "--", "sleep", "30", "--", "t"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "mcp-agent-view: initialize: the server did not answer within 1 s\n"
    );
    assert!(started.elapsed().as_secs() < 20, "it gave up instead of hanging");
    let script = misbehaving();
    let (code, stderr, _) = run(&["call", "--timeout", "1", "--", "node", &script, "--", "silent"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "mcp-agent-view: call: the server did not answer within 1 s\n");
    let (code, stderr, _) = run(&["call", "--", "node", "-e", "process.exit(0)"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("expected: call [OPTIONS] -- <SERVER COMMAND>... -- <NAME>"),
        "{stderr}"
    );
}

/// The rmcp bridge, in process: rmcp's own client against the same servers.
mod bridge {
    use mcp_agent_view::rmcp_bridge::{tool_result_from_rmcp, StdioClient, StdioServer};
    use mcp_agent_view::{tool_result, AgentBlock, AgentToolResult, ErrorKind, Message, ReferenceRegistry, Target};
    use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
    use rmcp::service::ServiceError;

    async fn connect(program: &str, args: &[&str]) -> StdioClient {
        StdioServer::new(program).args(args).connect().await.unwrap()
    }

    fn tool(name: &str) -> ClientRequest {
        ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new(name.to_owned())))
    }

    #[test]
    fn the_stdio_helper_takes_a_result_on_a_20_mib_line_whole() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let client = StdioServer::new("node").args([&script]).connect().await.unwrap();
            let answer = client.request(tool("huge")).await.unwrap();
            let message = Message::decode(&answer).unwrap();
            let result = tool_result(
                &message,
                "huge",
                "toolu_h",
                &ReferenceRegistry::new(),
                &Target::neutral(),
            );
            let texts: Vec<&str> = result.content.iter().filter_map(AgentBlock::as_text).collect();
            assert_eq!(
                texts,
                [
                    "before the blob",
                    "[file: application/octet-stream, ~20.0MB]",
                    "after the blob"
                ]
            );
            // And the same connection goes on.
            let answer = client.request(tool("fails")).await.unwrap();
            assert_eq!(answer["error"]["message"], "backend exploded");
            client.close().await;
        });
    }

    #[test]
    fn the_stdio_helper_says_a_line_over_its_limit_at_once() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let server = StdioServer::new("node").args([&script]).max_line_bytes(1024 * 1024);
            let client = server.connect().await.unwrap();
            let error = client.request(tool("huge")).await.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Server);
            assert_eq!(
                error.to_string(),
                "call: the server wrote a line over 1048576 bytes (the limit; see max_line_bytes)"
            );
        });
    }

    #[test]
    fn the_stdio_helper_times_out_on_a_server_that_never_answers() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let started = std::time::Instant::now();
            let timeout = std::time::Duration::from_millis(500);
            let error = StdioServer::new("sleep")
                .args(["30"])
                .timeout(timeout)
                .connect()
                .await
                .unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Timeout);
            assert_eq!(error.to_string(), "initialize: the server did not answer within 0.5 s");

            let client = StdioServer::new("node")
                .args([&script])
                .timeout(timeout)
                .connect()
                .await
                .unwrap();
            let error = client.request(tool("silent")).await.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::Timeout);
            assert_eq!(error.to_string(), "call: the server did not answer within 0.5 s");
            assert!(started.elapsed().as_secs() < 10);
            client.close().await;
        });
    }

    #[test]
    fn an_answer_without_its_newline_arrives_once_the_server_is_quiet() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let client = StdioServer::new("node")
                .args([&script])
                .timeout(std::time::Duration::from_secs(20))
                .connect()
                .await
                .unwrap();
            let started = std::time::Instant::now();
            let answer = client.request(tool("unended")).await.unwrap();
            assert_eq!(answer["content"][0]["text"], "unended done");
            assert!(
                started.elapsed() < std::time::Duration::from_secs(5),
                "{:?}",
                started.elapsed()
            );
            client.close().await;
        });
    }

    #[test]
    fn the_calls_of_one_turn_run_at_once_over_one_connection() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let client = StdioServer::new("node").args([&script]).connect().await.unwrap();
            let started = std::time::Instant::now();
            let (a, b) = tokio::join!(client.request(tool("slow")), client.request(tool("slow")));
            let elapsed = started.elapsed();
            for answer in [a.unwrap(), b.unwrap()] {
                assert_eq!(answer["content"][0]["text"], "slow done");
            }
            assert!(elapsed < std::time::Duration::from_millis(1800), "{elapsed:?}");
            // A timeout of its own for one call.
            let error = client
                .request_within(tool("slow"), Some(std::time::Duration::from_millis(200)))
                .await
                .unwrap_err();
            assert_eq!(error.to_string(), "call: the server did not answer within 0.2 s");
            client.close().await;
        });
    }

    #[test]
    fn the_server_gets_the_environment_and_directory_it_is_given() {
        let script = super::misbehaving();
        let dir = std::env::temp_dir();
        let node = std::env::var_os("PATH").unwrap();
        runtime().block_on(async {
            let client = StdioServer::new("node")
                .args([&script])
                .env_clear()
                .env("PATH", node)
                .env("PROBE", "set")
                .current_dir(&dir)
                .connect()
                .await
                .unwrap();
            let answer = client.request(tool("where")).await.unwrap();
            let cwd = dir.canonicalize().unwrap();
            assert_eq!(answer["content"][0]["text"], format!("set no home {}", cwd.display()));
            client.close().await;
        });
        // The older handshake, as an option.
        runtime().block_on(async {
            let client = StdioServer::new("node")
                .args([&script])
                .handshake(mcp_agent_view::rmcp_bridge::Handshake::Initialize)
                .env_remove("PROBE")
                .connect()
                .await
                .unwrap();
            let answer = client.request(tool("where")).await.unwrap();
            assert!(answer["content"][0]["text"].as_str().unwrap().starts_with("unset "));
            client.close().await;
        });
    }

    /// Calls `name` on the raw path and maps the outcome for Anthropic.
    async fn call_raw(client: &StdioClient, name: &'static str) -> AgentToolResult<'static> {
        let request = ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new(name)));
        let outcome = client.peer().send_request(request).await;
        tool_result_from_rmcp(
            &outcome,
            name,
            "toolu_1",
            &ReferenceRegistry::new(),
            &Target::anthropic(),
        )
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_result_rmcp_cannot_type_still_reaches_the_model() {
        let script = super::misbehaving();
        runtime().block_on(async {
            let client = connect("node", &[&script]).await;
            // rmcp's typed call loses the whole result...
            let typed = client.peer().call_tool(CallToolRequestParams::new("mixed")).await;
            assert!(matches!(typed, Err(ServiceError::UnexpectedResponse)), "{typed:?}");
            // ...the raw path keeps every good block.
            let result = call_raw(&client, "mixed").await;
            let texts: Vec<&str> = result.content.iter().filter_map(AgentBlock::as_text).collect();
            for expected in super::GOOD_BLOCKS {
                assert!(texts.contains(&expected), "{expected} missing: {texts:?}");
            }
            assert!(result.content.iter().any(|b| matches!(b, AgentBlock::Image { .. })));
            assert_eq!(result.held_for_user.len(), 1);

            let result = call_raw(&client, "fails").await;
            assert!(result.is_error);
            assert_eq!(
                result.content[0].as_text(),
                Some("Tool call fails failed: backend exploded")
            );
            client.close().await;
        });
    }

    #[test]
    fn a_typed_everything_result_goes_through_the_bridge_too() {
        let server = super::everything();
        runtime().block_on(async {
            let client = connect(&server, &["stdio"]).await;
            let arguments = serde_json::json!({"resourceType": "Text", "resourceId": 3});
            let params = CallToolRequestParams::new("get-resource-reference")
                .with_arguments(arguments.as_object().unwrap().clone());
            let outcome = client
                .peer()
                .send_request(ClientRequest::CallToolRequest(Request::new(params)))
                .await;
            let result = tool_result_from_rmcp(
                &outcome,
                "get-resource-reference",
                "toolu_3",
                &ReferenceRegistry::new(),
                &Target::anthropic(),
            );
            assert!(
                result.content[1]
                    .as_text()
                    .unwrap()
                    .starts_with("Resource 3: This is a plaintext resource"),
                "{result:?}"
            );
            client.close().await;
        });
    }
}

/// The official filesystem server (pinned in `live/package.json`), over a folder of its own.
fn filesystem(dir: &std::path::Path) -> Vec<String> {
    let server = live_dir().join("node_modules/.bin/mcp-server-filesystem");
    assert!(
        server.exists(),
        "the filesystem server is not installed: run `npm ci --prefix live` (looked for {})",
        server.display()
    );
    vec![
        server.to_string_lossy().into_owned(),
        dir.to_string_lossy().into_owned(),
    ]
}

#[test]
fn the_filesystem_servers_media_reads_as_media_without_repeated_json() {
    use base64::Engine as _;
    let dir = std::env::temp_dir().join(format!("mav-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend([7u8; 32]);
    std::fs::write(dir.join("shot.png"), &png).unwrap();
    std::fs::write(
        dir.join("paper.pdf"),
        b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n",
    )
    .unwrap();
    let server = filesystem(&dir);
    let server: Vec<&str> = server.iter().map(String::as_str).collect();
    let read = |file: &str| -> Value {
        let arguments = json!({"path": dir.join(file)}).to_string();
        let out = call(&["--target", "anthropic"], &server, "read_media_file", Some(&arguments));
        serde_json::from_str(&out).unwrap()
    };
    // The image, and no JSON repeating it (the server's structuredContent is `{content: [it]}`).
    let image = read("shot.png");
    let content = &image["messages"][0]["content"][0]["content"];
    assert_eq!(content.as_array().unwrap().len(), 1, "{content}");
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["source"]["media_type"], "image/png");
    assert_eq!(
        content[0]["source"]["data"],
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    // A PDF, which the server sends as an embedded blob of `application/octet-stream`: a document.
    let pdf = read("paper.pdf");
    let content = &pdf["messages"][0]["content"][0]["content"];
    assert_eq!(content.as_array().unwrap().len(), 1, "{content}");
    assert_eq!(content[0]["type"], "document", "{content}");
    assert_eq!(content[0]["source"]["media_type"], "application/pdf");
    // No uri of the file reaches the model.
    assert!(
        !pdf.to_string().contains("paper.pdf") && !pdf.to_string().contains("file://"),
        "{pdf}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
