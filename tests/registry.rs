//! The reference registry: ids, records, eviction, lookups and threads.

mod common;

use std::collections::HashSet;

use common::reference;

use mcp_agent_view::{
    classify::Disposition, classify_block, reference::MAX_RECORDS, Block, Class, ErrorKind, ReferenceRegistry,
};
use serde_json::json;

#[track_caller]
fn assert_id_shape(id: &str) {
    let digits = id.strip_prefix("ref_").unwrap_or_else(|| panic!("{id} lacks ref_"));
    assert_eq!(digits.len(), 13, "{id}");
    assert!(
        digits.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()),
        "{id}"
    );
}

#[test]
fn ids_are_ref_and_base36_and_the_same_for_the_same_uri() {
    let registry = ReferenceRegistry::new();
    let a = registry.register(&reference("file:///a"));
    let b = registry.register(&reference("file:///b"));
    assert_id_shape(&a);
    assert_id_shape(&b);
    assert_ne!(a, b);
    assert_eq!(registry.register(&reference("file:///a")), a);
    assert_eq!(registry.len(), 2);
}

#[test]
fn ids_do_not_show_their_order() {
    // Consecutive registrations must not give ids that differ only in their last characters.
    let registry = ReferenceRegistry::new();
    let ids: Vec<String> = (0..50)
        .map(|i| registry.register(&reference(&format!("u:{i}"))))
        .collect();
    let shared_prefix = |x: &str, y: &str| x.bytes().zip(y.bytes()).take_while(|(a, b)| a == b).count();
    let long_prefixes = ids.windows(2).filter(|w| shared_prefix(&w[0], &w[1]) >= 4 + 8).count();
    assert!(long_prefixes <= 1, "{ids:?}");
}

#[test]
fn two_registries_give_different_ids_unless_seeded_alike() {
    let r = reference("file:///same");
    assert_ne!(
        ReferenceRegistry::new().register(&r),
        ReferenceRegistry::new().register(&r)
    );
    assert_eq!(
        ReferenceRegistry::with_seed(9).register(&r),
        ReferenceRegistry::with_seed(9).register(&r)
    );
    assert_ne!(
        ReferenceRegistry::with_seed(9).register(&r),
        ReferenceRegistry::with_seed(10).register(&r)
    );
}

#[test]
fn lookup_gives_the_record_with_the_uri_for_the_host() {
    let json = json!({"type": "resource", "uri": "https://x.example/r?token=t", "name": "r.csv",
        "mimeType": "text/csv", "sizeBytes": 10, "disposition": "never"});
    let block = Block::decode(&json);
    let Class::Reference(r) = classify_block(&block) else {
        panic!("a reference")
    };
    let registry = ReferenceRegistry::new();
    let id = registry.register(&r);
    let record = registry.lookup(&id).unwrap();
    assert_eq!(record.id, id);
    assert_eq!(record.uri, "https://x.example/r?token=t");
    assert_eq!(record.name.as_deref(), Some("r.csv"));
    assert_eq!(record.mime_type.as_deref(), Some("text/csv"));
    assert_eq!(record.size_bytes, Some(10));
    assert_eq!(record.disposition, Some(Disposition::Never));
}

#[test]
fn unknown_ids_are_a_defined_error() {
    let registry = ReferenceRegistry::new();
    let issued = registry.register(&reference("file:///a"));
    for id in [
        "",
        "ref_",
        "ref_zzzzzzzzzzzzzz",
        "ref_!!!!!!!!!!!!!",
        "[ref_0000000000000] evil",
        "REF_0000000000000",
    ] {
        let err = registry.lookup(id).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownReference, "{id}");
    }
    // An id from another registry was never issued here.
    let other = ReferenceRegistry::new().register(&reference("file:///a"));
    assert_ne!(other, issued);
    assert_eq!(registry.lookup(&other).unwrap_err().kind(), ErrorKind::UnknownReference);
    assert_eq!(
        registry.lookup("ref_nope").unwrap_err().to_string(),
        "unknown reference id: ref_nope"
    );
}

#[test]
fn at_most_2000_records_are_kept_and_the_oldest_go_first() {
    let registry = ReferenceRegistry::new();
    let ids: Vec<String> = (0..MAX_RECORDS + 5)
        .map(|i| registry.register(&reference(&format!("u:{i}"))))
        .collect();
    assert_eq!(registry.len(), MAX_RECORDS);
    for evicted in &ids[..5] {
        let err = registry.lookup(evicted).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::EvictedReference);
        assert_eq!(err.to_string(), format!("unknown reference id: {evicted}"));
    }
    assert_eq!(registry.lookup(&ids[5]).unwrap().uri, "u:5");
    // An evicted uri registered again gets a new id; the old one is never reused.
    let again = registry.register(&reference("u:0"));
    assert_ne!(again, ids[0]);
    assert_eq!(
        registry.lookup(&ids[0]).unwrap_err().kind(),
        ErrorKind::EvictedReference
    );
    let unique: HashSet<_> = ids.iter().chain([&again]).collect();
    assert_eq!(unique.len(), ids.len() + 1);
}

#[test]
fn many_threads_register_without_reusing_an_id() {
    common::assert_threads_never_share_an_id(8, 5_000);
}

#[test]
fn a_reference_registered_again_keeps_the_strictest_disposition_and_what_its_stub_shows() {
    let registry = ReferenceRegistry::with_seed(4);
    let stub_of = |json: serde_json::Value| {
        let message = mcp_agent_view::Message::decode(&json!([json])).unwrap();
        mcp_agent_view::history(&message, &registry, &mcp_agent_view::HistoryOptions::default()).unwrap()
    };
    let first = stub_of(json!({"type": "resource", "uri": "https://x.example/r", "name": "first.csv"}));
    let second = stub_of(
        json!({"type": "resource", "uri": "https://x.example/r", "name": "second.csv", "disposition": "never"}),
    );
    let id = &first[1..18];
    assert_eq!(&second[1..18], id, "one record, one id");
    assert!(second.contains("second.csv"));
    let record = registry.lookup(id).unwrap();
    assert_eq!(record.disposition, Some(Disposition::Never));
    assert_eq!(
        record.name.as_deref(),
        Some("second.csv"),
        "the record holds what the stub shows"
    );
    // Later testimony without a disposition, or with a laxer one, never loses `never`.
    let third =
        stub_of(json!({"type": "resource", "uri": "https://x.example/r", "name": "first.csv", "disposition": "ref"}));
    assert!(third.contains("first.csv"));
    let record = registry.lookup(id).unwrap();
    assert_eq!(record.disposition, Some(Disposition::Never));
    assert_eq!(record.name.as_deref(), Some("first.csv"));
    // A media type or a size said anew is what the record holds next.
    stub_of(json!({"type": "resource", "uri": "https://x.example/r", "name": "first.csv", "mimeType": "text/csv"}));
    assert_eq!(registry.lookup(id).unwrap().mime_type.as_deref(), Some("text/csv"));
    stub_of(
        json!({"type": "resource", "uri": "https://x.example/r", "name": "first.csv", "mimeType": "text/csv", "sizeBytes": 7}),
    );
    let record = registry.lookup(id).unwrap();
    assert_eq!(
        (record.size_bytes, record.disposition),
        (Some(7), Some(Disposition::Never))
    );
    assert_eq!(registry.len(), 1);
}

#[test]
fn a_message_of_more_links_than_are_kept_keeps_the_last_ones_with_the_ids_one_by_one_gives() {
    use mcp_agent_view::{history, HistoryOptions, Message};
    let uris: Vec<String> = (0..MAX_RECORDS + 5).map(|i| format!("https://h.example/{i}")).collect();
    let links: Vec<_> = uris
        .iter()
        .map(|uri| json!({"type": "resource_link", "uri": uri, "name": "n"}))
        .collect();
    let registry = ReferenceRegistry::with_seed(7);
    let before = registry.register(&reference("https://h.example/before"));
    let shown = history(
        &Message::decode(&json!({ "content": links })).unwrap(),
        &registry,
        &HistoryOptions::default(),
    )
    .unwrap();
    let ids: Vec<&str> = shown.lines().map(|line| &line[1..18]).collect();
    assert_eq!(ids.len(), uris.len());

    // The ids registering the same links one by one gives, after the same first one.
    let one_by_one = ReferenceRegistry::with_seed(7);
    one_by_one.register(&reference("https://h.example/before"));
    let expected: Vec<String> = uris.iter().map(|uri| one_by_one.register(&reference(uri))).collect();
    assert_eq!(ids, expected);

    assert_eq!(registry.len(), MAX_RECORDS);
    for id in ids[..5].iter().copied().chain([before.as_str()]) {
        assert_eq!(
            registry.lookup(id).unwrap_err().kind(),
            ErrorKind::EvictedReference,
            "{id}"
        );
    }
    for (id, uri) in ids[5..].iter().zip(&uris[5..]) {
        assert_eq!(&registry.lookup(id).unwrap().uri, uri);
    }
}

#[test]
fn a_registry_saved_dropped_and_restored_resolves_the_same_ids_and_issues_none_again() {
    use mcp_agent_view::{reference::RegistrySnapshot, reference::Verified};
    let registry = ReferenceRegistry::new();
    let ids: Vec<String> = (0..MAX_RECORDS + 3)
        .map(|i| registry.register(&reference(&format!("https://h.example/{i}"))))
        .collect();
    let verified = Verified {
        bytes: 19,
        mime_type: "audio/wav".into(),
        digest_verified: true,
        path: Some("/tmp/x.wav".into()),
    };
    registry.set_verified(&ids[MAX_RECORDS], verified.clone()).unwrap();
    let saved = serde_json::to_string(&registry.snapshot()).unwrap();
    let records = registry.records();
    drop(registry);

    let restored = ReferenceRegistry::restore(&serde_json::from_str::<RegistrySnapshot>(&saved).unwrap()).unwrap();
    assert_eq!(restored.records(), records);
    for (i, id) in ids.iter().enumerate().skip(3) {
        assert_eq!(restored.lookup(id).unwrap().uri, format!("https://h.example/{i}"));
    }
    assert_eq!(restored.lookup(&ids[MAX_RECORDS]).unwrap().verified, Some(verified));
    assert_eq!(
        restored.lookup(&ids[0]).unwrap_err().kind(),
        ErrorKind::EvictedReference
    );
    // A uri still held keeps its id; an evicted one gets a new id, never an old one.
    assert_eq!(restored.register(&reference("https://h.example/5")), ids[5]);
    let again = restored.register(&reference("https://h.example/0"));
    assert!(!ids.contains(&again), "{again} was issued before");
}

/// A snapshot saved by an earlier version restores, and its registry goes on issuing the ids
/// that version would: the ids of a key and counter are part of the snapshot's format (this
/// one was saved at `0e97441`, format 1).
#[test]
fn a_snapshot_saved_by_an_earlier_version_restores_with_its_ids() {
    let saved = r#"{"format":1,"key":"00000000000000079e3779be7f4a7c15","next":2,"records":[
        {"id":"ref_0uuz7oftrae9l","uri":"https://h.example/a?sig=s","source":"resource_link","name":"a.pdf","mimeType":"application/pdf","sizeBytes":null,"disposition":null,"expiresAt":null,"digest":null,"verified":null,"connection":null},
        {"id":"ref_2b066gyy4o68s","uri":"file:///b.txt","source":"resource_link","name":"b.txt","mimeType":null,"sizeBytes":null,"disposition":null,"expiresAt":null,"digest":null,"verified":null,"connection":null}]}"#;
    let restored = ReferenceRegistry::restore(
        &serde_json::from_str::<mcp_agent_view::reference::RegistrySnapshot>(saved).unwrap(),
    )
    .unwrap();
    assert_eq!(
        restored.lookup("ref_0uuz7oftrae9l").unwrap().uri,
        "https://h.example/a?sig=s"
    );
    assert_eq!(restored.lookup("ref_2b066gyy4o68s").unwrap().uri, "file:///b.txt");
    // The same ids from the seed that key came from, and from another seed, others.
    let again = ReferenceRegistry::with_seed(7);
    assert_eq!(
        again.register(&reference("https://h.example/a?sig=s")),
        "ref_0uuz7oftrae9l"
    );
    assert_eq!(again.register(&reference("file:///b.txt")), "ref_2b066gyy4o68s");
    let other = ReferenceRegistry::with_seed(u64::MAX);
    assert_eq!(
        other.register(&reference("https://h.example/a?sig=s")),
        "ref_2ehiug3mmqfft"
    );
    assert_eq!(other.register(&reference("file:///b.txt")), "ref_1z1nk17eqvo5l");
}

#[test]
fn a_snapshot_that_was_edited_is_refused() {
    use mcp_agent_view::reference::RegistrySnapshot;
    let registry = ReferenceRegistry::new();
    registry.register(&reference("https://h.example/a"));
    let snapshot = registry.snapshot();
    let refused = |snapshot: RegistrySnapshot| ReferenceRegistry::restore(&snapshot).unwrap_err().kind();

    let mut other_key = snapshot.clone();
    other_key.key = "0".repeat(32);
    assert_eq!(refused(other_key), ErrorKind::Snapshot);
    let mut no_key = snapshot.clone();
    no_key.key = "not a key".into();
    assert_eq!(refused(no_key), ErrorKind::Snapshot);
    let mut counter_back = snapshot.clone();
    counter_back.next = 0;
    assert_eq!(refused(counter_back), ErrorKind::Snapshot);
    let mut format = snapshot;
    format.format = 2;
    assert_eq!(refused(format), ErrorKind::Snapshot);
}

#[test]
fn after_a_fetch_the_stub_states_what_was_verified() {
    use mcp_agent_view::{history, reference::Verified, HistoryOptions, Message};
    let message = json!([{"type": "resource", "uri": "https://h.example/a", "name": "a.wav",
        "mimeType": "image/png", "sizeBytes": 12}]);
    let registry = ReferenceRegistry::with_seed(3);
    let show = || {
        history(
            &Message::decode(&message).unwrap(),
            &registry,
            &HistoryOptions::default(),
        )
        .unwrap()
    };
    let before = show();
    assert!(before.contains("— image/png, 12B claimed —"), "{before}");
    let id = &before[1..18];
    let verified = Verified {
        bytes: 19,
        mime_type: "audio/wav".into(),
        digest_verified: false,
        path: None,
    };
    registry.set_verified(id, verified).unwrap();
    let after = show();
    assert_eq!(
        after,
        before.replace("image/png, 12B claimed", "audio/wav, 19B verified")
    );
    // Other claims make the verified facts about other bytes: the stub says what is claimed.
    let changed = json!([{"type": "resource", "uri": "https://h.example/a", "name": "a.wav",
        "mimeType": "image/png", "sizeBytes": 13}]);
    let text = history(
        &Message::decode(&changed).unwrap(),
        &registry,
        &HistoryOptions::default(),
    )
    .unwrap();
    assert!(text.contains("13B claimed"), "{text}");
    assert_eq!(registry.lookup(id).unwrap().verified, None);
    assert_eq!(show(), before);
}

/// What a fetch verified stays with a record shown again with the claims it verified: a new
/// name, no disposition, or the disposition it has (`never` kept against `ref`) leave it, and
/// the stub states it; another disposition than the one kept is a change, and the stub says
/// what is claimed, the verified facts kept (same digest and size).
#[test]
fn what_a_fetch_verified_outlives_a_new_name_or_the_same_disposition() {
    use mcp_agent_view::{history, reference::Verified, HistoryOptions, Message};
    let link = |name: &str, disposition: Option<&str>| {
        let mut link = json!({"type": "resource", "uri": "https://h.example/a", "name": name,
            "mimeType": "image/png", "sizeBytes": 12});
        if let Some(disposition) = disposition {
            link["disposition"] = json!(disposition);
        }
        json!([link])
    };
    let show = |registry: &ReferenceRegistry, message: &serde_json::Value| {
        history(&Message::decode(message).unwrap(), registry, &HistoryOptions::default()).unwrap()
    };
    let verified = Verified {
        bytes: 19,
        mime_type: "audio/wav".into(),
        digest_verified: false,
        path: None,
    };
    for (first, again, states_verified) in [
        (Some("ref"), None, true),
        (Some("ref"), Some("ref"), true),
        (Some("never"), Some("ref"), true),
        (Some("never"), None, true),
        (Some("ref"), Some("never"), false),
        (None, Some("ref"), false),
    ] {
        let registry = ReferenceRegistry::with_seed(8);
        let id = show(&registry, &link("a.wav", first))[1..18].to_owned();
        registry.set_verified(&id, verified.clone()).unwrap();
        let text = show(&registry, &link("a.wav", again));
        assert_eq!(
            text.contains("19B verified"),
            states_verified,
            "{first:?} then {again:?}: {text}"
        );
        assert_eq!(
            text.contains("12B claimed"),
            !states_verified,
            "{first:?} then {again:?}: {text}"
        );
        let record = registry.lookup(&id).unwrap();
        assert_eq!(record.verified.as_ref(), Some(&verified), "{first:?} then {again:?}");
    }
    // A new name is no new claim about the bytes: what was verified stays.
    let registry = ReferenceRegistry::with_seed(8);
    let id = show(&registry, &link("a.wav", None))[1..18].to_owned();
    registry.set_verified(&id, verified.clone()).unwrap();
    let renamed = show(&registry, &link("b.wav", None));
    assert!(renamed.contains("] b.wav — image/png, 12B claimed"), "{renamed}");
    assert_eq!(registry.lookup(&id).unwrap().verified, Some(verified));
    assert!(show(&registry, &link("b.wav", None)).contains("19B verified"));
}

/// A key given twice takes back what the first gave: of `content` repeated, the stubs of the
/// first (a thousand links with sizes, more strings than one chunk of the stubs' strings
/// holds) leave nothing of them, on every lane; the second's links are recorded with their
/// own claims, none of the first's sizes.
#[test]
fn links_of_a_key_given_twice_leave_nothing_of_the_first() {
    let links = |from: usize, sized: bool| -> Vec<serde_json::Value> {
        (from..from + 1000)
            .map(|i| {
                let mut link = json!({"type": "resource_link", "uri": format!("https://h.example/{}/{i}", "x".repeat(80)),
                    "name": format!("n{i}")});
                if sized {
                    link["size"] = json!(i);
                }
                link
            })
            .collect()
    };
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":{},"content":{}}}}}"#,
        serde_json::Value::from(links(0, true)),
        serde_json::Value::from(links(5000, false))
    );
    for lane in ["history", "convert", "script"] {
        let registry = ReferenceRegistry::with_seed(12);
        let text = match lane {
            "history" => mcp_agent_view::history(
                message.as_bytes(),
                &registry,
                &mcp_agent_view::HistoryOptions::default(),
            )
            .unwrap(),
            "convert" => serde_json::to_string(
                &mcp_agent_view::convert(
                    message.as_bytes(),
                    mcp_agent_view::Provenance::ToolResult,
                    &registry,
                    &mcp_agent_view::Target::anthropic(),
                )
                .unwrap()
                .content,
            )
            .unwrap(),
            _ => mcp_agent_view::script(message.as_bytes(), &registry, &mcp_agent_view::Target::anthropic()).unwrap(),
        };
        let records = registry.records();
        assert_eq!(records.len(), 1000, "{lane}");
        for (record, i) in records.iter().zip(5000..) {
            assert!(record.uri.ends_with(&format!("/{i}")), "{lane}: {record:?}");
            assert_eq!(
                (record.name.clone(), record.size_bytes),
                (Some(format!("n{i}")), None),
                "{lane}"
            );
            assert!(text.contains(&record.id), "{lane}");
        }
    }
}

/// The same on the script lane, a key given twice in each of two thousand objects: the stubs
/// taken back start anywhere in the stubs' strings, at the start of a chunk of them too, and
/// leave the stubs kept before them whole.
#[test]
fn links_of_keys_given_twice_in_many_objects_leave_the_others_whole() {
    let link = |i: usize| {
        format!(
            r#"{{"type":"resource_link","uri":"https://h.example/{}/{i}","name":"n{i}"}}"#,
            "y".repeat(90)
        )
    };
    let items: Vec<String> = (0..2000)
        .map(|i| format!(r#"{{"x":{},"x":{}}}"#, link(i), link(10_000 + i)))
        .collect();
    let message = format!(r#"{{"items":[{}]}}"#, items.join(","));
    let registry = ReferenceRegistry::with_seed(14);
    let text = mcp_agent_view::script(message.as_bytes(), &registry, &mcp_agent_view::Target::anthropic()).unwrap();
    let records = registry.records();
    assert_eq!(records.len(), 2000);
    for (record, i) in records.iter().zip(10_000..) {
        assert!(record.uri.ends_with(&format!("/{i}")), "{record:?}");
        assert_eq!(record.name, Some(format!("n{i}")));
        assert!(text.contains(&record.id));
    }
}

/// A record held is written with its id at once only where registering it again changes
/// nothing, its connection included: shown again through another connection's handle, the
/// stub says what is claimed (the record then moves to that connection); through its own, it
/// states what a fetch verified.
#[test]
fn a_record_shown_through_another_connection_is_registered_again() {
    use mcp_agent_view::{history, reference::Verified, HistoryOptions};
    let registry = ReferenceRegistry::with_seed(13);
    let link =
        json!([{"type": "resource_link", "uri": "file:///a.wav", "name": "a.wav", "mimeType": "audio/wav", "size": 7}]);
    let show = |handle: &ReferenceRegistry| history(&link, handle, &HistoryOptions::default()).unwrap();
    let files = registry.for_connection("files");
    let id = show(&files)[1..18].to_owned();
    let verified = Verified {
        bytes: 9,
        mime_type: "audio/wav".into(),
        digest_verified: false,
        path: None,
    };
    registry.set_verified(&id, verified).unwrap();
    assert!(show(&files).contains("9B verified"));
    let other = registry.for_connection("other");
    let text = show(&other);
    assert!(text.contains("7B claimed") && text.contains(&id), "{text}");
    assert_eq!(registry.lookup(&id).unwrap().connection.as_deref(), Some("other"));
    assert!(show(&other).contains("9B verified"));
}

#[test]
fn a_fetch_tool_is_named_only_when_valid_and_then_every_stub_says_it() {
    let link = serde_json::json!([{"type": "resource_link", "uri": "https://h.example/a", "name": "a"}]);
    let plain = ReferenceRegistry::with_seed(1);
    assert_eq!(plain.fetch_tool(), None);
    let text = mcp_agent_view::history(&link, &plain, &mcp_agent_view::HistoryOptions::default()).unwrap();
    assert!(text.ends_with("] a — from tool result"), "{text}");
    for name in ["fetch_reference", "f", "a-B_9", &"x".repeat(64)] {
        let registry = ReferenceRegistry::with_seed(1).with_fetch_tool(name).unwrap();
        assert_eq!(registry.fetch_tool(), Some(name));
        assert_eq!(registry.for_connection("c").fetch_tool(), Some(name));
        let text = mcp_agent_view::history(&link, &registry, &mcp_agent_view::HistoryOptions::default()).unwrap();
        assert!(
            text.ends_with(&format!("] a — from tool result — fetch with {name}")),
            "{text}"
        );
    }
    for name in [
        "",
        "fetch reference",
        "a.b",
        "fetch:x",
        "é",
        &"x".repeat(65),
        "tool]",
        "a\n",
    ] {
        let error = ReferenceRegistry::with_seed(1).with_fetch_tool(name).unwrap_err();
        assert_eq!(error.kind(), mcp_agent_view::ErrorKind::ToolName, "{name:?}");
    }
}

#[test]
fn every_provenance_reads_back_from_its_name() {
    for (provenance, name) in mcp_agent_view::Provenance::NAMES {
        assert_eq!(name.parse::<mcp_agent_view::Provenance>().unwrap(), provenance);
    }
    let error = "tool_result".parse::<mcp_agent_view::Provenance>().unwrap_err();
    assert_eq!(error.kind(), mcp_agent_view::ErrorKind::UnknownProvenance);
    assert!(error.to_string().contains("tool-result, push-event"), "{error}");
}
