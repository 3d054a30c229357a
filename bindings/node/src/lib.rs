//! The crate's lanes for Node (napi-rs). `index.js` wraps this module: it writes a plain JS
//! message out as JSON, parses the JSON each lane gives back, and turns the errors raised here
//! into `Error`s with `kind`, `line` and `column`.
//!
//! Every message is read as JSON bytes (a string or a `Uint8Array`). No panic crosses into
//! JS: each lane is caught and raises an error of kind `Panic`. An error raised here has the
//! code `MCP_AGENT_VIEW:<kind>:<line>:<column>` (empty where not known), which `index.js`
//! takes apart.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use mcp_agent_view::fetch::{self, FetchPolicy, FetchSettings};
use mcp_agent_view::{
    classify, convert, elicitation, history, parse_json, prompt_messages, sampling_request, script, tool_call_failed,
    tool_result, AgentToolResult, HistoryOptions, Pending, Provenance, Provider, ReferenceRegistry, Target,
};
use napi::bindgen_prelude::{AsyncTask, Either, External, Uint8Array, Unknown};
use napi::{Env, ScopedTask};
use napi_derive::napi;
use serde::Serialize;
use serde_json::Value;

type Message = Either<String, Uint8Array>;

fn bytes_of(message: &Message) -> &[u8] {
    match message {
        Either::A(text) => text.as_bytes(),
        Either::B(bytes) => bytes,
    }
}

fn raised(kind: &str, message: &str, line: Option<usize>, column: Option<usize>) -> napi::Error<String> {
    let place = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
    napi::Error::new(
        format!("MCP_AGENT_VIEW:{kind}:{}:{}", place(line), place(column)),
        message.to_owned(),
    )
}

fn error(e: &mcp_agent_view::Error) -> napi::Error<String> {
    raised(&format!("{:?}", e.kind()), &e.to_string(), e.line(), e.column())
}

fn invalid(message: impl std::fmt::Display) -> napi::Error<String> {
    raised("InvalidArg", &message.to_string(), None, None)
}

type Result<T> = std::result::Result<T, napi::Error<String>>;

/// Runs `f`, a panic in it an error of kind `Panic`.
fn caught<T>(f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        raised(
            "Panic",
            "internal error: the lane panicked (a defect; please report it)",
            None,
            None,
        )
    })
}

/// An unknown target or provenance name (a `RangeError` in JS, naming the valid ones).
fn unknown_name(message: impl std::fmt::Display) -> napi::Error<String> {
    raised("UnknownName", &message.to_string(), None, None)
}

fn provider_of(name: &str) -> Result<Provider> {
    name.parse::<Provider>().map_err(unknown_name)
}

fn target_of(name: &str) -> Result<Target> {
    provider_of(name).map(Target::for_provider)
}

fn provenance_of(name: &str) -> Result<Provenance> {
    name.parse::<Provenance>().map_err(unknown_name)
}

/// A view's JSON, written as it serializes (no `Value` built on the way).
fn written(view: &impl Serialize) -> Result<String> {
    serde_json::to_string(view).map_err(|e| raised("Json", &e.to_string(), None, None))
}

/// The references of one conversation: each stub's id maps back to its uri here.
#[napi]
pub struct Registry(Arc<ReferenceRegistry>);

#[napi]
impl Registry {
    /// `seed` is a decimal `u64`, or none for a random one.
    #[napi(constructor)]
    pub fn new(seed: Option<String>, fetch_tool: Option<String>) -> Result<Self> {
        let registry = match seed {
            None => ReferenceRegistry::new(),
            Some(seed) => ReferenceRegistry::with_seed(
                seed.parse()
                    .map_err(|_| invalid("seed is an integer from 0 to 2^64 - 1"))?,
            ),
        };
        let registry = match fetch_tool {
            None => registry,
            Some(name) => registry.with_fetch_tool(&name).map_err(|e| error(&e))?,
        };
        Ok(Registry(Arc::new(registry)))
    }

    /// The record behind a stub's id, as JSON.
    #[napi]
    pub fn lookup(&self, id: String) -> Result<String> {
        let record = self.0.lookup(&id).map_err(|e| error(&e))?;
        written(&record)
    }

    /// The registry as JSON, for `restore`.
    #[napi]
    pub fn snapshot(&self) -> Result<String> {
        written(&self.0.snapshot())
    }

    /// The registry a snapshot (its JSON) was taken of.
    #[napi(factory)]
    pub fn restore(snapshot: Message) -> Result<Registry> {
        let snapshot =
            serde_json::from_slice(bytes_of(&snapshot)).map_err(|e| raised("Snapshot", &e.to_string(), None, None))?;
        ReferenceRegistry::restore(&snapshot)
            .map(|r| Registry(Arc::new(r)))
            .map_err(|e| error(&e))
    }

    #[napi(getter)]
    pub fn size(&self) -> u32 {
        u32::try_from(self.0.len()).unwrap_or(u32::MAX)
    }

    #[napi(getter)]
    pub fn fetch_tool(&self) -> Option<String> {
        self.0.fetch_tool().map(str::to_owned)
    }
}

#[napi]
pub fn history_text(message: Message, registry: &Registry, budget: Option<u32>, provenance: String) -> Result<String> {
    let options = HistoryOptions {
        provenance: provenance_of(&provenance)?,
        budget: budget.map(|b| b as usize),
    };
    caught(|| history(bytes_of(&message), &registry.0, &options))?.map_err(|e| error(&e))
}

/// `{"content": …, "heldForUser": …}`, the content in the target's shape.
#[napi]
pub fn convert_blocks(message: Message, registry: &Registry, target: String, provenance: String) -> Result<String> {
    let target = target_of(&target)?;
    let provenance = provenance_of(&provenance)?;
    let converted = caught(|| convert(bytes_of(&message), provenance, &registry.0, &target))?.map_err(|e| error(&e))?;
    written(&target.converted_view(&converted))
}

#[napi]
pub fn script_value(message: Message, registry: &Registry, target: String) -> Result<String> {
    let target = target_of(&target)?;
    caught(|| script(bytes_of(&message), &registry.0, &target))?.map_err(|e| error(&e))
}

/// A tool result as `index.js`'s `ToolResult` keeps it, in a plain JS object: the JSON of
/// `Target::tool_result_parts` (what `toolResultMessages` puts together, in JS, with no
/// crossing), or, with `view`, of `Target::tool_result_view` (made when first asked for). No
/// native value is kept for a result: creating, unwrapping and finalizing one costs more than
/// the lane.
fn shown(result: &AgentToolResult<'_>, target: &Target, view: bool) -> Result<String> {
    if view {
        written(&target.tool_result_view(result))
    } else {
        written(&target.tool_result_parts(result))
    }
}

/// The `tools/call` params that call the tool again: `arguments` and `responses` JSON text.
fn retry_params_of(result: &AgentToolResult<'_>, arguments: &str, responses: &str) -> Result<String> {
    let Some(Pending::InputRequired(asked)) = &result.pending else {
        return Err(raised("InputResponses", "this result asks for no input", None, None));
    };
    let arguments = parse_json(arguments.as_bytes()).map_err(|e| error(&e))?;
    let Value::Object(responses) = parse_json(responses.as_bytes()).map_err(|e| error(&e))? else {
        return Err(invalid("responses is an object of each request's result by its key"));
    };
    let params = asked
        .retry_params(&result.name, &arguments, responses)
        .map_err(|e| error(&e))?;
    written(&params)
}

/// A fetch tool's answer, kept native: it cannot be made again from an input, as a server's
/// answer can (one fetch a call, so its cost does not matter).
pub struct Fetched {
    result: AgentToolResult<'static>,
}

#[napi(js_name = "fetchedShown")]
pub fn fetched_shown(fetched: &External<Fetched>, target: String, view: bool) -> Result<String> {
    shown(&fetched.result, &target_of(&target)?, view)
}

#[napi(js_name = "samplingRequest")]
pub fn sampling_request_of(message: Message, registry: &Registry, target: String) -> Result<String> {
    let target = target_of(&target)?;
    let request = caught(|| sampling_request(bytes_of(&message), &registry.0, &target))?.map_err(|e| error(&e))?;
    written(&request.to_json(&target))
}

#[napi(js_name = "elicitation")]
pub fn elicitation_of(message: Message) -> Result<String> {
    let request = parse_json(bytes_of(&message)).map_err(|e| error(&e))?;
    let asked = caught(|| elicitation(&request))?.map_err(|e| error(&e))?;
    written(&asked)
}

/// The targets' names, in the crate's table's order (`Provider::NAMES`).
#[napi]
pub fn targets() -> Vec<&'static str> {
    Provider::NAMES.iter().map(|(_, name)| *name).collect()
}

/// Fails, as every lane does, where `name` is no target's name.
#[napi(js_name = "checkTarget")]
pub fn check_target(name: String) -> Result<()> {
    target_of(&name).map(drop)
}

/// The provenances' names, in the crate's table's order (`Provenance::NAMES`).
#[napi]
pub fn provenances() -> Vec<&'static str> {
    Provenance::NAMES.iter().map(|(_, name)| *name).collect()
}

/// How many input rounds one call takes before the host gives up (the crate's bound).
#[napi(js_name = "maxInputRounds")]
pub fn max_input_rounds() -> u32 {
    u32::try_from(mcp_agent_view::MAX_INPUT_ROUNDS).unwrap_or(u32::MAX)
}

/// A server's answer to one call as [`shown`] gives it. Read again for its view, for another
/// target or for its retry params: the registry gives the same uri the same id, so it reads as
/// it did.
#[napi(js_name = "toolResult")]
pub fn tool_result_of(
    message: Message,
    name: String,
    tool_use_id: String,
    registry: &Registry,
    target: String,
    view: bool,
) -> Result<String> {
    let target = target_of(&target)?;
    let result = caught(|| tool_result(bytes_of(&message), &name, &tool_use_id, &registry.0, &target))?;
    shown(&result, &target, view)
}

/// The `tools/call` params that call the tool again, from the same answer read again.
#[napi(js_name = "toolResultRetryParams")]
pub fn tool_result_retry_params(
    message: Message,
    name: String,
    tool_use_id: String,
    registry: &Registry,
    arguments: String,
    responses: String,
) -> Result<String> {
    let target = Target::neutral();
    let result = caught(|| tool_result(bytes_of(&message), &name, &tool_use_id, &registry.0, &target))?;
    retry_params_of(&result, &arguments, &responses)
}

#[napi(js_name = "toolCallFailed")]
pub fn tool_call_failed_of(
    name: String,
    tool_use_id: String,
    error: String,
    target: String,
    view: bool,
) -> Result<String> {
    shown(
        &tool_call_failed(&name, &tool_use_id, &error),
        &target_of(&target)?,
        view,
    )
}

#[napi(js_name = "promptMessages")]
pub fn prompt_messages_of(message: Message, registry: &Registry, target: String) -> Result<String> {
    let target = target_of(&target)?;
    let messages = caught(|| prompt_messages(bytes_of(&message), &registry.0, &target))?.map_err(|e| error(&e))?;
    written(&target.messages_view(&messages))
}

/// Every block's `classify::Summary`, as one JSON array written as the walk reads them.
#[napi(js_name = "classify")]
pub fn classify_all(message: Message) -> Result<String> {
    let mut out = String::from("[");
    caught(|| {
        classify::summarize(bytes_of(&message), |summary| {
            if out.len() > 1 {
                out.push(',');
            }
            // A summary holds strings, numbers and nulls: writing it cannot fail.
            out.push_str(&serde_json::to_string(&summary).unwrap_or_default());
        })
    })?
    .map_err(|e| error(&e))?;
    out.push(']');
    Ok(out)
}

/// MCP tools (the JSON of `tools/list`'s `tools`) as the target's tool definitions.
#[napi]
pub fn tool_definitions(tools: Message, target: String) -> Result<String> {
    let target = target_of(&target)?;
    let tools: Vec<Value> = serde_json::from_slice(bytes_of(&tools))
        .map_err(|e| raised("Json", &e.to_string(), Some(e.line()), Some(e.column())))?;
    let out = tools
        .iter()
        .map(|tool| {
            target
                .mcp_tool_definition(tool)
                .ok_or_else(|| invalid("a tool without a name"))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Array(out).to_string())
}

#[napi]
pub fn fetch_tool_definition(target: String, name: String) -> Result<String> {
    Ok(fetch::tool_definition(provider_of(&target)?, &name).to_string())
}

/// Fetches references under a policy (its settings as JSON, as `index.js` writes them).
#[napi]
pub struct Fetcher {
    policy: FetchPolicy,
    save_dir: Option<PathBuf>,
}

#[napi]
impl Fetcher {
    /// `settings`: the JSON of the crate's `FetchSettings` (camelCase), and `saveDir`.
    #[napi(constructor)]
    pub fn new(settings: String) -> Result<Self> {
        /// The settings and, beside them, where the host saves what it fetched.
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Host {
            #[serde(flatten)]
            settings: FetchSettings,
            save_dir: Option<PathBuf>,
        }
        let Host { settings, save_dir } = serde_json::from_str(&settings).map_err(invalid)?;
        let policy = settings.policy().map_err(|e| error(&e))?;
        Ok(Fetcher { policy, save_dir })
    }

    /// The ceiling on one fetch's decoded bytes.
    #[napi(getter)]
    pub fn max_bytes(&self) -> f64 {
        self.policy.max_bytes_allowed() as f64
    }

    /// Answers one fetch-tool call on a worker thread: `input` is the JSON of the call's
    /// arguments.
    #[napi]
    pub fn fetch_reference(
        &self,
        input: String,
        tool_use_id: String,
        registry: &Registry,
        target: String,
    ) -> Result<AsyncTask<FetchTask>> {
        Ok(AsyncTask::new(FetchTask {
            policy: self.policy.clone(),
            save_dir: self.save_dir.clone(),
            input: serde_json::from_str(&input).unwrap_or(Value::Null),
            tool_use_id,
            registry: Arc::clone(&registry.0),
            target: target_of(&target)?,
        }))
    }
}

pub struct FetchTask {
    policy: FetchPolicy,
    save_dir: Option<PathBuf>,
    input: Value,
    tool_use_id: String,
    registry: Arc<ReferenceRegistry>,
    target: Target,
}

impl<'task> ScopedTask<'task> for FetchTask {
    type Output = AgentToolResult<'static>;
    type JsValue = Unknown<'task>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let mut fetcher = fetch::Fetcher::new(self.policy.clone());
        if let Some(dir) = &self.save_dir {
            fetcher = fetcher.save_dir(dir);
        }
        catch_unwind(AssertUnwindSafe(|| {
            fetch::fetch_reference(&self.input, &self.tool_use_id, &self.registry, &fetcher, &self.target)
        }))
        .map_err(|_| {
            napi::Error::new(
                napi::Status::GenericFailure,
                "internal error: the fetch panicked (a defect; please report it)",
            )
        })
    }

    fn resolve(&mut self, env: &'task Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        External::new(Fetched { result: output }).into_unknown(env)
    }
}
