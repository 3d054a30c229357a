//! Every row of the classification table, and the reference field rules of RFC-005.

mod common;

use common::{class_name, invalid_reason};
use mcp_agent_view::{
    classify::BlobForm, classify::Disposition, classify::ReferenceSource, classify::RejectedField, classify_block,
    wire::MediaKind, Block, Class,
};
use serde_json::{json, Value};

/// The class of a block. The block is leaked, so that the class (which borrows it) can be
/// compared freely: a test's few bytes.
#[track_caller]
fn classify(block: &Value) -> Class<'static> {
    classify_block(Box::leak(Box::new(Block::decode(block))))
}

#[track_caller]
fn reference(block: &Value) -> mcp_agent_view::classify::Reference<'static> {
    match classify(block) {
        Class::Reference(r) => r,
        other => panic!("expected a reference, got {other:?}"),
    }
}

#[test]
fn text_with_string_text_is_text() {
    assert_eq!(
        classify(&json!({"type": "text", "text": "hi"})),
        Class::Text { text: "hi" }
    );
}

#[test]
fn inline_image_and_audio_are_media_with_data_as_received() {
    let image = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
    match classify(&image) {
        Class::Media(m) => {
            assert_eq!(
                (m.kind, m.mime_type, m.data, m.size),
                (MediaKind::Image, "image/png", &b"iVBORw0KGgo="[..], 8)
            );
        }
        other => panic!("{other:?}"),
    }
    let audio = json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"});
    match classify(&audio) {
        Class::Media(m) => assert_eq!((m.kind, m.mime_type, m.size), (MediaKind::Audio, "audio/wav", 4)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn inline_data_claiming_bulk_disposition_is_withheld() {
    for block in [
        json!({"type": "image", "data": "AAAA", "mimeType": "image/png", "uri": "https://x.example/a.png"}),
        json!({"type": "image", "data": "AAAA", "mimeType": "image/png", "disposition": "ref"}),
        json!({"type": "audio", "data": "AAAA", "mimeType": "audio/wav", "disposition": "never"}),
    ] {
        assert!(matches!(classify(&block), Class::Withheld { .. }), "{block}");
    }
}

#[test]
fn media_with_uri_and_no_data_is_a_reference() {
    let r_json =
        json!({"type": "image", "uri": "https://cdn.example/x.png", "mimeType": "image/png", "sizeBytes": 2048});
    let r = reference(&r_json);
    assert_eq!(r.source, ReferenceSource::Media(MediaKind::Image));
    assert_eq!(
        (r.uri, r.mime_type, r.size_bytes),
        ("https://cdn.example/x.png", Some("image/png"), Some(2048))
    );
    let r_json = json!({"type": "audio", "uri": "https://cdn.example/x.wav"});
    let r = reference(&r_json);
    assert_eq!(r.source, ReferenceSource::Media(MediaKind::Audio));
}

#[test]
fn embedded_resource_with_text_is_embedded_text() {
    let block =
        json!({"type": "resource", "resource": {"uri": "file:///x.txt", "mimeType": "text/plain", "text": "body"}});
    assert_eq!(
        classify(&block),
        Class::EmbeddedText {
            mime_type: Some("text/plain"),
            text: "body"
        }
    );
}

#[test]
fn embedded_resource_with_blob_is_embedded_blob_shown_by_media_type() {
    let png = json!({"type": "resource", "resource": {"uri": "file:///a.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}});
    let wav =
        json!({"type": "resource", "resource": {"uri": "file:///a.wav", "mimeType": "audio/wav", "blob": "UklGRg=="}});
    let gz = json!({"type": "resource", "resource": {"uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sI"}});
    let text =
        json!({"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "blob": "aGVsbG8="}});
    let untyped = json!({"type": "resource", "resource": {"uri": "file:///a", "blob": "aGVsbG8="}});
    let form = |b: &Value| match classify(b) {
        Class::EmbeddedBlob(blob) => blob.form,
        other => panic!("{other:?}"),
    };
    assert_eq!(form(&png), BlobForm::Media(MediaKind::Image));
    assert_eq!(form(&wav), BlobForm::Media(MediaKind::Audio));
    assert_eq!(form(&gz), BlobForm::File);
    assert_eq!(form(&text), BlobForm::Text("hello".into()));
    assert_eq!(form(&untyped), BlobForm::File);
}

#[test]
fn textual_media_types_are_read_as_text() {
    for mime in [
        "text/plain",
        "text/markdown; charset=utf-8",
        "application/json",
        "application/xml",
        "application/ld+json",
        "application/atom+xml",
        "application/javascript",
        "application/yaml",
        "image/svg+xml",
    ] {
        let block = json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": mime, "blob": "aGk="}});
        assert_eq!(classify(&block).name(), "embedded_blob");
        assert!(classify(&block).is_text(), "{mime} should read as text");
    }
    for mime in ["application/pdf", "application/octet-stream", "image/png", "not a mime"] {
        let block = json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": mime, "blob": "aGk="}});
        assert!(!classify(&block).is_text(), "{mime} should not read as text");
    }
}

#[test]
fn textual_blob_that_is_not_utf8_or_not_base64_says_why() {
    let latin1 = json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": "text/plain", "blob": "/w=="}});
    let broken =
        json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": "text/plain", "blob": "!!notbase64!!"}});
    let form = |b: &Value| match classify(b) {
        Class::EmbeddedBlob(blob) => blob.form,
        other => panic!("{other:?}"),
    };
    assert_eq!(form(&latin1), BlobForm::NotText("not text: invalid UTF-8"));
    assert_eq!(form(&broken), BlobForm::NotText("not text: invalid base64"));
}

#[test]
fn blob_wins_over_text_and_neither_is_malformed() {
    let both = json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": "text/plain", "text": "from text", "blob": "ZnJvbSBibG9i"}});
    assert_eq!(class_name(&both), "embedded_blob");
    let neither = json!({"type": "resource", "resource": {"uri": "x:1", "mimeType": "text/plain"}});
    assert_eq!(invalid_reason(&neither), "embedded resource without text or blob");
}

#[test]
fn bulk_reference_with_top_level_uri_is_a_reference() {
    let r_json = json!({
        "type": "resource", "uri": "mcpl://bulk/1", "name": "dump.csv", "mimeType": "text/csv",
        "sizeBytes": 52_428_800, "disposition": "ref",
        "digest": "sha256:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU", "expiresAt": "2026-12-01T00:00:00Z"
    });
    let r = reference(&r_json);
    assert_eq!(r.source, ReferenceSource::BulkResource);
    assert_eq!(
        (r.uri, r.name, r.mime_type, r.size_bytes),
        ("mcpl://bulk/1", Some("dump.csv"), Some("text/csv"), Some(52_428_800))
    );
    assert_eq!(r.disposition, Some(Disposition::Ref));
    assert_eq!(r.digest, Some("sha256:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"));
    assert_eq!(r.expires_at, Some("2026-12-01T00:00:00Z"));
    assert!(r.rejected.is_empty());
}

#[test]
fn resource_link_maps_field_for_field_with_size_as_size_bytes() {
    let r_json = json!({"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "mimeType": "text/plain", "size": 1234});
    let r = reference(&r_json);
    assert_eq!(r.source, ReferenceSource::ResourceLink);
    assert_eq!(
        (r.uri, r.name, r.mime_type, r.size_bytes),
        ("file:///a.txt", Some("a.txt"), Some("text/plain"), Some(1234))
    );
}

#[test]
fn known_types_with_bad_bodies_are_invalid_with_a_short_reason() {
    let cases = [
        (json!({"type": "text"}), "text block without text"),
        (json!({"type": "text", "text": 5}), "text block with non-string text"),
        (
            json!({"type": "image", "mimeType": "image/png"}),
            "image block without data or uri",
        ),
        (json!({"type": "audio", "data": []}), "audio block with non-string data"),
        (
            json!({"type": "image", "data": "AAAA"}),
            "image block without string mimeType",
        ),
        (json!({"type": "resource"}), "resource block without resource or uri"),
        (
            json!({"type": "resource", "resource": "x"}),
            "resource block with non-object resource",
        ),
        (
            json!({"type": "resource", "resource": {"uri": "x:1", "text": 1}}),
            "embedded resource with non-string text",
        ),
        (
            json!({"type": "resource", "resource": {"uri": "x:1", "blob": false}}),
            "embedded resource with non-string blob",
        ),
        (json!({"type": "resource", "uri": 12}), "reference without string uri"),
        (json!({"type": "resource", "uri": ""}), "reference without string uri"),
        (
            json!({"type": "resource_link", "name": "a"}),
            "reference without string uri",
        ),
        (json!({"type": "image", "uri": null}), "reference without string uri"),
        (json!("just a string"), "block is not an object"),
        (json!({"text": "no type"}), "block without type"),
        (json!({"type": 3, "text": "numeric type"}), "block with non-string type"),
    ];
    for (block, reason) in cases {
        assert_eq!(invalid_reason(&block), reason, "{block}");
    }
}

#[test]
fn unknown_types_are_unsupported_not_invalid() {
    let block = json!({"type": "video", "data": "AAAA", "mimeType": "video/mp4"});
    assert_eq!(classify(&block), Class::Unsupported { type_name: "video" });
    assert_eq!(
        class_name(&json!({"type": "tool_use", "id": "c", "name": "n", "input": {}})),
        "unsupported"
    );
}

#[test]
fn reference_uri_length_is_bounded_at_4096_code_points() {
    let at_limit = format!("https://x.example/{}", "é".repeat(4096 - 18));
    assert_eq!(at_limit.chars().count(), 4096);
    assert_eq!(
        class_name(&json!({"type": "resource_link", "uri": at_limit, "name": "n"})),
        "reference"
    );
    let over = format!("{at_limit}a");
    assert_eq!(
        invalid_reason(&json!({"type": "resource_link", "uri": over, "name": "n"})),
        "uri exceeds schema maximum"
    );
}

#[test]
fn bad_optional_reference_fields_are_dropped_and_recorded() {
    let r_json = json!({
        "type": "resource", "uri": "mcpl://bulk/2",
        "name": "n".repeat(256), "mimeType": 7, "expiresAt": "x".repeat(65),
        "sizeBytes": -1, "digest": "md5:abc", "disposition": "inline"
    });
    let r = reference(&r_json);
    let long_expiry = "x".repeat(65);
    assert_eq!(
        (r.name, r.mime_type, r.size_bytes, r.disposition),
        (None, None, None, None)
    );
    // The safety fields are kept as claimed, so that a fetch refuses them.
    assert_eq!((r.expires_at, r.digest), (Some(long_expiry.as_str()), Some("md5:abc")));
    let rejected: Vec<_> = r.rejected.iter().map(|f| (f.field, f.reason)).collect();
    assert_eq!(
        rejected,
        [
            ("name", "exceeds schema maximum"),
            ("mimeType", "not a string"),
            ("expiresAt", "exceeds schema maximum: a fetch is refused"),
            ("sizeBytes", "not an integer from 0 to 2^53-1"),
            ("digest", "not sha256: and 43 base64url characters: a fetch is refused"),
            ("disposition", "not never or ref"),
        ]
    );
}

#[test]
fn size_bytes_bounds_are_inclusive_of_2_pow_53_minus_1() {
    let max = (1u64 << 53) - 1;
    assert_eq!(
        reference(&json!({"type": "resource", "uri": "u:1", "sizeBytes": max})).size_bytes,
        Some(max)
    );
    assert_eq!(
        reference(&json!({"type": "resource", "uri": "u:1", "sizeBytes": 0})).size_bytes,
        Some(0)
    );
    let over_json = json!({"type": "resource", "uri": "u:1", "sizeBytes": max + 1});
    let over = reference(&over_json);
    assert_eq!(over.size_bytes, None);
    assert_eq!(
        over.rejected,
        [RejectedField {
            field: "sizeBytes",
            reason: "not an integer from 0 to 2^53-1"
        }]
    );
    assert_eq!(
        reference(&json!({"type": "resource", "uri": "u:1", "sizeBytes": 1.5})).size_bytes,
        None
    );
    let link_json = json!({"type": "resource_link", "uri": "u:1", "size": "12"});
    let link = reference(&link_json);
    assert_eq!(
        link.rejected,
        [RejectedField {
            field: "size",
            reason: "not an integer from 0 to 2^53-1"
        }]
    );
}

#[test]
fn a_never_disposition_stays_in_force_beside_bad_fields() {
    let r_json = json!({"type": "resource", "uri": "u:1", "disposition": "never", "sizeBytes": "big", "name": ["x"]});
    let r = reference(&r_json);
    assert_eq!(r.disposition, Some(Disposition::Never));
    assert_eq!(r.rejected.len(), 2);
}

#[test]
fn unknown_fields_are_ignored_meta_is_kept_and_unknown_roles_survive() {
    let json = json!({
        "type": "text", "text": "t", "extra": {"deep": [1, 2]},
        "_meta": {"com.example/x": 1},
        "annotations": {"audience": ["user", "system", 4], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z", "more": true}
    });
    let block = Block::decode(&json);
    assert_eq!(classify_block(&block), Class::Text { text: "t" });
    assert_eq!(block.meta.as_deref(), Some(r#"{"com.example/x":1}"#));
    let annotations = block.annotations.as_deref().unwrap();
    let roles: Vec<_> = annotations
        .audience
        .as_ref()
        .unwrap()
        .iter()
        .map(mcp_agent_view::wire::Role::as_str)
        .collect();
    assert_eq!(roles, ["user", "system"]);
    assert_eq!(annotations.priority, Some(0.5));
}

#[test]
fn warnings_name_what_a_host_should_log() {
    assert_eq!(
        classify(&json!({"type": "text"})).warnings(),
        ["invalid block: text block without text"]
    );
    assert_eq!(
        classify(&json!({"type": "video"})).warnings(),
        ["unsupported block type: video"]
    );
    assert_eq!(
        classify(&json!({"type": "resource", "uri": "u:1", "sizeBytes": -4})).warnings(),
        ["reference field sizeBytes dropped: not an integer from 0 to 2^53-1"]
    );
    assert!(classify(&json!({"type": "text", "text": "fine"})).warnings().is_empty());
}

#[test]
fn a_data_url_without_a_type_and_no_declared_type_is_invalid() {
    // Only a data URL that names its type gives the block one.
    let block = json!({"type": "image", "data": "data:;base64,iVBORw0KGgo="});
    assert_eq!(invalid_reason(&block), "image block without string mimeType");
    let block = json!({"type": "image", "data": "data:image/png;base64,iVBORw0KGgo="});
    match classify(&block) {
        Class::Media(media) => {
            assert_eq!(media.mime_type, "image/png");
            assert_eq!(media.data, b"iVBORw0KGgo=");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn only_a_generic_declared_type_gives_way_to_the_bytes() {
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB";
    let blob = |mime: Value| {
        let mut resource = json!({"uri": "file:///x", "blob": png});
        if !mime.is_null() {
            resource["mimeType"] = mime;
        }
        classify(&json!({"type": "resource", "resource": resource}))
    };
    for generic in [
        json!(null),
        json!(""),
        json!("application/octet-stream"),
        json!("binary/octet-stream"),
        json!("application/unknown; x=1"),
    ] {
        match blob(generic.clone()) {
            Class::EmbeddedBlob(b) => {
                assert_eq!(b.mime_type, Some("image/png"), "{generic}");
                assert_eq!(b.form, BlobForm::Media(MediaKind::Image));
            }
            other => panic!("{generic}: {other:?}"),
        }
    }
    // A type that says something is kept, whatever the bytes say (the media checks decide).
    for declared in ["image/jpeg", "text/plain", "application/zip", "audio/wav"] {
        match blob(json!(declared)) {
            Class::EmbeddedBlob(b) => assert_eq!(b.mime_type, Some(declared)),
            other => panic!("{declared}: {other:?}"),
        }
    }
}

#[test]
fn summaries_give_one_line_a_block_each_with_its_index() {
    let json = br#"{"content":[{"type":"text","text":"a"},{"type":"hologram"},{"type":"resource_link","uri":"https://h.example/x?k=s3cret","name":"x"}]}"#;
    let lines = mcp_agent_view::classify::summaries(&json[..]).unwrap();
    let read: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let indices: Vec<u64> = read.iter().map(|v| v["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, [0, 1, 2]);
    assert_eq!(read[2]["class"], "reference");
    assert!(!lines.contains("s3cret"), "{lines}");
}

/// Every class's summary, field by field: the typed `Summary` as `summarize` gives it, the
/// same as `Class::summary`'s `Value` (with no `index`) and the CLI's lines.
#[test]
fn each_class_summarizes_as_the_classify_lane_prints_it() {
    let blocks = json!([
        {"type": "text", "text": "héllo"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///a", "mimeType": "text/plain; charset=utf-8", "text": "abc"}},
        {"type": "resource", "resource": {"uri": "file:///b", "mimeType": "application/pdf", "blob": "JVBERi0="}},
        {"type": "resource_link", "uri": "https://x.example/r?sig=s", "name": "report\u{7}.pdf",
            "mimeType": "application/pdf", "size": -3},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "uri": "https://x.example/i"},
        {"type": "image", "mimeType": "image/png"},
        {"type": "hologram", "frames": 12},
    ]);
    let expected = [
        json!({"chars": 5, "class": "text", "index": 0}),
        json!({"class": "media", "index": 1, "kind": "image", "mimeType": "image/png", "sizeBytes": 8}),
        json!({"chars": 3, "class": "embedded_text", "index": 2, "mimeType": "text/plain"}),
        json!({"class": "embedded_blob", "index": 3, "mimeType": "application/pdf", "shownAs": "file", "sizeBytes": 5}),
        json!({"class": "reference", "disposition": null, "index": 4, "mimeType": "application/pdf", "name": "report.pdf",
            "rejected": [{"field": "size", "reason": "not an integer from 0 to 2^53-1"}], "sizeBytes": null,
            "source": "resource_link"}),
        json!({"class": "withheld", "index": 5, "kind": "image"}),
        json!({"class": "invalid", "index": 6, "reason": "image block without data or uri", "type": "image"}),
        json!({"class": "unsupported", "index": 7, "type": "hologram"}),
    ];
    let bytes = serde_json::to_vec(&blocks).unwrap();
    let mut given = Vec::new();
    mcp_agent_view::classify::summarize(&bytes[..], |s| {
        given.push((s.index(), s.class(), serde_json::to_value(&s).unwrap()));
    })
    .unwrap();
    assert_eq!(given.len(), expected.len());
    for (i, ((index, class, value), expected)) in given.iter().zip(&expected).enumerate() {
        assert_eq!(value, expected);
        assert_eq!(*index, Some(i));
        assert_eq!(*class, expected["class"]);
        let mut alone = expected.clone();
        alone.as_object_mut().unwrap().remove("index");
        assert_eq!(classify(&blocks[i]).summary(), alone);
    }
    let lines = mcp_agent_view::classify::summaries(&bytes[..]).unwrap();
    let read: Vec<Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(read, expected);
    assert!(lines.ends_with('\n') && lines.lines().count() == expected.len());
}
