//! Tool results: one call's answer as the model reads it, and a turn of them.

use super::*;

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
