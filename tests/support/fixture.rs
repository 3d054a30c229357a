//! The loopback fixture server of the RFC-005 corpus: one origin that answers every request
//! as its case says (a body, gzip or not; a slow stream; a redirect to a second, cross-origin
//! server), and records what it was asked and with which credential.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How the fixture answers.
#[derive(Clone, Debug)]
pub enum Response {
    /// A 200 with this body (gzip-encoded on the wire where `gzip`).
    Body {
        body: Vec<u8>,
        content_type: String,
        gzip: bool,
    },
    /// A 200 streamed in `chunks` chunks of `chunk_bytes` bytes of `x`, one every `interval`.
    Stream {
        chunks: usize,
        chunk_bytes: usize,
        interval: Duration,
    },
    /// A 302 to the second server.
    Redirect,
}

/// One request the fixture saw.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub authorization: Option<String>,
}

#[derive(Default)]
struct Log {
    requests: Mutex<Vec<Seen>>,
    redirected: Mutex<Vec<Seen>>,
    chunks_sent: AtomicUsize,
    stream_closed: AtomicBool,
    stop: AtomicBool,
}

/// A running fixture: two loopback servers, stopped when dropped.
pub struct Fixture {
    pub origin: String,
    log: Arc<Log>,
    addresses: Vec<std::net::SocketAddr>,
}

impl Fixture {
    pub fn start(response: Response) -> Fixture {
        let log = Arc::new(Log::default());
        let target = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let target_address = target.local_addr().expect("an address");
        let target_origin = format!("http://{target_address}");
        serve(target, Arc::clone(&log), move |stream, seen, log| {
            log.redirected.lock().unwrap().push(seen);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 15\r\nConnection: close\r\n\r\nredirect target",
            );
        });
        let main = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let main_address = main.local_addr().expect("an address");
        serve(main, Arc::clone(&log), move |stream, seen, log| {
            log.requests.lock().unwrap().push(seen);
            answer(stream, &response, &target_origin, log);
        });
        Fixture {
            origin: format!("http://{main_address}"),
            log,
            addresses: vec![main_address, target_address],
        }
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.log.requests.lock().unwrap().clone()
    }

    pub fn redirected(&self) -> Vec<Seen> {
        self.log.redirected.lock().unwrap().clone()
    }

    pub fn chunks_sent(&self) -> usize {
        self.log.chunks_sent.load(Ordering::SeqCst)
    }

    pub fn stream_closed(&self) -> bool {
        self.log.stream_closed.load(Ordering::SeqCst)
    }

    /// Lets a stream the client left notice that it was left (a few writes after the client
    /// closed), for at most half a second.
    pub fn settle(&self) {
        for _ in 0..10 {
            thread::sleep(Duration::from_millis(50));
            if self.log.stream_closed.load(Ordering::SeqCst) || self.log.chunks_sent.load(Ordering::SeqCst) == 0 {
                return;
            }
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.log.stop.store(true, Ordering::SeqCst);
        for address in &self.addresses {
            // Wakes the accept loop, which then sees `stop`.
            let _ = TcpStream::connect(address);
        }
    }
}

fn serve(listener: TcpListener, log: Arc<Log>, handle: impl Fn(&mut TcpStream, Seen, &Log) + Send + Sync + 'static) {
    let handle = Arc::new(handle);
    thread::spawn(move || {
        for stream in listener.incoming() {
            if log.stop.load(Ordering::SeqCst) {
                return;
            }
            let Ok(mut stream) = stream else { continue };
            let (log, handle) = (Arc::clone(&log), Arc::clone(&handle));
            thread::spawn(move || {
                if let Some(seen) = read_head(&stream) {
                    handle(&mut stream, seen, &log);
                }
                let _ = stream.flush();
                let _ = stream.shutdown(Shutdown::Both);
            });
        }
    });
}

/// The request line's path and the `Authorization` header; `None` where no request came.
fn read_head(stream: &TcpStream) -> Option<Seen> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut authorization = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("authorization") {
                authorization = Some(value.trim().to_owned());
            }
        }
    }
    Some(Seen { path, authorization })
}

fn answer(stream: &mut TcpStream, response: &Response, target_origin: &str, log: &Log) {
    match response {
        Response::Redirect => {
            let _ = write!(
                stream,
                "HTTP/1.1 302 Found\r\nLocation: {target_origin}/target\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
        Response::Body {
            body,
            content_type,
            gzip,
        } => {
            let wire = if *gzip { gzip_of(body) } else { body.clone() };
            let coding = if *gzip { "Content-Encoding: gzip\r\n" } else { "" };
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n{coding}Content-Length: {}\r\nConnection: close\r\n\r\n",
                wire.len()
            );
            let _ = stream.write_all(&wire);
        }
        Response::Stream {
            chunks,
            chunk_bytes,
            interval,
        } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                log.stream_closed.store(true, Ordering::SeqCst);
                return;
            }
            let chunk = vec![b'x'; *chunk_bytes];
            for _ in 0..*chunks {
                thread::sleep(*interval);
                let mut frame = format!("{chunk_bytes:x}\r\n").into_bytes();
                frame.extend_from_slice(&chunk);
                frame.extend_from_slice(b"\r\n");
                if stream.write_all(&frame).and_then(|()| stream.flush()).is_err() {
                    log.stream_closed.store(true, Ordering::SeqCst);
                    return;
                }
                log.chunks_sent.fetch_add(1, Ordering::SeqCst);
            }
            let _ = stream.write_all(b"0\r\n\r\n");
            log.stream_closed.store(true, Ordering::SeqCst);
        }
    }
}

fn gzip_of(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}
