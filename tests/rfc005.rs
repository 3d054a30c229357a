//! The executable corpus of MCPL RFC-005 (bulk content references), run whole: all 43 cases,
//! each against a loopback fixture server of its own, through the CLI's `fetch` (what the
//! model reads before and after, the records, each fetch) and, for the registry case, the
//! library and the `fetch_reference` handler. Every host expectation of each case is checked
//! as the corpus's own checker (`conformance/check-bulk-references.mjs` in
//! anima-research/mcpl) defines it.

#[path = "support/fixture.rs"]
mod fixture;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use base64::Engine as _;
use fixture::{Fixture, Response};
use mcp_agent_view::fetch::{fetch_reference, FetchPolicy, Fetcher};
use mcp_agent_view::{classify::Disposition, classify_block, Block, Class, ReferenceRegistry, Target};
use serde_json::{json, Value};

/// The most characters any view this host shows of one of these messages holds: the bound
/// this host declares, as the corpus asks every host to.
const MAX_VIEW_CHARS: usize = 512;

const TOKEN_VAR: &str = "MCPL_FIXTURE_TOKEN";

fn corpus() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/mcpl/bulk-reference-vectors.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("the corpus is JSON")
}

/// `$ORIGIN` and `$CASE` replaced, `{"$repeat": s, "count": n}` expanded.
fn expand(value: &Value, origin: &str, case: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace("$ORIGIN", origin).replace("$CASE", case)),
        Value::Array(items) => Value::Array(items.iter().map(|v| expand(v, origin, case)).collect()),
        Value::Object(fields) => {
            if let (Some(Value::String(s)), Some(n)) =
                (fields.get("$repeat"), fields.get("count").and_then(Value::as_u64))
            {
                assert!(n <= 1 << 21, "a repeat count the corpus bounds");
                return Value::String(s.repeat(usize::try_from(n).unwrap()));
            }
            Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), expand(v, origin, case)))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

/// The case id as a URL path segment.
fn url_encoded(id: &str) -> String {
    id.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn response_of(case: &Value) -> Response {
    let response = &case["response"];
    if response["redirect"] == json!(true) {
        return Response::Redirect;
    }
    if let Some(stream) = response.get("stream") {
        let n = |k: &str| usize::try_from(stream[k].as_u64().unwrap_or(1)).unwrap();
        return Response::Stream {
            chunks: n("chunks"),
            chunk_bytes: n("chunkBytes"),
            interval: Duration::from_millis(stream["intervalMs"].as_u64().unwrap_or(8)),
        };
    }
    let body = response["bodyBase64"].as_str().unwrap_or("");
    Response::Body {
        body: base64::engine::general_purpose::STANDARD
            .decode(body)
            .expect("bodyBase64 is base64"),
        content_type: response["contentType"]
            .as_str()
            .unwrap_or("application/octet-stream")
            .to_owned(),
        gzip: response["gzip"] == json!(true),
    }
}

/// A directory of its own under the target directory, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rfc005").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `mcp-agent-view fetch` over the case's blocks, as a tool result.
fn run_cli(case: &Value, fixture: &Fixture, token: &str, dir: &Path) -> Result<Value, String> {
    let message = dir.join("message.json");
    std::fs::write(&message, json!({"content": case["blocks"]}).to_string()).map_err(|e| e.to_string())?;
    let saves = dir.join("saved");
    std::fs::create_dir_all(&saves).map_err(|e| e.to_string())?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-agent-view"));
    command
        .arg("fetch")
        .arg(&message)
        .args(["--seed", "5", "--origin", &fixture.origin, "--bearer-env", TOKEN_VAR])
        .args(["--allow-scheme", "http", "--timeout", "10"])
        .arg("--save-dir")
        .arg(&saves)
        .env(TOKEN_VAR, token);
    if let Some(max) = case["maxBytes"].as_u64() {
        command.args(["--max-bytes", &max.to_string()]);
    }
    if case["operation"] == "render" {
        command.arg("--no-fetch");
    }
    let out = command.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "fetch exited {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("fetch printed no JSON: {e}"))
}

fn texts(view: &Value) -> Vec<String> {
    let mut texts = vec![
        view["blocks"].to_string(),
        view["history"].as_str().unwrap_or("").to_owned(),
    ];
    if let Some(histories) = view["histories"].as_object() {
        texts.extend(histories.values().map(|v| v.as_str().unwrap_or("").to_owned()));
    }
    texts
}

fn is_unsafe_label_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The expectations of one view (what the model reads), as `expect` states them.
fn check_view(view: &Value, expect: &Value, records: &[Value], failures: &mut Vec<String>) {
    let strings = |key: &str| -> Vec<String> {
        expect[key]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    };
    for text in texts(view) {
        if text.chars().count() > MAX_VIEW_CHARS {
            failures.push(format!("a view of {} characters, over the bound", text.chars().count()));
        }
        for hidden in strings("hidden") {
            if text.contains(&hidden) {
                failures.push(format!("the model can read {hidden:?}"));
            }
        }
        for included in strings("includes") {
            if !text.contains(&included) {
                failures.push(format!("missing text {included:?}"));
            }
        }
        if expect["stub"] == json!(true) {
            if records.is_empty() {
                failures.push("no record behind the stub".to_owned());
            }
            for record in records {
                let id = record["id"].as_str().unwrap_or("?");
                if !text.contains(id) {
                    failures.push(format!("the stub does not name its record {id}"));
                }
            }
        }
        if let Some(b64) = expect["stubOrInlineBase64"].as_str() {
            let inline = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap_or_default();
            let inline = String::from_utf8_lossy(&inline);
            let named = records
                .iter()
                .any(|r| r["id"].as_str().is_some_and(|id| text.contains(id)));
            if !(named || text.contains(&*inline) || text.contains(b64)) {
                failures.push("a verified ref neither inlined nor kept its stub".to_owned());
            }
        }
        if expect["truncationMarked"] == json!(true) && !text.contains('…') {
            failures.push("a cut without its mark".to_owned());
        }
    }
    if expect["cleanLabel"] == json!(true) && view["history"].as_str().unwrap_or("").chars().any(is_unsafe_label_char) {
        failures.push("an unsafe character in a label".to_owned());
    }
}

fn saved_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("saved"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Every host expectation of a render or fetch case.
fn check_case(case: &Value, token: &str) -> Vec<String> {
    let id = case["id"].as_str().unwrap_or("?");
    let fixture = Fixture::start(response_of(case));
    let case = expand(case, &fixture.origin, &url_encoded(id));
    let dir = scratch(id);
    let out = match run_cli(&case, &fixture, token, &dir) {
        Ok(out) => out,
        Err(e) => return vec![e],
    };
    fixture.settle();
    let e = &case["expect"];
    let mut failures = Vec::new();
    let records = out["records"].as_array().cloned().unwrap_or_default();
    let before = &out["before"];
    let after = &out["after"];
    check_view(before, e, &records, &mut failures);
    if case["operation"] == "fetch" {
        check_view(after, e, &records, &mut failures);
    }
    // The corpus's nested expectations of each side, where it has them.
    if e["before"].is_object() {
        check_view(before, &e["before"], &records, &mut failures);
    }
    if e["after"].is_object() {
        check_view(after, &e["after"], &records, &mut failures);
    }
    // A field the corpus says is displayed: shown as testimony, cleaned, and where it is cut,
    // cut with the mark (this host's profile: a label's first 119 characters, then `…`).
    if let Some(field) = e["displayField"].as_str() {
        let value = case["blocks"][0][field].as_str().unwrap_or("");
        let shown = mcp_agent_view::markers::clean_label(value).unwrap_or_default();
        for text in texts(before) {
            if shown.is_empty() || !text.contains(&shown) {
                failures.push(format!("{field} is not displayed"));
            }
            if value.chars().count() > mcp_agent_view::markers::LABEL_MAX_CHARS && !shown.ends_with('…') {
                failures.push(format!("{field} is cut without its mark"));
            }
        }
    }

    let first = Block::decode(&case["blocks"][0]);
    let class = classify_block(&first);
    if let Some(kind) = e["kind"].as_str() {
        if class.name() != kind {
            failures.push(format!("read as {}, not {kind}", class.name()));
        }
    }
    for field in e["missingFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        match &class {
            Class::Reference(r) => {
                // A safety field the crate cannot read is kept as claimed, so that a fetch
                // refuses it; it is missing from what is rendered and taken as a claim, which
                // its place among the rejected fields says.
                let rejected = r.rejected.iter().any(|f| f.field == field);
                let present = match field {
                    "name" => r.name.is_some(),
                    "mimeType" => r.mime_type.is_some(),
                    "sizeBytes" => r.size_bytes.is_some(),
                    "expiresAt" | "digest" => !rejected,
                    _ => true,
                };
                if present {
                    failures.push(format!("{field} kept, not dropped"));
                }
                if r.disposition != Some(Disposition::Never) {
                    failures.push("the disposition did not survive".to_owned());
                }
            }
            other => failures.push(format!(
                "an optional field's fault cost the reference: read as {}",
                other.name()
            )),
        }
    }

    if case["operation"] == "render" {
        if !fixture.requests().is_empty() {
            failures.push("rendering dereferenced".to_owned());
        }
        return failures;
    }
    check_fetch(&case, &fixture, &out, &dir, token, &mut failures);
    failures
}

/// The expectations of a fetch: the outcome, the requests, the credential, the files saved.
fn check_fetch(case: &Value, fixture: &Fixture, out: &Value, dir: &Path, token: &str, failures: &mut Vec<String>) {
    let id = case["id"].as_str().unwrap_or("?");
    let e = &case["expect"];
    let requests = fixture.requests();
    let records = out["records"].as_array().cloned().unwrap_or_default();
    let outcome = &out["fetches"][0];
    let ok = outcome["ok"] == json!(true);
    if let Some(expected) = e["ok"].as_bool() {
        if ok != expected {
            failures.push(format!("fetch ok={ok}, expected {expected}: {}", outcome["error"]));
        }
    }
    if let Some(expected) = e["requests"].as_u64() {
        if requests.len() as u64 != expected {
            failures.push(format!("{} requests, expected {expected}", requests.len()));
        }
    }
    if let Some(first) = requests.first() {
        if first.authorization.as_deref() != Some(&format!("Bearer {token}")) {
            failures.push(format!("the dialed origin got {:?}", first.authorization));
        }
        if !first.path.starts_with(&format!("/case/{}", url_encoded(id))) {
            failures.push(format!("asked for {}", first.path));
        }
    }
    if e["redirectSafe"] == json!(true) {
        check_redirect(fixture, requests.len(), ok, failures);
    }
    let saves = saved_files(dir);
    let record = &records[0];
    if ok {
        if saves.len() != 1 {
            failures.push(format!("{} files saved, not one", saves.len()));
            return;
        }
        let bytes = std::fs::read(&saves[0]).unwrap_or_default();
        let verified = &record["verified"];
        if outcome["bytes"] != json!(bytes.len()) || verified["bytes"] != json!(bytes.len()) {
            failures.push("the sizes told are not the bytes saved".to_owned());
        }
        if verified["path"] != outcome["path"] || outcome["path"] != json!(saves[0].to_string_lossy()) {
            failures.push("the paths told are not the file saved".to_owned());
        }
        if let Some(b64) = e["decodedBase64"].as_str() {
            if base64::engine::general_purpose::STANDARD.encode(&bytes) != b64 {
                failures.push("the bytes saved are not the decoded identity octets".to_owned());
            }
        }
        if let Some(mime) = e["savedMime"].as_str() {
            if verified["mimeType"] != json!(mime) || outcome["mimeType"] != json!(mime) {
                failures.push(format!("saved as {}, not {mime}", outcome["mimeType"]));
            }
        }
        if e["digestVerified"] == json!(true)
            && (verified["digestVerified"] != json!(true) || outcome["digestVerified"] != json!(true))
        {
            failures.push("the digest was not verified".to_owned());
        }
        if e["storageFromId"] == json!(true) {
            let name = saves[0]
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let label = case["blocks"][0]["name"].as_str().unwrap_or("");
            if !name.starts_with(&format!("{}.", record["id"].as_str().unwrap_or("?")))
                || name.contains('/')
                || name.contains('\\')
                || (!label.is_empty() && name.contains(label))
            {
                failures.push(format!("stored as {name}"));
            }
        }
    } else {
        if !saves.is_empty() {
            failures.push(format!("a failed fetch left {saves:?}"));
        }
        if !record["verified"].is_null() {
            failures.push("a failed fetch left verified facts".to_owned());
        }
    }
    if e["abortStream"] == json!(true) {
        let chunks = case["response"]["stream"]["chunks"].as_u64().unwrap_or(0);
        let sent = fixture.chunks_sent() as u64;
        if !fixture.stream_closed() || sent == 0 || sent >= chunks {
            failures.push(format!("the stream was not cut: {sent} of {chunks} chunks sent"));
        }
    }
    if e["unchanged"] == json!(true) && out["after"] != out["before"] {
        failures.push("a fetch refused before dialing changed what the model reads".to_owned());
    }
}

/// A redirect to the second server: exercised once, followed at most once, never with the
/// credential, and a refused one never a success.
fn check_redirect(fixture: &Fixture, requests: usize, ok: bool, failures: &mut Vec<String>) {
    let redirected = fixture.redirected();
    if requests != 1 {
        failures.push("the redirect was not exercised once".to_owned());
    }
    if redirected.len() > 1 {
        failures.push("redirects unbounded".to_owned());
    }
    if redirected.iter().any(|r| r.authorization.is_some()) {
        failures.push("the credential followed a cross-origin redirect".to_owned());
    }
    if redirected.is_empty() && ok {
        failures.push("a refused redirect succeeded".to_owned());
    }
}

/// The registry case: a live reference keeps its id, evicted and unknown ids are defined
/// misses ("unknown reference", as the tool says them too), and no id is issued twice.
fn check_registry_case(case: &Value) -> Vec<String> {
    let case = expand(case, "https://fixture.example", "20-eviction-and-unknown");
    let mut failures = Vec::new();
    let registry = ReferenceRegistry::new();
    let block = Block::decode(&case["blocks"][0]);
    let Class::Reference(reference) = classify_block(&block) else {
        return vec!["the block is no reference".to_owned()];
    };
    let first = registry.register(&reference);
    if registry.register(&reference) != first {
        failures.push("a live reference changed its id".to_owned());
    }
    let mut ids = vec![first.clone()];
    let registrations = case["registrations"].as_u64().unwrap_or(0);
    for i in 0..registrations {
        let uri = format!("https://fixture.example/other/{i}");
        let mut other = reference.clone();
        other.uri = &uri;
        ids.push(registry.register(&other));
    }
    let unknown = "ref_0000000000000";
    for id in [first.as_str(), unknown] {
        if registry.lookup(id).is_ok() {
            failures.push(format!("{id} resolved"));
        }
        let answer = fetch_reference(
            &json!({"ref_id": id}),
            "toolu_1",
            &registry,
            &Fetcher::new(FetchPolicy::new()),
            &Target::anthropic(),
        );
        let text = answer.content[0].as_text().unwrap_or("");
        if !answer.is_error || !text.contains("unknown reference") {
            failures.push(format!("the tool answered {text:?} for {id}"));
        }
    }
    let fresh = registry.register(&reference);
    if fresh == first {
        failures.push("an evicted id was issued again".to_owned());
    }
    ids.push(fresh.clone());
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    if unique.len() != ids.len() {
        failures.push("an id was issued twice".to_owned());
    }
    match registry.lookup(&fresh) {
        Ok(record) if Some(record.uri.as_str()) == case["blocks"][0]["uri"].as_str() => {}
        other => failures.push(format!("the fresh record is {other:?}")),
    }
    failures
}

#[test]
fn every_rfc005_case_holds() {
    let corpus = corpus();
    assert_eq!(corpus["format"], "mcpl-bulk-references-1");
    let token = corpus["fixtures"]["token"].as_str().expect("the fixture token");
    let cases = corpus["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 43);
    let mut failed = Vec::new();
    let mut passed = 0;
    for case in cases {
        let failures = if case["operation"] == "registry" {
            check_registry_case(case)
        } else {
            check_case(case, token)
        };
        if failures.is_empty() {
            passed += 1;
        } else {
            failed.push(format!(
                "{}: {}",
                case["id"].as_str().unwrap_or("?"),
                failures.join("; ")
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{passed} of 43 cases hold; failing:\n{}",
        failed.join("\n")
    );
    assert_eq!(passed, 43);
    eprintln!("RFC-005 corpus: {passed} of {} host expectations hold", cases.len());
}
