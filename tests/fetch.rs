//! The fetch room: the policy's decisions, the verifier's properties (held against oracles:
//! flate2's encoders, SHA-256, chrono's RFC 3339 reader, the standard library's address
//! tests), and the `fetch_reference` tool's answers.

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, UNIX_EPOCH};

use base64::Engine as _;
use mcp_agent_view::fetch::{fetch_reference, tool_definition, FetchPolicy, Fetcher, Refusal, Verifier};
use mcp_agent_view::{classify::Disposition, reference::ReferenceRecord, Provider, ReferenceRegistry, Target};
use proptest::prelude::*;
use serde_json::json;
use sha2::Digest as _;

#[path = "support/fetching.rs"]
mod fetching;

use fetching::{http_policy, record, registered};

/// A policy that allows `data` besides `https`.
fn data_policy() -> FetchPolicy {
    FetchPolicy::new().allow_scheme("data").unwrap()
}

fn refused(policy: &FetchPolicy, record: &ReferenceRecord) -> Refusal {
    policy.plan(record).expect_err("refused")
}

#[test]
fn only_https_unless_named() {
    let policy = FetchPolicy::new();
    assert!(policy.plan(&record("https://files.example.com/a")).is_ok());
    for uri in [
        "http://files.example.com/a",
        "file:///etc/passwd",
        "data:text/plain,hi",
        "ftp://files.example.com/a",
        "demo://resource/1",
        "x-amz-signature-secret123://h/",
    ] {
        let refusal = refused(&policy, &record(uri));
        assert_eq!(
            refusal,
            Refusal::Scheme {
                allowed: vec!["https".into()]
            },
            "{uri}"
        );
        // The refusal names what is allowed, and no part of the uri.
        assert_eq!(
            refusal.to_string(),
            "refused: the uri's scheme is not allowed (allowed: https)"
        );
    }
    let named = FetchPolicy::new().allow_scheme("HTTP").unwrap();
    assert!(named.plan(&record("http://files.example.com/a")).is_ok());
    // What is no scheme is an error, cleaned.
    for bad in ["", "ht tp", "1http", "http:", "h\u{202e}x"] {
        let err = FetchPolicy::new().allow_scheme(bad).unwrap_err();
        assert_eq!(err.kind(), mcp_agent_view::ErrorKind::Policy, "{bad:?}");
        assert!(err.to_string().starts_with("not a scheme"), "{err}");
        assert!(!err.to_string().contains('\u{202e}'), "{err}");
    }
    assert_eq!(refused(&policy, &record("not a uri")), Refusal::BadUri);
}

#[test]
fn userinfo_claims_and_expiry_are_refused_before_dialing() {
    let policy = FetchPolicy::new()
        .max_bytes(128)
        .now(UNIX_EPOCH + Duration::from_secs(1_796_124_600));
    assert_eq!(
        refused(&policy, &record("https://u:p@files.example.com/a")),
        Refusal::Userinfo
    );
    assert_eq!(
        refused(&policy, &record("https://u@files.example.com/a")),
        Refusal::Userinfo
    );
    let mut big = record("https://files.example.com/a");
    big.size_bytes = Some(129);
    assert_eq!(
        refused(&policy, &big),
        Refusal::OverCeiling {
            ceiling: 128,
            claimed: Some(129)
        }
    );
    big.size_bytes = Some(128);
    assert!(policy.plan(&big).is_ok());
    // A digest this crate cannot check refuses the fetch before it is dialed; one it can, not.
    let mut digested = record("https://files.example.com/a");
    for (digest, outcome) in [
        ("sha256:short", Err(Refusal::BadDigest)),
        ("md5:XUFAKrxLKna5cZ2REBfFkg", Err(Refusal::BadDigest)),
        ("sha256:LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ", Ok(())),
    ] {
        digested.digest = Some(digest.into());
        assert_eq!(policy.plan(&digested).map(|_| ()), outcome, "{digest}");
    }
    let mut expiring = record("https://files.example.com/a");
    for (at, outcome) in [
        ("not-a-date", Err(Refusal::BadExpiry)),
        ("2026-12-01T11:30:00Z", Err(Refusal::Expired)),
        ("2026-12-01T11:29:59Z", Err(Refusal::Expired)),
        ("2026-12-01T11:30:01Z", Ok(())),
        ("2026-12-01T12:30:00+02:00", Err(Refusal::Expired)),
    ] {
        expiring.expires_at = Some(at.into());
        assert_eq!(policy.plan(&expiring).map(|_| ()), outcome, "{at}");
    }
}

#[test]
fn the_credential_goes_to_the_dialed_origin_only() {
    let policy = FetchPolicy::new()
        .origin("https://files.example.com")
        .unwrap()
        .bearer("s3cret");
    let plan = policy.plan(&record("https://files.example.com/a?x=1")).unwrap();
    assert_eq!(plan.bearer.as_deref(), Some("s3cret"));
    // The dialed origin is the host's own choice, at whatever address it has.
    assert!(!plan.public_only);
    for other in [
        "https://evil.example.com/a",
        "https://files.example.com:8443/a",
        "https://files.example.com.evil.example/a",
    ] {
        let plan = policy.plan(&record(other)).unwrap();
        assert_eq!(plan.bearer, None, "{other}");
        assert!(plan.public_only, "{other}: checked on its addresses once it resolves");
    }
    // Its Debug never shows the credential.
    assert!(!format!(
        "{policy:?} {plan:?}",
        plan = policy.plan(&record("https://files.example.com/")).unwrap()
    )
    .contains("s3cret"));
}

#[test]
fn addresses_that_are_not_public_are_refused_unless_named() {
    let policy = http_policy();
    for uri in [
        "http://127.0.0.1/a",
        "http://[::1]/a",
        "http://10.1.2.3/a",
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00::1]/a",
        "http://[::ffff:127.0.0.1]/a",
        "http://localhost/a",
        "http://api.localhost/a",
        "http://printer.local/a",
        "http://0x7f000001/a",
        "http://2130706433/a",
    ] {
        assert_eq!(refused(&policy, &record(uri)), Refusal::NotPublic, "{uri}");
    }
    let named = http_policy().allow_origin("http://127.0.0.1:8080").unwrap();
    let plan = named.plan(&record("http://127.0.0.1:8080/a")).unwrap();
    assert!(!plan.public_only && plan.bearer.is_none());
    assert_eq!(refused(&named, &record("http://127.0.0.1:8081/a")), Refusal::NotPublic);
    // The dialed origin is named by being dialed.
    let dialed = http_policy().origin("http://127.0.0.1:9").unwrap();
    assert!(dialed.plan(&record("http://127.0.0.1:9/a")).is_ok());
    // A name that resolves is judged on its addresses: the plan tells the transport.
    let plan = policy.plan(&record("http://files.example.com/a")).unwrap();
    assert!(plan.admits(IpAddr::V4(Ipv4Addr::new(93, 184, 215, 14))));
    assert!(!plan.admits(IpAddr::V4(Ipv4Addr::LOCALHOST)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// The verifier's result is the same however the body is cut into chunks; what it gives
    /// is never over the ceiling; it gives back exactly what was encoded.
    #[test]
    fn verification_holds_however_the_body_arrives(
        body in proptest::collection::vec(any::<u8>(), 0..2048),
        ceiling in 0u64..3000,
        cut in 1usize..700,
        coding in 0u8..3,
    ) {
        let wire = match coding {
            0 => body.clone(),
            1 => { let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()); e.write_all(&body).unwrap(); e.finish().unwrap() }
            _ => { let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast()); e.write_all(&body).unwrap(); e.finish().unwrap() }
        };
        let coding = [None, Some("gzip"), Some("deflate")][usize::from(coding)];
        let digest = format!("sha256:{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(&body)));
        let run = |chunk: usize| -> Result<mcp_agent_view::fetch::Checked, Refusal> {
            let mut v = Verifier::new(ceiling, coding)?;
            for piece in wire.chunks(chunk.max(1)) { v.push(piece)?; }
            v.finish(Some(&digest), None)
        };
        let whole = run(wire.len());
        prop_assert_eq!(&run(cut), &whole);
        match whole {
            Ok(checked) => {
                prop_assert!(checked.bytes.len() as u64 <= ceiling);
                prop_assert_eq!(checked.bytes, body);
                prop_assert!(checked.digest_verified);
            }
            Err(refusal) => {
                prop_assert!(body.len() as u64 > ceiling, "{}", refusal);
                let is_over = matches!(refusal, Refusal::OverCeiling { .. });
                prop_assert!(is_over, "{}", refusal);
            }
        }
    }

    /// A body that is no gzip or deflate, or is cut, never yields bytes that are not its own.
    #[test]
    fn a_bad_coding_yields_nothing_it_did_not_hold(wire in proptest::collection::vec(any::<u8>(), 0..512), deflate in any::<bool>()) {
        let coding = if deflate { "deflate" } else { "gzip" };
        let mut v = Verifier::new(1 << 20, Some(coding)).unwrap();
        let outcome = v.push(&wire).and_then(|()| v.finish(None, None));
        if let Ok(checked) = outcome {
            // Whatever decoded, encoding it again decodes to the same: no partial read is
            // presented as whole (a cut stream fails in finish).
            prop_assert!(checked.bytes.len() <= 1 << 20);
        }
    }
}

#[test]
fn a_digest_mismatch_is_never_presented() {
    let mut v = Verifier::new(100, None).unwrap();
    v.push(b"the bytes").unwrap();
    let other = format!(
        "sha256:{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(b"other bytes"))
    );
    assert_eq!(v.finish(Some(&other), None), Err(Refusal::DigestMismatch));
}

/// A registry holding one reference to a `data:` uri of `bytes`, and its id.
fn data_reference(bytes: &[u8], mime: &str, disposition: Option<&str>) -> (ReferenceRegistry, String) {
    let uri = format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    let mut block = json!({"type": "resource", "uri": uri, "name": "n", "mimeType": mime});
    if let Some(d) = disposition {
        block["disposition"] = d.into();
    }
    registered(&block)
}

#[test]
fn the_tool_answers_with_content_as_classify_shows_an_embedded_resource() {
    let fetcher = Fetcher::new(data_policy());
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
    let (registry, id) = data_reference(png, "application/octet-stream", None);
    let answer = fetch_reference(&json!({"ref_id": id}), "t", &registry, &fetcher, &Target::anthropic());
    assert!(!answer.is_error);
    let blocks = Target::neutral().blocks_json(&answer.content);
    assert_eq!(blocks[0]["type"], "image", "{blocks:?}");
    assert_eq!(blocks[0]["mimeType"], "image/png");

    // Arguments as JSON text, and an id given in its brackets, are read too.
    let (registry, id) = data_reference(b"plain words", "text/plain", None);
    let call = json!(json!({"ref_id": format!("[{id}]")}).to_string());
    let answer = fetch_reference(&call, "t", &registry, &fetcher, &Target::anthropic());
    assert_eq!(answer.content[0].as_text(), Some("plain words"));
}

#[test]
fn a_never_reference_is_fetched_for_the_host_and_its_bytes_never_reach_the_model() {
    let dir = std::env::temp_dir().join(format!("mav-never-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fetcher = Fetcher::new(data_policy()).save_dir(&dir);
    let (registry, id) = data_reference(b"RIFF0000WAVEpayload", "audio/wav", Some("never"));
    let answer = fetch_reference(&json!({"ref_id": id}), "t", &registry, &fetcher, &Target::anthropic());
    assert!(!answer.is_error);
    let text = answer
        .content
        .iter()
        .filter_map(|b| b.as_text())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!text.contains("payload") && !text.contains("UklGR"), "{text}");
    assert!(
        text.contains(&format!("saved as {id}.wav")) && text.contains("audio/wav"),
        "{text}"
    );
    assert_eq!(answer.content.len(), 1);
    let record = registry.lookup(&id).unwrap();
    assert_eq!(record.disposition, Some(Disposition::Never));
    let saved = dir.join(format!("{id}.wav"));
    assert_eq!(std::fs::read(&saved).unwrap(), b"RIFF0000WAVEpayload");
    assert_eq!(record.verified.unwrap().path.as_deref(), saved.to_str());
    // Nothing partial is left beside it.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failures_name_their_reason_and_never_the_uri() {
    let fetcher = Fetcher::new(FetchPolicy::new());
    let (registry, id) =
        registered(&json!({"type": "resource", "uri": "file:///home/me/.ssh/id_rsa?token=SECRET", "name": "k"}));
    for (call, reason) in [
        (
            json!({"ref_id": id}),
            "refused: the uri's scheme is not allowed (allowed: https)",
        ),
        (json!({"ref_id": "ref_0000000000000"}), "unknown reference"),
        (json!({"ref_id": "../../etc/passwd"}), "unknown reference"),
        (json!({}), "the call needs a ref_id"),
    ] {
        let answer = fetch_reference(&call, "t", &registry, &fetcher, &Target::anthropic());
        let text = answer.content[0].as_text().unwrap();
        assert!(answer.is_error && text.contains(reason), "{text}");
        assert!(
            !text.contains("SECRET") && !text.contains(".ssh") && !text.contains("file:"),
            "{text}"
        );
    }
    assert!(registry.lookup(&id).unwrap().verified.is_none());
}

#[test]
fn the_tool_is_defined_in_each_providers_shape() {
    let anthropic = tool_definition(Provider::Anthropic, "open_ref");
    assert_eq!(anthropic["name"], "open_ref");
    assert_eq!(anthropic["input_schema"]["properties"]["ref_id"]["type"], "string");
    let chat = tool_definition(Provider::OpenAiChat, "open_ref");
    assert_eq!(chat["type"], "function");
    assert_eq!(chat["function"]["parameters"]["required"][0], "ref_id");
    let responses = tool_definition(Provider::OpenAiResponses, "open_ref");
    assert_eq!(responses["name"], "open_ref");
    assert_eq!(responses["parameters"]["type"], "object");
    let neutral = tool_definition(Provider::Neutral, "open_ref");
    assert_eq!(neutral["inputSchema"]["required"][0], "ref_id");
}

/// A connection's `resources/read`, answering every uri with its name and the uri's path.
struct Server {
    name: &'static str,
    asked: std::cell::RefCell<Vec<String>>,
}

impl mcp_agent_view::fetch::ResourceReader for Server {
    fn read_resource(&self, uri: &str) -> Result<Vec<mcp_agent_view::fetch::ReadContents>, Refusal> {
        self.asked.borrow_mut().push(uri.to_owned());
        Ok(vec![mcp_agent_view::fetch::ReadContents::Text {
            mime_type: Some("text/plain".into()),
            text: format!("{} serves {}", self.name, uri.rsplit('/').next().unwrap_or("")),
        }])
    }
}

#[test]
fn a_link_is_read_back_through_the_connection_that_sent_it() {
    use mcp_agent_view::{history, HistoryOptions, Message};
    let registry = ReferenceRegistry::with_seed(4);
    let link = |uri: &str| json!([{"type": "resource_link", "uri": uri, "name": "n"}]);
    let shown = |on: &ReferenceRegistry, uri: &str| {
        let text = history(&Message::decode(&link(uri)).unwrap(), on, &HistoryOptions::default()).unwrap();
        text[1..18].to_owned()
    };
    let from_a = shown(&registry.for_connection("a"), "demo://resource/1");
    let from_b = shown(&registry.for_connection("b"), "demo://resource/2");
    let from_c = shown(&registry.for_connection("c"), "demo://resource/3");
    assert_eq!(registry.lookup(&from_a).unwrap().connection.as_deref(), Some("a"));

    let (a, b) = (
        Server {
            name: "a",
            asked: std::cell::RefCell::default(),
        },
        Server {
            name: "b",
            asked: std::cell::RefCell::default(),
        },
    );
    let fetcher = Fetcher::new(FetchPolicy::new()).connection("a", &a).connection("b", &b);
    let answer = |id: &str| fetch_reference(&json!({"ref_id": id}), "t", &registry, &fetcher, &Target::neutral());
    assert_eq!(answer(&from_a).content[0].as_text(), Some("a serves 1"));
    assert_eq!(answer(&from_b).content[0].as_text(), Some("b serves 2"));
    // No connection of its own here: no other server is asked for it.
    let orphan = answer(&from_c);
    assert!(orphan.is_error, "{:?}", orphan.content);
    assert_eq!(*a.asked.borrow(), ["demo://resource/1"]);
    assert_eq!(*b.asked.borrow(), ["demo://resource/2"]);
    // The connection is kept in a snapshot.
    let restored = ReferenceRegistry::restore(&registry.snapshot()).unwrap();
    assert_eq!(restored.lookup(&from_b).unwrap().connection.as_deref(), Some("b"));
}

#[test]
fn the_defaults_are_the_documented_ones() {
    let policy = FetchPolicy::new();
    assert_eq!(policy.max_bytes_allowed(), 16 * 1024 * 1024);
    assert_eq!(mcp_agent_view::fetch::DEFAULT_MAX_BYTES, 16 * 1024 * 1024);
    assert_eq!(FetchPolicy::new().max_bytes(7).max_bytes_allowed(), 7);
    let fetcher = Fetcher::new(FetchPolicy::new().max_bytes(7));
    assert_eq!(fetcher.policy().max_bytes_allowed(), 7);
    let shown = format!("{:?}", FetchPolicy::new().max_bytes(128).bearer("s3cret"));
    assert!(
        shown.contains("max_bytes: 128") && shown.contains("\"https\"") && shown.contains("max_redirects: 3"),
        "{shown}"
    );
    assert!(!shown.contains("s3cret"), "{shown}");
    // A public address literal is fetched; only those that are not public are refused.
    for uri in ["https://93.184.215.14/a", "https://[2606:4700::1111]/a"] {
        let plan = policy.plan(&record(uri)).unwrap();
        assert!(plan.public_only, "{uri}");
    }
}

/// A fresh directory of the test's own under the system's temporary one.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mav-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fetch_file(policy: FetchPolicy, path: &std::path::Path) -> Result<Vec<u8>, Refusal> {
    let uri = url::Url::from_file_path(path).unwrap().to_string();
    let (registry, id) = registered(&json!({"type": "resource", "uri": uri, "name": "n"}));
    Fetcher::new(policy).fetch(&registry, &id).map(|f| f.bytes)
}

#[cfg(unix)]
#[test]
fn files_are_read_only_under_the_directory_the_host_names() {
    let dir = scratch("files");
    let shared = dir.join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::write(shared.join("notes.txt"), "under").unwrap();
    std::fs::write(dir.join("secret.txt"), "outside").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), shared.join("link.txt")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", shared.join("environ")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", shared.join("passwd")).unwrap();
    std::fs::create_dir(shared.join("sub")).unwrap();
    let fifo = shared.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let under = || FetchPolicy::new().allow_files_under(&shared);
    assert_eq!(under().files_allowed_under(), Some(shared.as_path()));
    assert_eq!(FetchPolicy::new().files_allowed_under(), None);

    assert_eq!(fetch_file(under(), &shared.join("notes.txt")).unwrap(), b"under");
    let outside = Refusal::File("the file is not under the directory the host allows");
    for (path, refusal) in [
        (dir.join("secret.txt"), outside.clone()),
        (shared.join("link.txt"), outside.clone()),
        (shared.join("environ"), outside.clone()),
        (shared.join("passwd"), outside.clone()),
        (shared.join("../secret.txt"), outside.clone()),
        (shared.join("sub"), Refusal::File("not a regular file")),
        (fifo.clone(), Refusal::File("not a regular file")),
        (
            shared.join("missing.txt"),
            Refusal::Transport("the file could not be opened"),
        ),
    ] {
        assert_eq!(fetch_file(under(), &path).unwrap_err(), refusal, "{}", path.display());
    }
    // The kernel's own filesystems are refused whatever the directory.
    let system = Refusal::File("a file of the system's own (procfs, sysfs, devtmpfs)");
    for path in [
        "/proc/self/environ",
        "/proc/self/status",
        "/sys/kernel/mm/transparent_hugepage/enabled",
        "/dev/null",
        "/dev/zero",
    ] {
        let path = std::path::Path::new(path);
        if path.exists() {
            assert_eq!(
                fetch_file(FetchPolicy::new().allow_files_under("/"), path).unwrap_err(),
                system,
                "{}",
                path.display()
            );
        }
    }
    // The ceiling holds on the file's size before anything is read; a file of the ceiling's
    // size is read.
    std::fs::write(shared.join("big.bin"), vec![b'x'; 100]).unwrap();
    assert_eq!(
        fetch_file(under().max_bytes(100), &shared.join("big.bin")).unwrap(),
        vec![b'x'; 100]
    );
    assert_eq!(
        fetch_file(under().max_bytes(99), &shared.join("big.bin")).unwrap_err(),
        Refusal::OverCeiling {
            ceiling: 99,
            claimed: None
        }
    );
    // Without the directory, `file:` is refused, and naming the scheme is an error naming the
    // way files are allowed.
    for scheme in ["file", "FILE"] {
        let err = FetchPolicy::new().allow_scheme(scheme).unwrap_err();
        assert_eq!(err.kind(), mcp_agent_view::ErrorKind::Policy);
        assert!(err.to_string().contains("allow_files_under"), "{err}");
    }
    let refusal = fetch_file(FetchPolicy::new(), &shared.join("notes.txt")).unwrap_err();
    assert_eq!(
        refusal,
        Refusal::Scheme {
            allowed: vec!["https".into()]
        }
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn saving_never_writes_through_a_planted_link() {
    let dir = scratch("save");
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let save_dir = dir.join("saved");
    std::fs::create_dir(&save_dir).unwrap();
    let (registry, id) = data_reference(b"RIFF0000WAVEpayload", "audio/wav", None);
    // Links at the name the partial file had before (it held the process id), at names a
    // guessable partial name would have, and at the final name.
    let name = format!("{id}.wav");
    let planted = [
        format!(".{name}.{}.partial", std::process::id()),
        format!(".{name}.{:032x}.partial", 0),
        format!(".{name}.{:016x}{:016x}.partial", 1, 1),
    ];
    for partial in &planted {
        std::os::unix::fs::symlink(&victim, save_dir.join(partial)).unwrap();
    }
    std::os::unix::fs::symlink(&victim, save_dir.join(&name)).unwrap();
    let fetcher = Fetcher::new(data_policy()).save_dir(&save_dir);
    let done = fetcher.fetch(&registry, &id).unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    let saved = save_dir.join(&name);
    assert!(!std::fs::symlink_metadata(&saved).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&saved).unwrap(), b"RIFF0000WAVEpayload");
    assert_eq!(done.verified().path.as_deref(), saved.to_str());
    // Only the planted partial links are left beside the saved file: no partial of ours.
    let mut names: Vec<String> = std::fs::read_dir(&save_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut left: Vec<String> = planted.into_iter().chain([name]).collect();
    left.sort();
    assert_eq!(names, left);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A safety field the crate cannot read refuses the fetch before anything is read: the record
/// keeps the claim in whatever shape it came.
#[test]
fn a_safety_field_that_cannot_be_read_refuses_the_fetch() {
    let good = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(b"hello"));
    let hex = sha2::Sha256::digest(b"hello").iter().fold(String::new(), |mut out, b| {
        use std::fmt::Write as _;
        let _ = write!(out, "{b:02x}");
        out
    });
    let fetch = |extra: serde_json::Value| {
        let mut block = json!({"type": "resource", "uri": "data:text/plain;base64,aGVsbG8=", "name": "n"});
        for (k, v) in extra.as_object().unwrap() {
            block[k] = v.clone();
        }
        let (registry, id) = registered(&block);
        let record = registry.lookup(&id).unwrap();
        (Fetcher::new(data_policy()).fetch(&registry, &id), record)
    };
    let (ok, _) = fetch(json!({"digest": format!("sha256:{good}")}));
    assert!(ok.unwrap().verified().digest_verified);
    for digest in [
        json!(format!("sha256:{good}=")),
        json!(format!("SHA256:{good}")),
        json!(format!("sha-256:{good}")),
        json!(format!("sha512:{good}")),
        json!(hex),
        json!(format!("sha256:{}", &good[..42])),
        json!(format!("sha256:{good}A")),
        json!("sha256:"),
        json!(""),
        json!(12),
        json!(true),
        json!(["sha256:x"]),
    ] {
        let (outcome, record) = fetch(json!({"digest": digest}));
        assert_eq!(outcome.unwrap_err(), Refusal::BadDigest, "{digest}");
        assert!(record.digest.is_some(), "the claim is kept: {digest}");
    }
    let (ok, _) = fetch(json!({"digest": null}));
    assert!(!ok.unwrap().verified().digest_verified, "null is no claim");
    for expiry in [
        json!(format!("2999-01-01T00:00:00.{}Z", "0".repeat(60))),
        json!(4_102_444_800u64),
        json!({"at": "2999-01-01T00:00:00Z"}),
        json!("tomorrow"),
        json!(""),
    ] {
        let (outcome, record) = fetch(json!({"expiresAt": expiry}));
        assert_eq!(outcome.unwrap_err(), Refusal::BadExpiry, "{expiry}");
        assert!(record.expires_at.is_some(), "the claim is kept: {expiry}");
    }
    let (ok, _) = fetch(json!({"expiresAt": "2999-01-01T00:00:00Z"}));
    assert!(ok.is_ok());
}

#[test]
fn a_link_is_read_from_its_server_and_a_bulk_reference_by_its_scheme() {
    use mcp_agent_view::fetch::{Answer, Plan, Transport};
    /// A transport that counts what it was asked and answers nothing.
    struct Refuses(std::rc::Rc<std::cell::Cell<usize>>);
    impl Transport for Refuses {
        fn get(&self, _: &Plan, _: Duration) -> Result<Answer<'_>, Refusal> {
            self.0.set(self.0.get() + 1);
            Err(Refusal::Transport("dialed"))
        }
    }
    let server = Server {
        name: "s",
        asked: std::cell::RefCell::default(),
    };
    let dialed = std::rc::Rc::default();
    let fetcher = Fetcher::new(FetchPolicy::new())
        .transport(Refuses(std::rc::Rc::clone(&dialed)))
        .resources(&server);
    let fetch = |block: serde_json::Value| {
        let (registry, id) = registered(&block);
        fetcher
            .fetch(&registry, &id)
            .map(|f| String::from_utf8(f.bytes).unwrap())
    };
    // A link is the server's own resource, read back through it whatever its scheme.
    let link = json!({"type": "resource_link", "uri": "https://files.example.com/a", "name": "n"});
    assert_eq!(fetch(link).unwrap(), "s serves a");
    // A bulk reference is read from the server only where its scheme is none the policy's
    // transports serve.
    let bulk = |uri: &str| json!({"type": "resource", "uri": uri, "name": "n"});
    assert_eq!(fetch(bulk("demo://resource/b")).unwrap(), "s serves b");
    assert_eq!(dialed.get(), 0);
    for uri in ["https://files.example.com/c", "HTTP://files.example.com/c"] {
        assert!(fetch(bulk(uri)).is_err(), "{uri}");
    }
    assert_eq!(dialed.get(), 1, "https dialed; http refused by the policy before");
    assert_eq!(
        fetch(bulk("data:text/plain,d")).unwrap_err(),
        Refusal::Scheme {
            allowed: vec!["https".into()]
        }
    );
    assert_eq!(
        *server.asked.borrow(),
        ["https://files.example.com/a", "demo://resource/b"]
    );
}

#[test]
fn data_uris_are_read_as_rfc_2397_writes_them() {
    let fetch = |uri: &str| {
        let (registry, id) = registered(&json!({"type": "resource", "uri": uri, "name": "n"}));
        let fetched = Fetcher::new(data_policy()).fetch(&registry, &id).unwrap();
        (
            String::from_utf8(fetched.bytes.clone()).unwrap(),
            fetched.verified().mime_type.clone(),
        )
    };
    let text = |bytes: &str, mime: &str| (bytes.to_owned(), mime.to_owned());
    assert_eq!(fetch("data:,a%20b"), text("a b", "text/plain"));
    assert_eq!(fetch("data:text/csv,aGk="), text("aGk=", "text/csv"));
    assert_eq!(fetch("data:text/csv;base64,aGk="), text("hi", "text/csv"));
    assert_eq!(fetch("DATA:text/csv;BASE64,aGk="), text("hi", "text/csv"));
}

#[test]
fn a_resources_read_answer_gives_its_contents_or_says_why_not() {
    use mcp_agent_view::fetch::{read_contents_of, ReadContents};
    let text = ReadContents::Text {
        mime_type: Some("text/plain".into()),
        text: "hi".into(),
    };
    let blob = ReadContents::Blob {
        mime_type: None,
        blob: "aGk=".into(),
    };
    let contents = json!({"contents": [
        {"uri": "demo://a", "mimeType": "text/plain", "text": "hi"},
        {"uri": "demo://b", "blob": "aGk=", "text": "a blob wins"},
    ]});
    assert_eq!(read_contents_of(&contents).unwrap(), [text.clone(), blob.clone()]);
    // A JSON-RPC response, its result read.
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": contents});
    assert_eq!(read_contents_of(&response).unwrap(), [text, blob]);
    for (answer, why) in [
        (
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32002, "message": "Resource\nnot found"}}),
            "Resource not found",
        ),
        (json!({"error": {"code": -32002}}), "error"),
        (json!({"contents": {}}), "no contents"),
        (
            json!({"contents": [{"uri": "demo://a"}]}),
            "contents without text or blob",
        ),
    ] {
        assert_eq!(read_contents_of(&answer), Err(Refusal::Read(why.into())), "{answer}");
    }
}
