//! The crate's lanes over a C ABI: JSON bytes in, UTF-8 text or JSON out.
//!
//! Every function that can fail returns `0` on success and `1` on failure; on failure it sets
//! `*error` (where `error` is not null) to an [`mav_error`] the caller frees with
//! [`mav_error_free`]. Text and JSON come back as a `malloc`ed buffer (`*out`, `*out_len`
//! bytes, followed by a NUL the length does not count), freed with [`mav_string_free`]. The
//! handles ([`mav_registry`], [`mav_tool_result`], [`mav_server`]) are freed by their own
//! functions. No panic crosses the boundary: a panic is an error of kind `Panic`.
//!
//! A registry and a server may be used from several threads at once, as in Rust. Strings in
//! (`const char *`) are NUL-terminated UTF-8; `NULL` where a name is optional takes the default
//! the function names.

#![allow(non_camel_case_types)]

use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use mcp_agent_view::fetch::{self, FetchPolicy, FetchSettings};
use mcp_agent_view::rmcp_bridge::{StdioClient, StdioServer};
use mcp_agent_view::{
    classify, convert, elicitation, history, parse_json, prompt_messages, sampling_request, script, tool_call_failed,
    tool_result, AgentToolResult, HistoryOptions, Pending, Provenance, Provider, ReferenceRegistry, Target,
};
use rmcp::model::{ClientRequest, GetPromptRequestParams, ListToolsRequest, ReadResourceRequestParams, Request};
use serde::Serialize;
use serde_json::{Map, Value};

/// The call succeeded.
pub const MAV_OK: i32 = 0;
/// The call failed; `*error` says why.
pub const MAV_ERROR: i32 = 1;

/// Why a call failed. `kind` is one of the crate's `ErrorKind` names (`Json`,
/// `UnrecognizedMessage`, `UnknownReference`, `Snapshot`, `UnknownProvider`,
/// `UnknownProvenance`, `Server`, `Timeout`, …), or `InvalidArgument` (a null pointer, text
/// that is not UTF-8, arguments that are not what the function takes) or `Panic` (a defect).
/// `line` and `column` are where a JSON error lies, 1-based; 0 where not known.
#[repr(C)]
pub struct mav_error {
    /// The kind's name, NUL-terminated.
    pub kind: *mut c_char,
    /// One line saying what went wrong, NUL-terminated.
    pub message: *mut c_char,
    /// The line of a JSON error, or 0.
    pub line: u64,
    /// The column of a JSON error, or 0.
    pub column: u64,
}

/// The references of one conversation: each stub's id maps back to its uri here.
pub struct mav_registry(ReferenceRegistry);

/// One call's tool result, as the model reads it (see [`mav_tool_result_view`]).
pub struct mav_tool_result {
    result: AgentToolResult<'static>,
    target: Target,
}

/// Fetches references under a policy, for the model's fetch tool (see [`mav_fetcher_new`]).
pub struct mav_fetcher {
    policy: FetchPolicy,
    save_dir: Option<std::path::PathBuf>,
}

/// A stdio MCP server started as a child process, with a client connected to it.
pub struct mav_server {
    runtime: tokio::runtime::Runtime,
    client: Option<StdioClient>,
}

/// An error before it crosses the boundary.
struct Failure {
    kind: String,
    message: String,
    line: u64,
    column: u64,
}

impl Failure {
    fn new(kind: &str, message: impl std::fmt::Display) -> Self {
        Failure {
            kind: kind.to_owned(),
            message: message.to_string(),
            line: 0,
            column: 0,
        }
    }

    fn invalid(message: impl std::fmt::Display) -> Self {
        Failure::new("InvalidArgument", message)
    }
}

impl From<mcp_agent_view::Error> for Failure {
    fn from(e: mcp_agent_view::Error) -> Self {
        Failure {
            kind: format!("{:?}", e.kind()),
            message: e.to_string(),
            line: e.line().map_or(0, |n| n as u64),
            column: e.column().map_or(0, |n| n as u64),
        }
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure {
            kind: "Json".to_owned(),
            message: e.to_string(),
            line: e.line() as u64,
            column: e.column() as u64,
        }
    }
}

type Outcome<T> = Result<T, Failure>;

/// A copy of `bytes` in a `malloc`ed buffer with a NUL after them; null where memory ran out.
fn malloced(bytes: &[u8]) -> *mut c_char {
    // SAFETY: malloc of a nonzero size; the result is checked before it is written.
    let ptr = unsafe { libc::malloc(bytes.len() + 1) }.cast::<u8>();
    if !ptr.is_null() {
        // SAFETY: `ptr` holds `bytes.len() + 1` bytes, and does not overlap `bytes`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
            *ptr.add(bytes.len()) = 0;
        }
    }
    ptr.cast()
}

/// Text for C: a NUL inside it would cut a C string short, so `kind` and `message` never hold
/// one.
fn c_text(text: &str) -> *mut c_char {
    malloced(text.replace('\0', "\u{FFFD}").as_bytes())
}

/// Writes `failure` to `*error` where `error` is not null.
///
/// # Safety
/// `error` is null or points to writable memory for one pointer.
unsafe fn fail(error: *mut *mut mav_error, failure: &Failure) -> i32 {
    if !error.is_null() {
        let boxed = Box::new(mav_error {
            kind: c_text(&failure.kind),
            message: c_text(&failure.message),
            line: failure.line,
            column: failure.column,
        });
        // SAFETY: the caller's promise.
        unsafe { *error = Box::into_raw(boxed) };
    }
    MAV_ERROR
}

/// Runs `f`, a panic in it a failure of kind `Panic`.
fn caught<T>(f: impl FnOnce() -> Outcome<T>) -> Outcome<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(Failure::new(
            "Panic",
            "internal error: a panic (a defect; please report it)",
        ))
    })
}

/// Runs `f` and hands its text to `*out` and `*out_len`, or its failure to `*error`.
///
/// # Safety
/// `out`, `out_len` and `error` are each null or point to writable memory for one value.
unsafe fn text_out(
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
    f: impl FnOnce() -> Outcome<String>,
) -> i32 {
    if !error.is_null() {
        // SAFETY: the caller's promise.
        unsafe { *error = std::ptr::null_mut() };
    }
    if out.is_null() || out_len.is_null() {
        // SAFETY: the caller's promise.
        return unsafe { fail(error, &Failure::invalid("out and out_len must not be null")) };
    }
    // SAFETY: the caller's promise.
    unsafe {
        *out = std::ptr::null_mut();
        *out_len = 0;
    }
    match caught(f) {
        Ok(text) => {
            let ptr = malloced(text.as_bytes());
            if ptr.is_null() {
                // SAFETY: the caller's promise.
                return unsafe { fail(error, &Failure::new("OutOfMemory", "malloc failed")) };
            }
            // SAFETY: the caller's promise.
            unsafe {
                *out = ptr;
                *out_len = text.len();
            }
            MAV_OK
        }
        // SAFETY: the caller's promise.
        Err(failure) => unsafe { fail(error, &failure) },
    }
}

/// Runs `f` and hands the handle it makes to `*out`, or its failure to `*error`.
///
/// # Safety
/// `out` and `error` are each null or point to writable memory for one pointer.
unsafe fn handle_out<T>(out: *mut *mut T, error: *mut *mut mav_error, f: impl FnOnce() -> Outcome<T>) -> i32 {
    if !error.is_null() {
        // SAFETY: the caller's promise.
        unsafe { *error = std::ptr::null_mut() };
    }
    if out.is_null() {
        // SAFETY: the caller's promise.
        return unsafe { fail(error, &Failure::invalid("out must not be null")) };
    }
    // SAFETY: the caller's promise.
    unsafe { *out = std::ptr::null_mut() };
    match caught(f) {
        Ok(value) => {
            // SAFETY: the caller's promise.
            unsafe { *out = Box::into_raw(Box::new(value)) };
            MAV_OK
        }
        // SAFETY: the caller's promise.
        Err(failure) => unsafe { fail(error, &failure) },
    }
}

/// The bytes `ptr` points to, `len` of them; null only with a length of 0.
///
/// # Safety
/// `ptr` is null or points to `len` readable bytes that outlive `'a`.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Outcome<&'a [u8]> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(Failure::invalid("a null buffer with a nonzero length"))
        };
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A NUL-terminated UTF-8 string, or `None` for null.
///
/// # Safety
/// `ptr` is null or a NUL-terminated string that outlives `'a`.
unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Outcome<Option<&'a str>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's promise.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str()
        .map(Some)
        .map_err(|_| Failure::invalid(format!("{what} is not UTF-8")))
}

/// A string that may not be null.
///
/// # Safety
/// As [`text`].
unsafe fn required<'a>(ptr: *const c_char, what: &str) -> Outcome<&'a str> {
    // SAFETY: the caller's promise.
    unsafe { text(ptr, what) }?.ok_or_else(|| Failure::invalid(format!("{what} must not be null")))
}

/// The handle behind `ptr`.
///
/// # Safety
/// `ptr` is null or a live handle of this library's.
unsafe fn handle<'a, T>(ptr: *const T, what: &str) -> Outcome<&'a T> {
    // SAFETY: the caller's promise.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::invalid(format!("{what} must not be null")))
}

fn target_of(name: Option<&str>, default: Provider) -> Outcome<Target> {
    let provider = match name {
        None => default,
        Some(name) => name.parse::<Provider>()?,
    };
    Ok(Target::for_provider(provider))
}

fn provenance_of(name: Option<&str>, default: Provenance) -> Outcome<Provenance> {
    Ok(match name {
        None => default,
        Some(name) => name.parse()?,
    })
}

fn written(view: &impl Serialize) -> Outcome<String> {
    Ok(serde_json::to_string(view)?)
}

/// Frees a buffer this library returned (`*out` of any function). Null is ignored.
///
/// # Safety
/// `text` is null or a buffer this library returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn mav_string_free(text: *mut c_char) {
    // SAFETY: the caller's promise: the buffer came from `malloced`.
    unsafe { libc::free(text.cast()) };
}

/// Frees an error. Null is ignored.
///
/// # Safety
/// `error` is null or an error this library returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn mav_error_free(error: *mut mav_error) {
    if error.is_null() {
        return;
    }
    // SAFETY: the caller's promise: the error came from `Box::into_raw` in `fail`, and its
    // strings from `malloced`.
    unsafe {
        let error = Box::from_raw(error);
        libc::free(error.kind.cast());
        libc::free(error.message.cast());
    }
}

/// This library's version, a static NUL-terminated string (not to be freed).
#[no_mangle]
pub extern "C" fn mav_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The targets' and provenances' names, as a JSON object `{"targets": […], "provenances": […]}`
/// in the crate's tables' order.
///
/// # Safety
/// As every function returning text: `out`, `out_len`, `error` null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_names(out: *mut *mut c_char, out_len: *mut usize, error: *mut *mut mav_error) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let targets: Vec<&str> = Provider::NAMES.iter().map(|(_, name)| *name).collect();
            let provenances: Vec<&str> = Provenance::NAMES.iter().map(|(_, name)| *name).collect();
            written(&serde_json::json!({"targets": targets, "provenances": provenances}))
        })
    }
}

// ---- the registry ----

/// A new registry: with `seed` where `seeded` is true (the same ids for the same references),
/// a random key otherwise; `fetch_tool` names the tool its stubs tell the model to call (null:
/// none).
///
/// # Safety
/// `fetch_tool` null or a NUL-terminated string; `out`, `error` null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_new(
    seeded: bool,
    seed: u64,
    fetch_tool: *const c_char,
    out: *mut *mut mav_registry,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let registry = if seeded {
                ReferenceRegistry::with_seed(seed)
            } else {
                ReferenceRegistry::new()
            };
            let registry = match text(fetch_tool, "fetch_tool")? {
                None => registry,
                Some(name) => registry.with_fetch_tool(name)?,
            };
            Ok(mav_registry(registry))
        })
    }
}

/// Frees a registry. Null is ignored.
///
/// # Safety
/// `registry` is null or a registry of this library's, not yet freed, in use by no other
/// thread.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_free(registry: *mut mav_registry) {
    if !registry.is_null() {
        // SAFETY: the caller's promise: it came from `Box::into_raw` in `handle_out`.
        drop(unsafe { Box::from_raw(registry) });
    }
}

/// How many references the registry holds.
///
/// # Safety
/// `registry` is null (0) or a live registry.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_len(registry: *const mav_registry) -> usize {
    // SAFETY: the caller's promise.
    unsafe { registry.as_ref() }.map_or(0, |r| r.0.len())
}

/// The record behind a stub's id, as JSON (`uri`, `name`, `mimeType`, `size`, …); an error of
/// kind `UnknownReference` or `EvictedReference` where the registry has none.
///
/// # Safety
/// `registry` a live registry; `id` a NUL-terminated string; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_lookup(
    registry: *const mav_registry,
    id: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let registry = handle(registry, "registry")?;
            written(&registry.0.lookup(required(id, "id")?)?)
        })
    }
}

/// The registry as JSON, for [`mav_registry_restore`].
///
/// # Safety
/// `registry` a live registry; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_snapshot(
    registry: *const mav_registry,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            written(&handle(registry, "registry")?.0.snapshot())
        })
    }
}

/// The registry a snapshot (its JSON) was taken of.
///
/// # Safety
/// `snapshot` null with `len` 0, or `len` readable bytes; `out`, `error` null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_registry_restore(
    snapshot: *const u8,
    len: usize,
    out: *mut *mut mav_registry,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let snapshot = serde_json::from_slice(bytes(snapshot, len)?).map_err(|e| Failure::new("Snapshot", e))?;
            Ok(mav_registry(ReferenceRegistry::restore(&snapshot)?))
        })
    }
}

// ---- the lanes ----

/// The history lane: the message as one string. `provenance` null: `tool-result`; `budget`
/// below 0: no limit.
///
/// # Safety
/// `message` null with `len` 0, or `len` readable bytes; `registry` a live registry;
/// `provenance` null or a NUL-terminated string; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_history(
    message: *const u8,
    len: usize,
    registry: *const mav_registry,
    provenance: *const c_char,
    budget: i64,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let options = HistoryOptions {
                provenance: provenance_of(text(provenance, "provenance")?, Provenance::ToolResult)?,
                budget: usize::try_from(budget).ok(),
            };
            Ok(history(
                bytes(message, len)?,
                &handle(registry, "registry")?.0,
                &options,
            )?)
        })
    }
}

/// The convert lane: `{"content": […], "heldForUser": […]}`, the content in the target's shape
/// (`target` null: `neutral`; `provenance` null: `push-event`, as the CLI and the packages have
/// it).
///
/// # Safety
/// As [`mav_history`]; `target` null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn mav_convert(
    message: *const u8,
    len: usize,
    registry: *const mav_registry,
    target: *const c_char,
    provenance: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Neutral)?;
            let provenance = provenance_of(text(provenance, "provenance")?, Provenance::PushEvent)?;
            let converted = convert(
                bytes(message, len)?,
                provenance,
                &handle(registry, "registry")?.0,
                &target,
            )?;
            written(&target.converted_view(&converted))
        })
    }
}

/// The script lane: the message's JSON with every block in it replaced by its agent form
/// (`target` null: `neutral`).
///
/// # Safety
/// As [`mav_convert`].
#[no_mangle]
pub unsafe extern "C" fn mav_script(
    message: *const u8,
    len: usize,
    registry: *const mav_registry,
    target: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Neutral)?;
            Ok(script(bytes(message, len)?, &handle(registry, "registry")?.0, &target)?)
        })
    }
}

/// Each block's class, as a JSON array of one object a block (`index`, `type`, `class`, …).
///
/// # Safety
/// `message` null with `len` 0, or `len` readable bytes; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_classify(
    message: *const u8,
    len: usize,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            // Every block's typed summary, written into one array as the walk reads them.
            let mut array = String::from("[");
            classify::summarize(bytes(message, len)?, |summary| {
                if array.len() > 1 {
                    array.push(',');
                }
                // A summary holds strings, numbers and nulls: writing it cannot fail.
                array.push_str(&serde_json::to_string(&summary).unwrap_or_default());
            })?;
            array.push(']');
            Ok(array)
        })
    }
}

/// A prompt's messages (`prompts/get`'s result) in the target's shape (`target` null:
/// `neutral`).
///
/// # Safety
/// As [`mav_convert`].
#[no_mangle]
pub unsafe extern "C" fn mav_prompt_messages(
    message: *const u8,
    len: usize,
    registry: *const mav_registry,
    target: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Neutral)?;
            let messages = prompt_messages(bytes(message, len)?, &handle(registry, "registry")?.0, &target)?;
            written(&target.messages_view(&messages))
        })
    }
}

/// A server's `sampling/createMessage` request (its params, or the whole request) as the
/// host's own model reads it (`target` null: `neutral`).
///
/// # Safety
/// As [`mav_convert`].
#[no_mangle]
pub unsafe extern "C" fn mav_sampling_request(
    message: *const u8,
    len: usize,
    registry: *const mav_registry,
    target: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Neutral)?;
            let request = sampling_request(bytes(message, len)?, &handle(registry, "registry")?.0, &target)?;
            written(&request.to_json(&target))
        })
    }
}

/// A server's `elicitation/create` request as a host shows it.
///
/// # Safety
/// As [`mav_classify`].
#[no_mangle]
pub unsafe extern "C" fn mav_elicitation(
    message: *const u8,
    len: usize,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let request = parse_json(bytes(message, len)?)?;
            written(&elicitation(&request)?)
        })
    }
}

/// MCP tools (the JSON array of `tools/list`'s `tools`) as the target's tool definitions, a JSON
/// array (`target` null: `anthropic`).
///
/// # Safety
/// As [`mav_classify`]; `target` null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_definitions(
    tools: *const u8,
    len: usize,
    target: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Anthropic)?;
            let tools: Vec<Value> = serde_json::from_slice(bytes(tools, len)?)?;
            let definitions = tools
                .iter()
                .map(|tool| {
                    target
                        .mcp_tool_definition(tool)
                        .ok_or_else(|| Failure::invalid("a tool without a name"))
                })
                .collect::<Outcome<Vec<_>>>()?;
            written(&definitions)
        })
    }
}

// ---- tool results ----

/// One call's tool result: `message` is the server's answer (a result, a JSON-RPC response or
/// error response), `name` the tool, `tool_use_id` the model's id of the call (`target` null:
/// `anthropic`). Never fails on the message: what cannot be read is a failed call.
///
/// # Safety
/// As [`mav_convert`]; `name` and `tool_use_id` NUL-terminated strings; `out`, `error` null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_new(
    message: *const u8,
    len: usize,
    name: *const c_char,
    tool_use_id: *const c_char,
    registry: *const mav_registry,
    target: *const c_char,
    out: *mut *mut mav_tool_result,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let target = target_of(text(target, "target")?, Provider::Anthropic)?;
            let message = bytes(message, len)?;
            let (name, id) = (required(name, "name")?, required(tool_use_id, "tool_use_id")?);
            let result = tool_result(message, name, id, &handle(registry, "registry")?.0, &target).into_owned();
            Ok(mav_tool_result { result, target })
        })
    }
}

/// A call that got no answer (the connection failed, no such tool): an error result saying
/// `why` (`target` null: `anthropic`).
///
/// # Safety
/// `name`, `tool_use_id`, `why` NUL-terminated strings; `target` null or one; `out`, `error`
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_call_failed(
    name: *const c_char,
    tool_use_id: *const c_char,
    why: *const c_char,
    target: *const c_char,
    out: *mut *mut mav_tool_result,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let target = target_of(text(target, "target")?, Provider::Anthropic)?;
            let result = tool_call_failed(
                required(name, "name")?,
                required(tool_use_id, "tool_use_id")?,
                required(why, "why")?,
            );
            Ok(mav_tool_result { result, target })
        })
    }
}

/// Frees a tool result. Null is ignored.
///
/// # Safety
/// `result` is null or a tool result of this library's, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_free(result: *mut mav_tool_result) {
    if !result.is_null() {
        // SAFETY: the caller's promise: it came from `Box::into_raw` in `handle_out`.
        drop(unsafe { Box::from_raw(result) });
    }
}

/// Whether the call failed, as the model is told.
///
/// # Safety
/// `result` null (false) or a live tool result.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_is_error(result: *const mav_tool_result) -> bool {
    // SAFETY: the caller's promise.
    unsafe { result.as_ref() }.is_some_and(|r| r.result.is_error)
}

/// The tool result as JSON: `{"toolUseId", "name", "content", "isError", "heldForUser",
/// "pending"}`, the content in the result's target's shape.
///
/// # Safety
/// `result` a live tool result; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_view(
    result: *const mav_tool_result,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let r = handle(result, "result")?;
            written(&r.target.tool_result_view(&r.result))
        })
    }
}

/// The `tools/call` params that call the tool again with the answers to an input-required
/// result: `arguments` the call's arguments (JSON), `responses` an object of each request's
/// answer by its key (JSON). An error of kind `InputResponses` where the result asks for none.
///
/// # Safety
/// `result` a live tool result; `arguments` and `responses` null with a length of 0 or
/// readable; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_retry_params(
    result: *const mav_tool_result,
    arguments: *const u8,
    arguments_len: usize,
    responses: *const u8,
    responses_len: usize,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let r = handle(result, "result")?;
            let Some(Pending::InputRequired(asked)) = &r.result.pending else {
                return Err(Failure::new("InputResponses", "this result asks for no input"));
            };
            let arguments = parse_json(bytes(arguments, arguments_len)?)?;
            let Value::Object(responses) = parse_json(bytes(responses, responses_len)?)? else {
                return Err(Failure::invalid(
                    "responses is an object of each request's answer by its key",
                ));
            };
            written(&asked.retry_params(&r.result.name, &arguments, responses)?)
        })
    }
}

/// Everything one turn's tool results add to the conversation, in the target's shape, as a JSON
/// array of messages (`target` null: `anthropic`).
///
/// # Safety
/// `results` null with `count` 0, or `count` live tool results; `target` null or a
/// NUL-terminated string; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_tool_result_messages(
    results: *const *const mav_tool_result,
    count: usize,
    target: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let target = target_of(text(target, "target")?, Provider::Anthropic)?;
            let handles: &[*const mav_tool_result] = if results.is_null() {
                if count != 0 {
                    return Err(Failure::invalid("a null results array with a nonzero count"));
                }
                &[]
            } else {
                std::slice::from_raw_parts(results, count)
            };
            let results = handles
                .iter()
                .map(|&r| handle(r, "a result").map(|r| &r.result))
                .collect::<Outcome<Vec<_>>>()?;
            written(&target.tool_results_view(results))
        })
    }
}

// ---- fetching references ----

/// A fetcher under a policy: `settings` is the JSON of the crate's `FetchSettings` (camelCase,
/// each optional: `maxBytes`, `allowSchemes`, `origin`, `bearer`, `allowOrigins`, `timeoutMs`,
/// `maxRedirects`, `crossOriginRedirects`, `allowFilesUnder`, `allowHardLinks`), and
/// `saveDir`, where verified bytes that are not text or an image are saved. Null with a
/// length of 0: the defaults (https and public addresses only, 16 MiB, 30 s, 3 redirects).
/// Errors of kind `InvalidArgument` (a setting of the wrong type) or `Policy`.
///
/// # Safety
/// `settings` null with `len` 0, or `len` readable bytes; `out`, `error` null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_fetcher_new(
    settings: *const u8,
    len: usize,
    out: *mut *mut mav_fetcher,
    error: *mut *mut mav_error,
) -> i32 {
    /// The settings and, beside them, where the host saves what it fetched.
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Host {
        #[serde(flatten)]
        settings: FetchSettings,
        save_dir: Option<std::path::PathBuf>,
    }
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let json = match bytes(settings, len)? {
                [] => &b"{}"[..],
                json => json,
            };
            let Host { settings, save_dir } = serde_json::from_slice(json).map_err(Failure::invalid)?;
            Ok(mav_fetcher {
                policy: settings.policy()?,
                save_dir,
            })
        })
    }
}

/// Frees a fetcher. Null is ignored.
///
/// # Safety
/// `fetcher` is null or a fetcher of this library's, not yet freed, in use by no other thread.
#[no_mangle]
pub unsafe extern "C" fn mav_fetcher_free(fetcher: *mut mav_fetcher) {
    if !fetcher.is_null() {
        // SAFETY: the caller's promise: it came from `Box::into_raw` in `handle_out`.
        drop(unsafe { Box::from_raw(fetcher) });
    }
}

/// Answers one call of the fetch tool: `input` is the JSON of the call's arguments
/// (`{"ref_id": "ref_…"}`). Blocks until the fetch is done (the policy's timeout bounds it).
/// Never fails on the fetch: a refusal is a failed call naming the reason, never the uri
/// (`target` null: `anthropic`).
///
/// # Safety
/// `fetcher` a live fetcher; `input` null with `len` 0 or readable; `tool_use_id` a
/// NUL-terminated string; `registry` a live registry; `target` null or a NUL-terminated
/// string; `out`, `error` null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_fetch_reference(
    fetcher: *const mav_fetcher,
    input: *const u8,
    len: usize,
    tool_use_id: *const c_char,
    registry: *const mav_registry,
    target: *const c_char,
    out: *mut *mut mav_tool_result,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        handle_out(out, error, || {
            let this = handle(fetcher, "fetcher")?;
            let target = target_of(text(target, "target")?, Provider::Anthropic)?;
            let input = serde_json::from_slice(bytes(input, len)?).unwrap_or(Value::Null);
            let id = required(tool_use_id, "tool_use_id")?;
            let registry = &handle(registry, "registry")?.0;
            let mut fetcher = fetch::Fetcher::new(this.policy.clone());
            if let Some(dir) = &this.save_dir {
                fetcher = fetcher.save_dir(dir);
            }
            let result = fetch::fetch_reference(&input, id, registry, &fetcher, &target);
            Ok(mav_tool_result { result, target })
        })
    }
}

/// The fetch tool's definition in the target's shape, named `name` (null: `fetch_reference`;
/// `target` null: `anthropic`); its input is `{"ref_id": …}`.
///
/// # Safety
/// `target` and `name` null or NUL-terminated strings; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn mav_fetch_tool_definition(
    target: *const c_char,
    name: *const c_char,
    out: *mut *mut c_char,
    out_len: *mut usize,
    error: *mut *mut mav_error,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        text_out(out, out_len, error, || {
            let provider = match text(target, "target")? {
                None => Provider::Anthropic,
                Some(name) => name.parse::<Provider>()?,
            };
            let name = text(name, "name")?.unwrap_or(fetch::TOOL_NAME);
            written(&fetch::tool_definition(provider, name))
        })
    }
}

// ---- the stdio bridge ----

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
