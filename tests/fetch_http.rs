//! The fetch room over HTTP: the transport's address check, redirects within and out of the
//! origin, timeouts, interrupted bodies and content encodings, against loopback servers.

use std::io::Write as _;
use std::time::Duration;

use mcp_agent_view::fetch::{FetchPolicy, Fetcher, Refusal};
use mcp_agent_view::ReferenceRegistry;
use serde_json::json;

#[path = "support/fetching.rs"]
mod fetching;

use fetching::{http_policy, record, registered};

/// The transport judges the address it would dial, not only the policy the name: a plan that
/// admits public addresses only never connects to loopback, whatever the name resolved to.
#[cfg(feature = "http")]
#[test]
fn the_http_transport_refuses_an_address_the_plan_does_not_admit() {
    use mcp_agent_view::fetch::{Answer, HttpTransport, Plan, Transport, Via};
    use std::io::{Read as _, Write as _};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let plan = Plan {
            url: url_of(&format!("http://{host}/x")),
            bearer: Some("never-sent".into()),
            public_only: true,
            via: Via::Http,
        };
        let refused = HttpTransport::new().get(&plan, Duration::from_secs(5)).err();
        assert_eq!(refused, Some(Refusal::NotPublic), "{host}");
        assert!(listener.accept().is_err(), "{host}: nothing may connect");
    }
    // Admitted, the same address is dialed, with the credential.
    listener.set_nonblocking(false).unwrap();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut head = [0u8; 1024];
        let n = stream.read(&mut head).unwrap();
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            .unwrap();
        String::from_utf8_lossy(&head[..n]).into_owned()
    });
    let plan = Plan {
        url: url_of(&format!("http://127.0.0.1:{port}/x")),
        bearer: Some("sent".into()),
        public_only: false,
        via: Via::Http,
    };
    let transport = HttpTransport::new();
    let Ok(Answer::Body { status, mut body, .. }) = transport.get(&plan, Duration::from_secs(5)) else {
        panic!("an answer")
    };
    let mut text = String::new();
    body.read_to_string(&mut text).unwrap();
    assert_eq!((status, text.as_str()), (200, "ok"));
    let head = server.join().unwrap().to_ascii_lowercase();
    assert!(head.contains("authorization: bearer sent"), "{head}");
    assert!(head.contains("accept-encoding: gzip, deflate"), "{head}");
}

#[cfg(feature = "http")]
fn url_of(s: &str) -> url::Url {
    url::Url::parse(s).unwrap()
}

/// A loopback server that answers every request with `answer(n)` (n from 0), counting them.
#[cfg(feature = "http")]
#[allow(clippy::type_complexity)]
fn serve(
    answer: impl Fn(usize, u16, &str) -> Option<String> + Send + 'static,
) -> (
    String,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    use std::io::{BufRead as _, Write as _};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = std::sync::Arc::clone(&count);
    let heads = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = std::sync::Arc::clone(&heads);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            let _ = reader.read_line(&mut first);
            let path = first.split_whitespace().nth(1).unwrap_or("").to_owned();
            let mut line = String::new();
            let mut head = first.clone();
            while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                head.push_str(&line);
                line.clear();
            }
            kept.lock().unwrap().push(head.to_ascii_lowercase());
            let n = seen.fetch_add(1, Ordering::SeqCst);
            match answer(n, port, &path) {
                Some(response) => {
                    let _ = stream.write_all(response.as_bytes());
                }
                // No answer: hold the connection open.
                None => std::thread::sleep(Duration::from_secs(5)),
            }
        }
    });
    (format!("http://127.0.0.1:{port}"), count, heads)
}

#[cfg(feature = "http")]
#[test]
fn a_fetch_ends_at_its_timeout() {
    let (origin, _, _) = serve(|_, _, _| None);
    let started = std::time::Instant::now();
    let (registry, id) = link_registry(&format!("{origin}/slow"));
    let policy = http_policy()
        .origin(&origin)
        .unwrap()
        .timeout(Duration::from_millis(300));
    assert_eq!(
        Fetcher::new(policy).fetch(&registry, &id).unwrap_err(),
        Refusal::Timeout
    );
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
}

#[cfg(feature = "http")]
#[test]
fn redirects_within_the_origin_are_followed_up_to_the_limit() {
    let redirect = |_: usize, port: u16, _: &str| {
        Some(format!(
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ))
    };
    for (hops, requests) in [(None, 4), (Some(1), 2), (Some(0), 1)] {
        let (origin, count, _) = serve(redirect);
        let (registry, id) = link_registry(&format!("{origin}/start"));
        let mut policy = http_policy().origin(&origin).unwrap();
        if let Some(hops) = hops {
            policy = policy.max_redirects(hops);
        }
        assert_eq!(
            Fetcher::new(policy).fetch(&registry, &id).unwrap_err(),
            Refusal::TooManyRedirects
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), requests, "{hops:?}");
    }
    // One hop to the body, then the body (only there).
    let (origin, _, _) = serve(|_, port, path| {
        Some(if path == "/there" {
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nthere".to_owned()
        } else {
            format!(
                "HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:{port}/there\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        })
    });
    let (registry, id) = link_registry(&format!("{origin}/here"));
    let policy = http_policy().origin(&origin).unwrap();
    assert_eq!(Fetcher::new(policy).fetch(&registry, &id).unwrap().bytes, b"there");
}

/// A registry holding one bulk reference to `uri`, and its id.
#[cfg(feature = "http")]
fn link_registry(uri: &str) -> (ReferenceRegistry, String) {
    registered(&json!({"type": "resource", "uri": uri, "name": "n"}))
}

#[test]
fn redirects_out_of_the_origin_carry_no_credential_and_none_carries_userinfo() {
    #[cfg(feature = "http")]
    {
        // Out of the origin: a fresh fetch under every rule, never with the credential.
        let (elsewhere, _, their_heads) =
            serve(|_, _, _| Some("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nthen".to_owned()));
        let to = format!("{elsewhere}/x");
        let (origin, count, heads) = serve(move |_, _, _| {
            Some(format!(
                "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            ))
        });
        let (registry, id) = link_registry(&format!("{origin}/a"));
        let dialed = || http_policy().origin(&origin).unwrap().bearer("s3cret");
        // The other origin is loopback and not named: refused at its address.
        assert_eq!(
            Fetcher::new(dialed()).fetch(&registry, &id).unwrap_err(),
            Refusal::NotPublic
        );
        assert!(their_heads.lock().unwrap().is_empty());
        // Named, it is followed, and the credential stays behind.
        let named = dialed().allow_origin(&elsewhere).unwrap();
        assert_eq!(Fetcher::new(named).fetch(&registry, &id).unwrap().bytes, b"then");
        assert!(heads
            .lock()
            .unwrap()
            .iter()
            .all(|h| h.contains("authorization: bearer s3cret")));
        let theirs = their_heads.lock().unwrap().clone();
        assert_eq!(theirs.len(), 1);
        assert!(!theirs[0].contains("authorization"), "{theirs:?}");
        // A host may refuse such redirects outright.
        let strict = dialed().allow_origin(&elsewhere).unwrap().cross_origin_redirects(false);
        assert_eq!(
            Fetcher::new(strict).fetch(&registry, &id).unwrap_err(),
            Refusal::CrossOriginRedirect
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 3);
        assert_eq!(their_heads.lock().unwrap().len(), 1);

        let (origin, count, _) = serve(|_, port, _| {
            Some(format!("HTTP/1.1 302 Found\r\nLocation: http://u:p@127.0.0.1:{port}/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
        });
        let (registry, id) = link_registry(&format!("{origin}/a"));
        let policy = http_policy().origin(&origin).unwrap();
        assert_eq!(
            Fetcher::new(policy).fetch(&registry, &id).unwrap_err(),
            Refusal::Userinfo
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
    #[cfg(feature = "http")]
    for (location, refusal) in [
        ("http://u@127.0.0.1:9/x".to_owned(), Refusal::Userinfo),
        (
            "file:///etc/passwd".to_owned(),
            Refusal::Scheme {
                allowed: vec!["https".into(), "http".into()],
            },
        ),
        (
            "data:text/plain,hi".to_owned(),
            Refusal::Scheme {
                allowed: vec!["https".into(), "http".into()],
            },
        ),
    ] {
        // A redirect never leads to a scheme no transport of the web serves, even where the
        // policy allows it for references themselves.
        let answer =
            format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        let (origin, count, _) = serve(move |_, _, _| Some(answer.clone()));
        let (registry, id) = link_registry(&format!("{origin}/a"));
        let policy = http_policy().allow_scheme("data").unwrap().origin(&origin).unwrap();
        assert_eq!(
            Fetcher::new(policy).fetch(&registry, &id).unwrap_err(),
            refusal,
            "{location}"
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
    // An origin that is none is an error that names it, cleaned.
    let err = FetchPolicy::new().origin("nope\u{202e}").unwrap_err();
    assert_eq!(err.to_string(), "not an origin: nope");
    assert_eq!(err.kind(), mcp_agent_view::ErrorKind::Policy);
    let plan = FetchPolicy::new()
        .bearer("s3cret")
        .origin("https://h.example")
        .unwrap()
        .plan(&record("https://h.example/a"))
        .unwrap();
    let shown = format!("{plan:?}");
    assert!(
        shown.contains("https://h.example/a") && shown.contains("Http") && !shown.contains("s3cret"),
        "{shown}"
    );
}

#[cfg(feature = "http")]
#[test]
fn every_content_encoding_line_counts() {
    let gzipped = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b"hello").unwrap();
        e.finish().unwrap()
    };
    let twice = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&gzipped).unwrap();
        e.finish().unwrap()
    };
    for (head, body, outcome) in [
        ("Content-Encoding: gzip\r\n", gzipped.clone(), Ok(b"hello".to_vec())),
        (
            "Content-Encoding: gzip\r\nContent-Encoding: identity\r\n",
            gzipped.clone(),
            Ok(b"hello".to_vec()),
        ),
        (
            "Content-Encoding: gzip\r\nContent-Encoding: gzip\r\n",
            twice.clone(),
            Err(Refusal::Encoding("gzip, gzip".into())),
        ),
        (
            "Content-Encoding: gzip, gzip\r\n",
            twice.clone(),
            Err(Refusal::Encoding("gzip, gzip".into())),
        ),
        (
            "Content-Encoding: gzip\r\nContent-Encoding: br\r\n",
            twice,
            Err(Refusal::Encoding("gzip, br".into())),
        ),
    ] {
        let mut answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n{head}Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        answer.extend_from_slice(&body);
        // A server of its own: gzip bytes are no text for `serve`'s answers.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let origin = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        std::thread::spawn(move || {
            use std::io::Read as _;
            if let Ok((mut stream, _)) = listener.accept() {
                let mut head = [0u8; 4096];
                let _ = stream.read(&mut head);
                let _ = stream.write_all(&answer);
            }
        });
        let (registry, id) = link_registry(&format!("{origin}/a"));
        let policy = http_policy().origin(&origin).unwrap();
        let got = Fetcher::new(policy).fetch(&registry, &id).map(|f| f.bytes);
        assert_eq!(got, outcome, "{head:?}");
    }
}

/// A redirect within the origin that adds a user name alone (no password) carries userinfo
/// all the same: refused, and nothing more is asked of the server.
#[cfg(feature = "http")]
#[test]
fn a_redirect_adding_a_user_name_alone_is_refused() {
    let (origin, count, _) = serve(|_, port, _| {
        Some(format!("HTTP/1.1 302 Found\r\nLocation: http://u@127.0.0.1:{port}/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
    });
    let (registry, id) = link_registry(&format!("{origin}/a"));
    let policy = http_policy().origin(&origin).unwrap();
    assert_eq!(
        Fetcher::new(policy).fetch(&registry, &id).unwrap_err(),
        Refusal::Userinfo
    );
    assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1);
}

/// A body read as scripted: each step a chunk, a pause, or an error; then its end.
struct ScriptedBody(std::collections::VecDeque<Step>);

enum Step {
    Bytes(&'static [u8]),
    Pause(Duration),
    Fails(std::io::ErrorKind),
}

impl std::io::Read for ScriptedBody {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.0.pop_front() {
                None => return Ok(0),
                Some(Step::Bytes(bytes)) => {
                    buf[..bytes.len()].copy_from_slice(bytes);
                    return Ok(bytes.len());
                }
                Some(Step::Pause(pause)) => std::thread::sleep(pause),
                Some(Step::Fails(kind)) => return Err(kind.into()),
            }
        }
    }
}

/// A transport whose every answer is a 200 with a scripted body.
struct Scripted(std::sync::Mutex<Option<ScriptedBody>>);

impl mcp_agent_view::fetch::Transport for Scripted {
    fn get(&self, _: &mcp_agent_view::fetch::Plan, _: Duration) -> Result<mcp_agent_view::fetch::Answer<'_>, Refusal> {
        let body = self.0.lock().unwrap().take().expect("one request");
        Ok(mcp_agent_view::fetch::Answer::Body {
            status: 200,
            content_type: Some("text/plain".into()),
            content_encoding: None,
            body: Box::new(body),
        })
    }
}

#[test]
fn a_body_is_read_through_interruptions_and_fails_on_errors_and_at_its_deadline() {
    use std::io::ErrorKind;
    let fetch = |steps: Vec<Step>| {
        let (registry, id) = link_registry("https://files.example.com/a");
        let transport = Scripted(std::sync::Mutex::new(Some(ScriptedBody(steps.into()))));
        let policy = FetchPolicy::new().timeout(Duration::from_millis(200));
        Fetcher::new(policy)
            .transport(transport)
            .fetch(&registry, &id)
            .map(|fetched| fetched.bytes)
    };
    let hello = |between: Step| vec![Step::Bytes(b"he"), between, Step::Bytes(b"llo")];
    assert_eq!(fetch(hello(Step::Fails(ErrorKind::Interrupted))).unwrap(), b"hello");
    assert_eq!(fetch(hello(Step::Fails(ErrorKind::TimedOut))), Err(Refusal::Timeout));
    assert_eq!(
        fetch(hello(Step::Fails(ErrorKind::ConnectionReset))),
        Err(Refusal::Transport("the body could not be read"))
    );
    // A body that keeps coming past the deadline is cut there, not read to its end.
    assert_eq!(
        fetch(hello(Step::Pause(Duration::from_millis(400)))),
        Err(Refusal::Timeout)
    );
    assert_eq!(fetch(hello(Step::Pause(Duration::ZERO))).unwrap(), b"hello");
}
