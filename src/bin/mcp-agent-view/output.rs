//! Writing what the CLI prints, so that no output is lost without a word: every failure to
//! write is an error (exit code 2), never a panic and never exit code 0.

use std::fmt::Write as _;
use std::io::Write as _;

/// Writes `bytes` to standard output and flushes; any failure (a closed pipe, a full disk)
/// is an error naming it.
///
/// Where standard output is a terminal, every control character of the text but line breaks
/// and tabs is shown escaped, not executed: a server's text could otherwise erase lines, set
/// the window title or write the clipboard (OSC 52). Plain text (`json` false) shows them as
/// `\x1b` and `\u{202e}`; JSON as JSON's own escapes (`\u001b`, `\u202e`), so that what is
/// shown is still JSON, and the same JSON. Piped or redirected, the output is byte for byte
/// what the model reads.
pub(crate) fn write_stdout(bytes: &[u8], json: bool) -> Result<(), String> {
    use std::io::IsTerminal as _;
    let mut stdout = std::io::stdout().lock();
    let shown = if stdout.is_terminal() {
        let text = String::from_utf8_lossy(bytes);
        let escaped = if json {
            escape_json_controls(&text)
        } else {
            escape_controls(&text)
        };
        std::borrow::Cow::Owned(escaped.into_bytes())
    } else {
        std::borrow::Cow::Borrowed(bytes)
    };
    stdout
        .write_all(&shown)
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write output: {e}"))
}

/// Gives `write` a writer to standard output, and flushes it after, as [`write_stdout`]
/// writes: piped or redirected, what is written goes out as it is written, never held whole;
/// on a terminal it is held, and escaped as `write_stdout` escapes it.
pub(crate) fn with_stdout(
    json: bool,
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<(), String>,
) -> Result<(), String> {
    use std::io::IsTerminal as _;
    if std::io::stdout().is_terminal() {
        let mut held = Vec::new();
        write(&mut held)?;
        return write_stdout(&held, json);
    }
    let mut stdout = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    write(&mut stdout)?;
    stdout.flush().map_err(|e| format!("cannot write output: {e}"))
}

/// `text` with every control character but `\n` and `\t` written as an escape: `\x1b` for
/// C0, DEL and C1, `\u{…}` for the bidi controls a terminal may honour.
pub(crate) fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if is_bidi_control(c) => {
                let _ = write!(out, "\\u{{{:04x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// JSON `text` with every control character but `\n` and `\t` (which JSON writers leave only
/// between tokens) and every bidi control written as a JSON escape, `\u001b`, `\u202e`. Such
/// a character can only stand inside a string, where the escape means the same character:
/// the JSON read back is the same.
pub(crate) fn escape_json_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() || is_bidi_control(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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
