//! Writing what the CLI prints, so that no output is lost without a word: every failure to
//! write is an error (exit code 2), never a panic and never exit code 0.

use std::io::Write as _;

/// Writes `bytes` to standard output and flushes; any failure (a closed pipe, a full disk)
/// is an error naming it.
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write output: {e}"))
}

/// Writes `text` to standard error, if it can: where it cannot, there is nowhere left to say
/// so, and the exit code says it.
pub(crate) fn write_stderr(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush());
}

/// Whether this process was started with its standard output closed (`>&-`).
///
/// Rust's runtime opens `/dev/null` read-write on a standard stream that was closed at start,
/// so that writes to it succeed and vanish. A redirection to `/dev/null` by a shell opens it
/// write-only; read-write `/dev/null` on standard output is the runtime's. Linux only (it
/// reads `/proc`); elsewhere this says `false`.
pub(crate) fn stdout_was_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target.as_os_str() != "/dev/null" {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    // `flags:` is octal; the access mode is its low two bits, 2 being O_RDWR.
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o2)
}
