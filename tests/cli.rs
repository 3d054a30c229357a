//! The `mcp-agent-view` binary, run as a user would.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-agent-view");
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/report.json");

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that fails on its arguments may exit before it reads its input.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
fn fails(args: &[&str], stdin: &str, message: &str) {
    let out = run(args, stdin);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert_eq!(stderr.trim_end(), message);
}

#[test]
fn history_of_the_bundled_example() {
    let out = ok(&["history", "--seed", "1", EXAMPLE], "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "Here is the report.",
            "Quarterly notes: revenue up 4%.",
            "[file: application/pdf, 71B]",
            "[image: image/png, 70B]",
        ]
    );
    assert!(lines[4].starts_with("[ref_") && lines[4].ends_with(
        "] q3-full.xlsx — application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, ~2.3MB claimed — from tool result"
    ), "{}", lines[4]);
    assert_eq!(lines.len(), 5);
    for secret in ["sk-live", "sig=", "file:///", "https://"] {
        assert!(!out.contains(secret), "{secret} in {out}");
    }
    assert_eq!(
        out,
        ok(&["history", "--seed", "1", EXAMPLE], ""),
        "a seed makes the ids repeatable"
    );
}

#[test]
fn stdin_is_read_without_a_file_or_with_a_dash() {
    let input = r#"[{"type":"text","text":"hi"}]"#;
    assert_eq!(ok(&["history"], input), "hi\n");
    assert_eq!(ok(&["history", "-"], input), "hi\n");
}

#[test]
fn blocks_lane_gives_a_json_array_with_media_as_media() {
    let out: Value = serde_json::from_str(&ok(&["blocks", EXAMPLE], "")).unwrap();
    let blocks = out.as_array().unwrap();
    assert_eq!(blocks.len(), 5);
    assert_eq!(
        blocks[1],
        serde_json::json!({"type": "text", "text": "Quarterly notes: revenue up 4%."})
    );
    assert_eq!(blocks[3]["type"], "image");
    assert_eq!(blocks[3]["mimeType"], "image/png");
    assert!(blocks[4]["text"].as_str().unwrap().contains("attachment on push event"));
    let channel: Value =
        serde_json::from_str(&ok(&["blocks", "--provenance", "channel-message", EXAMPLE], "")).unwrap();
    assert!(channel[4]["text"]
        .as_str()
        .unwrap()
        .contains("attachment on channel message"));
}

#[test]
fn script_lane_gives_json() {
    let out: Value = serde_json::from_str(&ok(&["script", EXAMPLE], "")).unwrap();
    assert_eq!(out["result"]["content"][1]["text"], "Quarterly notes: revenue up 4%.");
    assert_eq!(out["jsonrpc"], "2.0", "everything that is no block stays");
}

#[test]
fn classify_lane_gives_one_object_per_line_per_block_without_the_uri() {
    let out = ok(&["classify", EXAMPLE], "");
    let classes: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["class"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        classes,
        ["text", "embedded_text", "embedded_blob", "media", "reference"]
    );
    assert!(!out.contains("file:///") && !out.contains("https://"));
}

#[test]
fn budget_option_cuts_history() {
    let out = ok(&["history", "--budget", "60", EXAMPLE], "");
    assert!(out.trim_end().chars().count() <= 60, "{out}");
    assert!(out.trim_end().ends_with("chars]"), "{out}");
}

#[test]
fn bad_input_and_bad_arguments_give_one_line_and_exit_2() {
    fails(
        &["history"],
        "not json",
        "mcp-agent-view: input is not JSON: expected a value at line 1 column 1",
    );
    fails(&["history"], "{\"foo\": 1}", "mcp-agent-view: unrecognized message: expected a JSON-RPC response, a tool, prompt or resource result, a content block or an array of blocks");
    fails(&["teleport"], "", "mcp-agent-view: unrecognized subcommand 'teleport'");
    fails(
        &["history", "--budget", "lots"],
        "",
        "mcp-agent-view: invalid value 'lots' for '--budget <CHARS>': invalid digit found in string",
    );
    fails(
        &["history", "/no/such/file.json"],
        "",
        "mcp-agent-view: cannot read /no/such/file.json: No such file or directory (os error 2)",
    );
    fails(&["blocks", "--provenance", "carrier-pigeon"], "", "mcp-agent-view: invalid value 'carrier-pigeon' for '--provenance <PROVENANCE>' [possible values: tool-result, push-event, channel-message, context-injection, script-result, prompt, sampling]");
    let out = run(&[], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn help_lists_every_lane_and_option() {
    let help = ok(&["--help"], "");
    for lane in ["history", "blocks", "script", "tool-result", "prompt", "classify"] {
        assert!(help.contains(lane), "{help}");
    }
    let history_help = ok(&["history", "--help"], "");
    for option in ["--budget", "--provenance", "--seed", "[FILE]"] {
        assert!(history_help.contains(option), "{history_help}");
    }
}

#[test]
fn tool_result_lane_gives_the_messages_to_append_and_what_was_held_back() {
    let input = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[
        {"type":"text","text":"for the model"},
        {"type":"text","text":"for the user","annotations":{"audience":["user"]}}]}}"#;
    let out: Value = serde_json::from_str(&ok(&["tool-result", "--name", "t", "--id", "toolu_5"], input)).unwrap();
    assert_eq!(
        out,
        serde_json::json!({
            "messages": [{"type": "tool_result", "toolUseId": "toolu_5", "name": "t", "isError": false,
                          "content": [{"type": "text", "text": "for the model"}]}],
            "heldForUser": [{"type": "text", "text": "for the user"}]
        })
    );
    let anthropic: Value =
        serde_json::from_str(&ok(&["tool-result", "--target", "anthropic", "--id", "toolu_5"], input)).unwrap();
    assert_eq!(
        anthropic["messages"],
        serde_json::json!([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_5",
            "is_error": false, "content": [{"type": "text", "text": "for the model"}]}]}])
    );
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such tool"}}"#;
    let out: Value = serde_json::from_str(&ok(&["tool-result", "--name", "t"], error)).unwrap();
    assert_eq!(out["messages"][0]["isError"], true);
    assert_eq!(
        out["messages"][0]["content"][0]["text"],
        "Tool call t failed: no such tool"
    );
}

#[test]
fn prompt_lane_gives_messages() {
    let input =
        r#"{"messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"file:///a","text":"A"}}}]}"#;
    let out: Value = serde_json::from_str(&ok(&["prompt"], input)).unwrap();
    assert_eq!(
        out,
        serde_json::json!([{"role": "user", "content": [{"type": "text", "text": "A"}]}])
    );
}

#[test]
fn target_option_shapes_blocks_tool_results_and_prompts() {
    let input = r#"{"content":[{"type":"text","text":"hi"},
        {"type":"image","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}]}"#;
    let blocks: Value = serde_json::from_str(&ok(&["blocks", "--target", "anthropic"], input)).unwrap();
    assert_eq!(blocks[1]["source"]["type"], "base64");
    let parts: Value = serde_json::from_str(&ok(&["blocks", "--target", "openai-chat"], input)).unwrap();
    assert_eq!(parts[1]["type"], "image_url");
    let items: Value = serde_json::from_str(&ok(&["blocks", "--target", "openai-responses"], input)).unwrap();
    assert_eq!(items[1]["type"], "input_image");
    let chat: Value = serde_json::from_str(&ok(
        &["tool-result", "--target", "openai-chat", "--id", "call_1"],
        input,
    ))
    .unwrap();
    assert_eq!(chat["messages"][0]["role"], "tool");
    assert_eq!(chat["messages"][1]["role"], "user");
    let prompt = r#"{"messages":[{"role":"user","content":{"type":"text","text":"q"}}]}"#;
    let messages: Value = serde_json::from_str(&ok(&["prompt", "--target", "openai-responses"], prompt)).unwrap();
    assert_eq!(
        messages,
        serde_json::json!([{"role": "user", "content": [{"type": "input_text", "text": "q"}]}])
    );
    fails(&["blocks", "--target", "gemini"], "", "mcp-agent-view: invalid value 'gemini' for '--target <TARGET>' [possible values: neutral, anthropic, openai-chat, openai-responses]");
}

/// Runs the binary through `sh`, with `redirect` applied: `>&-`, `2>&-`, `>/dev/full`.
fn run_redirected(args: &str, redirect: &str) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("\"$0\" {args} {redirect}"))
        .arg(BIN)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .output()
        .expect("sh runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn output_that_cannot_be_written_is_exit_code_2_never_0_nor_a_panic() {
    let history = format!("history {EXAMPLE}");
    assert_eq!(
        run_redirected(&history, ">&-"),
        (
            Some(2),
            "mcp-agent-view: cannot write output: standard output is closed\n".to_owned()
        )
    );
    assert_eq!(run_redirected("--help", ">&-").0, Some(2));
    assert_eq!(
        run_redirected(&history, ">/dev/full"),
        (
            Some(2),
            "mcp-agent-view: cannot write output: No space left on device (os error 28)\n".to_owned()
        )
    );
    // A shell's own redirection to /dev/null is output the user threw away: no error.
    assert_eq!(run_redirected(&history, ">/dev/null"), (Some(0), String::new()));
    // An error with standard error closed, or a full disk behind it: still exit code 2.
    assert_eq!(run_redirected("history /no/such/file", "2>&-").0, Some(2));
    assert_eq!(run_redirected("history /no/such/file", "2>/dev/full").0, Some(2));
    assert_eq!(run_redirected("nonsense", "2>&-").0, Some(2));
    // Output and errors both closed.
    assert_eq!(run_redirected(&history, ">&- 2>&-").0, Some(2));
}

#[test]
fn a_reader_that_goes_away_is_exit_code_2() {
    let big = format!("[{}]", vec![r#"{"type":"text","text":"line"}"#; 200_000].join(","));
    let mut child = Command::new(BIN)
        .args(["history"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before a byte is read
    child.stdin.take().unwrap().write_all(big.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mcp-agent-view: cannot write output: Broken pipe (os error 32)\n"
    );
}

#[test]
fn a_history_budget_bounds_everything_printed() {
    for budget in [0, 1, 2, 10, 11, 12, 36, 37, 60, 1000] {
        let out = ok(&["history", "--budget", &budget.to_string(), EXAMPLE], "");
        assert!(
            out.chars().count() <= budget,
            "--budget {budget} printed {} characters: {out:?}",
            out.chars().count()
        );
    }
    assert_eq!(ok(&["history", "--budget", "10", EXAMPLE], ""), "Here is\n…\n");
}

#[test]
fn on_a_terminal_control_characters_are_shown_escaped_and_piped_they_are_as_read() {
    let dir = std::env::temp_dir().join(format!("mav-esc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("esc.json");
    // Erase the line, write the clipboard (OSC 52), a bell, a C1 CSI, a bidi override.
    std::fs::write(
        &file,
        r#"{"content":[{"type":"text","text":"a\u001b[2K\u001b]52;c;SGVsbG8=\u0007b\u009bc\u202ed"}]}"#,
    )
    .unwrap();
    let piped = Command::new(BIN).args(["history"]).arg(&file).output().unwrap();
    assert_eq!(
        String::from_utf8(piped.stdout).unwrap(),
        "a\u{1b}[2K\u{1b}]52;c;SGVsbG8=\u{7}b\u{9b}c\u{202e}d\n",
        "piped: byte for byte what the model reads"
    );
    // On a terminal (a pseudo-terminal from util-linux's `script`).
    let command = format!("{BIN} history {}", file.display());
    let tty = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script(1) runs");
    let shown = String::from_utf8_lossy(&tty.stdout).replace('\r', "");
    assert_eq!(shown, "a\\x1b[2K\\x1b]52;c;SGVsbG8=\\x07b\\x9bc\\u{202e}d\n");
    assert!(!tty.stdout.contains(&0x1b), "no escape byte reaches the terminal");
    // The JSON lanes stay JSON on a terminal, and the same JSON: JSON's own escapes.
    for lane in ["blocks", "script", "tool-result", "prompt", "classify"] {
        let piped = Command::new(BIN).arg(lane).arg(&file).output().unwrap();
        let command = format!("{BIN} {lane} {}", file.display());
        let tty = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&tty.stdout).replace('\r', "");
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{9b}') && !shown.contains('\u{202e}'),
            "{lane}: {shown}"
        );
        let read = |text: &str| -> Vec<serde_json::Value> {
            serde_json::Deserializer::from_str(text)
                .into_iter()
                .map(|v| v.unwrap())
                .collect()
        };
        assert_eq!(
            read(&shown),
            read(&String::from_utf8(piped.stdout).unwrap()),
            "{lane}: {shown}"
        );
        assert!(shown.contains("\\u202e") || shown.contains("chars"), "{lane}: {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30: past eviction, each view rendered on the one registry showed other ids than the
/// records named. Every view before the fetches shows the ids the first registered, and the
/// records are theirs.
#[test]
fn fetch_shows_one_set_of_ids_in_every_view_past_eviction() {
    let links: Vec<String> = (0..2006)
        .map(|n| format!(r#"{{"type":"resource_link","uri":"https://h.example/f{n}","name":"f{n}"}}"#))
        .collect();
    let input = format!(r#"{{"content":[{}]}}"#, links.join(","));
    let out: Value = serde_json::from_str(&ok(
        &[
            "fetch",
            "--no-fetch",
            "--provenance",
            "tool-result",
            "--provenance",
            "prompt",
        ],
        &input,
    ))
    .unwrap();
    let ids = |text: &str| -> Vec<String> {
        text.match_indices("[ref_")
            .map(|(at, _)| text[at + 1..at + 18].to_owned())
            .collect()
    };
    let shown = ids(out["before"]["history"].as_str().unwrap());
    assert_eq!(shown.len(), 2006);
    assert!(ids(out["before"]["histories"]["prompt"].as_str().unwrap()) == shown);
    let blocks: Vec<String> = out["before"]["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| ids(b["text"].as_str().unwrap()))
        .collect();
    assert!(blocks == shown, "the blocks view shows other ids");
    let records: Vec<&str> = out["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    // The last 2000 shown are the records, in order; the first six were evicted.
    assert!(records == shown[6..].iter().map(String::as_str).collect::<Vec<_>>());
}

const TWO_REFERENCES: &str = r#"{"content":[{"type":"text","text":"see"},
  {"type":"resource","uri":"data:text/plain;base64,aGVsbG8=","name":"a.txt","mimeType":"text/plain","sizeBytes":5},
  {"type":"resource","uri":"https://10.0.0.1/q.pdf?sig=SECRET","name":"q.pdf","mimeType":"application/pdf","sizeBytes":900,"disposition":"never"}]}"#;

#[test]
fn fetch_registers_as_the_history_lane_does_and_prints_one_object() {
    let history = ok(&["history", "--seed", "3"], TWO_REFERENCES);
    let out: Value = serde_json::from_str(&ok(&["fetch", "--seed", "3", "--no-fetch"], TWO_REFERENCES)).unwrap();
    // The same stubs, naming the fetch tool this command answers for.
    assert_eq!(
        out["before"]["history"].as_str().unwrap(),
        history.trim_end().replace(
            " — from tool result",
            " — from tool result — fetch with fetch_reference"
        )
    );
    assert_eq!(out["before"], out["after"]);
    assert_eq!(out["fetches"], serde_json::json!([]));
    let records = out["records"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    let keys: Vec<&str> = records[1].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "digest",
            "disposition",
            "expiresAt",
            "id",
            "mimeType",
            "name",
            "sizeBytes",
            "uri",
            "verified"
        ]
    );
    // The records are the one place with the uri; what the model reads has none.
    assert_eq!(records[1]["uri"], "https://10.0.0.1/q.pdf?sig=SECRET");
    assert!(!out["before"].to_string().contains("SECRET"));

    // Every --ref gets an entry: held and not fetched, or unknown.
    let held = records[0]["id"].as_str().unwrap();
    let out: Value = serde_json::from_str(&ok(
        &[
            "fetch",
            "--seed",
            "3",
            "--no-fetch",
            "--ref",
            held,
            "--ref",
            "ref_0000000000000",
        ],
        TWO_REFERENCES,
    ))
    .unwrap();
    assert_eq!(out["fetches"][0]["error"], "not fetched");
    assert_eq!(out["fetches"][1]["error"], "unknown reference");
}

#[test]
fn fetch_fetches_what_the_policy_allows_and_shows_verified_facts_after() {
    let out: Value =
        serde_json::from_str(&ok(&["fetch", "--seed", "3", "--allow-scheme", "data"], TWO_REFERENCES)).unwrap();
    let fetches = out["fetches"].as_array().unwrap();
    assert_eq!(fetches[0]["ok"], true);
    assert_eq!(fetches[0]["bytes"], 5);
    assert_eq!(fetches[0]["path"], Value::Null, "nothing saved without --save-dir");
    assert_eq!(fetches[1]["ok"], false);
    assert_eq!(fetches[1]["error"], "refused: the address is not public");
    let after = out["after"]["history"].as_str().unwrap();
    assert!(after.contains("a.txt — text/plain, 5B verified"), "{after}");
    assert!(after.contains("q.pdf — application/pdf, 900B claimed"), "{after}");
    assert_eq!(out["records"][0]["verified"]["bytes"], 5);
}

#[test]
fn fetch_refuses_bad_arguments_in_one_line() {
    fails(
        &[
            "fetch",
            "--origin",
            "https://h.example",
            "--bearer-env",
            "MAV_NO_SUCH_VARIABLE",
        ],
        TWO_REFERENCES,
        "mcp-agent-view: --bearer-env MAV_NO_SUCH_VARIABLE: the variable is not set",
    );
    fails(
        &["fetch", "--save-dir", "/no/such/dir"],
        TWO_REFERENCES,
        "mcp-agent-view: --save-dir /no/such/dir: no such directory",
    );
    fails(
        &["fetch", "--origin", "nope"],
        TWO_REFERENCES,
        "mcp-agent-view: --origin: not an origin: nope",
    );
    fails(
        &["fetch", "--timeout", "0"],
        TWO_REFERENCES,
        "mcp-agent-view: --timeout 0: not a positive number of seconds",
    );
    fails(
        &["fetch", "--allow-scheme", "FILE"],
        TWO_REFERENCES,
        "mcp-agent-view: --allow-scheme file: files are allowed only under a directory: use --allow-files-under DIR",
    );
    fails(
        &["fetch", "--allow-scheme", "ht tp"],
        TWO_REFERENCES,
        "mcp-agent-view: --allow-scheme: not a scheme: ht tp",
    );
    fails(
        &[
            "fetch",
            "--allow-scheme",
            "http",
            "--allow-origin",
            "https://ok.example",
            "--allow-origin",
            "nope",
        ],
        TWO_REFERENCES,
        "mcp-agent-view: --allow-origin: not an origin: nope",
    );
    // The flags are the crate's settings: a `file` scheme beside the directory is the
    // directory's, and adds nothing (FetchSettings::policy), so it is no error.
    let dir = std::env::temp_dir();
    let dir = dir.to_str().expect("a UTF-8 temp dir");
    let out: Value = serde_json::from_str(&ok(
        &[
            "fetch",
            "--no-fetch",
            "--allow-scheme",
            "file",
            "--allow-files-under",
            dir,
        ],
        TWO_REFERENCES,
    ))
    .unwrap();
    assert_eq!(out["fetches"], json!([]));
}

/// Inputs beyond the vectors for the test below: numbers spelt as no library writes them again,
/// keys given twice, escapes, an error code written as a float.
const WRITTEN_AGAIN: &[&str] = &[
    r#"{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":2.50,"b":1E2,"c":-0,"d":1.0,"g":0.1e1,"h":[1e-7,3.000,-0.0,1e21,1e+16]}}"#,
    r#"{"rows":[{"n":2.50,"m":-0.0},{"type":"resource_link","uri":"https://a.example/b?sig=S","name":"n","size":1e3}],"x":{"type":"resource","resource":{"uri":"file:///a","text":"t"}},"dup":1,"dup":2.0}"#,
    r#"{"jsonrpc":"2.0","id":1.0,"error":{"code":-32602.0,"message":"bad"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":1023.9999999999999,"annotations":{"priority":0.50}}],"content":[{"type":"resource_link","uri":"file:///b","name":"\u0062","size":1.0e3}],"isError":false}}"#,
    r#"{"messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"file:///\u00e9","mimeType":"text/plain","text":"caf\u00e9 \ud83d\ude00 \ud800"}}}]}"#,
];

/// What every command prints for `json`, with one seed.
fn every_command(json: &str) -> Vec<String> {
    let commands: &[&[&str]] = &[
        &["history"],
        &["blocks"],
        &["blocks", "--target", "anthropic"],
        &["script"],
        &["tool-result", "--target", "openai-chat"],
        &["prompt"],
        &["classify"],
        &["fetch", "--no-fetch"],
    ];
    commands
        .iter()
        .map(|args| {
            let out = run(&[args, &["--seed", "7"][..]].concat(), json);
            format!(
                "{args:?} {:?}\n{}{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .collect()
}

/// The same JSON written again by JavaScript's `JSON.stringify` (the last of a repeated key,
/// at its first place; numbers as JavaScript writes them), compact or indented.
fn written_by_javascript(json: &str, indent: u8) -> String {
    let script = format!(
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.stringify(JSON.parse(s),null,{indent})))"
    );
    let mut child = Command::new("node")
        .args(["-e", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (this test needs Node, as the live tests do)");
    child.stdin.take().unwrap().write_all(json.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "node could not read {json}");
    String::from_utf8(out.stdout).unwrap()
}

/// Issue 14: the CLI's output on the bytes as sent equals its output on the same JSON written
/// again by another library (here JavaScript's), text, ids and records, for every command.
#[test]
fn json_written_again_by_javascript_reads_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs: Vec<(String, String)> = WRITTEN_AGAIN
        .iter()
        .map(|j| ((*j).to_owned(), (*j).to_owned()))
        .collect();
    for dir in ["tests/vectors/mcp", "tests/vectors/mcpl", "examples"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                if serde_json::from_str::<Value>(&text).is_ok() {
                    inputs.push((path.display().to_string(), text));
                }
            }
        }
    }
    assert!(inputs.len() > 40, "the vectors were found");
    for (name, json) in &inputs {
        let sent = every_command(json);
        for indent in [0, 2] {
            let again = every_command(&written_by_javascript(json, indent));
            for (a, b) in sent.iter().zip(&again) {
                assert_eq!(a, b, "{name}, written again by JavaScript (indent {indent})");
            }
        }
    }
}
