//! The tests of `json`, beside it.

use super::*;

fn texts(json: &str) -> Vec<String> {
    let mut r = Reader::new(json.as_bytes());
    let mut seq = r.array().unwrap();
    let mut out = Vec::new();
    while r.next_element(&mut seq).unwrap() {
        out.push(r.string().unwrap().text().into_owned());
    }
    r.finish().unwrap();
    out
}

#[test]
fn strings_unescape_and_borrow_where_they_can() {
    assert_eq!(
        texts(
            r#"["plain", "a\"b\\c\/d", "\n\t\r\b\f", "\u00e9\ud83d\ude00", "\ud800x", "\udc00", "0123456789abcdef\"tail"]"#
        ),
        [
            "plain",
            "a\"b\\c/d",
            "\n\t\r\u{8}\u{c}",
            "é😀",
            "\u{FFFD}x",
            "\u{FFFD}",
            "0123456789abcdef\"tail"
        ]
    );
    let mut r = Reader::new(br#""long string without escapes at all""#);
    assert!(matches!(r.string().unwrap().text(), Cow::Borrowed(_)));
}

#[test]
fn skip_reads_any_value_and_numbers_keep_their_digits() {
    let mut r = Reader::new(br#" [1, -2.5e+3, {"a": [true, false, null, {"b": "}"}]}, "x", 1e400] "#);
    r.skip().unwrap();
    r.finish().unwrap();
    let mut r = Reader::new(b"1e400");
    assert_eq!(r.number().unwrap(), "1e400");
    assert_eq!(as_u53("1e400"), None);
    assert_eq!(as_u53("1e3"), Some(1000));
    assert_eq!(as_u53("9007199254740991"), Some(9_007_199_254_740_991));
    assert_eq!(as_u53("9007199254740992"), None);
    assert_eq!(as_u53("-1"), None);
    assert_eq!(as_u53("1.5"), None);
}

/// Whatever the bytes, a string
/// the reader returns is UTF-8, on the key path and the value path.
#[test]
fn every_string_the_reader_returns_is_utf8() {
    let alphabet: &[u8] = &[
        b'a', b'"', b'\\', b'u', b'0', b'n', 0x7f, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0xf0, 0xff, b':',
    ];
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..50_000 {
        let len = usize::try_from(xorshift(&mut x) % 40).unwrap();
        let mut json = vec![b'{', b'"'];
        json.extend((0..len).map(|_| alphabet[usize::try_from(xorshift(&mut x) % 15).unwrap()]));
        json.extend_from_slice(b"\":\"");
        json.extend((0..len).map(|_| alphabet[usize::try_from(xorshift(&mut x) % 15).unwrap()]));
        json.extend_from_slice(b"\"}");
        let mut r = Reader::new(&json);
        let Ok(mut seq) = r.object() else { continue };
        if let Ok(Some(key)) = r.next_key(&mut seq) {
            assert!(std::str::from_utf8(key.raw()).is_ok(), "{json:?}");
            if let Ok(value) = r.string() {
                assert!(std::str::from_utf8(value.raw()).is_ok(), "{json:?}");
            }
        }
    }
}

/// A number read is ASCII.
#[test]
fn numbers_are_ascii() {
    let alphabet: &[u8] = b"-+.eE0123456789\xc3\xa9x";
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..50_000 {
        let len = usize::try_from(xorshift(&mut x) % 12).unwrap() + 1;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[usize::try_from(xorshift(&mut x) % alphabet.len() as u64).unwrap()])
            .collect();
        if let Ok(number) = Reader::new(&bytes).number() {
            assert!(number.is_ascii() && !number.is_empty(), "{bytes:?}");
        }
    }
}

#[test]
fn bad_json_is_an_error_with_its_place() {
    for (bad, what) in [
        ("[1,]", "expected a value at line 1 column 4"),
        ("{\"a\" 1}", "expected `:` at line 1 column 6"),
        ("[\"a\n\"]", "control character in a string at line 1 column 4"),
        (
            "[01]",
            "expected `,` or the end of the object or array at line 1 column 3",
        ),
        (
            "\n  [1 2]",
            "expected `,` or the end of the object or array at line 2 column 6",
        ),
        ("[\"\\x\"]", "invalid escape at line 1 column 3"),
        ("[", "unexpected end of input at line 1 column 2"),
        ("tru", "expected a value at line 1 column 1"),
    ] {
        let mut r = Reader::new(bad.as_bytes());
        let error = r.skip().and_then(|()| r.finish()).unwrap_err();
        assert_eq!(error.to_string(), format!("input is not JSON: {what}"), "{bad:?}");
    }
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let error = Reader::new(deep.as_bytes()).skip().unwrap_err();
    assert_eq!(
        error.to_string(),
        "input is not JSON: recursion limit exceeded at line 1 column 128"
    );
    // serde_json's own limit: 127 levels read, 128 do not.
    for (levels, ok) in [(127, true), (128, false)] {
        let nested = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert_eq!(Reader::new(nested.as_bytes()).skip().is_ok(), ok, "{levels}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&nested).is_ok(),
            ok,
            "{levels}"
        );
    }
}

#[test]
fn a_string_is_told_text_wherever_its_non_ascii_bytes_stand() {
    let read = |bytes: &[u8]| Some(Reader::new(bytes).string().unwrap().text().into_owned());
    for len in [0, 1, 7, 8, 9, 15, 16, 17, 40, 383, 384, 385, 1000] {
        let plain = "a".repeat(len);
        assert_eq!(read(format!("\"{plain}\"").as_bytes()).as_deref(), Some(&*plain));
        for at in [0, len / 2, len.saturating_sub(1), len] {
            let (head, tail) = plain.split_at(at);
            for (inner, text) in [
                ("é", Some(format!("{head}é{tail}"))),
                ("\\u00e9", Some(format!("{head}é{tail}"))),
            ] {
                let json = format!("\"{head}{inner}{tail}\"");
                assert_eq!(read(json.as_bytes()), text, "{json}");
            }
            let mut bad = format!("\"{head}").into_bytes();
            bad.push(0xff);
            bad.extend_from_slice(format!("{tail}\"").as_bytes());
            // Not UTF-8: an error where the string is read, pointing at the bad byte.
            let error = Reader::new(&bad).string().unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "input is not JSON: invalid unicode code point at line 1 column {}",
                    at + 2
                ),
                "0xff at {at} of {len}"
            );
        }
    }
}

#[test]
fn a_string_near_the_end_of_the_input_stops_only_at_its_quote() {
    // Fewer than STEP bytes from the end, a string is looked at a byte at a time: a space
    // or any other printable byte is text there, as anywhere.
    for len in 0..2 * STEP {
        let text: String = (0..len).map(|k| [' ', '~', '\u{7f}', 'a'][k % 4]).collect();
        let json = format!("\"{text}\"");
        let read = Reader::new(json.as_bytes()).string().map(|s| s.text().into_owned());
        assert_eq!(read.ok().as_deref(), Some(&*text), "{json:?}");
    }
}

#[test]
fn bytes_past_ascii_at_the_same_place_of_two_steps_are_both_told() {
    // A string is looked at STEP bytes a step: a byte that is no UTF-8 in any step, at any
    // place, is told.
    for at in 0..STEP {
        for steps in [1, 2, 5, 23, 24, 30] {
            let second = steps * STEP + at;
            let mut bytes = vec![b'"'];
            bytes.extend(std::iter::repeat_n(b'a', second + 1));
            bytes[1 + at] = 0xff;
            bytes[1 + second] = 0xff;
            bytes.push(b'"');
            let error = Reader::new(&bytes).string().unwrap_err();
            assert!(
                error.to_string().contains("invalid unicode code point"),
                "{at} {steps}: {error}"
            );
        }
    }
}

#[test]
fn long_strings_stop_where_a_byte_at_a_time_stops() {
    // Past the first few hundred bytes a string is looked at a block at a time: a stop or a
    // byte past ASCII on either side of a block's edge is found as a byte loop finds it.
    let edges = [RUN, RUN + LONG_BLOCK, RUN + 2 * LONG_BLOCK];
    let mut places = vec![0, 1, RUN - 1, RUN + 1];
    for edge in edges {
        places.extend([edge - 1, edge, edge + 1]);
    }
    let len = RUN + 3 * LONG_BLOCK + 10;
    // Printable bytes, a space among them, around each stop.
    let printable = || -> Vec<u8> { (0..len).map(|k| b"Aa ~"[k % 4]).collect() };
    for &at in &places {
        for (byte, also_high) in [
            (b'"', None),
            (b'\\', None),
            (0x01, None),
            (0x1f, Some(at / 2)),
            (b'"', Some(at.saturating_sub(2))),
        ] {
            let mut bytes = printable();
            // Bytes past ASCII (an `é`) are string like any other.
            if let Some(high) = also_high.filter(|&h| h + 1 < at) {
                bytes[high..high + 2].copy_from_slice("é".as_bytes());
            }
            bytes[at] = byte;
            let stop = Reader::new(&bytes).scan_string(0);
            let expected = bytes.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            assert_eq!(Some(stop), expected, "{byte:#x} at {at}");
        }
    }
    // Two control bytes side by side: each must count, not cancel the other.
    for &at in &places {
        let mut bytes = printable();
        bytes[at..at + 2].copy_from_slice(&[0x01, 0x1f]);
        assert_eq!(Reader::new(&bytes).scan_string(0), at, "two control bytes at {at}");
    }
    // No stop at all: the end of the input, past every block.
    assert_eq!(Reader::new(&vec![b'A'; len]).scan_string(0), len);
    // Control bytes and nothing else past the first steps, or one in every 64 bytes: the
    // first of them stops it.
    for every in [1, 32, 64] {
        let mut bytes = printable();
        for at in (RUN..len).step_by(every) {
            bytes[at] = 0x01;
        }
        assert_eq!(Reader::new(&bytes).scan_string(0), RUN, "a control byte every {every}");
    }
}

#[test]
fn plain_strings_are_those_serde_json_writes_as_they_stand() {
    for len in [0, 1, 7, 8, 9, 16, 23] {
        let plain = "é".repeat(len);
        assert!(is_plain(plain.as_bytes()));
        assert_eq!(serde_json::to_string(&plain).unwrap(), format!("\"{plain}\""));
        for at in 0..=len {
            for stop in ['"', '\\', '\n', '\u{1}', '\u{1f}'] {
                let s = format!("{}{stop}{}", "a".repeat(at), "b".repeat(len - at));
                assert!(!is_plain(s.as_bytes()), "{s:?}");
                assert_ne!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
            }
        }
    }
    let kept = "\u{7f} \u{2028} é";
    assert!(is_plain(kept.as_bytes()));
    assert_eq!(serde_json::to_string(kept).unwrap(), format!("\"{kept}\""));
}

#[test]
fn both_ways_of_looking_at_a_step_agree() {
    let alphabet = [b'"', b'\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, b'a', b'a', b'a', b'a'];
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..20_000 {
        let chunk: [u8; STEP] = std::array::from_fn(|_| alphabet[usize::try_from(xorshift(&mut x) % 12).unwrap()]);
        // Against the definition, a byte at a time.
        let by_byte = chunk.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
        assert_eq!(first_stop(&chunk), by_byte.unwrap_or(STEP), "{chunk:?}");
    }
}

#[test]
fn strings_read_as_text_whether_or_not_the_rest_of_the_input_is_utf8() {
    // All of the input UTF-8: strings are slices of it. One byte that is not, anywhere:
    // each string is checked as it is read, and only the bad one fails, where it is bad.
    for tail in [&b"\"ok\""[..], b"\"\xff\""] {
        let mut json = br#"{"k\u00e9y": "t\u00e9xt", "\u00e9": "caf"#.to_vec();
        json.extend_from_slice("é".as_bytes());
        json.extend_from_slice(br#"", "n": -1.5e3, "z": "#);
        json.extend_from_slice(tail);
        json.push(b'}');
        let mut r = Reader::new(&json);
        let mut seq = r.object().unwrap();
        let mut read = Vec::new();
        while let Some(key) = r.next_key(&mut seq).unwrap() {
            let value = match r.peek().unwrap() {
                Peek::Number => Ok(r.number().unwrap().to_owned()),
                _ => r.string().map(|s| s.text().into_owned()).map_err(|e| e.to_string()),
            };
            read.push((key.text().into_owned(), value));
            if read.last().is_some_and(|(_, v)| v.is_err()) {
                break;
            }
        }
        let mut expected = vec![
            ("k\u{e9}y".to_owned(), Ok("t\u{e9}xt".to_owned())),
            ("\u{e9}".to_owned(), Ok("caf\u{e9}".to_owned())),
            ("n".to_owned(), Ok("-1.5e3".to_owned())),
        ];
        expected.push(if tail.len() == 4 {
            ("z".to_owned(), Ok("ok".to_owned()))
        } else {
            (
                "z".to_owned(),
                Err("input is not JSON: invalid unicode code point at line 1 column 65".to_owned()),
            )
        });
        assert_eq!(read, expected, "{}", String::from_utf8_lossy(&json));
    }
}

#[test]
fn keys_of_any_length_read_whole_wherever_they_stand() {
    for len in 0..40 {
        let key: String = (0..len)
            .map(|i| char::from(b'a' + u8::try_from(i % 26).unwrap()))
            .collect();
        for json in [
            format!(r#"{{"{key}":1}}"#),
            format!(r#"{{"{key}" : 1 , "x\"{key}":2}}"#),
            format!(r#"{{"{key}":1,"{key}":2}}"#),
        ] {
            let mut r = Reader::new(json.as_bytes());
            let mut seq = r.object().unwrap();
            let first = r.next_key(&mut seq).unwrap().unwrap();
            assert_eq!(first.raw(), key.as_bytes(), "{json}");
            assert!(!first.is_escaped());
            r.skip().unwrap();
            while let Some(k) = r.next_key(&mut seq).unwrap() {
                assert!(k.raw().ends_with(key.as_bytes()), "{json}");
                r.skip().unwrap();
            }
            r.finish().unwrap();
        }
    }
    let mut r = Reader::new(b"{\"a\tb\":1}");
    let mut seq = r.object().unwrap();
    assert_eq!(
        r.next_key(&mut seq).unwrap_err().to_string(),
        "input is not JSON: control character in a string at line 1 column 4"
    );
}

#[test]
fn keys_compare_through_escapes() {
    let mut r = Reader::new(br#"{"type": 1, "t\u0079pe": 2}"#);
    let mut seq = r.object().unwrap();
    while let Some(key) = r.next_key(&mut seq).unwrap() {
        assert_eq!(key.text(), "type");
        r.skip().unwrap();
    }
}

#[test]
fn a_skipped_value_closes_each_bracket_with_its_own_kind() {
    for bad in ["[1}", r#"{"a":1]"#, r#"[{"a":[1}]}]"#, r#"{"a":{"b":[1,2}}}"#] {
        let skipped = Reader::new(bad.as_bytes()).skip().unwrap_err();
        assert!(
            skipped
                .to_string()
                .contains("expected `,` or the end of the object or array"),
            "{bad}: {skipped}"
        );
        // Stepped over with notes that name none of its containers, alike.
        let elsewhere = [(bad.len(), bad.len())];
        let stepped = Reader::new(bad.as_bytes()).step_over(&elsewhere).unwrap_err();
        assert_eq!(stepped.to_string(), skipped.to_string(), "{bad}");
    }
}

#[test]
fn spans_are_where_long_member_values_start_and_end_in_order() {
    let json = r#" {"a": [1, {"b": "cc"}, []], "d": {"e": [[]]}, "f": {"g": {"h": [0, 0]}}} "#;
    let mut r = Reader::new(json.as_bytes());
    let spans = r.spans(5).unwrap();
    assert_eq!(r.position(), json.len() - 1, "the value read whole");
    let texts: Vec<&str> = spans.iter().map(|&(start, end)| &json[start..end]).collect();
    // Not the whole (no member's value), `{"b": "cc"}` (an array's item) nor `[[]]` (short).
    assert_eq!(
        texts,
        [
            r#"[1, {"b": "cc"}, []]"#,
            r#"{"e": [[]]}"#,
            r#"{"g": {"h": [0, 0]}}"#,
            r#"{"h": [0, 0]}"#,
            "[0, 0]"
        ]
    );
    // A container is noted where it holds `min_len` bytes for each noted in it and itself.
    let thin = r#"{"a":{"a":{"a":{"a":"0123456789"}}}}"#;
    let spans = Reader::new(thin.as_bytes()).spans(12).unwrap();
    let texts: Vec<&str> = spans.iter().map(|&(start, end)| &thin[start..end]).collect();
    assert_eq!(texts, [r#"{"a":{"a":"0123456789"}}"#, r#"{"a":"0123456789"}"#]);
    assert!(Reader::new(b"1").spans(0).unwrap().is_empty());
    // Bad JSON fails as a skip fails, at the same place.
    for bad in [r#"{"a": [1, }"#, r#"[{"a" 1}]"#, r#"{"a": "\q"}"#, "[[[["] {
        let skipped = Reader::new(bad.as_bytes()).skip().unwrap_err();
        assert_eq!(
            Reader::new(bad.as_bytes()).spans(0).unwrap_err().to_string(),
            skipped.to_string(),
            "{bad}"
        );
    }
}

/// A key set tells a key given twice under any spelling, before and past its first eight
/// keys, whichever of the two spellings comes first.
#[test]
fn a_key_set_tells_a_key_given_twice_however_it_is_spelled() {
    // Where each object's first repeat is, or `None`.
    let first_repeat = |json: &str| {
        let mut r = Reader::new(json.as_bytes());
        let mut seq = r.object().unwrap();
        let mut keys = KeySet::default();
        let mut at = 0;
        while let Some(key) = r.next_key(&mut seq).unwrap() {
            if !keys.insert(&key) {
                return Some(at);
            }
            r.skip().unwrap();
            at += 1;
        }
        None
    };
    let many = (0..20).map(|i| format!(r#""k{i}":0"#)).collect::<Vec<_>>().join(",");
    for (json, repeat) in [
        (r#"{"a":1,"b":2}"#.to_owned(), None),
        (r#"{"a":1,"a":2}"#.to_owned(), Some(1)),
        (r#"{"\u0061":1,"a":2}"#.to_owned(), Some(1)),
        (r#"{"a":1,"\u0061":2}"#.to_owned(), Some(1)),
        (r#"{"\u0061":1,"b":2,"\u0062":3}"#.to_owned(), Some(2)),
        (format!("{{{many}}}"), None),
        (format!(r#"{{{many},"k3":1}}"#), Some(20)),
        (format!(r#"{{{many},"k\u0031\u0035":1}}"#), Some(20)),
        (format!(r#"{{"\u006b0":1,{many}}}"#), Some(1)),
    ] {
        assert_eq!(first_repeat(&json), repeat, "{json}");
    }
}

#[test]
fn a_key_is_eaten_where_it_stands_exactly_as_expected() {
    let mut r = Reader::new(b"{\"a\":1,\"b\":2, \"c\": 3,\"d\" :4,\"e\":5 ,\n  \"f\":\t6}");
    let mut seq = r.object().unwrap();
    // Not the next key: nothing read.
    assert!(!r.eat_key(&mut seq, b"\"b\":"));
    assert!(r.eat_key(&mut seq, b"\"a\":"));
    assert_eq!(r.number().unwrap(), "1");
    assert!(r.eat_key(&mut seq, b"\"b\":"));
    assert_eq!(r.number().unwrap(), "2");
    // White space after the comma and the colon (as Python writes JSON): eaten too.
    assert!(r.eat_key(&mut seq, b"\"c\":"));
    assert_eq!(r.number().unwrap(), "3");
    // White space before the colon: read the general way, nothing eaten.
    let before = r.position();
    assert!(!r.eat_key(&mut seq, b"\"d\":"));
    assert_eq!(r.position(), before);
    assert_eq!(r.next_key(&mut seq).unwrap().unwrap().raw(), b"d");
    assert_eq!(r.number().unwrap(), "4");
    assert!(r.eat_key(&mut seq, b"\"e\":"));
    assert_eq!(r.number().unwrap(), "5");
    // Indented, and white space before the comma.
    assert!(r.eat_key(&mut seq, b"\"f\":"));
    assert_eq!(r.number().unwrap(), "6");
    // The end of the object, and of the input: nothing to eat.
    assert!(!r.eat_key(&mut seq, b"\"f\":"));
    assert!(r.next_key(&mut seq).unwrap().is_none());
    r.finish().unwrap();
    assert!(!r.eat_key(&mut seq, b"\"f\":"));

    // A literal: whole, or not at all (a string's closing quote is part of it).
    let mut r = Reader::new(br#" "text""#);
    assert!(!r.eat(b"\"texts\""));
    assert!(!r.eat(b"\"text\"\""));
    // White space before a value is skipped, as every value read skips it.
    assert_eq!(r.position(), 1);
    assert!(r.eat(b"\"text\""));
    r.finish().unwrap();
}

#[test]
fn a_number_beyond_f64_reads_as_the_string_of_its_digits() {
    let nines = "9".repeat(308);
    let beyond = format!("9{nines}");
    let max = format!("17976931348623157{}", "0".repeat(292));
    for (number, string) in [
        ("1e400", true),
        ("-1E+400", true),
        ("1e308", false),
        ("1e-400", false),
        (nines.as_str(), false),
        (beyond.as_str(), true),
        (max.as_str(), false),
        ("0.5", false),
    ] {
        let bytes = format!(" {number} ");
        let mut r = Reader::new(bytes.as_bytes());
        let peek = r.peek().unwrap();
        assert_eq!(peek == Peek::String, string, "{number}");
        if string {
            assert_eq!(r.string().unwrap().text(), number);
        } else {
            assert_eq!(r.number().unwrap(), number);
        }
        r.finish().unwrap();
    }
    // Read at once as a string, with no peek before.
    let mut r = Reader::new(b"[1e400]");
    let mut items = r.array().unwrap();
    assert!(r.next_element(&mut items).unwrap());
    assert_eq!(r.string().unwrap().as_str(), "1e400");
    assert!(!r.next_element(&mut items).unwrap());
    // Anything else is still no string.
    assert!(Reader::new(b"12").string().is_err());
}

fn written(number: &str) -> String {
    let mut out = String::new();
    write_number(&mut out, number);
    out
}

#[test]
fn a_number_is_written_by_its_value() {
    for (number, shown) in [
        ("0", "0"),
        ("-0", "0"),
        ("-0.0", "0"),
        ("1", "1"),
        ("1.0", "1"),
        ("1E2", "100"),
        ("10e-1", "1"),
        ("-7", "-7"),
        ("-7.000", "-7"),
        ("2.50", "2.5"),
        ("0.1", "0.1"),
        ("1e-7", "1e-7"),
        ("1.5e-07", "1.5e-7"),
        ("1e-400", "0"),
        ("1e+16", "10000000000000000"),
        ("1e19", "10000000000000000000"),
        // 2^64 and past it: no longer 64 bits, so the shortest decimal.
        ("18446744073709551616", "1.8446744073709552e+19"),
        ("1e20", "1e+20"),
        ("1e300", "1e+300"),
        ("-1.5e300", "-1.5e+300"),
        // 64 bits exactly, either sign.
        ("18446744073709551615", "18446744073709551615"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("-9223372036854775809", "-9223372036854775808"),
        ("123456789012345678901234567890", "1.2345678901234568e+29"),
        ("1023.9999999999999", "1023.9999999999999"),
    ] {
        assert_eq!(written(number), shown, "{number}");
        // What is written is written again as itself, and means what the number did.
        assert_eq!(written(shown), shown, "{shown}");
        let (a, b) = (number.parse::<f64>().unwrap(), shown.parse::<f64>().unwrap());
        #[allow(clippy::float_cmp)] // the same value exactly (`-0.0` is `0.0`)
        let same = a == b;
        assert!(same, "{number} {shown}");
    }
}

/// A number beyond `f64`'s range is the string of its digits, as `parse_json` reads it.
#[test]
fn a_number_beyond_f64_is_written_as_the_string_of_its_digits() {
    for number in ["1e400", "-1e400", "1E999", "-2.5e+309", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"] {
        let written = written(number);
        assert_eq!(written, format!("\"{number}\""));
        let value = crate::repair::parse_json(number.as_bytes()).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), written);
    }
}

/// Any `f64`, written as `serde_json`, Python (`1e+16`, `1.0`) or JavaScript (`1e+21`,
/// `1`) write it, is written the same.
#[test]
fn a_number_written_by_any_library_is_written_the_same() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        let bits = xorshift(&mut state);
        let value = match bits % 4 {
            0 => f64::from_bits(bits),
            #[allow(clippy::cast_precision_loss)]
            1 => (bits >> 11) as f64,
            2 => f64::from(u32::try_from(bits >> 40).unwrap()) / 8.0,
            _ => -f64::from(u32::try_from(bits >> 44).unwrap()),
        };
        if !value.is_finite() {
            continue;
        }
        let serde = serde_json::Number::from_f64(value).unwrap().to_string();
        let exp = format!("{value:e}");
        let debug = format!("{value:?}");
        let shown = written(&serde);
        // JavaScript's digits of a whole number past 2^53 name another number (its own loss).
        let display = format!("{value}");
        let whole_past_53 = value.fract() == 0.0 && value.abs() >= 9_007_199_254_740_992.0;
        for spelling in [&exp, &debug, &exp.replace('e', "e+"), &display] {
            if spelling.contains("e+-") || (whole_past_53 && spelling == &display) {
                continue;
            }
            assert_eq!(written(spelling), shown, "{spelling} against {serde}");
        }
    }
}
