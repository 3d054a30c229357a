//! `examples/tool_loop` against a fake Messages API on loopback and a stdio MCP server of this
//! test's own (`tests/support/tool-loop-server.mjs`), over the scenarios the official
//! quickstart clients got wrong: a rejected call beside a good one, `structuredContent` only,
//! an image only, an embedded text resource with a secret in its uri, an embedded PDF, mixed
//! text + image + resource, audio, a `resource_link` with a secret, an unknown block beside
//! text, `isError` with text. Every request the fake API receives is checked.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

/// Each query, and the tools the fake model calls for it, in one turn.
const SCENARIOS: [(&str, &[&str]); 10] = [
    ("rejected beside good", &["reject", "weather"]),
    ("structured only", &["structured"]),
    ("image only", &["image"]),
    ("embedded text", &["embedded_text"]),
    ("embedded pdf", &["embedded_pdf"]),
    ("mixed", &["mixed"]),
    ("audio", &["audio"]),
    ("link", &["link"]),
    ("unknown beside text", &["unknown"]),
    ("is error", &["is_error"]),
];

const SECRET: &str = "s3cret-t0ken";

#[test]
fn the_tool_loop_answers_every_call_of_every_scenario() {
    let (base, requests) = fake_api();
    let queries = SCENARIOS
        .iter()
        .map(|(q, _)| *q)
        .chain(["quit"])
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let out = run_example(&server(), &base, &queries);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (query, _) in SCENARIOS {
        assert!(stdout.contains(&format!("done: {query}")), "{stdout}");
    }

    let requests = requests.lock().unwrap();
    // One request to ask, one to answer, a scenario.
    assert_eq!(requests.len(), 2 * SCENARIOS.len());
    for (n, request) in requests.iter().enumerate() {
        let text = request.to_string();
        assert!(!text.contains(SECRET), "a secret in request {n}: {text}");
        assert!(
            !text.contains("file://") && !text.contains("files.example.com"),
            "a uri in request {n}: {text}"
        );
        assert_eq!(request["model"], "claude-test");
        assert_eq!(request["max_tokens"], 10000);
        let tools: Vec<&str> = request["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(tools.len(), 11, "the server's tools only: {tools:?}");
        assert!(!tools.contains(&"fetch_reference"));
        assert_eq!(request["tools"][0]["input_schema"]["type"], "object");
        no_empty_text(&request["messages"]);
    }
    for (s, (query, tools)) in SCENARIOS.iter().enumerate() {
        let answered = &requests[2 * s + 1]["messages"];
        let messages = answered.as_array().unwrap();
        let (asked, results) = (&messages[messages.len() - 2], &messages[messages.len() - 1]);
        assert_eq!(asked["role"], "assistant");
        assert_eq!(results["role"], "user", "{query}");
        let uses: Vec<&str> = asked["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["type"] == "tool_use")
            .map(|b| b["id"].as_str().unwrap())
            .collect();
        let results = results["content"].as_array().unwrap();
        assert!(
            results.iter().all(|b| b["type"] == "tool_result"),
            "{query}: {results:?}"
        );
        let ids: Vec<&str> = results.iter().map(|b| b["tool_use_id"].as_str().unwrap()).collect();
        assert_eq!(ids, uses, "{query}: one tool_result per tool_use, in one message");
        for (result, tool) in results.iter().zip(tools.iter()) {
            check_result(query, tool, result);
        }
    }
}

/// One tool result, as the scenario's tool wants it read.
fn check_result(query: &str, tool: &str, result: &Value) {
    let content = result["content"].as_array().unwrap();
    assert!(!content.is_empty(), "{query}: {tool}");
    for block in content {
        let kind = block["type"].as_str().unwrap();
        assert!(
            ["text", "image", "document"].contains(&kind),
            "{query}: {tool}: a {kind} block"
        );
    }
    let texts: Vec<&str> = content.iter().filter_map(|b| b["text"].as_str()).collect();
    let kinds: Vec<&str> = content.iter().map(|b| b["type"].as_str().unwrap()).collect();
    let error = result["is_error"] == true;
    match tool {
        "reject" => {
            assert!(error);
            assert_eq!(texts, ["Tool call reject failed: Invalid arguments: city is required"]);
        }
        "weather" => assert_eq!((error, texts), (false, vec!["22.5 C and sunny"])),
        "structured" => assert_eq!(texts, [r#"{"conditions":"Sunny","temperature":22.5}"#]),
        "image" => assert_eq!(kinds, ["image"]),
        "embedded_text" => assert_eq!(texts, ["the notes body"]),
        "embedded_pdf" => assert_eq!(kinds, ["document"]),
        "mixed" => {
            assert_eq!(kinds, ["text", "image", "text"]);
            assert_eq!(texts, ["mixed text", "mixed resource text"]);
        }
        "audio" => assert!(texts[0].starts_with("[audio: audio/wav"), "{texts:?}"),
        "link" => assert!(
            texts[0].starts_with("[ref_") && texts[0].contains("report.pdf"),
            "{texts:?}"
        ),
        "unknown" => assert_eq!(texts, ["[unsupported result type: hologram]", "kept sibling"]),
        "is_error" => assert_eq!((error, texts), (true, vec!["it broke"])),
        other => panic!("no scenario {other}"),
    }
    if !matches!(tool, "reject" | "is_error") {
        assert!(!error, "{query}: {tool}");
    }
}

/// No text block anywhere is empty or white space only.
fn no_empty_text(value: &Value) {
    match value {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("text") {
                let text = map.get("text").and_then(Value::as_str).unwrap_or_default();
                assert!(!text.trim().is_empty(), "an empty text block: {value}");
            }
            map.values().for_each(no_empty_text);
        }
        Value::Array(items) => items.iter().for_each(no_empty_text),
        _ => {}
    }
}

/// The fake Messages API: for a query, the scenario's tool calls in one turn; for the answers,
/// `done: <query>`. Every request body is kept.
fn fake_api() -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let kept = Arc::clone(&kept);
            std::thread::spawn(move || serve(stream, &kept));
        }
    });
    (base, requests)
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<Value>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut stream = stream;
    loop {
        let mut length = 0;
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap();
                }
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let request: Value = serde_json::from_slice(&body).unwrap();
        kept.lock().unwrap().push(request.clone());
        let reply = reply_to(&request).to_string();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            reply.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(reply.as_bytes()).unwrap();
    }
}

/// The query that makes the model call the asking server's tools.
const ASKS: &str = "What does the server ask?";

fn reply_to(request: &Value) -> Value {
    let messages = request["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    let (content, stop) = if request.get("tools").is_none() {
        // The server's sampling request, through the same API.
        (vec![json!({"type": "text", "text": "Paris"})], "end_turn")
    } else if last["content"] == ASKS {
        let uses = ["ask_user", "ask_model"]
            .iter()
            .enumerate()
            .map(|(k, tool)| json!({"type": "tool_use", "id": format!("ask_{k}"), "name": tool, "input": {}}));
        let mut content = vec![json!({"type": "text", "text": "asking"})];
        content.extend(uses);
        (content, "tool_use")
    } else if let Some(query) = last["content"].as_str() {
        let (s, (_, tools)) = SCENARIOS.iter().enumerate().find(|(_, (q, _))| *q == query).unwrap();
        let uses: Vec<Value> = tools
            .iter()
            .enumerate()
            .map(|(k, tool)| json!({"type": "tool_use", "id": format!("toolu_{s}_{k}"), "name": tool, "input": {"city": "Paris"}}))
            .collect();
        let mut content = vec![json!({"type": "text", "text": format!("calling for {query}")})];
        content.extend(uses);
        (content, "tool_use")
    } else {
        // The query this turn answers: the last user message that is text.
        let query = messages.iter().rev().find_map(|m| m["content"].as_str()).unwrap();
        (
            vec![json!({"type": "text", "text": format!("done: {query}")})],
            "end_turn",
        )
    };
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": request["model"],
           "content": content, "stop_reason": stop, "usage": {"input_tokens": 1, "output_tokens": 1}})
}

/// The example over the node server at `server` and the fake API at `base`, `queries` on its
/// standard input, run to its end.
fn run_example(server: &str, base: &str, queries: &str) -> std::process::Output {
    run_example_with(server, base, queries, false)
}

/// [`run_example`], the asking server told to be of an older revision where `legacy`.
fn run_example_with(server: &str, base: &str, queries: &str, legacy: bool) -> std::process::Output {
    let mut command = Command::new(example());
    if legacy {
        command.env("ASKING_SERVER_LEGACY", "1");
    }
    let mut child = command
        .args(["node", server])
        .env("ANTHROPIC_BASE_URL", base)
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("ANTHROPIC_MODEL", "claude-test")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(queries.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn server() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support/tool-loop-server.mjs")
        .display()
        .to_string()
}

/// The example's binary, built beside this test (cargo builds the examples a feature set
/// allows before it runs the tests); built here where it is missing.
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap().to_path_buf();
    let binary = dir
        .join("examples")
        .join(format!("tool_loop{}", std::env::consts::EXE_SUFFIX));
    if !binary.exists() {
        let built = Command::new(env!("CARGO"))
            .args(["build", "--example", "tool_loop", "--features", "call"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(built.success());
    }
    binary
}

/// Issue 48: a line of the server's output that is not JSON (a uri and its token in it) was
/// sent to the model as the call's failure. The model hears that the call failed; the line
/// is the host's, on its stderr.
#[test]
fn a_stray_line_of_the_servers_output_reaches_the_host_not_the_model() {
    let (base, requests) = fake_api();
    let stray = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/stray-line-server.mjs");
    let out = run_example(&stray.display().to_string(), &base, "structured only\nquit\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(SECRET), "the host sees the line: {stderr}");
    let requests = requests.lock().unwrap();
    assert_eq!(requests.len(), 2);
    let answered = requests[1].to_string();
    assert!(
        !answered.contains(SECRET) && !answered.contains("files.example.com"),
        "{answered}"
    );
    assert!(answered.contains("the server failed to answer"), "{answered}");
}

/// Issue 50: a server that asks before it answers, of revision 2026-07-28 (input-required
/// results) and of an older one (requests over the session): the same answers either way, an
/// elicitation declined, no roots, and the sampling request through the same Messages API, one
/// level deep, its system prompt as the server's words.
#[test]
fn a_server_that_asks_before_it_answers_is_answered_on_either_revision() {
    let asking = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/asking-server.mjs");
    for (legacy, state) in [(false, "state-1"), (true, "session")] {
        let (base, requests) = fake_api();
        let out = run_example_with(&asking.display().to_string(), &base, &format!("{ASKS}\nquit\n"), legacy);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}\n{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(&format!("done: {ASKS}")), "{stdout}");
        let requests = requests.lock().unwrap();
        let sampling: Vec<&Value> = requests.iter().filter(|r| r.get("tools").is_none()).collect();
        assert_eq!(sampling.len(), 1, "legacy {legacy}: {requests:?}");
        assert_eq!(sampling[0]["max_tokens"], 20);
        assert!(sampling[0].get("system").is_none());
        assert_eq!(
            sampling[0]["messages"],
            json!([
                {"role": "user", "content": [{"type": "text", "text": "[the requesting server's instructions] Answer in one word."}]},
                {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]}
            ])
        );
        let last = requests.iter().rfind(|r| r.get("tools").is_some()).unwrap();
        let results = last["messages"].as_array().unwrap().last().unwrap()["content"].clone();
        let texts: Vec<&str> = results
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["content"][0]["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                format!("login: decline; roots: 0; state: {state}").as_str(),
                "The model said: Paris"
            ],
            "legacy {legacy}"
        );
    }
}
