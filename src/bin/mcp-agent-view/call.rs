//! `mcp-agent-view call`: a real server, through `rmcp_bridge::StdioServer` (rmcp's client).

use std::time::Duration;

use clap::{Args, ValueEnum};
use std::cell::RefCell;

use mcp_agent_view::fetch::{
    fetch_reference, read_contents_of, FetchPolicy, Fetcher, ReadContents, Refusal, ResourceReader,
};
use mcp_agent_view::rmcp_bridge::{StdioClient, StdioServer};
use mcp_agent_view::{Provider, Target};
use rmcp::model::{
    CallToolRequestParams, ClientRequest, GetPromptRequestParams, JsonObject, ReadResourceRequestParams, Request,
};
use serde_json::{json, Value};

use crate::{registry_of, show_with, Options, Show};

#[derive(Args)]
#[allow(clippy::struct_excessive_bools)] // one flag an option
pub(crate) struct CallArgs {
    /// How to show the answer [default: tool-result for a tool, prompt for a prompt, blocks for
    /// a resource].
    #[arg(long, value_enum)]
    lane: Option<LaneArg>,
    /// The model API whose media checks and JSON shape apply.
    #[arg(long, value_enum, default_value = "neutral")]
    target: Provider,
    /// Get a prompt: NAME is a prompt's name, ARGUMENTS its arguments.
    #[arg(long, conflicts_with = "resource")]
    prompt: bool,
    /// Read a resource: NAME is its uri.
    #[arg(long)]
    resource: bool,
    /// Give up on a server that has not answered after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    timeout: u64,
    /// The id of the model's `tool_use`, on the tool-result lane.
    #[arg(long, default_value = "toolu_0")]
    id: String,
    /// On the history lane, print at most this many characters, the final line break
    /// included.
    #[arg(long, value_name = "CHARS")]
    budget: Option<usize>,
    /// Show the server's own standard error (it is discarded by default).
    #[arg(long)]
    server_stderr: bool,
    /// After showing the answer, fetch every reference it holds as the model's
    /// `fetch_reference` calls would (links with resources/read through this connection,
    /// the rest under the default policy: https, public addresses, 16 MiB), and print one JSON
    /// object: `shown` (the lane's output) and `fetched` (each call's `{"messages": …}` in the
    /// target's shape).
    #[arg(long)]
    fetch_references: bool,
    #[command(flatten)]
    options: Options,
    /// The server's command, then `--`, then the tool's name (or prompt's, or the resource's
    /// uri) and its arguments as one JSON object.
    #[arg(last = true, required = true, value_name = "SERVER -- NAME [ARGUMENTS]")]
    rest: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum LaneArg {
    History,
    Blocks,
    Script,
    ToolResult,
    Prompt,
    Classify,
}

/// What to ask the server.
enum Ask {
    Tool {
        name: String,
        arguments: Option<JsonObject>,
    },
    Prompt {
        name: String,
        arguments: Option<JsonObject>,
    },
    Resource {
        uri: String,
    },
}

pub(crate) fn run(args: &CallArgs) -> Result<String, String> {
    let (server, ask) = parse_rest(args)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let mut client = runtime.block_on(connect(&server, args))?;
    let answer = runtime.block_on(ask_server(&mut client, &ask));
    answer.and_then(|answer| show_answer(&answer, &ask, args, &runtime, client))
}

/// What the model reads of `answer`; with `--fetch-references`, and what each
/// `fetch_reference` call gives back after. Closes the connection.
fn show_answer(
    answer: &Value,
    ask: &Ask,
    args: &CallArgs,
    runtime: &tokio::runtime::Runtime,
    client: StdioClient,
) -> Result<String, String> {
    let mut registry = registry_of(args.options);
    if args.fetch_references {
        // The stubs name the tool whose answers follow.
        registry = registry
            .with_fetch_tool(mcp_agent_view::fetch::TOOL_NAME)
            .map_err(|e| e.to_string())?;
    }
    let how = lane_of(ask, args);
    let shown = show_with(answer.to_string().as_bytes(), &how, args.options, &registry);
    if !args.fetch_references {
        runtime.block_on(client.close());
        return shown;
    }
    let shown = shown?;
    let reader = Connected {
        runtime,
        client: RefCell::new(client),
    };
    let target = Target::for_provider(args.target);
    let fetcher = Fetcher::new(FetchPolicy::new()).resources(&reader);
    let answers: Vec<Value> = registry
        .records()
        .iter()
        .enumerate()
        .map(|(n, record)| {
            let call = json!({"ref_id": record.id});
            let result = fetch_reference(&call, &format!("toolu_fetch_{n}"), &registry, &fetcher, &target);
            json!({"messages": target.tool_result_messages(std::slice::from_ref(&result))})
        })
        .collect();
    drop(fetcher);
    runtime.block_on(reader.client.into_inner().close());
    let shown = serde_json::from_str::<Value>(&shown).unwrap_or(Value::String(shown));
    serde_json::to_string_pretty(&json!({"shown": shown, "fetched": answers}))
        .map(|s| s + "\n")
        .map_err(|e| e.to_string())
}

/// The connection's resources/read, for the fetcher: each read waits on the connection.
struct Connected<'r> {
    runtime: &'r tokio::runtime::Runtime,
    client: RefCell<StdioClient>,
}

impl ResourceReader for Connected<'_> {
    fn read_resource(&self, uri: &str) -> Result<Vec<ReadContents>, Refusal> {
        let request = ClientRequest::ReadResourceRequest(Request::new(ReadResourceRequestParams::new(uri)));
        let client = self.client.borrow();
        let answer = self
            .runtime
            .block_on(client.request(request))
            .map_err(|_| Refusal::Read("the server did not answer".to_owned()))?;
        read_contents_of(&answer)
    }
}

/// Whether the command prints JSON: every lane but history's plain text, and JSON whenever
/// it fetches references.
pub(crate) fn prints_json(args: &CallArgs) -> bool {
    args.fetch_references || !matches!(args.lane, Some(LaneArg::History))
}

fn lane_of<'a>(ask: &'a Ask, args: &'a CallArgs) -> Show<'a> {
    let lane = args.lane.unwrap_or(match ask {
        Ask::Tool { .. } => LaneArg::ToolResult,
        Ask::Prompt { .. } => LaneArg::Prompt,
        Ask::Resource { .. } => LaneArg::Blocks,
    });
    let name = match ask {
        Ask::Tool { name, .. } | Ask::Prompt { name, .. } => name.as_str(),
        Ask::Resource { uri } => uri.as_str(),
    };
    let target = args.target;
    match lane {
        LaneArg::History => Show::History { budget: args.budget },
        LaneArg::Blocks => Show::Blocks { target },
        LaneArg::Script => Show::Script { target },
        LaneArg::ToolResult => Show::ToolResult {
            name,
            id: &args.id,
            target,
        },
        LaneArg::Prompt => Show::Prompt { target },
        LaneArg::Classify => Show::Classify,
    }
}

/// Splits `SERVER... -- NAME [ARGUMENTS]`.
fn parse_rest(args: &CallArgs) -> Result<(Vec<String>, Ask), String> {
    let usage = "expected: call [OPTIONS] -- <SERVER COMMAND>... -- <NAME> [ARGUMENTS AS JSON]";
    let split = args.rest.iter().position(|a| a == "--").ok_or(usage)?;
    let (server, after) = (&args.rest[..split], &args.rest[split + 1..]);
    if server.is_empty() {
        return Err(format!("no server command; {usage}"));
    }
    let (name, arguments) = match after {
        [name] => (name.clone(), None),
        [name, json] => (name.clone(), Some(json_object(json)?)),
        _ => {
            return Err(format!(
                "after the second -- give a name and at most one JSON object; {usage}"
            ))
        }
    };
    let ask = if args.resource {
        if arguments.is_some() {
            return Err("a resource takes no arguments".to_owned());
        }
        Ask::Resource { uri: name }
    } else if args.prompt {
        Ask::Prompt { name, arguments }
    } else {
        Ask::Tool { name, arguments }
    };
    Ok((server.to_vec(), ask))
}

fn json_object(text: &str) -> Result<JsonObject, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("the arguments must be one JSON object".to_owned()),
        Err(e) => Err(format!("the arguments are not JSON: {e}")),
    }
}

/// Starts the server, initializes, asks once, and gives back the answer as JSON: a result
/// (typed or, where rmcp could not type it, raw) or a JSON-RPC error response.
async fn connect(server: &[String], args: &CallArgs) -> Result<StdioClient, String> {
    StdioServer::new(&server[0])
        .args(&server[1..])
        .timeout(Duration::from_secs(args.timeout))
        .inherit_stderr(args.server_stderr)
        .connect()
        .await
        .map_err(|e| e.to_string())
}

/// Asks once, and gives back the answer as JSON: a result (typed or, where rmcp could not
/// type it, raw) or a JSON-RPC error response. Closes the connection where it fails.
async fn ask_server(client: &mut StdioClient, ask: &Ask) -> Result<Value, String> {
    let request = match ask {
        Ask::Tool { name, arguments } => {
            let mut params = CallToolRequestParams::new(name.clone());
            if let Some(arguments) = arguments {
                params = params.with_arguments(arguments.clone());
            }
            ClientRequest::CallToolRequest(Request::new(params))
        }
        Ask::Prompt { name, arguments } => {
            let mut params = GetPromptRequestParams::new(name.clone());
            if let Some(arguments) = arguments {
                params = params.with_arguments(arguments.clone());
            }
            ClientRequest::GetPromptRequest(Request::new(params))
        }
        Ask::Resource { uri } => ClientRequest::ReadResourceRequest(Request::new(ReadResourceRequestParams::new(uri))),
    };
    client.request(request).await.map_err(|e| e.to_string())
}
