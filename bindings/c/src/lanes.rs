//! The lanes: history, convert, script, classify, prompts, sampling and elicitation.

use super::*;

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
