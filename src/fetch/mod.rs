//! Fetching references (MCPL RFC-005 §6 and §7): the policy decided before anything is
//! dialed ([`FetchPolicy`]), the bytes verified as they arrive ([`Verifier`]), the transports
//! ([`Transport`]: HTTP behind the `http` feature; [`ResourceReader`]: an MCP server's
//! `resources/read`), and the `fetch_reference` tool the model calls ([`tool_definition`],
//! [`fetch_reference`]).
//!
//! Three objects, kept apart: the server's *testimony* (what a block claims: uri, name, type,
//! size, digest, expiry, disposition), the host's *record* of it in the
//! [`ReferenceRegistry`] (the testimony, then what a fetch *verified*), and the *stub* the
//! model reads (an id and what is known, never the uri). A fetch fails closed at every step,
//! and nothing partial or unverified is presented or saved.
//!
//! ```
//! use mcp_agent_view::fetch::{fetch_reference, Fetcher, FetchPolicy};
//! use mcp_agent_view::{history, HistoryOptions, ReferenceRegistry, Target};
//!
//! let registry = ReferenceRegistry::new();
//! let message = serde_json::json!([{"type": "resource", "uri": "data:text/plain;base64,aGVsbG8=",
//!     "name": "greeting.txt", "mimeType": "text/plain", "sizeBytes": 5}]);
//! let text = history(&message, &registry, &HistoryOptions::default())?;
//! let id = &text[1..18];
//!
//! // The model calls the tool with the id it read; the host answers.
//! let fetcher = Fetcher::new(FetchPolicy::new().allow_scheme("data")?);
//! let call = serde_json::json!({"ref_id": id});
//! let answer = fetch_reference(&call, "toolu_1", &registry, &fetcher, &Target::anthropic());
//! assert!(!answer.is_error);
//! assert_eq!(answer.content[0].as_text(), Some("hello"));
//! # Ok::<(), mcp_agent_view::Error>(())
//! ```

mod files;
mod policy;
mod settings;
mod tool;
mod verify;

#[cfg(feature = "http")]
mod http;
#[cfg(test)]
mod tests;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use policy::{FetchPolicy, Plan, Via, DEFAULT_MAX_BYTES};
pub use settings::FetchSettings;
pub use tool::{fetch_reference, tool_definition, TOOL_NAME};
pub use verify::{Checked, Verifier};

#[cfg(feature = "http")]
pub use http::HttpTransport;

use crate::classify::ReferenceSource;
use crate::reference::{ReferenceRecord, ReferenceRegistry, Verified};

/// Why a fetch was refused or failed. Its `Display` is the reason the model may read: it
/// never holds a uri, a credential or the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The id is none the registry holds (never issued, or evicted).
    UnknownReference,
    /// The id is held, and this run did not fetch it.
    NotFetched,
    /// The uri's scheme is not allowed by the policy. The refusal names the schemes that are
    /// (the host's own settings), never the uri's.
    Scheme {
        /// The schemes the policy allows where the refusal arose (for a redirect, the web's).
        allowed: Vec<String>,
    },
    /// The uri is no URL this crate can fetch.
    BadUri,
    /// The uri carries userinfo (`user:pass@`).
    Userinfo,
    /// The claimed or the actual decoded size is over the ceiling.
    OverCeiling {
        /// The ceiling.
        ceiling: u64,
        /// The size the server claimed, where the claim was refused before dialing.
        claimed: Option<u64>,
    },
    /// `expiresAt` is in the past.
    Expired,
    /// `expiresAt` is no RFC 3339 date-time.
    BadExpiry,
    /// The origin's address is not public (loopback, private, link-local, unique-local), and
    /// the policy does not name it.
    NotPublic,
    /// No transport for the uri's scheme here (an MCP uri with no connection to read it from,
    /// or HTTP with no HTTP transport).
    NoTransport,
    /// A redirect to another origin, where the policy refuses those
    /// ([`FetchPolicy::cross_origin_redirects`]).
    CrossOriginRedirect,
    /// More redirects than the policy follows.
    TooManyRedirects,
    /// The server answered with an HTTP status other than 2xx.
    Status(u16),
    /// A content coding this crate does not decode.
    Encoding(String),
    /// The content coding is corrupt or cut short.
    Corrupt,
    /// The bytes do not match the record's digest.
    DigestMismatch,
    /// The record's digest is none this crate can check (not `sha256:` and 32 bytes).
    BadDigest,
    /// The fetch took longer than the policy's timeout.
    Timeout,
    /// The transport failed (connection refused, reset, TLS): a fixed description.
    Transport(&'static str),
    /// A `file:` reference the policy does not let be read: outside the directory the host
    /// named, no regular file, or on procfs, sysfs or devtmpfs. A fixed description.
    File(&'static str),
    /// The MCP server's `resources/read` failed or held no contents.
    Read(String),
    /// The verified bytes could not be saved where the host asked.
    Save(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::UnknownReference => f.write_str("unknown reference"),
            Refusal::NotFetched => f.write_str("not fetched"),
            Refusal::Scheme { allowed } => {
                f.write_str("refused: the uri's scheme is not allowed (allowed: ")?;
                f.write_str(&allowed.join(", "))?;
                f.write_str(")")
            }
            Refusal::BadUri => f.write_str("refused: the reference's uri is no URL that can be fetched"),
            Refusal::Userinfo => f.write_str("refused: the uri carries credentials"),
            Refusal::OverCeiling {
                ceiling,
                claimed: Some(claimed),
            } => write!(
                f,
                "over the ceiling: {claimed} bytes claimed, at most {ceiling} allowed"
            ),
            Refusal::OverCeiling { ceiling, claimed: None } => {
                write!(f, "over the ceiling: more than {ceiling} bytes arrived")
            }
            Refusal::Expired => f.write_str("expired"),
            Refusal::BadExpiry => f.write_str("refused: expiresAt is no RFC 3339 date-time"),
            Refusal::NotPublic => f.write_str("refused: the address is not public"),
            Refusal::NoTransport => f.write_str(
                "refused: no transport here for the uri's scheme (http and https need the HTTP transport, \
                 other schemes the MCP connection's resources/read)",
            ),
            Refusal::CrossOriginRedirect => f.write_str("refused: a redirect to another origin"),
            Refusal::TooManyRedirects => f.write_str("refused: too many redirects"),
            Refusal::Status(status) => write!(f, "the server answered HTTP {status}"),
            Refusal::Encoding(coding) => write!(f, "unsupported content encoding: {coding}"),
            Refusal::Corrupt => f.write_str("the content encoding is corrupt or cut short"),
            Refusal::DigestMismatch => f.write_str("digest mismatch"),
            Refusal::BadDigest => f.write_str("refused: the digest cannot be checked"),
            Refusal::Timeout => f.write_str("timed out"),
            Refusal::Transport(why) => write!(f, "transport failed: {why}"),
            Refusal::File(why) => write!(f, "refused: {why}"),
            Refusal::Read(why) => write!(f, "resources/read failed: {why}"),
            Refusal::Save(why) => write!(f, "could not save: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// What a transport got for one GET.
pub enum Answer<'t> {
    /// A redirect (3xx with a `Location`), not followed: the fetcher asks the policy.
    Redirect(String),
    /// The response's status and headers, and its body to read as it arrives. Dropping the
    /// reader ends the transfer.
    Body {
        /// The HTTP status.
        status: u16,
        /// `Content-Type`, as sent.
        content_type: Option<String>,
        /// `Content-Encoding`, as sent: the fetcher decodes it.
        content_encoding: Option<String>,
        /// The body, still encoded.
        body: Box<dyn Read + 't>,
    },
}

/// One GET, as a plan says: to its URL, with its credential only, refusing any address the
/// plan does not admit once the name resolves, following no redirect, sending
/// `Accept-Encoding: gzip, deflate` and decoding nothing (the [`Verifier`] does).
pub trait Transport {
    /// Starts the GET; the body is read by the caller.
    fn get(&self, plan: &Plan, timeout: Duration) -> Result<Answer<'_>, Refusal>;
}

/// One item of a `resources/read` result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadContents {
    /// Text contents.
    Text {
        /// Its `mimeType`, as claimed.
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Blob contents.
    Blob {
        /// Its `mimeType`, as claimed.
        mime_type: Option<String>,
        /// The base64.
        blob: String,
    },
}

/// An MCP connection's `resources/read`: how a `resource_link` (and an MCP resource uri
/// generally) is fetched, from the server that sent it.
pub trait ResourceReader {
    /// Reads the resource at `uri`.
    fn read_resource(&self, uri: &str) -> Result<Vec<ReadContents>, Refusal>;
}

/// The contents of a `resources/read` answer as JSON (a result `{"contents": […]}`, or a
/// JSON-RPC response holding one or an `error`): what a [`ResourceReader`] gives back. An
/// error, or an item with neither string `text` nor string `blob`, is refused, its reason
/// cleaned.
pub fn read_contents_of(answer: &Value) -> Result<Vec<ReadContents>, Refusal> {
    let answer = answer.get("result").unwrap_or(answer);
    if let Some(error) = answer.get("error") {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("error");
        return Err(Refusal::Read(crate::text::clean_label(message).unwrap_or_default()));
    }
    let items = answer
        .get("contents")
        .and_then(Value::as_array)
        .ok_or_else(|| Refusal::Read("no contents".to_owned()))?;
    items
        .iter()
        .map(|item| {
            let mime_type = item.get("mimeType").and_then(Value::as_str).map(str::to_owned);
            match (
                item.get("text").and_then(Value::as_str),
                item.get("blob").and_then(Value::as_str),
            ) {
                (_, Some(blob)) => Ok(ReadContents::Blob {
                    mime_type,
                    blob: blob.to_owned(),
                }),
                (Some(text), None) => Ok(ReadContents::Text {
                    mime_type,
                    text: text.to_owned(),
                }),
                (None, None) => Err(Refusal::Read("contents without text or blob".to_owned())),
            }
        })
        .collect()
}

/// A verified fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// The record, with what was verified.
    pub record: ReferenceRecord,
    /// The decoded bytes.
    pub bytes: Vec<u8>,
}

impl Fetched {
    /// What was verified.
    #[must_use]
    pub fn verified(&self) -> &Verified {
        // A fetched record always holds its verified facts.
        self.record
            .verified
            .as_ref()
            .unwrap_or_else(|| unreachable!("a Fetched always holds its facts"))
    }
}

/// Fetches references by their ids, as a policy allows, through the transports it has.
pub struct Fetcher<'a> {
    policy: FetchPolicy,
    http: Option<Box<dyn Transport + 'a>>,
    resources: Option<&'a dyn ResourceReader>,
    connections: Vec<(String, &'a dyn ResourceReader)>,
    save_dir: Option<PathBuf>,
}

impl<'a> Fetcher<'a> {
    /// A fetcher under `policy`, with the HTTP transport where the `http` feature is on, and
    /// no MCP connection.
    #[must_use]
    pub fn new(policy: FetchPolicy) -> Self {
        Fetcher {
            policy,
            #[cfg(feature = "http")]
            http: Some(Box::new(HttpTransport::new())),
            #[cfg(not(feature = "http"))]
            http: None,
            resources: None,
            connections: Vec::new(),
            save_dir: None,
        }
    }

    /// Fetches HTTP(S) through `transport` instead.
    #[must_use]
    pub fn transport(mut self, transport: impl Transport + 'a) -> Self {
        self.http = Some(Box::new(transport));
        self
    }

    /// Reads `resource_link`s, and uris of schemes no other transport serves, through
    /// `reader`: for a host of one connection, whose records name none.
    #[must_use]
    pub fn resources(mut self, reader: &'a dyn ResourceReader) -> Self {
        self.resources = Some(reader);
        self
    }

    /// Reads the links of records that came from `connection` (registered through
    /// [`ReferenceRegistry::for_connection`]) through `reader`, and no other connection's: a
    /// link is read back from the server that sent it.
    #[must_use]
    pub fn connection(mut self, connection: &str, reader: &'a dyn ResourceReader) -> Self {
        self.connections.push((connection.to_owned(), reader));
        self
    }

    /// The connection a record's link is read back through.
    fn reader_for(&self, record: &ReferenceRecord) -> Option<&'a dyn ResourceReader> {
        match &record.connection {
            Some(name) => self.connections.iter().find(|(n, _)| n == name).map(|(_, r)| *r),
            None => self.resources,
        }
    }

    /// Saves verified bytes under `dir`, as `<ref id>.<extension of the observed type>`.
    #[must_use]
    pub fn save_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.save_dir = Some(dir.into());
        self
    }

    /// The policy in force.
    #[must_use]
    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// Fetches the reference behind `id`: decided by the policy, verified as it arrives,
    /// saved where the host asked, and kept in its record (so that stubs shown after it state
    /// verified facts). Nothing is saved or kept where any step fails.
    pub fn fetch(&self, registry: &ReferenceRegistry, id: &str) -> Result<Fetched, Refusal> {
        let record = registry.lookup(id).map_err(|_| Refusal::UnknownReference)?;
        let checked = self.fetch_record(&record)?;
        let path = match &self.save_dir {
            Some(dir) => Some(save(dir, &record.id, &checked)?),
            None => None,
        };
        let verified = Verified {
            bytes: checked.bytes.len() as u64,
            mime_type: checked.mime_type,
            digest_verified: checked.digest_verified,
            path: path.map(|p| p.to_string_lossy().into_owned()),
        };
        let record = registry
            .set_verified(id, verified)
            .map_err(|_| Refusal::UnknownReference)?;
        Ok(Fetched {
            record,
            bytes: checked.bytes,
        })
    }

    fn fetch_record(&self, record: &ReferenceRecord) -> Result<Checked, Refusal> {
        let mcp = |reader: &dyn ResourceReader| {
            self.policy.check_claims(record)?;
            self.read_resource(reader, record)
        };
        match (record.source, self.reader_for(record)) {
            (ReferenceSource::ResourceLink, Some(reader)) => return mcp(reader),
            (_, Some(reader)) if !is_fetched_elsewhere(&record.uri) => return mcp(reader),
            _ => {}
        }
        let plan = self.policy.plan(record)?;
        let claimed = record.mime_type.as_deref();
        match plan.via {
            Via::Data => self.data_url(&plan, record, claimed),
            Via::File => self.file(&plan, record, claimed),
            Via::Http => self.http(plan, record, claimed),
        }
    }

    fn http(&self, mut plan: Plan, record: &ReferenceRecord, claimed: Option<&str>) -> Result<Checked, Refusal> {
        let transport = self.http.as_deref().ok_or(Refusal::NoTransport)?;
        let deadline = Instant::now() + self.policy.timeout;
        for _ in 0..=self.policy.max_redirects {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Refusal::Timeout);
            }
            match transport.get(&plan, left)? {
                Answer::Redirect(location) => {
                    let to = plan.url.join(&location).map_err(|_| Refusal::BadUri)?;
                    plan = self.policy.redirect(&plan, to)?;
                }
                Answer::Body {
                    status,
                    content_type,
                    content_encoding,
                    mut body,
                } => {
                    if !(200..300).contains(&status) {
                        return Err(Refusal::Status(status));
                    }
                    let mut verifier = Verifier::new(self.policy.max_bytes, content_encoding.as_deref())?;
                    // Past the ceiling, the body is dropped unread, which ends the transfer.
                    read_into(&mut verifier, &mut body, deadline, "the body could not be read")?;
                    let claimed = claimed.or(content_type.as_deref());
                    return verifier.finish(record.digest.as_deref(), claimed);
                }
            }
        }
        Err(Refusal::TooManyRedirects)
    }

    fn data_url(&self, plan: &Plan, record: &ReferenceRecord, claimed: Option<&str>) -> Result<Checked, Refusal> {
        let (bytes, media) = decode_data_url(plan.url.as_str()).ok_or(Refusal::BadUri)?;
        self.verify_whole(&bytes, record, claimed.or(media.as_deref()))
    }

    /// Verifies bytes that arrived whole (a `data:` uri, a `resources/read` answer) as a body
    /// is verified.
    fn verify_whole(&self, bytes: &[u8], record: &ReferenceRecord, claimed: Option<&str>) -> Result<Checked, Refusal> {
        let mut verifier = Verifier::new(self.policy.max_bytes, None)?;
        verifier.push(bytes)?;
        verifier.finish(record.digest.as_deref(), claimed)
    }

    fn file(&self, plan: &Plan, record: &ReferenceRecord, claimed: Option<&str>) -> Result<Checked, Refusal> {
        let deadline = Instant::now() + self.policy.timeout;
        let root = self.policy.files_under.as_deref().ok_or(Refusal::Scheme {
            allowed: self.policy.schemes.clone(),
        })?;
        let path = plan.url.to_file_path().map_err(|()| Refusal::BadUri)?;
        let over = Refusal::OverCeiling {
            ceiling: self.policy.max_bytes,
            claimed: None,
        };
        let (mut file, size) = files::open_under(root, &path, self.policy.hard_links)?;
        if size > self.policy.max_bytes {
            return Err(over);
        }
        let mut verifier = Verifier::new(self.policy.max_bytes, None)?;
        // The verifier refuses one byte past the ceiling, should the file grow as it is read.
        read_into(&mut verifier, &mut file, deadline, "the file could not be read")?;
        verifier.finish(record.digest.as_deref(), claimed)
    }

    fn read_resource(&self, reader: &dyn ResourceReader, record: &ReferenceRecord) -> Result<Checked, Refusal> {
        let contents = reader.read_resource(&record.uri)?;
        let Some(first) = contents.into_iter().next() else {
            return Err(Refusal::Read("no contents".to_owned()));
        };
        let (bytes, mime_type) = match first {
            ReadContents::Text { mime_type, text } => (text.into_bytes(), mime_type),
            ReadContents::Blob { mime_type, blob } => (
                crate::media::check::decode_base64(blob.as_bytes())
                    .ok_or_else(|| Refusal::Read("bad base64".to_owned()))?,
                mime_type,
            ),
        };
        let claimed = record.mime_type.as_deref().or(mime_type.as_deref());
        self.verify_whole(&bytes, record, claimed)
    }
}

/// Reads `source` to its end into `verifier` a chunk at a time; fails where the deadline
/// passes, the verifier refuses a chunk (past the ceiling, corrupt) or the read fails (`failed`
/// says what).
fn read_into(
    verifier: &mut Verifier,
    source: &mut dyn Read,
    deadline: Instant,
    failed: &'static str,
) -> Result<(), Refusal> {
    let mut chunk = vec![0; 16 * 1024];
    loop {
        if Instant::now() > deadline {
            return Err(Refusal::Timeout);
        }
        match source.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(n) => verifier.push(&chunk[..n])?,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return Err(Refusal::Timeout),
            Err(_) => return Err(Refusal::Transport(failed)),
        }
    }
}

/// A `data:` URL's bytes and media type (RFC 2397): base64 where it says `;base64`, else
/// percent-encoded; `text/plain` where it names no type.
fn decode_data_url(url: &str) -> Option<(Vec<u8>, Option<String>)> {
    let rest = url
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("data:"))
        .map(|_| &url[5..])?;
    let (meta, payload) = rest.split_once(',')?;
    let payload: Vec<u8> = crate::text::percent_decode(payload.as_bytes());
    let (media, base64) = match meta.len().checked_sub(7).and_then(|at| meta.get(at..)) {
        Some(tail) if tail.eq_ignore_ascii_case(";base64") => (&meta[..meta.len() - 7], true),
        _ => (meta, false),
    };
    let bytes = if base64 {
        crate::media::check::decode_base64(&payload)?
    } else {
        payload
    };
    let media = if media.is_empty() { "text/plain" } else { media };
    Some((bytes, Some(media.to_owned())))
}

/// Whether a uri is one the policy's transports fetch (HTTP, data, file), not the MCP
/// connection.
fn is_fetched_elsewhere(uri: &str) -> bool {
    let scheme = uri.split(':').next().unwrap_or("").to_ascii_lowercase();
    matches!(scheme.as_str(), "http" | "https" | "data" | "file")
}

/// The storage name of verified bytes: the reference's id and the observed type's extension.
/// The server's name is never part of it.
#[must_use]
pub(crate) fn storage_name(id: &str, mime_type: &str) -> String {
    format!("{id}.{}", extension(mime_type))
}

/// The file extension of a media type, from one table.
fn extension(mime_type: &str) -> &'static str {
    const EXTENSIONS: &[(&str, &str)] = &[
        ("image/png", "png"),
        ("image/jpeg", "jpg"),
        ("image/gif", "gif"),
        ("image/webp", "webp"),
        ("audio/wav", "wav"),
        ("audio/mpeg", "mp3"),
        ("audio/ogg", "ogg"),
        ("audio/flac", "flac"),
        ("application/pdf", "pdf"),
        ("application/json", "json"),
        ("application/xml", "xml"),
        ("text/html", "html"),
        ("text/csv", "csv"),
        ("text/markdown", "md"),
        ("text/plain", "txt"),
    ];
    let essence = mime_type.split(';').next().unwrap_or("").trim();
    EXTENSIONS
        .iter()
        .find(|(m, _)| m.eq_ignore_ascii_case(essence))
        .map_or_else(|| if essence.starts_with("text/") { "txt" } else { "bin" }, |(_, e)| e)
}

/// Writes `checked` under `dir` by its storage name: to a new file of its own first, then
/// renamed into place, so that no partial file ever stands under the name, and none is left.
/// The partial file's name cannot be predicted, and it is created new (`create_new`: an entry
/// already there, a planted symlink among them, is never opened, let alone written through;
/// with 128 unpredictable bits in the name, one there is refused, not tried around).
fn save(dir: &Path, id: &str, checked: &Checked) -> Result<PathBuf, Refusal> {
    let why = |e: std::io::Error| Refusal::Save(format!("{:?}", e.kind()));
    let name = storage_name(id, &checked.mime_type);
    let path = dir.join(&name);
    let partial = dir.join(format!(
        ".{name}.{:016x}{:016x}.partial",
        unpredictable(),
        unpredictable()
    ));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(why)?;
    let written = file.write_all(&checked.bytes).and_then(|()| file.sync_all());
    drop(file);
    match written.and_then(|()| std::fs::rename(&partial, &path)) {
        Ok(()) => Ok(path),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(why(e))
        }
    }
}

/// 64 bits nobody outside this process can predict: the standard library's randomly keyed
/// hasher (its keys come from the system's random source) over a clock and a counter.
fn unpredictable() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}
