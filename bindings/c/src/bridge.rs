//! The stdio bridge: an MCP server started as a child process, and calls to it.

use super::*;

/// Answers one request of a server that asks before it answers: `method`
/// (`elicitation/create`, `sampling/createMessage`, `roots/list`) and its params as JSON
/// (`params_len` bytes, NUL-terminated). Returns the request's result as NUL-terminated JSON in
/// memory from `malloc` (the library frees it), or null where the host does not answer. May be
/// called from a thread of the library's, and from several at once; `context` is the pointer
/// given to [`mav_server_start`].
pub type mav_on_input = Option<
    unsafe extern "C" fn(
        context: *mut libc::c_void,
        method: *const c_char,
        params: *const c_char,
        params_len: usize,
    ) -> *mut c_char,
>;

/// A C callback and its context, as the bridge's `OnInput`.
struct Callback {
    f: unsafe extern "C" fn(*mut libc::c_void, *const c_char, *const c_char, usize) -> *mut c_char,
    context: *mut libc::c_void,
}

// SAFETY: `mav_server_start`'s contract: the callback may be called from any thread, at once,
// with its context.
unsafe impl Send for Callback {}
// SAFETY: as above.
unsafe impl Sync for Callback {}

impl Callback {
    fn answer(&self, method: &str, params: &Value) -> Option<Value> {
        let method = std::ffi::CString::new(method).ok()?;
        let params = std::ffi::CString::new(params.to_string()).ok()?;
        let len = params.as_bytes().len();
        // SAFETY: the callback's contract: it reads the two strings and returns null or JSON
        // from malloc.
        let answer = unsafe { (self.f)(self.context, method.as_ptr(), params.as_ptr(), len) };
        if answer.is_null() {
            return None;
        }
        // SAFETY: a NUL-terminated string from malloc, ours to free.
        let value = unsafe {
            let value = serde_json::from_slice(CStr::from_ptr(answer).to_bytes()).ok();
            libc::free(answer.cast());
            value
        };
        value
    }
}

/// Starts `argv[0]` with the arguments `argv[1..argc]` as a stdio MCP server and connects to
/// it: initializing, and then each call, may take `timeout_ms` (0: the crate's default). Its
/// standard error is discarded. Errors of kind `Server` (it cannot be started, exits, writes
/// what is no JSON-RPC) or `Timeout`.
///
/// A server that asks before it answers (an input-required result, or requests over the
/// session under an older revision) is answered by `on_input` with `context`, and the client
/// declares the elicitation, sampling and roots capabilities; with a null `on_input`, plainly
/// (an elicitation declined, no roots, no sampling) and no capability is declared.
///
/// # Safety
/// `argv` points to `argc` NUL-terminated strings; `on_input` null or a function as
/// [`mav_on_input`] says, callable with `context` until the server is closed; `out`, `error`
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_server_start(
    argv: *const *const c_char,
    argc: usize,
    timeout_ms: u64,
    on_input: mav_on_input,
    context: *mut libc::c_void,
    out: *mut *mut mav_server,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            if argv.is_null() || argc == 0 {
                return Err(Failure::invalid("argv holds at least the program"));
            }
            let args = std::slice::from_raw_parts(argv, argc)
                .iter()
                .map(|&arg| required(arg, "an argument"))
                .collect::<Outcome<Vec<_>>>()?;
            let mut server = StdioServer::new(args[0]).args(&args[1..]);
            if timeout_ms > 0 {
                server = server.timeout(Duration::from_millis(timeout_ms));
            }
            if let Some(f) = on_input {
                let callback = Callback { f, context };
                server = server.on_input(std::sync::Arc::new(move |method: &str, params: &Value| {
                    callback.answer(method, params)
                }));
            }
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .map_err(|e| Failure::new("Server", format!("start: no runtime: {e}")))?;
            let client = runtime.block_on(server.connect())?;
            Ok(mav_server {
                runtime,
                client: Some(client),
            })
        })
    }
}

/// Ends the session, stops the server and frees the handle. Null is ignored.
///
/// # Safety
/// `server` null or a server of this library's, not yet closed, in use by no other thread.
#[no_mangle]
pub unsafe extern "C" fn mav_server_close(server: *mut mav_server) {
    if server.is_null() {
        return;
    }
    // SAFETY: the caller's promise: it came from `Box::into_raw` in `handle_out`.
    let mut server = unsafe { Box::from_raw(server) };
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if let Some(client) = server.client.take() {
            server.runtime.block_on(client.close());
        }
    }));
}

/// A call's answer, on its way.
type Answer<'c> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, mcp_agent_view::Error>> + Send + 'c>>;

/// Runs one call of the server's within `timeout_ms` (0: the server's own timeout for each
/// request).
///
/// # Safety
/// `server` null or a live server; the outputs null or writable.
unsafe fn server_call(
    server: *const mav_server,
    timeout_ms: u64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
    call: impl for<'c> FnOnce(&'c StdioClient) -> Outcome<Answer<'c>>,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let server = handle(server, "server")?;
            let client = server
                .client
                .as_ref()
                .ok_or_else(|| Failure::invalid("the server is closed"))?;
            let future = call(client)?;
            let answer = if timeout_ms == 0 {
                server.runtime.block_on(future)?
            } else {
                let limit = Duration::from_millis(timeout_ms);
                server
                    .runtime
                    .block_on(async move { tokio::time::timeout(limit, future).await })
                    .map_err(|_| Failure::new("Timeout", format!("call: no answer within {timeout_ms} ms")))??
            };
            written(&answer)
        })
    }
}

/// One request, under the server's own timeout unless the call has one of its own.
fn request(client: &StdioClient, request: ClientRequest, timeout_ms: u64) -> Answer<'_> {
    if timeout_ms == 0 {
        Box::pin(client.request(request))
    } else {
        Box::pin(client.request_within(request, None))
    }
}

/// An object of JSON arguments, or none for no bytes.
fn arguments_of(json: &[u8]) -> Outcome<Option<Map<String, Value>>> {
    if json.is_empty() {
        return Ok(None);
    }
    match parse_json(json)? {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        _ => Err(Failure::invalid("arguments are a JSON object")),
    }
}

/// `tools/list`: the server's answer as JSON (`{"tools": […]}`, or a JSON-RPC error response).
///
/// # Safety
/// `server` a live server; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_server_list_tools(
    server: *const mav_server,
    timeout_ms: u64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        server_call(server, timeout_ms, out, out_len, error, |client| {
            Ok(request(
                client,
                ClientRequest::ListToolsRequest(ListToolsRequest::default()),
                timeout_ms,
            ))
        })
    }
}

/// `tools/call`: the server's answer as it sent it, for [`mav_tool_result_new`]: the result, or
/// the JSON-RPC error response. An input-required result is answered (plainly) and the call
/// made again. `arguments`: a JSON object, or null with a length of 0 for none.
///
/// # Safety
/// `server` a live server; `name` a NUL-terminated string; `arguments` null with
/// `arguments_len` 0 or readable; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_server_call_tool(
    server: *const mav_server,
    name: *const c_char,
    arguments: *const u8,
    arguments_len: usize,
    timeout_ms: u64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        server_call(server, timeout_ms, out, out_len, error, |client| {
            let name = required(name, "name")?;
            let arguments = arguments_of(bytes(arguments, arguments_len)?)?;
            Ok(Box::pin(async move { client.call_tool(name, arguments).await }))
        })
    }
}

/// `prompts/get`: the server's answer as JSON, for [`mav_prompt_messages`]. `arguments`: a JSON
/// object of strings, or null with a length of 0 for none.
///
/// # Safety
/// As [`mav_server_call_tool`].
#[no_mangle]
pub unsafe extern "C" fn mav_server_get_prompt(
    server: *const mav_server,
    name: *const c_char,
    arguments: *const u8,
    arguments_len: usize,
    timeout_ms: u64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        server_call(server, timeout_ms, out, out_len, error, |client| {
            let mut params = GetPromptRequestParams::new(required(name, "name")?.to_owned());
            params.arguments = arguments_of(bytes(arguments, arguments_len)?)?;
            Ok(request(
                client,
                ClientRequest::GetPromptRequest(Request::new(params)),
                timeout_ms,
            ))
        })
    }
}

/// `resources/read`: the server's answer as JSON (`{"contents": […]}`, or a JSON-RPC error
/// response).
///
/// # Safety
/// `server` a live server; `uri` a NUL-terminated string; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_server_read_resource(
    server: *const mav_server,
    uri: *const c_char,
    timeout_ms: u64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        server_call(server, timeout_ms, out, out_len, error, |client| {
            let params = ReadResourceRequestParams::new(required(uri, "uri")?.to_owned());
            Ok(request(
                client,
                ClientRequest::ReadResourceRequest(Request::new(params)),
                timeout_ms,
            ))
        })
    }
}
