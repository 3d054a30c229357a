//! The tests of `text`, beside it.

use super::*;

/// Labels the quick test of plainness must send to the slow path: every byte counts, an
/// even number of them as much as an odd one (bytes told by bits, so no two may cancel).
#[test]
fn a_label_is_plain_only_where_every_byte_is() {
    for (raw, clean) in [
        ("x\u{061C}y", Some("xy")),
        ("a\u{85}b", Some("a b")),
        ("[[ref]]", Some("((ref))")),
        ("[x]", Some("(x)")),
        ("[[", Some("((")),
        ("]]", Some("))")),
        ("{{", Some("((")),
        ("}}", Some("))")),
        ("a{b}c", Some("a(b)c")),
        ("\u{7f}\u{7f}", None),
        ("", None),
        ("a\u{7f}\u{7f}b", Some("ab")),
        ("\u{1}\u{1}x", Some("x")),
        ("\u{1}\u{2}", None),
        ("\u{FF3B}\u{FF3D}", Some("()")),
        (" x", Some("x")),
        ("x ", Some("x")),
        ("café", Some("café")),
        ("a ~ b", Some("a ~ b")),
        ("plain label", Some("plain label")),
    ] {
        assert_eq!(clean_label(raw).as_deref(), clean, "{raw:?}");
    }
}

/// Every character the issue of hostile labels named, and the kinds around them.
#[test]
fn invisible_characters_go_and_brackets_dashes_and_quotes_turn_plain() {
    for invisible in [
        '\u{FE0F}',
        '\u{FE00}',
        '\u{E0100}',
        '\u{E01EF}',
        '\u{00AD}',
        '\u{034F}',
        '\u{115F}',
        '\u{17B4}',
        '\u{3164}',
        '\u{FFA0}',
        '\u{1D173}',
        '\u{1BCA0}',
        '\u{2065}',
        '\u{200B}',
        '\u{202E}',
        '\u{E0041}',
        '\u{0}',
        '\u{9B}',
        '\u{FFF9}',
        '\u{E000}',
        '\u{10FFFD}',
    ] {
        assert_eq!(
            clean_label(&format!("a{invisible}b")).as_deref(),
            Some("ab"),
            "{invisible:?}"
        );
    }
    for (raw, clean) in [
        ("\u{27E6}ref_x\u{27E7}", "(ref_x)"),
        ("\u{2045}ref_x\u{2046}", "(ref_x)"),
        ("\u{FE5D}ref_x\u{FE5E}", "(ref_x)"),
        ("\u{2308}ref_x\u{2309}", "(ref_x)"),
        ("{ref_x}", "(ref_x)"),
        (
            "a \u{2500} b \u{2212} c \u{2014} d \u{2550} e \u{2574}",
            "a - b - c - d - e -",
        ),
        ("\u{201C}q\u{201D} \u{00AB}r\u{00BB}", "'q' 'r'"),
        ("a\u{3000}\u{00A0}\u{2003}b", "a b"),
        ("x\u{2028}y\u{85}z", "x y z"),
    ] {
        assert_eq!(clean_label(raw).as_deref(), Some(clean), "{raw:?}");
    }
    // Letters and marks that only look alike stay: they draw no bracket or dash.
    assert_eq!(clean_label("データ").as_deref(), Some("データ"));
    assert_eq!(clean_label("é\u{301}").as_deref(), Some("é\u{301}"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
    /// The oracle: whatever the `url` crate (WHATWG's parser) reads as an absolute URL from
    /// any point of a label to the next white space, `holds_absolute_url` finds; but a
    /// drive (a one-letter scheme without `//`) and a scheme with nothing after its `:`.
    #[test]
    fn every_url_the_url_crate_reads_is_found(text in "([a-cA1.+-]{0,3}[:\u{FF1A}]?(//|[/\\\\\u{FF0F}]{1,2})?[a-c1.@?#%=:]{0,3} ?){1,4}") {
        for (at, _) in text.char_indices() {
            let token = text[at..].split(' ').next().unwrap_or("");
            let Ok(url) = url::Url::parse(token) else { continue };
            let rest = &token[url.scheme().len() + 1..];
            let drive = url.scheme().len() == 1 && !rest.starts_with("//");
            if !drive && !rest.is_empty() {
                proptest::prop_assert!(holds_absolute_url(&text), "{token:?} in {text:?}");
            }
        }
    }
}

#[test]
fn a_label_with_an_absolute_url_is_refused_whole() {
    for url in [
        "https://h.example/x?X-Amz-Signature=SECRET123",
        "see HTTP://h.example",
        "x-amz-s3://bucket/key",
        "file:///etc/passwd",
        "data:text/plain,hi",
        "mailto:a@b.example",
        "javascript:alert(1)",
        "urn:isbn:123",
        "s3:\\\\bucket",
        "https\u{FF1A}\u{FF0F}\u{FF0F}h.example",
        "h\u{200B}ttps://h.example",
        "12https://x",
        "report.pdfdata:text/plain,hi",
        "note:x",
        "Blob o://resourceResource 1",
        "main.r&://mixed-content",
        "see ://h.example/x",
        "\u{FF1A}//h.example",
        "o\u{FF1A}\u{FF0F}\u{FF0F}host",
        "x://",
        "\u{FF48}\u{FF54}\u{FF54}\u{FF50}\u{FF53}\u{FF1A}\u{FF0F}\u{FF0F}h.example/x?sig=SECRET",
        "\u{FF48}\u{FF54}\u{FF54}\u{FF50}\u{FF53}://h.example",
        "\u{FF44}ata\u{FF1A}text/plain,hi",
    ] {
        assert_eq!(clean_label(url), None, "{url:?}");
    }
    for fine in [
        "Time: 10am",
        "C:\\report.txt",
        "C:/report.txt",
        "C:\\\\share",
        "\u{FF23}\u{FF1A}\u{FF3C}report.txt",
        "\u{FF34}ime\u{FF1A} 10am",
        "a::b",
        "ratio 3:4",
        "at 10:30",
        "x:",
        "q3.pdf",
        "key=value",
    ] {
        assert_eq!(clean_label(fine).as_deref(), Some(fine), "{fine:?}");
    }
}

#[test]
fn a_media_type_shows_as_its_essence_or_not_at_all() {
    for (raw, shown) in [
        ("image/png", Some("image/png")),
        ("Image/PNG; charset=x", Some("image/png")),
        (
            "application/pdf; source=https://h.example/x?sig=SECRET123",
            Some("application/pdf"),
        ),
        ("application/\u{200F}pdf", Some("application/pdf")),
        (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ),
        ("text/x-c++", Some("text/x-c++")),
        ("application/x-https://h.example/x?sig=SECRET123", None),
        ("text/plain/extra", None),
        ("text", None),
        ("/plain", None),
        ("text/", None),
        ("-text/plain", None),
        ("text/-plain", None),
        ("text/.", None),
        ("text /plain", None),
        ("text/pl ain", None),
        ("text/[ref_x]", None),
        ("", None),
    ] {
        assert_eq!(mime_label(raw).as_deref(), shown, "{raw:?}");
    }
    let long = format!("a/{}", "b".repeat(127));
    assert_eq!(mime_label(&long).as_deref(), Some(long.as_str()));
    assert_eq!(mime_label(&format!("a/{}", "b".repeat(128))), None);
    let long = format!("{}/b", "a".repeat(127));
    assert_eq!(mime_label(&long).as_deref(), Some(long.as_str()));
    assert_eq!(mime_label(&format!("{}/b", "a".repeat(128))), None);
}

/// [`mime_label`] as RFC 6838 reads it, written plainly: the essence before the first `;`,
/// split at its first `/`, each side a restricted name by itself.
fn mime_label_oracle(raw: &str) -> Option<String> {
    let restricted = |essence: &str| {
        let (kind, sub) = essence.split_once('/')?;
        let name = |n: &str| {
            (1..=127).contains(&n.len())
                && n.starts_with(|c: char| c.is_ascii_alphanumeric())
                && n.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&c))
        };
        (name(kind) && name(sub)).then(|| essence.to_ascii_lowercase())
    };
    let essence = raw.split(';').next().unwrap_or_default();
    restricted(essence).or_else(|| {
        let mut cleaned = String::new();
        push_clean_to(&mut cleaned, essence, 2 * 127 + 1);
        restricted(&cleaned)
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
    #[test]
    fn a_media_type_is_read_in_one_pass_as_the_rfc_reads_it(raw in "[aZ0.+!/;= \\-]{0,12}|[a/\u{200B}]{0,300}") {
        proptest::prop_assert_eq!(mime_label(&raw).map(Cow::into_owned), mime_label_oracle(&raw), "{:?}", raw);
    }
}

#[test]
fn a_long_label_is_cut_whatever_path_it_takes() {
    let plain = "x".repeat(200);
    let cut = format!("{}…", "x".repeat(LABEL_MAX_CHARS - 1));
    assert_eq!(clean_label(&plain).as_deref(), Some(cut.as_str()));
    assert_eq!(
        clean_label(&"x".repeat(LABEL_MAX_CHARS)).as_deref(),
        Some("x".repeat(LABEL_MAX_CHARS).as_str())
    );
    assert_eq!(clean_label(&format!("\u{200B}{plain}")).as_deref(), Some(cut.as_str()));
}

#[test]
fn a_media_type_of_two_whole_restricted_names_is_never_cut() {
    // 127 characters either side of the slash, and a character cleaning takes out: read
    // whole, so shown whole.
    let long = format!("{}/{}", "a".repeat(127), "b".repeat(127));
    let with_invisible = format!("{}\u{200B}/{}", "a".repeat(127), "b".repeat(127));
    assert_eq!(mime_label(&with_invisible).as_deref(), Some(long.as_str()));
}

#[test]
fn an_unknown_type_shows_only_as_a_plain_name() {
    for (raw, shown) in [
        ("hologram", Some("hologram")),
        ("video/mp4", Some("video/mp4")),
        ("x_y-z.1+2", Some("x_y-z.1+2")),
        ("video/\u{202E}evil\u{7}", Some("video/evil")),
        ("a b", None),
        ("https://h.example/x", None),
        ("画像", None),
        ("[ref_x]", None),
        ("", None),
    ] {
        assert_eq!(type_label(raw).as_deref(), shown, "{raw:?}");
    }
    assert_eq!(type_label(&"t".repeat(64)).as_deref(), Some("t".repeat(64).as_str()));
    assert_eq!(type_label(&"t".repeat(65)), None);
    assert_eq!(type_label(&"t".repeat(500)), None);
}

#[test]
fn a_label_mentions_a_uri_by_any_part_a_credential_may_be_in() {
    let uri = "https://me:pa%24%24word@h.example/dir/file.pdf?X-Amz-Signature=SECRET123&v=2#frag=token99";
    for label in [
        uri,
        "X-Amz-Signature=SECRET123",
        "secret123",
        "copy of SECRET123.pdf",
        "token99",
        "frag=token99",
        "pa$$word",
        "pa%24%24word",
        "me:pa%24%24word",
        "\u{FF33}\u{FF25}\u{FF23}\u{FF32}\u{FF25}\u{FF34}\u{FF11}\u{FF12}\u{FF13}",
        "copy of \u{FF53}ecret123",
        "copy of %53ECRET123",
        "%70%61%24%24word",
    ] {
        assert!(mentions_uri(label, uri), "{label:?}");
    }
    for label in ["file.pdf", "report v2", "dir", "Signature", "me", "the file"] {
        assert!(!mentions_uri(label, uri), "{label:?}");
    }
    assert!(!mentions_uri("a.txt", "file:///a.txt"));
    assert!(mentions_uri("x?y", "x?y"));
}

/// The one rule of issue 48: the host in every spelling, every path segment but the last,
/// folded as a reader reads them.
#[test]
fn a_label_shows_no_host_and_no_path_segment_but_the_last() {
    let hook = "https://hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB/XXSECRETXXSECRETXX";
    for label in [
        "hooks.slack.example/services/T0AAAAAAA/B0BBBBBBB",
        "https\u{A789}//hooks.slack.example",
        "https: //hooks.slack.example",
        "hooks slack example",
        "T0AAAAAAA",
        "t0aaaaaaa",
        "services",
        "\u{1D413}0AAAAAAA",
        "T0AAAA-AAA",
        "T0AAA AAAA",
    ] {
        assert!(mentions_uri(label, hook), "{label:?}");
    }
    // The last segment is the file name's place: the label may show it.
    assert!(!mentions_uri("XXSECRETXXSECRETXX", hook));
    assert!(!mentions_uri("report.pdf", "https://h.example/a/report.pdf"));
    let idn = "https://b\u{FC}cher.example/x/report.pdf";
    for label in ["b\u{FC}cher.example", "xn--bcher-kva.example", "BÜCHER.EXAMPLE"] {
        assert!(mentions_uri(label, idn), "{label:?}");
        assert!(mentions_uri(label, "https://xn--bcher-kva.example/r.pdf"), "{label:?}");
    }
    // A query value in lookalikes: mathematical bold, a Cyrillic О, split by space or dash.
    let signed = "https://h.example/r.pdf?sig=TOKEN4242";
    for label in [
        "\u{1D413}\u{1D40E}\u{1D40A}\u{1D404}\u{1D40D}4242",
        "T\u{041E}KEN4242",
        "TOK EN4242",
        "TOK-EN-4242",
    ] {
        assert!(mentions_uri(label, signed), "{label:?}");
    }
    // The Unicode spelling of a punycode host, read by an ASCII label (`ü` folds to `u`).
    assert!(mentions_uri("bucher example", "https://xn--bcher-kva.example/a/r.pdf"));
    // A part of exactly the fewest letters counts, where the uri takes the general path.
    assert!(mentions_uri("abc", "https://h.example/a%20b/r.pdf?sig=abc"));
    assert!(!mentions_uri("ab", "https://h.example/a%20b/r.pdf?sig=ab"));
    // An address, and a host with a port.
    assert!(mentions_uri("from 10.1.2.3", "http://10.1.2.3:8080/a/b.txt"));
    assert!(mentions_uri("data.internal", "http://data.internal:8080/b.txt"));
    // Short parts are words any label may hold; a custom scheme's one-word authority is
    // a name, not a host (the everything server's links).
    assert!(!mentions_uri("en docs", "https://a.io/en/docs.html"));
    assert!(!mentions_uri("text/plain", "demo://resource/dynamic/text/1"));
    assert!(!mentions_uri("Blob Resource 3", "demo://resource/dynamic/blob/3"));
    assert!(mentions_uri("from resource", "http://resource/a.txt"));
    assert!(mentions_uri("dynamic", "demo://resource/dynamic/blob/3"));
    // No scheme before a colon that starts the uri: what follows is path, not an authority.
    assert!(mentions_uri("hostname", "://hostname/a/b"));
    // A label of no ASCII at all (full-width forms) spells the host all the same.
    assert!(mentions_uri(
        "\u{FF48}\u{FF4F}\u{FF4F}\u{FF4B}\u{FF53}\u{FF0E}\u{FF45}\u{FF58}",
        "https://hooks.ex/a.pdf"
    ));
    // A uri of no ASCII at all, repeated by its label: the uri whole.
    assert!(mentions_uri(
        "\u{FF48}\u{FF4F}\u{FF4F}\u{FF4B}\u{FF53}",
        "\u{FF48}\u{FF4F}\u{FF4F}\u{FF4B}\u{FF53}"
    ));
    // A uri longer than the stack's fold: judged whole, past its first 128 bytes too.
    let long = format!("https://files.example/{}/secretsegment/report.pdf", "a".repeat(300));
    assert!(mentions_uri("secretsegment", &long));
    assert!(!mentions_uri("report.pdf", &long));
}

/// [`hidden_parts`] as first written, a search over the uri for each delimiter in turn (the
/// first `#`, the first `?` before it, the first `:` before that, …): the single pass must
/// visit the same parts, in the same order.
fn hidden_parts_oracle(uri: &str, credentials_only: bool, mut visit: impl FnMut(&str, usize) -> bool) -> bool {
    if visit(uri, 1) {
        return true;
    }
    let b = uri.as_bytes();
    let find = |from: usize, to: usize, c: u8| b[from..to].iter().position(|&x| x == c).map(|i| from + i);
    let hash = memchr::memchr(b'#', b).unwrap_or(b.len());
    let query = memchr::memchr(b'?', &b[..hash]).unwrap_or(hash);
    // After the scheme, where there is one.
    let (scheme, mut path) = match find(0, query, b':') {
        Some(colon)
            if colon > 0
                && b[..colon]
                    .iter()
                    .all(|&c| c.is_ascii_alphanumeric() || b"+-.".contains(&c)) =>
        {
            (&uri[..colon], colon + 1)
        }
        _ => ("", 0),
    };
    if b[path..query].starts_with(b"//") {
        let authority = path + 2;
        let end = find(authority, query, b'/').unwrap_or(query);
        let (userinfo, host) = match b[authority..end].iter().rposition(|&c| c == b'@') {
            Some(at) => (&uri[authority..authority + at], &uri[authority + at + 1..end]),
            None => ("", &uri[authority..end]),
        };
        if pieces(userinfo, &mut visit) {
            return true;
        }
        let host = strip_port(host);
        if !credentials_only
            && is_network_host(scheme, host)
            && (visit(host, fewest::HOST) || other_spellings(host, &mut visit))
        {
            return true;
        }
        path = end;
    }
    if credentials_only {
        path = query;
    }
    // Every path segment but the last, split at `/` and `:`.
    let (mut start, mut previous) = (path, None);
    for at in (path..query).filter(|&at| matches!(b[at], b'/' | b':')).chain([query]) {
        if at > start {
            if let Some((s, e)) = previous.replace((start, at)) {
                if visit(&uri[s..e], fewest::SEGMENT) {
                    return true;
                }
            }
        }
        start = at + 1;
    }
    let after = |from: usize, to: usize| if from < to { &uri[from + 1..to] } else { "" };
    pieces(after(query, hash), &mut visit) || pieces(after(hash, b.len()), &mut visit)
}

/// A way to walk a uri's hidden parts: [`hidden_parts`] or its oracle.
type Walk = fn(&str, bool, &mut dyn FnMut(&str, usize) -> bool) -> bool;

/// The parts [`hidden_parts`] visits, in order.
fn visited(uri: &str, credentials_only: bool, parts: Walk) -> Vec<(String, usize)> {
    let mut seen = Vec::new();
    parts(uri, credentials_only, &mut |part, at_least| {
        seen.push((part.to_owned(), at_least));
        false
    });
    seen
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8192))]
    #[test]
    fn one_pass_finds_the_parts_the_searches_find(
        prefix in "(|https://|demo://|//|://|http://u:p@|file:///|ws://\\[::1\\]:80|a:|xn--)",
        rest in "[a1:/?#@&;=\\[\\].%+xnX\u{E9} -]{0,24}",
        credentials_only in proptest::bool::ANY,
    ) {
        let uri = format!("{prefix}{rest}");
        proptest::prop_assert_eq!(
            visited(&uri, credentials_only, |u, c, v| hidden_parts(u, c, v)),
            visited(&uri, credentials_only, |u, c, v| hidden_parts_oracle(u, c, v)),
            "{:?}", uri
        );
    }
}

/// A media type is held to its uri's credential parts only, whichever way the uri is cheap
/// to pass over: no credential character at all (then only the whole uri counts), or one
/// or more of them (each a reason to look).
#[test]
fn a_media_type_shows_no_credential_of_its_uri() {
    let query = "https://h.example/r?token=s3cret-t0ken";
    assert!(media_type_mentions_uri("text/s3cret-t0ken", query));
    // Two credential characters are two reasons, not none.
    assert!(media_type_mentions_uri("text/s3cret-t0ken", &format!("{query}#frag")));
    assert!(!media_type_mentions_uri("text/plain", query));
    // With none, only the uri whole: a type as long as it, or nearly.
    assert!(media_type_mentions_uri("xab/cd", "x:ab/cd"));
    assert!(!media_type_mentions_uri(
        "text/html",
        "https://h.example/text/html/page"
    ));
}

/// A colon ends a scheme only after a scheme's characters: in a path it splits segments.
#[test]
fn a_colon_in_a_path_is_no_scheme() {
    assert!(mentions_uri("SECRETSEGMENT1", "/files/SECRETSEGMENT1:x/report.pdf"));
    assert!(mentions_uri("SECRETSEGMENT1", "a b:/SECRETSEGMENT1/report.pdf"));
    assert!(!mentions_uri("report.pdf", "/files/SECRETSEGMENT1:x/report.pdf"));
    // The host after userinfo is the host, whatever the userinfo.
    assert!(mentions_uri("hooks.example", "https://user:pw@hooks.example/a"));
    assert!(mentions_uri("pw-s3cret", "https://user:pw-s3cret@hooks.example/a"));
    // No colon at all: no scheme, whatever stands before the query.
    assert!(mentions_uri("SECRETSEGMENT1", "SECRETSEGMENT1/report.pdf?v=1"));
    assert!(!mentions_uri("report.pdf", "abc?v=1"));
}

/// The ASCII fold is the general one, on every ASCII string.
#[test]
fn the_ascii_fold_is_the_skeletons() {
    let all: String = (0x20u8..0x7f).map(char::from).collect();
    for text in [all.as_str(), "Mm0O1lI|%", "T0AAAA-AAA rn"] {
        use unicode_normalization::UnicodeNormalization as _;
        let lower: String = text.nfkc().flat_map(char::to_lowercase).collect();
        let slow: String = unicode_security::confusable_detection::skeleton(&lower)
            .flat_map(char::to_lowercase)
            .filter(|c| c.is_alphanumeric())
            .collect();
        let mut fast = String::new();
        fold_ascii(&mut fast, text);
        assert_eq!(fast, slow, "{text:?}");
        let plain: String = text.chars().filter(|&c| c != '%').take(PLAIN_MAX).collect();
        let mut general = String::new();
        fold_into(&mut general, &plain);
        assert_eq!(
            fold_plain(plain.as_bytes(), &mut [0; 2 * PLAIN_MAX]),
            general.as_bytes(),
            "{plain:?}"
        );
    }
}

#[test]
fn sizes_switch_units_where_rounding_reaches_the_next() {
    assert_eq!(format_size(0), "0B");
    assert_eq!(format_size(1023), "1023B");
    assert_eq!(format_size(1024), "~1KB");
    assert_eq!(format_size(3000), "~3KB");
    assert_eq!(format_size(1024 * 1024 - 1), "~1.0MB");
    assert_eq!(format_size(22_439_526), "~21.4MB");
    assert_eq!(format_size(1024 * 1024 * 1024 - 1), "~1.0GB");
    assert_eq!(format_size(3 * 1024 * 1024 * 1024), "~3.0GB");
}

#[test]
fn base64_length_counts_padding_out() {
    assert_eq!(base64_decoded_len(b""), 0);
    assert_eq!(base64_decoded_len(b"aGk="), 2);
    assert_eq!(base64_decoded_len(b"aGk"), 2);
    assert_eq!(base64_decoded_len(b"aA=="), 1);
    assert_eq!(base64_decoded_len(b"aGVsbG8h"), 6);
    assert_eq!(base64_decoded_len(b"aGVsbG8h\n"), 6);
}
