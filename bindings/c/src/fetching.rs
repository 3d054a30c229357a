//! Fetching references under a policy, for the model's fetch tool.

use super::*;

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
