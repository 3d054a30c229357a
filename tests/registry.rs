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

/// A link for the test below: a uri of a pool of `pool`, a name, a media type, a size and a
/// disposition that change from one showing to the next.
fn link(uri: u16, name: u8, size: Option<u16>, never: bool) -> serde_json::Value {
    let mut link = json!({"type": "resource", "uri": format!("https://h.example/{uri}"), "name": format!("n{name}"),
        "mimeType": if name % 2 == 0 { "text/plain" } else { "application/pdf" }});
    if let Some(size) = size {
        link["sizeBytes"] = json!(size);
    }
    if never {
        link["disposition"] = json!("never");
    }
    link
}

/// The ids `links` get registered one at a time, in order.
fn registered_one_by_one(registry: &ReferenceRegistry, links: &[serde_json::Value]) -> Vec<String> {
    links
        .iter()
        .map(|link| match classify_block(&Block::decode(link)) {
            Class::Reference(r) => registry.register(&r),
            other => panic!("{other:?}"),
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A message's stubs registered at once give the ids and the records registering them one
    /// by one gives: every id, every record kept, in order, with what every later showing of
    /// its uri said (its name, type, size, the strictest disposition), before and after more
    /// links than the registry keeps, over records it held before.
    #[test]
    fn stubs_registered_at_once_are_registered_as_one_by_one(
        before in proptest::collection::vec((0u16..3000, proptest::prelude::any::<u8>()), 0..2500),
        links in proptest::collection::vec((0u16..3000, proptest::prelude::any::<u8>(), proptest::option::of(0u16..9), proptest::prelude::any::<bool>()), 0..4500),
        pool in 1u16..3000,
    ) {
        use mcp_agent_view::{history, HistoryOptions};
        let links: Vec<_> = links.into_iter().map(|(uri, name, size, never)| link(uri % pool, name % 4, size.filter(|_| name % 5 == 0), never && name % 7 == 0)).collect();
        let registered = |registry: &ReferenceRegistry| {
            // Some registered as a plain reference, some as the links below show them: those
            // a link shows again as they are, whose records it leaves as they are.
            for &(uri, name) in &before {
                if name % 3 == 0 {
                    registry.register(&reference(&format!("https://h.example/{}", uri % pool)));
                } else {
                    registered_one_by_one(registry, &[link(uri % pool, name % 4, None, false)]);
                }
            }
        };
        let one_by_one = ReferenceRegistry::with_seed(3).for_connection("server");
        registered(&one_by_one);
        let expected = registered_one_by_one(&one_by_one, &links);
        // Without a budget and with one (which may take stubs back).
        for budget in [None, Some(usize::MAX)] {
            let at_once = ReferenceRegistry::with_seed(3).for_connection("server");
            registered(&at_once);
            let options = HistoryOptions { budget, ..HistoryOptions::default() };
            let shown = history(&json!({ "content": links }), &at_once, &options).unwrap();
            let ids: Vec<&str> = shown.lines().filter(|l| !l.is_empty()).map(|line| &line[1..18]).collect();
            proptest::prop_assert_eq!(&ids, &expected);
            proptest::prop_assert_eq!(at_once.records(), one_by_one.records());
            proptest::prop_assert_eq!(at_once.snapshot(), one_by_one.snapshot());
        }
    }
}

/// The same once more, for the cases the generator meets rarely: past the records the registry
/// keeps within one message, links shown again while their records are kept, and while they
/// are not.
#[test]
fn links_shown_again_within_a_message_past_the_records_kept_are_registered_as_one_by_one() {
    use mcp_agent_view::{history, HistoryOptions};
    let n = u16::try_from(MAX_RECORDS).unwrap() + 500;
    let order: Vec<u16> = (0..n)
        .chain(n - 100..n)
        .chain(0..50)
        .chain((n - 1500..n).rev())
        .collect();
    let links: Vec<_> = order
        .iter()
        .map(|&i| link(i, u8::try_from(i % 200).unwrap(), Some(i % 9), false))
        .collect();
    let at_once = ReferenceRegistry::with_seed(4);
    let shown = history(&json!({ "content": links }), &at_once, &HistoryOptions::default()).unwrap();
    let ids: Vec<&str> = shown.lines().map(|line| &line[1..18]).collect();
    let one_by_one = ReferenceRegistry::with_seed(4);
    let expected = registered_one_by_one(&one_by_one, &links);
    assert_eq!(ids, expected);
    // Shown again while kept: the same id as the first time.
    assert_eq!(ids[usize::from(n)], ids[usize::from(n) - 100]);
    assert_eq!(at_once.snapshot(), one_by_one.snapshot());
}

/// The same, over many times the records kept (an earlier design forgot the hashes of records
/// it evicted past four times that), over a registry full of records the message evicts and
/// then shows again: shown again while their new records are kept, after those were evicted,
/// and long after; on the history lane and the script lane.
#[test]
fn links_past_what_a_guess_remembers_are_registered_as_one_by_one() {
    let kept = u16::try_from(MAX_RECORDS).unwrap();
    let fresh = 10 * kept;
    let order: Vec<u16> = (0..3)
        // Held before, evicted by the first new ones, then shown again, with a new record.
        .chain(kept..kept + 2500)
        .chain(0..3)
        .chain(kept + 2500..kept + 3000)
        // Again, their new records kept: the ids of a moment ago.
        .chain(0..3)
        // Every thousandth new one with one of 1,500 links before: kept, across the forgetting.
        .chain((kept + 3000..fresh).flat_map(|i| if i % 1000 == 0 { vec![i, i - 1500] } else { vec![i] }))
        // Long after, and after their second records were evicted.
        .chain(0..3)
        .chain([fresh - 10, fresh - 1, kept + 5, 1, 1])
        .collect();
    let links: Vec<_> = order
        .iter()
        .map(|&i| link(i, u8::try_from(i % 7).unwrap(), None, false))
        .collect();
    let one_by_one = full_registry(6);
    let expected = registered_one_by_one(&one_by_one, &links);
    let message = json!({ "content": links });
    for lane in ["history", "script"] {
        let at_once = full_registry(6);
        let ids = ids_in(&shown_on(lane, &message, &at_once));
        assert_eq!(ids.len(), expected.len(), "{lane}");
        assert!(ids == expected, "{lane}: the ids differ from one by one's");
        assert_eq!(at_once.snapshot(), one_by_one.snapshot(), "{lane}");
    }
    // Held, then evicted: another id; shown again while its new record was kept: that one's;
    // after that was evicted: a third.
    let (second, third) = (3 + 2500, 3 + 2500 + 3 + 500);
    let fourth = third + 3 + usize::from(fresh - kept - 3000) + usize::from(fresh / 1000 - (kept + 3000) / 1000);
    assert_ne!(expected[0], expected[second]);
    assert_eq!(expected[second], expected[third]);
    assert_ne!(expected[third], expected[fourth]);
    assert_eq!(links[fourth], links[0]);
}

/// The ids of the stubs in `text`, in order.
fn ids_in(text: &str) -> Vec<String> {
    text.match_indices("ref_")
        .map(|(at, _)| text[at..at + 17].to_owned())
        .collect()
}

/// What the lane named `lane` (`history`, `convert` or `script`) shows of `message`,
/// registering with `registry`: the convert lane's blocks as neutral JSON.
fn shown_on(lane: &str, message: &serde_json::Value, registry: &ReferenceRegistry) -> String {
    use mcp_agent_view::{convert, history, script, HistoryOptions, Provenance, Target};
    match lane {
        "history" => history(message, registry, &HistoryOptions::default()).unwrap(),
        "convert" => {
            let converted = convert(message, Provenance::ToolResult, registry, &Target::neutral()).unwrap();
            Target::neutral().blocks_json(&converted.content).to_string()
        }
        _ => script(message, registry, &Target::anthropic()).unwrap(),
    }
}

/// A registry holding `MAX_RECORDS` records, of the links `0..MAX_RECORDS` as `link` shows
/// them, each registered by a message of its own.
fn full_registry(seed: u64) -> ReferenceRegistry {
    use mcp_agent_view::{history, HistoryOptions};
    let registry = ReferenceRegistry::with_seed(seed);
    for i in 0..u16::try_from(MAX_RECORDS).unwrap() {
        history(
            &json!({"content": [link(i, 0, None, false)]}),
            &registry,
            &HistoryOptions::default(),
        )
        .unwrap();
    }
    registry
}

/// A record the registry holds, shown again as it is, but after a new link in the same
/// message: registering the new one evicts the record, so the stub has the id registering it
/// anew gives, not the one it had; on every lane, in the content and in `structuredContent`.
#[test]
fn a_record_held_but_evicted_by_an_earlier_stub_of_the_message_gets_a_new_id() {
    use mcp_agent_view::{convert, history, script, HistoryOptions, Provenance, Target};
    let links = [link(5000, 0, None, false), link(0, 0, None, false)];
    let one_by_one = full_registry(5);
    let expected = registered_one_by_one(&one_by_one, &links);
    let messages = [
        json!({"content": links}),
        json!({"content": [links[0]], "structuredContent": {"then": links[1]}}),
    ];
    for message in &messages {
        let registry = full_registry(5);
        let text = history(message, &registry, &HistoryOptions::default()).unwrap();
        assert_eq!(ids_in(&text), expected, "{message}");
        assert_eq!(registry.records(), one_by_one.records(), "{message}");
        let registry = full_registry(5);
        let converted = convert(message, Provenance::ToolResult, &registry, &Target::anthropic()).unwrap();
        assert_eq!(
            ids_in(&serde_json::to_string(&converted.content).unwrap()),
            expected,
            "{message}"
        );
        assert_eq!(registry.records(), one_by_one.records(), "{message}");
        let registry = full_registry(5);
        let text = script(message.to_string().as_bytes(), &registry, &Target::anthropic()).unwrap();
        assert_eq!(ids_in(&text), expected, "{message}");
        assert_eq!(registry.records(), one_by_one.records(), "{message}");
    }
}

/// A record the registry holds, shown with other claims and then as it was: the record ends
/// as the last stub shows it, as registering them one by one leaves it.
#[test]
fn a_record_held_shown_again_as_it_was_after_other_claims_ends_as_last_shown() {
    use mcp_agent_view::{history, HistoryOptions};
    let before = [link(1, 0, None, false)];
    let links = [link(1, 1, None, false), link(1, 0, None, false)];
    let at_once = ReferenceRegistry::with_seed(5);
    registered_one_by_one(&at_once, &before);
    let text = history(&json!({ "content": links }), &at_once, &HistoryOptions::default()).unwrap();
    let one_by_one = ReferenceRegistry::with_seed(5);
    registered_one_by_one(&one_by_one, &before);
    let expected = registered_one_by_one(&one_by_one, &links);
    let ids: Vec<&str> = text.lines().map(|line| &line[1..18]).collect();
    assert_eq!(ids, expected);
    assert_eq!(at_once.records(), one_by_one.records());
    assert_eq!(at_once.records()[0].name.as_deref(), Some("n0"));
}

/// Lanes on two threads registering into one registry at once: whatever the interleaving,
/// every id shown whose record is kept is the record of the link it was shown for, and the
/// records of one message's links have ids of their own.
#[test]
fn lanes_registering_at_once_on_two_threads_show_the_ids_of_their_records() {
    use mcp_agent_view::{convert, history, script, HistoryOptions, Provenance, Target};
    let registry = ReferenceRegistry::with_seed(11);
    let shown: Vec<Vec<String>> = std::thread::scope(|scope| {
        let lanes: Vec<_> = (0..2)
            .map(|thread| {
                let registry = &registry;
                scope.spawn(move || {
                    let mut texts = Vec::new();
                    for message in 0..30 {
                        let links: Vec<_> = (0..150)
                            .map(|i| {
                                let n = (thread * 7 + message * 3 + i) % 400;
                                json!({"type": "resource_link", "uri": format!("https://h.example/{n}"), "name": format!("n{n}")})
                            })
                            .collect();
                        let message = json!({ "content": links });
                        texts.push(match message_lane(thread, &message) {
                            0 => history(&message, registry, &HistoryOptions::default()).unwrap(),
                            1 => serde_json::to_string(&convert(&message, Provenance::ToolResult, registry, &Target::anthropic()).unwrap().content).unwrap(),
                            _ => script(message.to_string().as_bytes(), registry, &Target::anthropic()).unwrap(),
                        });
                    }
                    texts
                })
            })
            .collect();
        lanes.into_iter().map(|lane| lane.join().unwrap()).collect()
    });
    let mut checked = 0;
    for text in shown.iter().flatten() {
        let mut names_of_ids = std::collections::HashMap::new();
        for (at, _) in text.match_indices("[ref_") {
            let id = &text[at + 1..at + 18];
            let name: String = text[at + 20..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert_eq!(
                names_of_ids.insert(id, name.clone()).unwrap_or_else(|| name.clone()),
                name,
                "one id, two links: {id}"
            );
            if let Ok(record) = registry.lookup(id) {
                assert_eq!(record.name.as_deref(), Some(name.as_str()), "{id}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} ids checked");
}

/// Which lane a thread's message goes through: each thread through all three in turn.
fn message_lane(thread: usize, message: &serde_json::Value) -> usize {
    (thread + message.to_string().len()) % 3
}

/// The stubs of `structuredContent`, shown beside the content's, are registered with the ids
/// one by one gives and written where they are shown, with a budget and without, with an
/// error line before them too.
#[test]
fn structured_contents_stubs_are_registered_where_they_are_shown() {
    use mcp_agent_view::{history, HistoryOptions};
    let links = [
        link(1, 1, Some(5), false),
        link(2, 2, None, false),
        link(3, 3, None, false),
    ];
    let one_by_one = ReferenceRegistry::with_seed(6);
    let expected = registered_one_by_one(&one_by_one, &links);
    for is_error in [false, true] {
        let message =
            json!({"content": [links[0]], "isError": is_error, "structuredContent": {"a": links[1], "b": [links[2]]}});
        for budget in [None, Some(100_000)] {
            let registry = ReferenceRegistry::with_seed(6);
            let options = HistoryOptions {
                budget,
                ..HistoryOptions::default()
            };
            let text = history(&message, &registry, &options).unwrap();
            let ids: Vec<&str> = text.match_indices("ref_").map(|(at, _)| &text[at..at + 17]).collect();
            assert_eq!(ids, expected, "{text}");
            for (id, name) in ids.iter().zip(["n1", "n2", "n3"]) {
                assert!(text.contains(&format!("{id}] {name}")), "{text}");
            }
            assert_eq!(registry.records(), one_by_one.records());
        }
    }
}

/// A message's new records take the places of the records they evict (their strings' rooms),
/// and nothing of an evicted record, nor of an earlier message, is in a new one. Here the oldest record was fetched and verified and came
/// from another connection; the new links of later messages, of one and of several links,
/// on every lane, are recorded as registering them one by one on a registry without them
/// records them.
#[test]
fn a_new_record_in_the_room_of_one_evicted_keeps_nothing_of_it() {
    use mcp_agent_view::reference::Verified;
    for lane in ["history", "convert", "script"] {
        let show = |message: &serde_json::Value, registry: &ReferenceRegistry| drop(shown_on(lane, message, registry));
        let registry = ReferenceRegistry::with_seed(11);
        let old = registry.for_connection("old-server");
        let first = link(0, 1, Some(7), true);
        show(&json!({"content": [first]}), &old);
        let id = registry.records()[0].id.clone();
        let verified = Verified {
            bytes: 7,
            mime_type: "application/pdf".into(),
            digest_verified: true,
            path: None,
        };
        registry.set_verified(&id, verified).unwrap();
        for i in 1..u16::try_from(MAX_RECORDS).unwrap() {
            show(&json!({"content": [link(i, 0, None, false)]}), &old);
        }
        let new = registry.for_connection("new-server");
        let base = u16::try_from(MAX_RECORDS).unwrap();
        // One new link, then three, then one again: each evicts the oldest and takes its room.
        let messages = [vec![base], vec![base + 1, base + 2, base + 3], vec![base + 4]];
        for uris in &messages {
            let links: Vec<_> = uris.iter().map(|&u| link(u, 0, None, false)).collect();
            show(&json!({"content": links}), &new);
        }
        let records = registry.records();
        assert_eq!(records.len(), MAX_RECORDS, "lane {lane}");
        assert!(
            records.iter().all(|r| r.id != id),
            "lane {lane}: the verified record is evicted"
        );
        for record in &records[MAX_RECORDS - 5..] {
            assert_eq!(record.verified, None, "lane {lane}: {record:?}");
            assert_eq!(record.connection.as_deref(), Some("new-server"), "lane {lane}");
            assert_eq!(
                (record.name.as_deref(), record.size_bytes, record.disposition),
                (Some("n0"), None, None)
            );
            assert_eq!(record.mime_type.as_deref(), Some("text/plain"), "lane {lane}");
        }
        let uris: Vec<_> = records[MAX_RECORDS - 5..].iter().map(|r| r.uri.clone()).collect();
        let expected: Vec<_> = (base..base + 5).map(|u| format!("https://h.example/{u}")).collect();
        assert_eq!(uris, expected, "lane {lane}");
    }
}

/// Messages one after another through one registry register as one by one does, on every
/// lane (after a message of more new links than are kept, which evicted some of its own; after
/// one that only testified to records held), and leave nothing of one message to the next: the ids of each message and the
/// registry after it are those of registering the same links one at a time.
#[test]
fn messages_one_after_another_are_registered_as_one_by_one() {
    let kept = u16::try_from(MAX_RECORDS).unwrap();
    let messages: Vec<Vec<serde_json::Value>> = vec![
        (0..kept + 10).map(|i| link(i, 0, None, false)).collect(),
        // A new one, one held shown with other claims (a testimony), one held as it is.
        vec![
            link(9000, 1, None, false),
            link(kept + 5, 3, Some(4), false),
            link(kept + 6, 0, None, false),
        ],
        vec![link(9001, 0, None, false), link(9002, 2, None, true)],
        vec![link(kept + 5, 3, Some(4), false), link(9003, 0, None, false)],
        // Testimonies alone, then one new link, then one shown again with its record kept.
        vec![link(kept + 7, 2, None, false), link(kept + 8, 1, Some(2), true)],
        vec![link(9004, 0, None, false)],
        vec![link(9001, 0, None, false)],
    ];
    let one_by_one = ReferenceRegistry::with_seed(9);
    let expected: Vec<(Vec<String>, _)> = messages
        .iter()
        .map(|links| (registered_one_by_one(&one_by_one, links), one_by_one.snapshot()))
        .collect();
    for lane in ["history", "convert", "script"] {
        let at_once = ReferenceRegistry::with_seed(9);
        for (k, (links, (ids, snapshot))) in messages.iter().zip(&expected).enumerate() {
            let message = json!({ "content": links });
            let shown = shown_on(lane, &message, &at_once);
            assert!(
                ids_in(&shown) == *ids,
                "{lane}, message {k}: the ids differ from one by one's"
            );
            assert!(
                at_once.snapshot() == *snapshot,
                "{lane}, message {k}: the records differ"
            );
        }
    }
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
