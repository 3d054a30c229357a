//! `mcp-agent-view`: what an agent reads from an MCP message, on the command line.

#[cfg(feature = "call")]
mod call;
mod fetch;
mod output;

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use mcp_agent_view::{
    convert, history, prompt_messages, script, tool_result, HistoryOptions, Provenance, Provider, ReferenceRegistry,
    Target,
};

/// Shows what an AI agent reads when content arrives from an MCP server.
///
/// Reads one MCP message as JSON (a JSON-RPC response, a tool, prompt or resource result, an
/// event payload, a bare array of blocks or one block) from FILE, or from standard input when
/// FILE is absent or `-`, and prints it as the chosen lane shows it.
#[derive(Parser)]
#[command(name = "mcp-agent-view", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The history lane: one string, blocks joined with line breaks (plain text out).
    History {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
        /// Print at most this many characters, the final line break included; the string is
        /// cut never inside a stub or marker, and ends with a notice of the cut.
        #[arg(long, value_name = "CHARS")]
        budget: Option<usize>,
    },
    /// `convert` over every block: a JSON array of blocks in the target's shape.
    Blocks {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
        #[command(flatten)]
        shape: Shape,
    },
    /// The script lane: the JSON with every content block in it replaced by its agent form.
    Script {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
        /// The target whose media checks apply; the output stays the neutral JSON.
        #[arg(long, value_enum, default_value = "neutral")]
        target: Provider,
    },
    /// The outcome of one tools/call as what to append to the conversation in the target's shape
    /// (`messages`), with the blocks held back for the user beside it (`heldForUser`).
    ToolResult {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
        #[command(flatten)]
        shape: Shape,
        #[command(flatten)]
        call: ToolCall,
    },
    /// A prompts/get result as messages: a JSON array of `{role, content}`.
    Prompt {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
        #[command(flatten)]
        shape: Shape,
    },
    /// One JSON object per line per block: its class and the fields that decided it (no uri).
    Classify {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        options: Options,
    },
    /// Starts an MCP server over stdio, calls one tool (or gets one prompt, or reads one
    /// resource) and prints what the model reads.
    ///
    /// mcp-agent-view call [OPTIONS] -- <SERVER COMMAND>... -- <TOOL> [ARGUMENTS AS JSON]
    ///
    /// e.g. mcp-agent-view call --target anthropic -- npx -y @modelcontextprotocol/server-everything
    /// -- get-resource-reference '{"resourceType":"Blob"}'
    #[cfg(feature = "call")]
    Call(call::CallArgs),
    /// Registers a message's references as the lanes do, fetches them under a policy
    /// (RFC-005: schemes, origins, a byte ceiling, digests, sniffed types), and prints one
    /// JSON object: what the model reads before and after, the host's records, each fetch.
    ///
    /// mcp-agent-view fetch [FILE|-] [--seed N] [--provenance P]... [--ref ID]... [--no-fetch]
    /// [--max-bytes N] [--origin ORIGIN] [--bearer-env VAR] [--allow-scheme S]...
    /// [--allow-origin O]... [--save-dir DIR] [--timeout SECONDS]
    Fetch(fetch::FetchArgs),
}

#[derive(Args)]
struct Input {
    /// The message to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

#[derive(Args, Clone, Copy)]
pub(crate) struct Options {
    /// Where the content came from, as reference stubs say [default: tool-result for history
    /// and tool-result, push-event for blocks, script-result for script, prompt for prompt].
    /// The tool-result and prompt lanes always say theirs.
    #[arg(long, value_enum)]
    provenance: Option<Provenance>,
    /// Seed the reference ids, for output that is the same from run to run.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

#[derive(Args)]
struct Shape {
    /// The model API whose media checks and JSON shape apply.
    #[arg(long, value_enum, default_value = "neutral")]
    target: Provider,
}

#[derive(Args)]
struct ToolCall {
    /// The tool's name, for `Tool call <name> failed: …`.
    #[arg(long, default_value = "tool")]
    name: String,
    /// The id of the model's `tool_use` this result answers.
    #[arg(long, default_value = "toolu_0")]
    id: String,
}

/// How a message is shown: the lane, and what it needs.
pub(crate) enum Show<'a> {
    History {
        budget: Option<usize>,
    },
    Blocks {
        target: Provider,
    },
    Script {
        target: Provider,
    },
    ToolResult {
        name: &'a str,
        id: &'a str,
        target: Provider,
    },
    Prompt {
        target: Provider,
    },
    Classify,
}

fn main() -> ExitCode {
    // Before anything opens a file: a closed standard output would be lost without a word.
    if output::stdout_was_closed() {
        return fail("cannot write output: standard output is closed");
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            return match output::write_stdout(e.render().to_string().as_bytes(), false) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            };
        }
        Err(e) => return fail(&one_line(&e.to_string())),
    };
    let json = prints_json(&cli.command);
    match run(&cli.command, json) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

/// One line on standard error, and exit code 2; where standard error cannot be written either,
/// exit code 2 all the same.
fn fail(message: &str) -> ExitCode {
    output::write_stderr(&format!("mcp-agent-view: {message}\n"));
    ExitCode::from(2)
}

/// Clap's message without its `error:` prefix, usage and tips, on one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_owned()
}

/// Whether `command` prints JSON (every lane but history's plain text).
fn prints_json(command: &Command) -> bool {
    match command {
        Command::History { .. } => false,
        #[cfg(feature = "call")]
        Command::Call(args) => call::prints_json(args),
        _ => true,
    }
}

/// Runs `command`, writing what it prints to standard output.
fn run(command: &Command, json: bool) -> Result<(), String> {
    let (input, options, how) = match command {
        Command::History { input, options, budget } => (input, options, Show::History { budget: *budget }),
        Command::Blocks { input, options, shape } => (input, options, Show::Blocks { target: shape.target }),
        Command::Script { input, options, target } => (input, options, Show::Script { target: *target }),
        Command::ToolResult {
            input,
            options,
            shape,
            call,
        } => (
            input,
            options,
            Show::ToolResult {
                name: &call.name,
                id: &call.id,
                target: shape.target,
            },
        ),
        Command::Prompt { input, options, shape } => (input, options, Show::Prompt { target: shape.target }),
        Command::Classify { input, options } => (input, options, Show::Classify),
        #[cfg(feature = "call")]
        Command::Call(args) => return call::run(args).and_then(|out| output::write_stdout(out.as_bytes(), json)),
        Command::Fetch(args) => return fetch::run(args).and_then(|out| output::write_stdout(out.as_bytes(), json)),
    };
    let bytes = read_input(input.file.as_deref())?;
    output::with_stdout(json, |out| show_to(&bytes, &how, *options, &registry_of(*options), out))
}

/// The registry the options ask for: seeded, or with a random key.
pub(crate) fn registry_of(options: Options) -> ReferenceRegistry {
    options
        .seed
        .map_or_else(ReferenceRegistry::new, ReferenceRegistry::with_seed)
}

/// What `how` shows of the message in `bytes`, with the references registered in `registry`,
/// as one string (for `call`, which prints it inside more JSON).
#[cfg(feature = "call")]
pub(crate) fn show_with(
    bytes: &[u8],
    how: &Show<'_>,
    options: Options,
    registry: &ReferenceRegistry,
) -> Result<String, String> {
    let mut out = Vec::new();
    show_to(bytes, how, options, registry, &mut out)?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// [`show_with`], written to `out` as it is shown: the JSON lanes write the providers' JSON as
/// it is serialized, never holding it whole beside what it is made of.
pub(crate) fn show_to(
    bytes: &[u8],
    how: &Show<'_>,
    options: Options,
    registry: &ReferenceRegistry,
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    let provenance = |default| options.provenance.unwrap_or(default);
    let text = |text: Result<String, mcp_agent_view::Error>, out: &mut dyn std::io::Write| {
        let text = text.map_err(|e| e.to_string())?;
        out.write_all(text.as_bytes())
            .map_err(|e| format!("cannot write output: {e}"))
    };
    match how {
        Show::Script { target } => {
            // As written, in the input's own order: what a script would be handed.
            let shown = script(bytes, registry, &Target::for_provider(*target)).map(|json| json + "\n");
            text(shown, out)
        }
        Show::History { budget: Some(0) } => Ok(()),
        Show::History { budget } => {
            // The line break after the string counts against the budget too.
            let options = HistoryOptions {
                provenance: provenance(Provenance::ToolResult),
                budget: budget.map(|b| b - 1),
            };
            text(history(bytes, registry, &options).map(|text| text + "\n"), out)
        }
        Show::Blocks { target } => {
            let target = Target::for_provider(*target);
            let blocks = convert(bytes, provenance(Provenance::PushEvent), registry, &target)
                .map_err(|e| e.to_string())?
                .content;
            pretty(&target.blocks_view(&blocks), out)
        }
        Show::ToolResult { name, id, target } => {
            let target = Target::for_provider(*target);
            let result = tool_result(bytes, name, id, registry, &target);
            let neutral = Target::neutral();
            let held = neutral.blocks_view(&result.held_for_user);
            let messages = target.tool_results_view(std::slice::from_ref(&result));
            pretty(&ToolResultOut { held, messages }, out)
        }
        Show::Prompt { target } => {
            let target = Target::for_provider(*target);
            let messages = prompt_messages(bytes, registry, &target).map_err(|e| e.to_string())?;
            pretty(&target.messages_view(&messages), out)
        }
        Show::Classify => text(mcp_agent_view::classify::summaries(bytes), out),
    }
}

/// JSON text, pretty, from a lane's view as it goes: no `Value` of the output is built.
fn pretty(v: &impl serde::Serialize, out: &mut dyn std::io::Write) -> Result<(), String> {
    let mut out = out;
    serde_json::to_writer_pretty(&mut out, v).map_err(|e| match e.io_error_kind() {
        Some(_) => format!("cannot write output: {e}"),
        None => e.to_string(),
    })?;
    out.write_all(b"\n").map_err(|e| format!("cannot write output: {e}"))
}

/// What the `tool-result` lane prints.
#[derive(serde::Serialize)]
struct ToolResultOut<'s> {
    #[serde(rename = "heldForUser")]
    held: mcp_agent_view::provider::Shaped<'s>,
    messages: mcp_agent_view::provider::Shaped<'s>,
}

pub(crate) fn read_input(file: Option<&std::path::Path>) -> Result<Vec<u8>, String> {
    match file {
        None => read_stdin(),
        Some(path) if path.as_os_str() == "-" => read_stdin(),
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display())),
    }
}

fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(bytes)
}
