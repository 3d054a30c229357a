//! Bytes → decode → classify → every lane and target, on both paths: the one-pass reader over
//! the bytes, and `parse_json` + `Message::decode`. Nothing may panic, no lane may lose a
//! block, and the two paths agree: both read the bytes or neither does, and where both do,
//! the history lane is the same string with the same ids (a line of JSON compared as the value
//! it is: a `Value` has lost the order of its keys), and its registry holds a record for
//! each id it shows and no other (reading has no side effects; an id the server's own text
//! forged has none); the convert lane straight from
//! the bytes gives what it gives from the decoded message, with the same records.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::{classify_block, convert, markers, history, parse_json, prompt_messages, tool_result, HistoryOptions, Message, Provenance, ReferenceRegistry, Target};
use mcp_agent_view::wire::Role;

fuzz_target!(|bytes: &[u8]| {
    let options = HistoryOptions::default();
    let one_pass_registry = ReferenceRegistry::with_seed(0);
    let one_pass = history(bytes, &one_pass_registry, &options);
    let parsed = Message::parse(bytes);
    let decoded = parse_json(bytes).and_then(|value| Message::decode(&value));
    assert_eq!(
        parsed.as_ref().map(|_| ()).map_err(|e| e.kind()),
        decoded.as_ref().map(|_| ()).map_err(|e| e.kind()),
        "the bytes path and the Value path read the bytes alike"
    );
    assert_eq!(one_pass.is_ok(), parsed.is_ok(), "history from bytes reads what Message::parse reads");
    assert_eq!(
        convert(bytes, Provenance::PushEvent, &ReferenceRegistry::with_seed(0), &Target::neutral()).is_ok(),
        parsed.is_ok(),
        "convert from bytes reads what Message::parse reads"
    );
    if let (Ok(parsed), Ok(decoded), Ok(one_pass)) = (&parsed, &decoded, &one_pass) {
        let (a, b) = (ReferenceRegistry::with_seed(0), ReferenceRegistry::with_seed(0));
        let from_bytes = history(parsed, &a, &options).unwrap();
        assert_eq!(&from_bytes, one_pass, "history from the bytes and from the message agree");
        let from_value = history(decoded, &b, &options).unwrap();
        let server_text = parse_json(bytes).map(|value| value.to_string()).unwrap_or_default();
        // Ids are issued in the order stubs stand, which a `Value`'s key order changes in
        // `structuredContent`: each id is compared as the uri it stands for. An id the
        // server's text forged may be another uri's on the other path: then ids are not
        // compared.
        let forged = [&a, &b].iter().flat_map(|r| r.records()).any(|r| server_text.contains(&r.id));
        let (x, y) = if forged {
            (without_ids(&from_bytes), without_ids(&from_value))
        } else {
            (by_uri(&from_bytes, &a), by_uri(&from_value, &b))
        };
        assert_eq!(lines(&x), lines(&y), "the bytes and the Value give one history");
        // A record for each id shown, and no other; an id the server's own text forged (shown
        // as the text it is) has none.
        let shown = ids(one_pass);
        for record in one_pass_registry.records() {
            assert!(shown.contains(&record.id.as_str()), "no record of an id not shown: {}", record.id);
            // The label rule: a name kept shows no part of its uri that the rule hides,
            // folded as the rule folds.
            if let Some(name) = record.name.as_deref().and_then(markers::clean_label) {
                assert!(!markers::label_shows_uri(&name, &record.uri), "{name:?} shows {:?}", record.uri);
            }
        }
        for id in &shown {
            assert!(
                one_pass_registry.lookup(id).is_ok() || server_text.contains(&format!("[{id}")),
                "a record for each id shown, but those the server's text forged: {id}"
            );
        }
        // The convert lane straight from the bytes, and from the decoded message.
        for target in [Target::neutral(), Target::anthropic()] {
            let (c, d) = (ReferenceRegistry::with_seed(0), ReferenceRegistry::with_seed(0));
            let streamed = convert(bytes, Provenance::PushEvent, &c, &target).expect("the bytes parse");
            let collected = convert(parsed, Provenance::PushEvent, &d, &target).unwrap();
            assert_eq!(streamed, collected, "convert from the bytes and from the message agree");
            assert_eq!(c.records(), d.records(), "with the same records");
        }
        lanes(parsed, &a);
        lanes(decoded, &b);
    }
});

/// The lines of a history string, a line of JSON (a result's `structuredContent`, which shows
/// the order of its keys, lost in a `Value`) as the value it is.
fn lines(text: &str) -> Vec<Result<serde_json::Value, &str>> {
    text.split('\n')
        .map(|line| match serde_json::from_str::<serde_json::Value>(line) {
            Ok(value @ (serde_json::Value::Object(_) | serde_json::Value::Array(_))) => Ok(value),
            _ => Err(line),
        })
        .collect()
}

/// `text` with each id `registry` issued written as its uri's rank among the registry's uris
/// (as long as an id, and JSON-safe).
fn by_uri(text: &str, registry: &ReferenceRegistry) -> String {
    let mut records = registry.records();
    records.sort_by(|x, y| x.uri.cmp(&y.uri));
    records
        .iter()
        .enumerate()
        .fold(text.to_owned(), |text, (rank, record)| text.replace(&record.id, &format!("uri_{rank:013}")))
}

/// `text` with the characters of every id (`[ref_` and 13 digits or lowercase letters) written
/// as `?`.
fn without_ids(text: &str) -> String {
    ids(text).iter().fold(text.to_owned(), |out, id| out.replace(&format!("[{id}"), "[ref_?????????????"))
}

/// The distinct `ref_` ids `text` shows.
fn ids(text: &str) -> Vec<&str> {
    let mut ids: Vec<&str> = text
        .match_indices("[ref_")
        .filter_map(|(at, _)| text.get(at + 1..at + 18))
        .filter(|id| id[4..].bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn lanes(message: &Message<'_>, registry: &ReferenceRegistry) {
    let count = message.blocks().count();
    for block in message.blocks() {
        let class = classify_block(block);
        let summary = class.summary().to_string();
        if class.is_text() {
            continue;
        }
        // What stands for a block that is no text is the crate's own line: one line, no URL
        // from a label, and for a reference one stub whose labels repeat no part of its uri.
        let shown = history(block, &ReferenceRegistry::with_seed(0), &HistoryOptions::default()).unwrap();
        assert!(!shown.contains('\n'), "one line a block: {shown:?}");
        assert!(!shown.contains("://") && !summary.contains("://"), "a URL in {shown:?} / {summary}");
        // A block whose audience leaves out the assistant is held back: its marker alone.
        let for_user = block
            .annotations
            .as_ref()
            .and_then(|annotations| annotations.audience.as_ref())
            .is_some_and(|audience| !audience.contains(&Role::Assistant));
        if for_user {
            assert_eq!(shown, markers::DISPLAYED_TO_USER, "held back for the user");
            continue;
        }
        if let mcp_agent_view::Class::Reference(reference) = &class {
            assert_eq!(shown.matches("[ref_").count(), 1, "one stub: {shown:?}");
            assert!(shown.matches(" \u{2014} ").count() <= 2, "a stub's own separators only: {shown:?}");
            let uri = reference.uri.to_ascii_lowercase();
            let query = uri.split_once('?').map_or("", |(_, q)| q.split('#').next().unwrap_or(""));
            let fragment = uri.split_once('#').map_or("", |(_, f)| f);
            // Each label apart: what follows the id, split at the stub's own separators (no
            // label draws one), less the provenance the crate writes last. A uri may repeat the
            // crate's own words: an id from a known seed, a separator between two labels.
            let after_id = shown.split_once(']').map_or("", |(_, rest)| rest);
            let labels = after_id.rsplit_once(" \u{2014} ").map_or(after_id, |(labels, _)| labels);
            for label in labels.split(" \u{2014} ") {
                let lower = label.to_ascii_lowercase();
                for part in [uri.as_str(), query, fragment].into_iter().filter(|p| p.chars().count() >= 8) {
                    assert!(!lower.contains(part), "{part:?} of the uri in {shown:?}");
                }
            }
        }
    }
    for budget in [None, Some(40)] {
        let _ = history(message, registry, &HistoryOptions { budget, ..HistoryOptions::default() }).unwrap();
    }
    for target in [Target::neutral(), Target::anthropic(), Target::openai_chat(), Target::openai_responses()] {
        let converted = convert(message, Provenance::PushEvent, registry, &target).unwrap();
        if !matches!(message, Message::RpcError(_)) {
            // One agent block a block (for the model or held back), and for a tool result at
            // most an error line and its structured content (or the marker of nothing).
            let given = converted.content.len() + converted.held_for_user.len();
            assert!(given >= count && given <= count + 2, "every block gives one agent block");
        }
        let _ = target.blocks_json(&converted.content);
        let result = tool_result(message, "tool", "toolu_1", registry, &target);
        assert!(!result.content.is_empty(), "a tool result is never empty");
        assert!(
            !result.content.iter().any(|b| b.as_text().is_some_and(|t| t.trim().is_empty())),
            "no blank text block in a tool result"
        );
        let _ = target.tool_result_messages(&[result]);
        let _ = target.tool_result_messages(&[tool_result(message, "tool", "toolu_1", registry, &target)]);
        let _ = target.messages_json(&prompt_messages(message, registry, &target).unwrap());
    }
}
