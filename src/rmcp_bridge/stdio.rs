//! A stdio MCP server as a child process, with rmcp's client over its pipes (feature `stdio`).
//!
//! rmcp's own child-process transport drops a line over 16 MiB without a word, and a request
//! whose answer was dropped never returns; a server that writes something other than JSON-RPC
//! to its stdout makes a request wait until the server exits. Here every line the server writes
//! is read by this module first: a line over the limit, a line that is not JSON, a closed
//! output and an exit each end the connection at once with an [`Error`] that says which step
//! failed and what the server did, and every request has a timeout.

use std::ffi::OsString;
use std::future::Future;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[allow(deprecated)] // sampling and roots: deprecated in 2026-07-28, still asked and answered
use ::rmcp::model::{
    CallToolRequestParams, ClientConfig, ClientJsonRpcMessage, ClientRequest, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsResult, ProtocolVersion, Request,
    ServerJsonRpcMessage,
};
use ::rmcp::service::{ClientLifecycleMode, ClientServiceExt as _, RequestContext, RunningService, ServiceError};
use ::rmcp::transport::Transport;
use ::rmcp::{ClientHandler, ErrorData as McpError, RoleClient, ServiceExt as _};
use serde_json::{json, Map, Value};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::{error_json, server_result_json};
use crate::error::{Error, ErrorKind};
use crate::wire::pending::{pending_of, result_object, Pending, ResultType, MAX_INPUT_ROUNDS};

/// Answers one request of a server that asks before it answers: `(method, params)` to the
/// request's result as JSON (an `ElicitResult`, a `CreateMessageResult`, a `ListRootsResult`),
/// or `None` where the host does not answer that kind. [`answer_plainly`] is the least a host
/// answers.
pub type OnInput = Arc<dyn Fn(&str, &Value) -> Option<Value> + Send + Sync>;

/// What a host with no form, no model of its own and no roots answers: an elicitation
/// declined, no roots, no sampling (`None`).
#[must_use]
pub fn answer_plainly(method: &str, _params: &Value) -> Option<Value> {
    match method {
        "elicitation/create" => Some(json!({"action": "decline"})),
        "roots/list" => Some(json!({"roots": []})),
        _ => None,
    }
}

/// The client's side of a session: the capabilities it declares (where the host asked to be
/// asked), and its answers to what a server asks over the session (revisions before
/// 2026-07-28), from the same [`OnInput`] that answers an input-required result.
#[doc(hidden)]
#[derive(Clone)]
pub struct Handler {
    on_input: OnInput,
    asks: bool,
}

impl Handler {
    fn answer<T: serde::de::DeserializeOwned>(&self, method: &str, params: &Value) -> Result<T, McpError> {
        let refused = || McpError::internal_error(format!("this client answers no {method} request"), None);
        let answer = (self.on_input)(method, params).ok_or_else(refused)?;
        serde_json::from_value(answer).map_err(|e| McpError::internal_error(format!("{method}: {e}"), None))
    }
}

#[allow(deprecated)]
impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        // Declared so that a server may ask: each is answered, or refused, by `OnInput`.
        if !self.asks {
            return info;
        }
        if let Ok(capabilities) =
            serde_json::from_value(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}}))
        {
            info.capabilities = capabilities;
        }
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        let params = serde_json::to_value(params).unwrap_or(Value::Null);
        self.answer("sampling/createMessage", &params)
    }

    async fn list_roots(&self, _: RequestContext<RoleClient>) -> Result<ListRootsResult, McpError> {
        self.answer("roots/list", &json!({}))
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let params = serde_json::to_value(params).unwrap_or(Value::Null);
        self.answer("elicitation/create", &params)
    }
}

/// The longest line a server may write by default, in bytes: a result with a 100 MB blob
/// fits.
pub const DEFAULT_MAX_LINE_BYTES: usize = 256 * 1024 * 1024;

/// How long initializing and each request may take by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start a stdio MCP server: its command, the longest line it may write, the timeout.
///
/// ```no_run
/// use mcp_agent_view::rmcp_bridge::StdioServer;
/// use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
///
/// # async fn run() -> Result<(), mcp_agent_view::Error> {
/// let server = StdioServer::new("npx").args(["-y", "@modelcontextprotocol/server-everything", "stdio"]);
/// let client = server.connect().await?; // starts it and negotiates the newest protocol
/// let request = ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("get-tiny-image")));
/// let answer = client.request(request).await?; // the result, or a JSON-RPC error response
/// let message = mcp_agent_view::Message::decode(&answer)?;
/// client.close().await;
/// # let _ = message; Ok(()) }
/// ```
#[derive(Clone)]
pub struct StdioServer {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<Env>,
    current_dir: Option<PathBuf>,
    max_line_bytes: usize,
    timeout: Duration,
    inherit_stderr: bool,
    handshake: Handshake,
    on_input: Option<OnInput>,
}

impl std::fmt::Debug for StdioServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioServer")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("max_line_bytes", &self.max_line_bytes)
            .field("timeout", &self.timeout)
            .field("handshake", &self.handshake)
            .field("on_input", &self.on_input.is_some())
            .finish_non_exhaustive()
    }
}

/// How a [`StdioServer`] starts its session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Handshake {
    /// rmcp's automatic lifecycle: `server/discover` for the newest protocol the server
    /// speaks, falling back to `initialize` where the server is older. The default.
    #[default]
    Negotiate,
    /// The `initialize` handshake only, as protocol versions before 2026-07-28 have it.
    Initialize,
}

/// One change to the server's environment, in the order given.
#[derive(Clone, Debug)]
enum Env {
    Set(OsString, OsString),
    Remove(OsString),
    Clear,
}

impl StdioServer {
    /// A server started as `program`, with [`DEFAULT_MAX_LINE_BYTES`] and [`DEFAULT_TIMEOUT`];
    /// its standard error is discarded.
    pub fn new(program: impl Into<OsString>) -> Self {
        StdioServer {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            current_dir: None,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            timeout: DEFAULT_TIMEOUT,
            inherit_stderr: false,
            handshake: Handshake::Negotiate,
            on_input: None,
        }
    }

    /// What the host answers a server that asks before it answers: each request of a 2026-07-28
    /// input-required result ([`StdioClient::call_tool`]), and the same requests sent over the
    /// session by a server of an older revision. The client then declares the elicitation,
    /// sampling and roots capabilities. Without it, the client declares none (a server may not
    /// ask) and [`answer_plainly`] answers an input-required result all the same.
    #[must_use]
    pub fn on_input(mut self, on_input: OnInput) -> Self {
        self.on_input = Some(on_input);
        self
    }

    /// Sets an environment variable of the server (it inherits this process's otherwise).
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push(Env::Set(key.into(), value.into()));
        self
    }

    /// Leaves an environment variable out of the server's environment.
    #[must_use]
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Self {
        self.env.push(Env::Remove(key.into()));
        self
    }

    /// Starts the server with no environment but what [`StdioServer::env`] sets after this.
    #[must_use]
    pub fn env_clear(mut self) -> Self {
        self.env.push(Env::Clear);
        self
    }

    /// The server's working directory (this process's by default).
    #[must_use]
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// How the session starts: [`Handshake::Negotiate`] (the default) or
    /// [`Handshake::Initialize`].
    #[must_use]
    pub fn handshake(mut self, handshake: Handshake) -> Self {
        self.handshake = handshake;
        self
    }

    /// Adds arguments to the command.
    #[must_use]
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// The longest line, in bytes, the server may write; a longer one ends the connection with
    /// an error. Every JSON-RPC message is one line, so this bounds a result.
    #[must_use]
    pub fn max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line_bytes = bytes;
        self
    }

    /// How long initializing, and then each request, may take ([`DEFAULT_TIMEOUT`] by
    /// default); [`StdioClient::request_within`] sets it for one call.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Lets the server write to this process's standard error (discarded by default).
    #[must_use]
    pub fn inherit_stderr(mut self, inherit: bool) -> Self {
        self.inherit_stderr = inherit;
        self
    }

    /// Starts the server and initializes it. Fails with [`ErrorKind::Server`] where the
    /// server cannot be started, exits, closes its output, writes a line that is not JSON or
    /// is over the limit, or refuses to initialize; with [`ErrorKind::Timeout`] where it does
    /// not answer in time. The message names the step: `start: …`, `initialize: …`.
    pub async fn connect(self) -> Result<StdioClient, Error> {
        let name = self.program.to_string_lossy().into_owned();
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if self.inherit_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            // However this ends, the server does not outlive its client.
            .kill_on_drop(true);
        for change in &self.env {
            match change {
                Env::Set(key, value) => command.env(key, value),
                Env::Remove(key) => command.env_remove(key),
                Env::Clear => command.env_clear(),
            };
        }
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Error::new(ErrorKind::Server, format!("start: cannot run {name}: {e}")))?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return Err(Error::new(ErrorKind::Server, format!("start: {name} has no pipes")));
        };
        let fault = Arc::new(Mutex::new(None));
        let transport = LineTransport {
            reader: BufReader::with_capacity(64 * 1024, stdout),
            writer: Arc::new(tokio::sync::Mutex::new(stdin)),
            max_line_bytes: self.max_line_bytes,
            fault: Arc::clone(&fault),
        };
        let connection = Connection {
            child: tokio::sync::Mutex::new(child),
            fault,
            timeout: self.timeout,
        };
        let asks = self.on_input.is_some();
        let handler = Handler {
            on_input: self.on_input.unwrap_or_else(|| Arc::new(answer_plainly)),
            asks,
        };
        let on_input = Arc::clone(&handler.on_input);
        let started = async {
            match self.handshake {
                Handshake::Initialize => handler.serve(transport).await,
                Handshake::Negotiate => {
                    let lifecycle = ClientLifecycleMode::Auto {
                        preferred_versions: vec![ProtocolVersion::LATEST],
                        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
                    };
                    handler.serve_with_lifecycle(transport, lifecycle).await
                }
            }
        };
        let service = match tokio::time::timeout(self.timeout, started).await {
            Ok(Ok(service)) => service,
            Ok(Err(error)) => return Err(connection.failure("initialize", &error.to_string()).await),
            Err(_) => return Err(connection.timed_out("initialize")),
        };
        Ok(StdioClient {
            service,
            connection,
            on_input,
        })
    }
}

/// A started, initialized server and rmcp's client to it. Dropping it kills the server.
pub struct StdioClient {
    service: RunningService<RoleClient, Handler>,
    connection: Connection,
    on_input: OnInput,
}

impl std::fmt::Debug for StdioClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioClient")
            .field("timeout", &self.connection.timeout)
            .finish_non_exhaustive()
    }
}

impl StdioClient {
    /// Sends one request and gives back the answer as JSON, ready for
    /// [`tool_result`](fn@crate::tool_result) or [`Message::decode`](crate::Message::decode):
    /// the result (typed by rmcp or, where rmcp could not type it, as it arrived), or the
    /// JSON-RPC error response the server sent. Fails as [`StdioServer::connect`] does, the
    /// message starting `call: `.
    ///
    /// Takes `&self`: the calls of one turn run at once over the one connection (join them).
    pub async fn request(&self, request: ClientRequest) -> Result<Value, Error> {
        self.request_within(request, Some(self.connection.timeout)).await
    }

    /// [`StdioClient::request`] with a timeout of its own for this call, or none (`None`).
    pub async fn request_within(&self, request: ClientRequest, timeout: Option<Duration>) -> Result<Value, Error> {
        let sent = self.service.peer().send_request(request);
        let answer = match timeout {
            Some(timeout) => match tokio::time::timeout(timeout, sent).await {
                Ok(answer) => answer,
                Err(_) => return Err(Connection::timed_out_after("call", timeout)),
            },
            None => sent.await,
        };
        match answer {
            Ok(result) => server_result_json(&result),
            Err(ServiceError::McpError(error)) => Ok(error_json(&error)),
            Err(error) => Err(self.connection.failure("call", &error.to_string()).await),
        }
    }

    /// `tools/call`, as [`StdioClient::request`] sends it, with an input-required result
    /// (revision 2026-07-28) answered: each request goes to the server's [`OnInput`]
    /// ([`answer_plainly`] unless [`StdioServer::on_input`] set one) and the call is made again
    /// with the answers and the echoed state, at most [`MAX_INPUT_ROUNDS`] times. A request the
    /// host does not answer, or a server still asking after the bound, is an error response
    /// naming why, which [`tool_result`](fn@crate::tool_result) shows as a failed call.
    pub async fn call_tool(&self, name: &str, arguments: Option<Map<String, Value>>) -> Result<Value, Error> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments.clone_from(&arguments);
        let mut answer = self
            .request(ClientRequest::CallToolRequest(Request::new(params)))
            .await?;
        for round in 0..=MAX_INPUT_ROUNDS {
            let result = result_object(&answer);
            let word = result.get("resultType").and_then(Value::as_str);
            if !matches!(ResultType::of(word), ResultType::InputRequired) {
                return Ok(answer);
            }
            let Some(Pending::InputRequired(asked)) = pending_of(result, false) else {
                return Ok(answer); // a failed call, as tool_result shows it
            };
            if round == MAX_INPUT_ROUNDS {
                return Ok(failed(&format!(
                    "the server asked for input more than {MAX_INPUT_ROUNDS} times"
                )));
            }
            let mut responses = std::collections::BTreeMap::new();
            for request in &asked.requests {
                let Some(response) = (self.on_input)(&request.method, &request.params) else {
                    let why = format!(
                        "the server asked for {}, which this client does not answer",
                        request.method
                    );
                    return Ok(failed(&why));
                };
                responses.insert(request.key.clone(), response);
            }
            let mut params = CallToolRequestParams::new(name.to_owned()).with_input_responses(responses);
            params.arguments.clone_from(&arguments);
            if let Some(state) = &asked.request_state {
                params = params.with_request_state(state.clone());
            }
            answer = self
                .request(ClientRequest::CallToolRequest(Request::new(params)))
                .await?;
        }
        Ok(answer)
    }

    /// rmcp's peer, for anything [`StdioClient::request`] does not cover. Its requests have
    /// no timeout of this module's; the line checks still hold.
    #[must_use]
    pub fn peer(&self) -> &::rmcp::Peer<RoleClient> {
        self.service.peer()
    }

    /// Ends the session and the server: closes its input, waits a moment, then kills it.
    pub async fn close(self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.service.cancel()).await;
        let _ = self.connection.child.lock().await.kill().await;
    }
}

/// An error response in the client's own words, which the lanes show as a failed request.
fn failed(message: &str) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": -32603, "message": message}})
}

/// What the client knows of the server beside rmcp: its process, what its output did.
struct Connection {
    child: tokio::sync::Mutex<Child>,
    fault: Arc<Mutex<Option<String>>>,
    timeout: Duration,
}

impl Connection {
    /// The error of `step`, from what the server did: a fault the reader saw, an exit, or
    /// else what rmcp said.
    async fn failure(&self, step: &str, rmcp_said: &str) -> Error {
        let fault = self.fault.lock().map(|f| f.clone()).unwrap_or_default();
        let cause = match fault {
            Some(fault) if !fault.starts_with("the server closed") => fault,
            fault => {
                // A server that closed its output is usually exiting: give it a moment to say how.
                let mut child = self.child.lock().await;
                match tokio::time::timeout(Duration::from_millis(500), child.wait()).await {
                    Ok(Ok(status)) => match status.code() {
                        Some(code) => format!("the server exited with status {code}"),
                        None => format!("the server was ended ({status})"),
                    },
                    _ => fault.unwrap_or_else(|| format!("the connection failed: {}", one_line(rmcp_said, 200))),
                }
            }
        };
        Error::new(ErrorKind::Server, format!("{step}: {cause}"))
    }

    fn timed_out(&self, step: &str) -> Error {
        Connection::timed_out_after(step, self.timeout)
    }

    fn timed_out_after(step: &str, timeout: Duration) -> Error {
        Error::new(
            ErrorKind::Timeout,
            format!("{step}: the server did not answer within {} s", timeout.as_secs_f64()),
        )
    }
}

/// rmcp's transport over the child's pipes, one JSON-RPC message a line, that tells why it
/// stopped.
struct LineTransport {
    reader: BufReader<ChildStdout>,
    writer: Arc<tokio::sync::Mutex<ChildStdin>>,
    max_line_bytes: usize,
    fault: Arc<Mutex<Option<String>>>,
}

impl LineTransport {
    fn stop(&self, why: String) -> Option<ServerJsonRpcMessage> {
        if let Ok(mut fault) = self.fault.lock() {
            fault.get_or_insert(why);
        }
        None
    }

    async fn next_message(&mut self) -> Option<ServerJsonRpcMessage> {
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_line(&mut self.reader, &mut line, self.max_line_bytes).await {
                Err(e) => return self.stop(format!("cannot read the server's output: {e}")),
                Ok(Line::End) => return self.stop("the server closed its output".to_owned()),
                Ok(Line::TooLong) => {
                    return self.stop(format!(
                        "the server wrote a line over {} bytes (the limit; see max_line_bytes)",
                        self.max_line_bytes
                    ))
                }
                Ok(Line::Read) => {}
            }
            let text = message_text(&line);
            if text.is_empty() {
                continue;
            }
            let Ok(value) = serde_json::from_slice::<Value>(text) else {
                let shown = one_line(&String::from_utf8_lossy(text), 80);
                return self.stop(format!("the server wrote a line that is not JSON: {shown:?}"));
            };
            match serde_json::from_value::<ServerJsonRpcMessage>(value.clone()) {
                Ok(message) => return Some(message),
                // A request or notification rmcp cannot type is skipped, as rmcp skips it.
                Err(_) if value.get("method").is_some() => {}
                Err(e) => {
                    let shown = one_line(&String::from_utf8_lossy(text), 80);
                    return self.stop(format!(
                        "the server wrote a message that is not JSON-RPC ({e}): {shown:?}"
                    ));
                }
            }
        }
    }
}

impl Transport<RoleClient> for LineTransport {
    type Error = std::io::Error;

    fn send(&mut self, item: ClientJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut writer = writer.lock().await;
            writer.write_all(&line).await?;
            writer.flush().await
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.next_message()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}

enum Line {
    Read,
    End,
    TooLong,
}

/// How long the server's output stays quiet, after a line that lacks its newline but holds one
/// whole JSON object, before that line is taken as it is.
const QUIET_BEFORE_UNENDED_LINE: Duration = Duration::from_millis(50);

/// Reads one line into `line`, newline included, holding at most `max` bytes of it before the
/// newline: a longer one is `TooLong` as soon as the limit is passed. A last line may lack its
/// newline: it ends where the output ends, or where it holds one whole JSON object and the
/// server then writes nothing for [`QUIET_BEFORE_UNENDED_LINE`] (a server may leave its output
/// open after its last answer: Node's `process.stdout.end()` does not close the pipe).
async fn read_line(reader: &mut BufReader<ChildStdout>, line: &mut Vec<u8>, max: usize) -> std::io::Result<Line> {
    loop {
        // `fill_buf` is cancel safe: a wait cut short reads nothing.
        if may_be_whole_object(line)
            && tokio::time::timeout(QUIET_BEFORE_UNENDED_LINE, reader.fill_buf())
                .await
                .is_err()
            && serde_json::from_slice::<serde::de::IgnoredAny>(message_text(line)).is_ok()
        {
            return Ok(Line::Read);
        }
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            // The last line may lack its newline.
            return Ok(if line.is_empty() { Line::End } else { Line::Read });
        }
        let (taken, done) = match memchr::memchr(b'\n', buffer) {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        let content = line.len() + taken - usize::from(done);
        if content > max {
            return Ok(Line::TooLong);
        }
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(taken);
        if done {
            return Ok(Line::Read);
        }
    }
}

/// Whether `line` (no newline in it) starts with `{` and ends with `}`, so may be one whole JSON
/// object: it is read whole only then, and only once the server is quiet, so that a long line
/// arriving in pieces is not read again at each.
fn may_be_whole_object(line: &[u8]) -> bool {
    let text = message_text(line);
    text.starts_with(b"{") && text.ends_with(b"}")
}

/// What a line of the server's holds: without a byte-order mark and the white space around it
/// (its newline included).
fn message_text(line: &[u8]) -> &[u8] {
    line.strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(line)
        .trim_ascii()
}

/// `text` on one line, its white space runs as one space, at most `max` characters (`…` at a
/// cut).
fn one_line(text: &str, max: usize) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= max {
        return joined;
    }
    let mut cut: String = joined.chars().take(max).collect();
    cut.push('…');
    cut
}
