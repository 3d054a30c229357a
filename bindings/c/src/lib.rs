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

mod bridge;
mod fetching;
mod lanes;
mod registry;
mod tool_results;

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
