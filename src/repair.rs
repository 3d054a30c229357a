//! The two things valid-looking JSON from a server can carry that `serde_json` refuses as a
//! whole: an escaped lone surrogate (`"\ud800"`), which no Rust string can hold, and a number
//! out of `f64`'s range (`1e400`). Rather than lose the whole message to one such value, the
//! bytes are repaired and parsed again: a lone surrogate becomes `\uFFFD` (the replacement
//! character, visibly), and an out-of-range number becomes a string of its digits.
//!
//! Runs only after a parse has failed, so well-formed input pays nothing.

/// The repaired bytes, or `None` where there was nothing to repair.
pub(crate) fn repair(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut changed = false;
    let mut i = 0;
    let mut in_string = false;
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
            let overflows = std::str::from_utf8(token)
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                .is_some_and(f64::is_infinite);
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
            out.push(b);
            i += 1;
        }
    }
    changed.then_some(out)
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
    }
}
