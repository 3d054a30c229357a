//! The reference registry under the lanes: messages of more links than are kept, records
//! evicted and shown again, lanes registering on several threads at once.

mod common;

use common::reference;

use mcp_agent_view::{classify_block, reference::MAX_RECORDS, Block, Class, ReferenceRegistry};
use serde_json::json;

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
