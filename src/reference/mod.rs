//! The reference registry: the one place that keeps a reference's uri, behind an opaque id the
//! agent can hand to the host's fetcher.

use std::collections::hash_map::{DefaultHasher, RandomState};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use foldhash::fast::FixedState;
use serde::{Deserialize, Serialize};

use crate::classify::{Disposition, Reference, ReferenceSource};
use crate::error::{Error, ErrorKind};

mod id;
mod stubs;

use id::{id_str, Ids};
pub(crate) use stubs::{write_id, Stubs};
use stubs::{Held, ShownVerified};

/// How many records a registry keeps; registering more evicts the oldest.
pub const MAX_RECORDS: usize = 2000;

/// What the registry keeps of a reference, for the host's own fetcher: the server's testimony
/// (uri, name, media type, size, expiry, digest, disposition, all as claimed), and, once a
/// fetch has verified the bytes, what was verified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceRecord {
    /// The id the agent saw, `ref_…`.
    pub id: String,
    /// The uri. Never shown to the agent.
    pub uri: String,
    /// Where the reference came from on the wire.
    pub source: ReferenceSource,
    /// The reference's name, as the server sent it.
    pub name: Option<String>,
    /// The reference's media type, as the server sent it.
    pub mime_type: Option<String>,
    /// The size the server claimed.
    pub size_bytes: Option<u64>,
    /// The reference's disposition. `never` stays in force: a fetcher must not inline it.
    pub disposition: Option<Disposition>,
    /// `expiresAt`, as the server sent it (RFC 3339, not yet parsed).
    #[serde(default)]
    pub expires_at: Option<String>,
    /// `digest`, as the server sent it (`sha256:` and 43 base64url characters).
    #[serde(default)]
    pub digest: Option<String>,
    /// What a fetch verified of the bytes, where one has.
    #[serde(default)]
    pub verified: Option<Verified>,
    /// The connection the reference came from, where it was registered through
    /// [`ReferenceRegistry::for_connection`]: the server a link is read back from.
    #[serde(default)]
    pub connection: Option<String>,
}

/// What a fetch verified of a reference's bytes: facts, where the rest of a record is
/// testimony.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Verified {
    /// How many bytes arrived, decoded (identity octets).
    pub bytes: u64,
    /// The media type the bytes show (sniffed), or, where they show none, the claimed one.
    pub mime_type: String,
    /// Whether the bytes matched the record's `digest` (`false` where it had none).
    pub digest_verified: bool,
    /// Where the host saved them, if it did: `<ref id>.<extension of the observed type>`
    /// under the host's directory. Never a name from the server.
    pub path: Option<String>,
}

/// Issues opaque ids for references and keeps their records.
///
/// Ids are `ref_` and 13 lowercase base36 characters: the same for the same uri while its
/// record is kept, never reused, and not guessable from one another (each is a keyed
/// permutation of a counter). A reference registered again updates its record to what its
/// stub shows now (name, media type, size), and keeps the strictest disposition it was ever
/// given: `never` is never lost. At most [`MAX_RECORDS`] records are kept, the oldest evicted
/// first. The registry is `Sync`: share it between threads behind a reference or an `Arc`.
///
/// ```
/// use mcp_agent_view::{history, HistoryOptions, ReferenceRegistry};
///
/// let json = serde_json::json!([{
///     "type": "resource_link", "uri": "https://example.com/r?token=secret", "name": "report.pdf"
/// }]);
/// let registry = ReferenceRegistry::new();
/// let text = history(&json, &registry, &HistoryOptions::default())?;
/// assert!(!text.contains("secret"));
/// let id = text.split(']').next().unwrap().trim_start_matches('[');
/// assert_eq!(registry.lookup(id)?.uri, "https://example.com/r?token=secret");
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
#[derive(Debug)]
pub struct ReferenceRegistry {
    /// The registry's secret: every id and hash follows from it. Kept for snapshots.
    key: (u64, u64),
    /// Its ids, keyed from `key`.
    ids: Ids,
    /// Hashes uris, keyed from `key`.
    uris: FixedState,
    /// The records, shared with every handle [`ReferenceRegistry::for_connection`] gives.
    inner: Arc<Mutex<Inner>>,
    /// The connection the references this handle registers came from.
    connection: Option<String>,
    /// The tool the host offers the model for fetching, which stubs name; none by default.
    fetch_tool: Option<Arc<str>>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The counter of the next record.
    next: u64,
    /// A uri's keyed hash to its record's counter. Two uris of one hash (a 64-bit keyed hash:
    /// about one registry in 10^12 that ever sees a million uris) cost only this: the older
    /// one, registered again, gets a new id.
    by_hash: HashMap<u64, u64, FixedState>,
    /// The records kept, oldest first: those of counters `next - records.len()` to `next - 1`,
    /// each with its uri's hash.
    records: VecDeque<(u64, ReferenceRecord)>,
}

// What a server testified of a reference is the `Reference` its stub shows: borrowed while a
// lane runs (from the block, or from `Stubs` until they are registered), owned once a record
// keeps it.
impl Reference<'_> {
    /// Whether a record of this testimony, shown again as `shown`, stays as it is.
    fn holds(&self, shown: &Reference<'_>) -> bool {
        self.name == shown.name
            && self.mime_type == shown.mime_type
            && self.size_bytes == shown.size_bytes
            && self.expires_at == shown.expires_at
            && self.digest == shown.digest
            && (shown.disposition.is_none()
                || self.disposition == Some(Disposition::Never)
                || self.disposition == shown.disposition)
    }
}

impl ReferenceRecord {
    fn testimony(&self) -> Reference<'_> {
        Reference {
            uri: &self.uri,
            name: self.name.as_deref(),
            mime_type: self.mime_type.as_deref(),
            expires_at: self.expires_at.as_deref(),
            digest: self.digest.as_deref(),
            source: self.source,
            disposition: self.disposition,
            size_bytes: self.size_bytes,
            rejected: Vec::new(),
        }
    }

    /// Takes what a reference registered again says: its name, media type and size as the
    /// stub shows them now, and the strictest disposition it was ever given (`never` is never
    /// lost). What a fetch verified is forgotten where the digest or size claimed changes:
    /// bytes verified against other claims are no facts about these.
    fn testify(&mut self, shown: &Reference<'_>) {
        let kept = self.testimony();
        if kept.holds(shown) {
            return;
        }
        if kept.digest != shown.digest || kept.size_bytes != shown.size_bytes {
            self.verified = None;
        }
        if self.disposition != Some(Disposition::Never) {
            self.disposition = shown.disposition.or(self.disposition);
        }
        self.take(shown);
    }

    /// Holds `shown`'s claims (all but its uri, source and disposition), in the rooms its
    /// strings had.
    fn take(&mut self, shown: &Reference<'_>) {
        let keep = |room: &mut Option<String>, value: Option<&str>| match (room.as_mut(), value) {
            (Some(room), Some(value)) => value.clone_into(room),
            (_, value) => *room = value.map(str::to_owned),
        };
        keep(&mut self.name, shown.name);
        keep(&mut self.mime_type, shown.mime_type);
        keep(&mut self.expires_at, shown.expires_at);
        keep(&mut self.digest, shown.digest);
        self.size_bytes = shown.size_bytes;
    }
}

const SNAPSHOT_FORMAT: u32 = 1;

/// A saved [`ReferenceRegistry`]: see [`ReferenceRegistry::snapshot`]. Its fields are the
/// registry's own; read them, but restore only what `snapshot` gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrySnapshot {
    /// The snapshot's format: 1.
    pub format: u32,
    /// The registry's key, 32 hex digits. Secret.
    pub key: String,
    /// The counter of the next id.
    pub next: u64,
    /// The records kept, oldest first.
    pub records: Vec<ReferenceRecord>,
}

impl Inner {
    /// Where in `records` the record of counter `n` is, where it is kept.
    fn index(&self, n: u64) -> Option<usize> {
        let first = self.next - self.records.len() as u64;
        let index = usize::try_from(n.checked_sub(first)?).ok()?;
        (index < self.records.len()).then_some(index)
    }

    /// Where in `records` the record of `uri`, whose hash is `hash`, is kept.
    fn find_index(&self, hash: u64, uri: &str) -> Option<usize> {
        let index = self.index(*self.by_hash.get(&hash)?)?;
        (self.records[index].1.uri == uri).then_some(index)
    }

    /// Evicts the oldest record kept, which it gives, and forgets that its hash leads to it.
    fn evict_oldest(&mut self) -> Option<ReferenceRecord> {
        let first = self.next - self.records.len() as u64;
        let (hash, old) = self.records.pop_front()?;
        if self.by_hash.get(&hash) == Some(&first) {
            self.by_hash.remove(&hash);
        }
        Some(old)
    }
}

impl Default for ReferenceRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl ReferenceRegistry {
    /// An empty registry with a random key.
    #[must_use]
    pub fn new() -> Self {
        let random = || RandomState::new().build_hasher().finish();
        Self::with_key((random(), random()))
    }

    /// An empty registry whose ids follow from `seed`: the same seed and the same registrations
    /// give the same ids. For tests and reproducible output; ids from a known seed are
    /// guessable, so hosts should use [`ReferenceRegistry::new`].
    #[must_use]
    pub fn with_seed(seed: u64) -> Self {
        Self::with_key((seed, seed.rotate_left(32) ^ 0x9e37_79b9_7f4a_7c15))
    }

    /// A handle on the same records and ids that marks what it registers as come from
    /// `connection` (a server's name, as the host calls it): give it to the lanes that read
    /// that server's messages, and a [`Fetcher`](crate::fetch::Fetcher) reads each record's
    /// link back through its own connection.
    ///
    /// ```
    /// use mcp_agent_view::{history, HistoryOptions, ReferenceRegistry};
    ///
    /// let registry = ReferenceRegistry::new();
    /// let files = registry.for_connection("files");
    /// let json = serde_json::json!([{"type": "resource_link", "uri": "file:///a.txt", "name": "a"}]);
    /// let text = history(&json, &files, &HistoryOptions::default())?;
    /// assert_eq!(registry.lookup(&text[1..18])?.connection.as_deref(), Some("files"));
    /// # Ok::<(), mcp_agent_view::Error>(())
    /// ```
    #[must_use]
    pub fn for_connection(&self, connection: &str) -> ReferenceRegistry {
        ReferenceRegistry {
            key: self.key,
            ids: self.ids,
            uris: self.uris.clone(),
            inner: Arc::clone(&self.inner),
            connection: Some(connection.into()),
            fetch_tool: self.fetch_tool.clone(),
        }
    }

    /// The same registry, its stubs ending ` — fetch with <tool>`: for a host that offers the
    /// model a tool of that name to fetch references ([`fetch::TOOL_NAME`](crate::fetch::TOOL_NAME)
    /// for the crate's own, [`fetch::fetch_reference`](crate::fetch::fetch_reference)). Without
    /// it (the default) stubs say nothing of fetching, so no model is sent after a tool that
    /// does not exist. Fails with [`ErrorKind::ToolName`] where `tool` is not 1 to 64 ASCII
    /// letters, digits, `_` or `-` (what the providers take as a tool's name).
    ///
    /// ```
    /// use mcp_agent_view::{fetch, history, HistoryOptions, ReferenceRegistry};
    ///
    /// let link = serde_json::json!([{"type": "resource_link", "uri": "https://h.example/a", "name": "a"}]);
    /// let plain = history(&link, &ReferenceRegistry::new(), &HistoryOptions::default())?;
    /// assert!(plain.ends_with("] a — from tool result"));
    /// let registry = ReferenceRegistry::new().with_fetch_tool(fetch::TOOL_NAME)?;
    /// let hinted = history(&link, &registry, &HistoryOptions::default())?;
    /// assert!(hinted.ends_with("] a — from tool result — fetch with fetch_reference"));
    /// # Ok::<(), mcp_agent_view::Error>(())
    /// ```
    pub fn with_fetch_tool(mut self, tool: &str) -> Result<Self, Error> {
        let valid = (1..=64).contains(&tool.len())
            && tool
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !valid {
            return Err(Error::new(
                ErrorKind::ToolName,
                "a tool name is 1 to 64 ASCII letters, digits, `_` or `-`",
            ));
        }
        self.fetch_tool = Some(tool.into());
        Ok(self)
    }

    /// The fetch tool the stubs name, where the host offers one
    /// ([`ReferenceRegistry::with_fetch_tool`]).
    #[must_use]
    pub fn fetch_tool(&self) -> Option<&str> {
        self.fetch_tool.as_deref()
    }

    fn with_key(key: (u64, u64)) -> Self {
        let derive = |what: u8| {
            let mut h = DefaultHasher::new();
            h.write_u64(key.0);
            h.write_u64(key.1);
            h.write_u8(what);
            h.finish()
        };
        ReferenceRegistry {
            key,
            ids: Ids::new([derive(0), derive(1), derive(2), derive(3)]),
            uris: FixedState::with_seed(derive(4)),
            inner: Arc::new(Mutex::new(Inner::default())),
            connection: None,
            fetch_tool: None,
        }
    }

    /// Registers `reference` and returns its id. The same uri gets the same id while its record
    /// is kept.
    #[allow(clippy::must_use_candidate)] // registering is the point; the id may be looked up later
    pub fn register(&self, reference: &Reference<'_>) -> String {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        self.register_locked(&mut inner, reference).to_owned()
    }

    /// Registers what `stubs` showed, in order, under one lock, and writes each id where its
    /// stub left room for it (`write(at, id)`): what registering them one by one gives.
    pub(crate) fn register_shown(&self, stubs: &Stubs<'_>, mut write: impl FnMut(u64, &str)) {
        if stubs.shown.is_empty() {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        for shown in &stubs.shown {
            write(shown.at, self.register_locked(&mut inner, &stubs.get(shown)));
        }
    }

    /// Registers `shown` under the lock, and gives its id: the record of its uri takes what it
    /// says, or a new record is made, in the room of the oldest where the registry is full
    /// (its strings' rooms used again: a message of a million new links allocates for few).
    fn register_locked<'i>(&self, inner: &'i mut Inner, shown: &Reference<'_>) -> &'i str {
        let hash = self.uris.hash_one(shown.uri);
        if let Some(index) = inner.find_index(hash, shown.uri) {
            let kept = &mut inner.records[index].1;
            kept.testify(shown);
            if self.connection.is_some() {
                // The latest testimony's connection: the server that sent what the record holds.
                kept.connection.clone_from(&self.connection);
            }
            return &kept.id;
        }
        let room = if inner.records.len() >= MAX_RECORDS {
            inner.evict_oldest()
        } else {
            None
        };
        let mut record = room.unwrap_or_else(|| ReferenceRecord {
            id: String::with_capacity(17),
            uri: String::new(),
            source: shown.source,
            name: None,
            mime_type: None,
            size_bytes: None,
            disposition: None,
            expires_at: None,
            digest: None,
            verified: None,
            connection: None,
        });
        let n = inner.next;
        inner.next += 1;
        record.id.clear();
        record.id.push_str(id_str(&self.ids.of(n)));
        shown.uri.clone_into(&mut record.uri);
        record.take(shown);
        record.source = shown.source;
        record.disposition = shown.disposition;
        record.verified = None;
        record.connection.clone_from(&self.connection);
        inner.by_hash.insert(hash, n);
        inner.records.push_back((hash, record));
        inner.records.back().map_or("", |(_, r)| &r.id)
    }

    /// Writes the id of the record of `shown` at the end of `out`, where this
    /// registry holds one that registering `shown` again, after `waiting` stubs, leaves as it
    /// is: each stub may make a record (evicting it), or show its uri with other claims (its
    /// hash is then in `changed`). A record held that `shown` may change joins `changed`.
    fn push_held_id(
        &self,
        shown: &Reference<'_>,
        waiting: usize,
        changed: &mut HashSet<u64, FixedState>,
        out: &mut String,
    ) -> Option<Held> {
        let hash = self.uris.hash_one(shown.uri);
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let index = inner.find_index(hash, shown.uri)?;
        let kept = &inner.records[index].1;
        let outlives = index >= (inner.records.len() + waiting).saturating_sub(MAX_RECORDS);
        let same_connection = self.connection.is_none() || kept.connection == self.connection;
        if !outlives || !same_connection || !kept.testimony().holds(shown) || changed.contains(&hash) {
            changed.insert(hash);
            return None;
        }
        out.push_str(&kept.id);
        Some(Held(kept.verified.as_ref().map(|v| ShownVerified {
            mime_type: v.mime_type.clone(),
            bytes: v.bytes,
        })))
    }

    /// The record behind `id`. Fails with [`ErrorKind::EvictedReference`] for an id this
    /// registry issued and no longer keeps, and [`ErrorKind::UnknownReference`] for any other.
    pub fn lookup(&self, id: &str) -> Result<ReferenceRecord, Error> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        self.find_id(&inner, id).cloned()
    }

    /// The record behind `id`, under the lock. Both misses read "unknown reference": what the
    /// model learns from a miss is the same whether the id was evicted or never issued.
    fn find_id<'i>(&self, inner: &'i Inner, id: &str) -> Result<&'i ReferenceRecord, Error> {
        self.index_of_id(inner, id).map(|index| &inner.records[index].1)
    }

    /// Where in `records` the record behind `id` is.
    fn index_of_id(&self, inner: &Inner, id: &str) -> Result<usize, Error> {
        let miss = |kind| Error::new(kind, format!("unknown reference id: {}", shown_id(id)));
        let n = self.ids.counter(id).ok_or_else(|| miss(ErrorKind::UnknownReference))?;
        match inner.index(n) {
            Some(index) => Ok(index),
            None if n < inner.next => Err(miss(ErrorKind::EvictedReference)),
            None => Err(miss(ErrorKind::UnknownReference)),
        }
    }

    /// Keeps what a fetch verified of the bytes behind `id` in its record, and gives the
    /// record as it is now. Fails as [`ReferenceRegistry::lookup`] fails.
    pub fn set_verified(&self, id: &str, verified: Verified) -> Result<ReferenceRecord, Error> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let index = self.index_of_id(&inner, id)?;
        let kept = &mut inner.records[index].1;
        kept.verified = Some(verified);
        Ok(kept.clone())
    }

    /// Every record kept, oldest first.
    #[must_use]
    pub fn records(&self) -> Vec<ReferenceRecord> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.records.iter().map(|(_, r)| r.clone()).collect()
    }

    /// The registry as it stands, to save (serde) and [`ReferenceRegistry::restore`] later or
    /// on another worker: its key, its counter and its records. The key is the registry's
    /// secret (every id follows from it): keep the snapshot where the conversation is kept,
    /// never where the model can read it.
    ///
    /// ```
    /// use mcp_agent_view::{history, reference::RegistrySnapshot, HistoryOptions, ReferenceRegistry};
    ///
    /// let registry = ReferenceRegistry::new();
    /// let json = serde_json::json!([{"type": "resource_link", "uri": "https://h.example/a", "name": "a"}]);
    /// let text = history(&json, &registry, &HistoryOptions::default())?;
    /// let saved = serde_json::to_string(&registry.snapshot())?;
    /// drop(registry);
    ///
    /// let restored = ReferenceRegistry::restore(&serde_json::from_str::<RegistrySnapshot>(&saved)?)?;
    /// assert_eq!(restored.lookup(&text[1..18])?.uri, "https://h.example/a");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn snapshot(&self) -> RegistrySnapshot {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        RegistrySnapshot {
            format: SNAPSHOT_FORMAT,
            key: format!("{:016x}{:016x}", self.key.0, self.key.1),
            next: inner.next,
            records: inner.records.iter().map(|(_, r)| r.clone()).collect(),
        }
    }

    /// A registry as [`ReferenceRegistry::snapshot`] saved it: the same ids resolve, and no id
    /// it issued is issued again. Fails with [`ErrorKind::Snapshot`] where the snapshot is of
    /// another format, its key is no key, or its records are not the ones its key and counter
    /// give (it was edited or is of another registry).
    pub fn restore(snapshot: &RegistrySnapshot) -> Result<Self, Error> {
        let bad = |why: &str| Error::new(ErrorKind::Snapshot, format!("registry snapshot: {why}"));
        if snapshot.format != SNAPSHOT_FORMAT {
            return Err(bad("unknown format"));
        }
        let hex = |s: Option<&str>| s.and_then(|s| u64::from_str_radix(s, 16).ok());
        let key = snapshot.key.len() == 32 && snapshot.key.bytes().all(|b| b.is_ascii_hexdigit());
        let (true, Some(k0), Some(k1)) = (key, hex(snapshot.key.get(..16)), hex(snapshot.key.get(16..))) else {
            return Err(bad("the key is not 32 hex digits"));
        };
        let registry = Self::with_key((k0, k1));
        let held = snapshot.records.len() as u64;
        if held > MAX_RECORDS as u64 || held > snapshot.next {
            return Err(bad("more records than its counter or the limit allow"));
        }
        let mut inner = Inner {
            next: snapshot.next,
            ..Inner::default()
        };
        for (n, record) in (snapshot.next - held..).zip(&snapshot.records) {
            let id = registry.ids.of(n);
            if id_str(&id) != record.id {
                return Err(bad("a record's id is not the one its key and place give"));
            }
            let hash = registry.uris.hash_one(record.uri.as_str());
            inner.by_hash.insert(hash, n);
            inner.records.push_back((hash, record.clone()));
        }
        *registry.inner.lock().unwrap_or_else(PoisonError::into_inner) = inner;
        Ok(registry)
    }

    /// How many records the registry keeps now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).records.len()
    }

    /// Whether the registry keeps no record.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An id as an error message may show it: cleaned and cut like any label.
fn shown_id(id: &str) -> String {
    crate::text::clean_label(id).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::ReferenceRegistry;

    /// Every record kept is found by its uri's hash, and the map holds no other hash, however
    /// many records one message makes and evicts.
    #[test]
    fn every_record_kept_is_found_by_its_hash_and_no_other_hash_is_kept() {
        use crate::{history, HistoryOptions};
        let registry = ReferenceRegistry::with_seed(2);
        let link = |i: usize| serde_json::json!({"type": "resource_link", "uri": format!("https://h.example/{i}"), "name": "n"});
        for (from, to) in [(0, 1500), (1000, 4600), (4000, 4100), (4100, 30_000), (29_000, 29_500)] {
            let links: Vec<_> = (from..to).map(link).collect();
            history(
                &serde_json::json!({ "content": links }),
                &registry,
                &HistoryOptions::default(),
            )
            .unwrap();
            let inner = registry.inner.lock().unwrap();
            assert_eq!(inner.by_hash.len(), inner.records.len(), "after {from}..{to}");
            let first = inner.next - inner.records.len() as u64;
            for (n, kept) in (first..).zip(&inner.records) {
                assert_eq!(inner.by_hash.get(&kept.0), Some(&n));
            }
            for (hash, &n) in &inner.by_hash {
                assert!(n < first || inner.records[usize::try_from(n - first).unwrap()].0 == *hash);
            }
        }
    }
}
