//! A whole agent turn, as a runtime runs it: a tool result arrives holding a bulk reference
//! (RFC-005), the model reads its stub, calls `fetch_reference` with the id (scripted here),
//! and the host fetches, verifies and answers with the content.
//!
//! The file server is a loopback one this example starts: it wants the connection's bearer
//! credential, which the host sends to that origin only.
//!
//! ```text
//! cargo run --example agent_turn
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

use mcp_agent_view::fetch::{fetch_reference, tool_definition, FetchPolicy, Fetcher, TOOL_NAME};
use mcp_agent_view::{tool_result, Provider, ReferenceRegistry, Target};
use serde_json::json;

const TOKEN: &str = "example-credential";
const REPORT: &str = "Q3 revenue: 4.2M (+4%). Churn: 1.1%.\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let origin = serve_once()?;
    // The host offers the model the fetch tool: its stubs say so.
    let registry = ReferenceRegistry::new().with_fetch_tool(TOOL_NAME)?;
    let target = Target::anthropic();

    // 1. The host offers the model the tool, in the provider's shape.
    let tool = tool_definition(Provider::Anthropic, TOOL_NAME);
    println!("tool offered to the model:\n{}\n", serde_json::to_string_pretty(&tool)?);

    // 2. A tool result arrives with a bulk reference; the model reads a stub, never the uri.
    let response = json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [
        {"type": "text", "text": "The quarterly report is ready."},
        {"type": "resource", "uri": format!("{origin}/reports/q3.txt?sig=s3cret"), "name": "q3.txt",
         "mimeType": "text/plain", "sizeBytes": REPORT.len(), "disposition": "ref"}
    ]}});
    let result = tool_result(&response, "get_report", "toolu_01", &registry, &target);
    let stub = result.content[1].as_text().unwrap_or_default().to_owned();
    println!(
        "the model reads:\n{}\n{stub}\n",
        result.content[0].as_text().unwrap_or_default()
    );
    assert!(!stub.contains("s3cret") && !stub.contains(&origin));

    // 3. The model calls fetch_reference with the id in the stub (scripted).
    let id = &stub[1..18];
    let call = json!({"ref_id": id});
    println!("the model calls fetch_reference {call}\n");

    // 4. The host fetches under its policy: the connection's origin gets the credential; the
    //    bytes are verified as they arrive (ceiling, type) before anything is shown.
    let policy = FetchPolicy::new()
        .allow_scheme("http")?
        .origin(&origin)?
        .bearer(TOKEN)
        .max_bytes(1 << 20);
    let fetcher = Fetcher::new(policy);
    let answer = fetch_reference(&call, "toolu_02", &registry, &fetcher, &target);
    println!(
        "the host answers (Anthropic's shape):\n{}\n",
        serde_json::to_string_pretty(&target.tool_result_messages(std::slice::from_ref(&answer)))?
    );
    assert!(!answer.is_error);
    assert_eq!(answer.content[0].as_text(), Some(REPORT));

    // 5. The record now holds verified facts, and the stub says so from here on.
    let record = registry.lookup(id)?;
    println!("the host's record: {:?}", record.verified);
    let again = tool_result(&response, "get_report", "toolu_01", &registry, &target);
    println!(
        "the stub, shown again: {}",
        again.content[1].as_text().unwrap_or_default()
    );
    Ok(())
}

/// A loopback file server that answers one request: the report, to the right credential only.
fn serve_once() -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let origin = format!("http://{}", listener.local_addr()?);
    thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else { return };
        let mut reader = BufReader::new(stream.try_clone().expect("a socket clone"));
        let mut authorized = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                break;
            }
            authorized |= line
                .trim()
                .eq_ignore_ascii_case(&format!("authorization: Bearer {TOKEN}"));
        }
        let (status, body) = if authorized {
            ("200 OK", REPORT)
        } else {
            ("401 Unauthorized", "")
        };
        let _ = write!(
            stream,
            "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    Ok(origin)
}
