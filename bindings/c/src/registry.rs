//! The registry: a conversation's references, and the records behind its stubs.

use super::*;

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
