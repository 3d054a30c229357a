//! The two things valid-looking JSON from a server can carry that `serde_json` refuses as a
//! whole: an escaped lone surrogate (`"\ud800"`), which no Rust string can hold, and a number
//! out of `f64`'s range (`1e400`). Rather than lose the whole message to one such value, the
//! bytes are repaired and parsed again: a lone surrogate becomes `\uFFFD` (the replacement
//! character, visibly), and an out-of-range number becomes a string of its digits.
//!
//! Runs only after a parse has failed, so well-formed input pays nothing.

use crate::error::{Error, ErrorKind};

/// Parses `bytes` as JSON, for [`Message::decode`](crate::Message::decode). Fails with [`ErrorKind::Json`] where the
/// bytes are not JSON, or nest deeper than 127 levels (`serde_json`'s own limit).
///
/// Two things JSON may carry that no `serde_json::Value` can hold do not cost the whole
/// message: an escaped lone surrogate is read as U+FFFD, and a number out of `f64`'s range
/// (`1e400`) as a string of its digits.
///
/// ```
/// let value = mcp_agent_view::parse_json(br#"[{"type":"text","text":"hi"}]"#)?;
/// let message = mcp_agent_view::Message::decode(&value)?;
/// assert_eq!(message.blocks().count(), 1);
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, Error> {
    serde_json::from_slice(bytes)
        .or_else(|e| match repair(bytes) {
            Some(repaired) => serde_json::from_slice(&repaired).map_err(|_| e),
            None => Err(e),
        })
        .map_err(|e| Error::new(ErrorKind::Json, format!("input is not JSON: {e}")).at(e.line(), e.column()))
}

/// The repaired bytes, or `None` where there was nothing to repair.
pub(crate) fn repair(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut changed = false;
    let mut i = 0;
    let mut in_string = false;
    // Which containers are open (`true` for an object), and whether a key is due: a number is
    // repaired only where a value stands.
    let mut objects: Vec<bool> = Vec::new();
    let mut key_due = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'"' => {
                    in_string = false;
                    out.push(b);
                    i += 1;
                }
                b'\\' if bytes.get(i + 1) == Some(&b'u') => {
                    let (len, code) = surrogate_escape(bytes, i);
                    if code == Some(Escape::Lone) {
                        out.extend_from_slice(b"\\uFFFD");
                        changed = true;
                    } else {
                        out.extend_from_slice(&bytes[i..i + len]);
                    }
                    i += len;
                }
                b'\\' => {
                    let end = (i + 2).min(bytes.len());
                    out.extend_from_slice(&bytes[i..end]);
                    i = end;
                }
                _ => {
                    out.push(b);
                    i += 1;
                }
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
            i += 1;
        } else if b == b'-' || b.is_ascii_digit() {
            let end = i + bytes[i..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .unwrap_or(bytes.len() - i);
            let token = &bytes[i..end];
            let overflows =
                !key_due && is_json_number(token) && std::str::from_utf8(token).is_ok_and(crate::json::is_beyond_f64);
            if overflows {
                out.push(b'"');
                out.extend_from_slice(token);
                out.push(b'"');
                changed = true;
            } else {
                out.extend_from_slice(token);
            }
            i = end;
        } else {
            match b {
                b'{' => {
                    objects.push(true);
                    key_due = true;
                }
                b'[' => {
                    objects.push(false);
                    key_due = false;
                }
                b'}' | b']' => {
                    objects.pop();
                    key_due = false;
                }
                b':' => key_due = false,
                b',' => key_due = objects.last() == Some(&true),
                _ => {}
            }
            out.push(b);
            i += 1;
        }
    }
    changed.then_some(out)
}

/// Whether `token` is a number as JSON writes one: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
/// Only such a number is repaired: `01e400` is no JSON, however large.
fn is_json_number(token: &[u8]) -> bool {
    let digits = |t: &[u8]| t.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut rest = token.strip_prefix(b"-").unwrap_or(token);
    match rest.first() {
        Some(b'0') => rest = &rest[1..],
        Some(b'1'..=b'9') => rest = &rest[digits(rest)..],
        _ => return false,
    }
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exponent = exponent
            .strip_prefix(b"+")
            .or_else(|| exponent.strip_prefix(b"-"))
            .unwrap_or(exponent);
        let n = digits(exponent);
        return n > 0 && n == exponent.len();
    }
    rest.is_empty()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// A surrogate half with no partner.
    Lone,
    /// Anything else: a plain escape, or a whole pair.
    Fine,
}

/// At `\u` in `bytes[i..]`: how many bytes the escape (or surrogate pair) takes, and whether it
/// is a lone surrogate. `None` where it is no `\uXXXX` with four hex digits.
fn surrogate_escape(bytes: &[u8], i: usize) -> (usize, Option<Escape>) {
    let Some(code) = hex4(bytes, i + 2) else {
        return (2, None);
    };
    match code {
        0xD800..=0xDBFF => {
            let pair = bytes.get(i + 6) == Some(&b'\\')
                && bytes.get(i + 7) == Some(&b'u')
                && hex4(bytes, i + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
            if pair {
                (12, Some(Escape::Fine))
            } else {
                (6, Some(Escape::Lone))
            }
        }
        0xDC00..=0xDFFF => (6, Some(Escape::Lone)),
        _ => (6, Some(Escape::Fine)),
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[track_caller]
    fn repaired(input: &str) -> Option<String> {
        repair(input.as_bytes()).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(repaired(r#"{"a":"\ud800"}"#).as_deref(), Some(r#"{"a":"\uFFFD"}"#));
        assert_eq!(repaired(r#"{"a":"x\udc00y"}"#).as_deref(), Some(r#"{"a":"x\uFFFDy"}"#));
        assert_eq!(
            repaired(r#"["\ud83d\ude00", "\ud83d"]"#).as_deref(),
            Some(r#"["\ud83d\ude00", "\uFFFD"]"#)
        );
        assert_eq!(repaired(r#"["\\ud800"]"#), None, "an escaped backslash, then text");
    }

    #[test]
    fn out_of_range_numbers_become_strings() {
        assert_eq!(
            repaired(r#"{"sizeBytes":1e400,"n":-1E999}"#).as_deref(),
            Some(r#"{"sizeBytes":"1e400","n":"-1E999"}"#)
        );
        assert_eq!(
            repaired(r#"{"n":1e300,"s":"1e400"}"#),
            None,
            "in range, and inside a string"
        );
        // Only a number JSON could hold is repaired: the rest stays no JSON.
        for not_json in ["[01e400]", "[-01e400]", "[1.e400]", "[--1e400]", "[1e400.5]"] {
            assert_eq!(repaired(not_json), None, "{not_json}");
        }
        for not_json in [
            "[01e400]",
            "[.1e400]",
            "[1e400e5]",
            "[+1e400]",
            r#"{"a":1,89e9999:"x"}"#,
            "{1e400:1}",
        ] {
            assert!(crate::repair::parse_json(not_json.as_bytes()).is_err(), "{not_json}");
        }
        assert_eq!(repaired("[-0.5e400]").as_deref(), Some(r#"["-0.5e400"]"#));
    }
}
