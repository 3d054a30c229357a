//! A quickstart MCP client: a stdio server's tools offered to Claude, every tool call answered,
//! until the model stops asking. Copy it; the crate's part is three calls.
//!
//! ```text
//! ANTHROPIC_API_KEY=… cargo run --example tool_loop --features call -- <server command> [args…]
//! ```
//!
//! Queries are read from standard input, one a line; `quit` or the end of input stops. The
//! Messages API is called at `ANTHROPIC_BASE_URL` (default `https://api.anthropic.com`) with
//! the model `ANTHROPIC_MODEL` (default below), `max_tokens` 10000, and the server's tools
//! only, exactly as `tools/list` gives them. Each turn's tool calls run at once; each
//! `tool_use` is answered by one `tool_result`, all of them in one `user` message; at most
//! ten rounds a query.
//!
//! What the crate does here: `tool_result` turns each call's answer (a result, a JSON-RPC
//! error, a failure to call) into what the model reads, `Target::tool_result_messages` makes
//! the message to append, `Target::tool_definitions` the tools. A rejected call is an error
//! result, never the end of the conversation; `structuredContent` is read where the content
//! has no text; images go as images; an embedded resource's text as text, its uri never; a
//! block nobody knows becomes a marker and costs no sibling.
//!
//! A server that asks before it answers (revision 2026-07-28's input-required results, or
//! requests over the session under an older revision) is answered the same way either way: an
//! elicitation declined (there is no form here), no roots, and a sampling request through the
//! same Messages API, one level deep (its messages read by `sampling_request`, the server's
//! system prompt given as the server's words in the first user turn, no tools).

use std::io::BufRead as _;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use mcp_agent_view::rmcp_bridge::{answer_plainly, StdioClient, StdioServer};
use mcp_agent_view::{
    sampling_request, tool_call_failed, tool_result, AgentToolResult, ErrorKind, ReferenceRegistry, Target,
};
use rmcp::model::{ClientRequest, ListToolsResult};
use serde_json::{json, Value};

/// The model asked for when `ANTHROPIC_MODEL` is not set.
const DEFAULT_MODEL: &str = "claude-sonnet-4-5";
/// The most model calls one query makes.
const MAX_ROUNDS: usize = 10;

fn main() {
    if let Err(error) = run() {
        eprintln!("tool_loop: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut command = std::env::args_os().skip(1);
    let program = command.next().ok_or("usage: tool_loop <server command> [args…]")?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    // The Messages API, once a key is read: the server's sampling requests go there too.
    let sampling: Arc<OnceLock<Api>> = Arc::new(OnceLock::new());
    let answers = Arc::clone(&sampling);
    let server =
        StdioServer::new(program)
            .args(command)
            .on_input(Arc::new(move |method: &str, params: &Value| {
                match (method, answers.get()) {
                    ("sampling/createMessage", Some(api)) => api.sample(params),
                    _ => answer_plainly(method, params),
                }
            }));
    let client = Arc::new(runtime.block_on(server.connect())?);

    // The server's tools, exactly as it lists them, in the provider's shape.
    let target = Target::anthropic();
    let listed =
        runtime.block_on(client.request(ClientRequest::ListToolsRequest(rmcp::model::ListToolsRequest::default())))?;
    let tools: ListToolsResult = serde_json::from_value(listed)?;
    let tools = target.tool_definitions(&tools.tools, None);

    let _ = sampling.set(Api::from_env()?);
    let api = sampling.get().ok_or("the Messages API is not set")?;
    let registry = ReferenceRegistry::new();
    let mut messages: Vec<Value> = Vec::new();
    for query in std::io::stdin().lock().lines() {
        let query = query?;
        let query = query.trim();
        if query == "quit" {
            break;
        }
        if query.is_empty() {
            continue;
        }
        messages.push(json!({"role": "user", "content": query}));
        for _ in 0..MAX_ROUNDS {
            let reply = api.messages(&messages, &tools)?;
            let content = reply["content"].as_array().cloned().unwrap_or_default();
            for text in content.iter().filter(|b| b["type"] == "text") {
                println!("{}", text["text"].as_str().unwrap_or_default());
            }
            let calls: Vec<(String, String, Value)> = content
                .iter()
                .filter(|b| b["type"] == "tool_use")
                .map(|b| (str_of(&b["id"]), str_of(&b["name"]), b["input"].clone()))
                .collect();
            messages.push(json!({"role": "assistant", "content": content}));
            if calls.is_empty() {
                break;
            }
            // Every call of the turn at once; each answered, in the order the model asked.
            let results = runtime.block_on(call_all(&client, calls, &registry, &target));
            messages.extend(target.tool_result_messages(&results));
        }
    }
    if let Ok(client) = Arc::try_unwrap(client) {
        runtime.block_on(client.close());
    }
    Ok(())
}

/// Runs the turn's tool calls concurrently over the one connection.
async fn call_all(
    client: &Arc<StdioClient>,
    calls: Vec<(String, String, Value)>,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Vec<AgentToolResult<'static>> {
    let mut running = tokio::task::JoinSet::new();
    for (n, (id, name, input)) in calls.into_iter().enumerate() {
        let client = Arc::clone(client);
        running.spawn(async move {
            let answer = client.call_tool(&name, input.as_object().cloned()).await;
            (n, id, name, answer)
        });
    }
    let mut answers = Vec::new();
    while let Some(done) = running.join_next().await {
        if let Ok(answer) = done {
            answers.push(answer);
        }
    }
    answers.sort_by_key(|(n, ..)| *n);
    answers
        .into_iter()
        .map(|(_, id, name, answer)| match answer {
            Ok(answer) => tool_result(&answer, &name, &id, registry, target).into_owned(),
            Err(error) => {
                // Why it failed is the host's to read: it may quote what the server wrote
                // (a stray line on its output, with whatever uri or token it held). The model
                // hears only that the call failed, and how.
                eprintln!("{name}: {error}");
                let reason = match error.kind() {
                    ErrorKind::Timeout => "the server did not answer in time",
                    _ => "the server failed to answer (the host's log says why)",
                };
                tool_call_failed(&name, &id, reason)
            }
        })
        .collect()
}

fn str_of(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// The Messages API.
struct Api {
    url: String,
    key: String,
    model: String,
    agent: ureq::Agent,
}

impl Api {
    /// Answers a server's sampling request, one level deep: its messages as the sampling lane
    /// reads them, the server's system prompt as its words in the first user turn, no tools.
    /// `None` (not answered) where the request holds tool content or the API fails.
    fn sample(&self, params: &Value) -> Option<Value> {
        let target = Target::anthropic();
        let request = sampling_request(params, &ReferenceRegistry::new(), &target).ok()?;
        let mut messages = Vec::new();
        if let Some(system) = &request.system_prompt {
            let said = format!("[the requesting server's instructions] {system}");
            messages.push(json!({"role": "user", "content": [{"type": "text", "text": said}]}));
        }
        messages.extend(target.messages_json(&request.messages));
        let max_tokens = request.max_tokens.unwrap_or(10000).min(10000);
        let body = json!({"model": self.model, "max_tokens": max_tokens, "messages": messages});
        let reply = self.post(&body).ok()?;
        let text: String = reply["content"]
            .as_array()?
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect();
        let stop = if reply["stop_reason"] == "max_tokens" {
            "maxTokens"
        } else {
            "endTurn"
        };
        Some(
            json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": reply["model"], "stopReason": stop}),
        )
    }

    fn from_env() -> Result<Api, Box<dyn std::error::Error>> {
        let base = std::env::var("ANTHROPIC_BASE_URL").unwrap_or_else(|_| "https://api.anthropic.com".to_owned());
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(600)))
            .http_status_as_error(false)
            .build();
        Ok(Api {
            url: format!("{}/v1/messages", base.trim_end_matches('/')),
            key: std::env::var("ANTHROPIC_API_KEY").map_err(|_| "ANTHROPIC_API_KEY is not set")?,
            model: std::env::var("ANTHROPIC_MODEL").unwrap_or_else(|_| DEFAULT_MODEL.to_owned()),
            agent: config.into(),
        })
    }

    fn messages(&self, messages: &[Value], tools: &[Value]) -> Result<Value, Box<dyn std::error::Error>> {
        self.post(&json!({"model": self.model, "max_tokens": 10000, "messages": messages, "tools": tools}))
    }

    fn post(&self, body: &Value) -> Result<Value, Box<dyn std::error::Error>> {
        let mut response = self
            .agent
            .post(&self.url)
            .header("x-api-key", &self.key)
            .header("anthropic-version", "2023-06-01")
            .header("content-type", "application/json")
            .send(serde_json::to_vec(body)?.as_slice())?;
        let status = response.status();
        let text = response.body_mut().read_to_string()?;
        if !status.is_success() {
            return Err(format!("the Messages API answered {status}: {text}").into());
        }
        Ok(serde_json::from_str(&text)?)
    }
}
