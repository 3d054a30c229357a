//! The reference registry: the one place that keeps a reference's uri, behind an opaque id the
//! agent can hand to the host's fetcher.

use std::collections::hash_map::{DefaultHasher, RandomState};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use crate::classify::{Disposition, Reference, ReferenceSource};
use crate::error::{Error, ErrorKind};

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
    /// The keys of the id permutation's four rounds, from `key`.
    rounds: [u64; 4],
    /// Hashes uris, keyed from `key`.
    uris: foldhash::fast::FixedState,
    /// The records, shared with every handle [`ReferenceRegistry::for_connection`] gives.
    inner: Arc<Mutex<Inner>>,
    /// The connection the references this handle registers came from.
    connection: Option<Arc<str>>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The counter of the next record.
    next: u64,
    /// A uri's keyed hash to its record's counter. Two uris of one hash (a 64-bit keyed hash:
    /// about one registry in 10^12 that ever sees a million uris) cost only this: the older
    /// one, registered again, gets a new id.
    by_hash: HashMap<u64, u64, BuildHasherDefault<Hashed>>,
    /// The records kept, oldest first: those of counters `next - records.len()` to `next - 1`.
    records: VecDeque<Kept>,
}

/// A record as the registry keeps it: its id written out, its strings boxed.
#[derive(Debug)]
struct Kept {
    id: [u8; 17],
    hash: u64,
    uri: Box<str>,
    name: Option<Box<str>>,
    mime_type: Option<Box<str>>,
    expires_at: Option<Box<str>>,
    digest: Option<Box<str>>,
    source: ReferenceSource,
    size_bytes: Option<u64>,
    disposition: Option<Disposition>,
    verified: Option<Box<Verified>>,
    connection: Option<Arc<str>>,
}

impl Kept {
    /// Takes what a reference registered again says: its name, media type and size as the
    /// stub shows them now, and the strictest disposition it was ever given (`never` is never
    /// lost).
    fn testify(&mut self, shown: &ShownRef<'_>) {
        if !self.holds(shown) {
            if self.digest.as_deref() != shown.digest || self.size_bytes != shown.size_bytes {
                // Bytes verified against other claims are no facts about these.
                self.verified = None;
            }
            self.name = shown.name.map(Into::into);
            self.mime_type = shown.mime_type.map(Into::into);
            self.expires_at = shown.expires_at.map(Into::into);
            self.digest = shown.digest.map(Into::into);
            self.size_bytes = shown.size_bytes;
            if self.disposition != Some(Disposition::Never) {
                self.disposition = shown.disposition.or(self.disposition);
            }
        }
    }

    /// Whether registering `shown` again leaves this record as it is.
    fn holds(&self, shown: &ShownRef<'_>) -> bool {
        self.name.as_deref() == shown.name
            && self.mime_type.as_deref() == shown.mime_type
            && self.size_bytes == shown.size_bytes
            && self.expires_at.as_deref() == shown.expires_at
            && self.digest.as_deref() == shown.digest
            && (shown.disposition.is_none()
                || self.disposition == Some(Disposition::Never)
                || self.disposition == shown.disposition)
    }

    fn id(&self) -> &str {
        id_str(&self.id)
    }

    fn record(&self) -> ReferenceRecord {
        ReferenceRecord {
            id: self.id().to_owned(),
            uri: self.uri.to_string(),
            source: self.source,
            name: self.name.as_deref().map(str::to_owned),
            mime_type: self.mime_type.as_deref().map(str::to_owned),
            size_bytes: self.size_bytes,
            disposition: self.disposition,
            expires_at: self.expires_at.as_deref().map(str::to_owned),
            digest: self.digest.as_deref().map(str::to_owned),
            verified: self.verified.as_deref().cloned(),
            connection: self.connection.as_deref().map(str::to_owned),
        }
    }

    /// The record a stub shows, made anew.
    fn shown(shown: &ShownRef<'_>, id: [u8; 17], hash: u64, connection: Option<Arc<str>>) -> Kept {
        Kept {
            id,
            hash,
            uri: shown.uri.into(),
            name: shown.name.map(Into::into),
            mime_type: shown.mime_type.map(Into::into),
            expires_at: shown.expires_at.map(Into::into),
            digest: shown.digest.map(Into::into),
            source: shown.source,
            size_bytes: shown.size_bytes,
            disposition: shown.disposition,
            verified: None,
            connection,
        }
    }

    fn of(record: &ReferenceRecord, id: [u8; 17], hash: u64) -> Kept {
        let boxed = |s: &Option<String>| s.as_deref().map(Into::into);
        Kept {
            id,
            hash,
            uri: record.uri.as_str().into(),
            name: boxed(&record.name),
            mime_type: boxed(&record.mime_type),
            expires_at: boxed(&record.expires_at),
            digest: boxed(&record.digest),
            source: record.source,
            size_bytes: record.size_bytes,
            disposition: record.disposition,
            verified: record.verified.clone().map(Box::new),
            connection: record.connection.as_deref().map(Into::into),
        }
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

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Hashed(u64);

impl Hasher for Hashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
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
        (&*self.records[index].uri == uri).then_some(index)
    }

    /// Forgets that `hash` leads to the record of counter `n`, where it still does.
    fn unlink(&mut self, hash: u64, n: u64) {
        if self.by_hash.get(&hash) == Some(&n) {
            self.by_hash.remove(&hash);
        }
    }

    /// Evicts the oldest record kept.
    fn evict_oldest(&mut self) {
        let first = self.next - self.records.len() as u64;
        if let Some(old) = self.records.pop_front() {
            self.unlink(old.hash, first);
        }
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
            rounds: self.rounds,
            uris: self.uris.clone(),
            inner: Arc::clone(&self.inner),
            connection: Some(connection.into()),
        }
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
            rounds: [derive(0), derive(1), derive(2), derive(3)],
            uris: foldhash::fast::FixedState::with_seed(derive(4)),
            inner: Arc::new(Mutex::new(Inner::default())),
            connection: None,
        }
    }

    /// Registers `reference` and returns its id. The same uri gets the same id while its record
    /// is kept.
    #[allow(clippy::must_use_candidate)] // registering is the point; the id may be looked up later
    pub fn register(&self, reference: &Reference<'_>) -> String {
        let mut id = String::with_capacity(17);
        self.push_id(reference, &mut id);
        id
    }

    /// Registers `reference` and appends its id to `out`.
    pub(crate) fn push_id(&self, reference: &Reference<'_>, out: &mut String) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        out.push_str(id_str(&self.register_locked(&mut inner, &ShownRef::of(reference))));
    }

    /// Appends the id of `reference` to `out` where this registry holds a record of it that
    /// registering it again, after the stubs `waiting` before it, would not change, with what
    /// a fetch verified of it.
    ///
    /// The stubs waiting may change the record first: they may make records enough to evict
    /// it (each makes one at most), or one of them may show the same uri with other claims
    /// (its hash is in `waiting.held`). Then this one waits too, and its hash joins
    /// `waiting.held`.
    fn push_known_id(&self, reference: &Reference<'_>, waiting: &mut Waiting, out: &mut String) -> Option<Known> {
        let hash = self.uris.hash_one(reference.uri);
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let index = inner.find_index(hash, reference.uri)?;
        let kept = &inner.records[index];
        let outlives = index >= (inner.records.len() + waiting.count).saturating_sub(MAX_RECORDS);
        if !outlives || !kept.holds(&ShownRef::of(reference)) || waiting.held.contains(&hash) {
            waiting.held.insert(hash);
            return None;
        }
        out.push_str(kept.id());
        Some(Known(kept.verified.as_deref().map(|v| ShownVerified {
            mime_type: v.mime_type.clone(),
            bytes: v.bytes,
        })))
    }

    /// Registers what `stubs` showed and has not registered, in order, under one lock, and
    /// writes each id where its stub left room for it (`write(at, id)`).
    ///
    /// The ids and records are those registering the stubs one by one gives, but a new record
    /// is made only where it outlives the message: of a million new links, the registry keeps
    /// the last [`MAX_RECORDS`], and the rest are evicted as soon as they would be made. The
    /// first pass gives every stub its id, each new record kept as its stub's place until the
    /// end; the second makes the records kept, and takes what later stubs said of them.
    pub(crate) fn register_shown(&self, stubs: &Stubs<'_>, mut write: impl FnMut(usize, &str)) {
        if stubs.shown.is_empty() {
            return;
        }
        let mut guard = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let inner = &mut *guard;
        // The records before `first_new` are the registry's; those from it on, this message's,
        // kept as (their stub, its uri's hash) in `made`, the oldest `evicted` of them gone.
        let first_new = inner.next;
        let mut next = first_new;
        let mut made: VecDeque<(usize, u64)> = VecDeque::new();
        let mut evicted = 0u64;
        for (at, shown) in stubs.shown.iter().enumerate() {
            let reference = stubs.get(shown);
            let hash = self.uris.hash_one(reference.uri);
            let found = inner.by_hash.get(&hash).copied();
            let id = match found {
                Some(n) if n >= first_new => n
                    .checked_sub(first_new + evicted)
                    .and_then(|k| made.get(usize::try_from(k).ok()?))
                    .filter(|(stub, _)| stubs.get(&stubs.shown[*stub]).uri == reference.uri)
                    .map(|_| self.id_of(n)),
                Some(n) => inner
                    .index(n)
                    .filter(|&index| &*inner.records[index].uri == reference.uri)
                    .map(|index| self.testified(&mut inner.records[index], &reference)),
                None => None,
            };
            let id = id.unwrap_or_else(|| {
                let n = next;
                next += 1;
                inner.by_hash.insert(hash, n);
                made.push_back((at, hash));
                while inner.records.len() + made.len() > MAX_RECORDS {
                    if inner.records.is_empty() {
                        let (_, hash) = made.pop_front().unwrap_or_default();
                        inner.unlink(hash, first_new + evicted);
                        evicted += 1;
                    } else {
                        // The registry's counter is not moved on until the end: its records
                        // are where it says.
                        inner.evict_oldest();
                    }
                }
                self.id_of(n)
            });
            write(shown.at, id_str(&id));
        }
        inner.next = next;
        // The records kept of this message's: each made from its stub, then told what every
        // later stub of its uri said, in order.
        let kept_from = first_new + evicted;
        let old = inner.records.len();
        for (n, &(made_at, hash)) in (kept_from..).zip(&made) {
            let reference = stubs.get(&stubs.shown[made_at]);
            let kept = Kept::shown(&reference, self.id_of(n), hash, self.connection.clone());
            inner.records.push_back(kept);
        }
        let Some(&(first, _)) = made.front() else {
            return;
        };
        for (at, shown) in stubs.shown.iter().enumerate().skip(first + 1) {
            let reference = stubs.get(shown);
            let hash = self.uris.hash_one(reference.uri);
            let Some(k) = inner
                .by_hash
                .get(&hash)
                .and_then(|&n| usize::try_from(n.checked_sub(kept_from)?).ok())
            else {
                continue;
            };
            if made.get(k).is_some_and(|&(made_at, _)| made_at < at) {
                if let Some(kept) = inner
                    .records
                    .get_mut(old + k)
                    .filter(|kept| &*kept.uri == reference.uri)
                {
                    self.testified(kept, &reference);
                }
            }
        }
    }

    /// Takes what `shown`, registered again, says of the record `kept`, and gives its id.
    fn testified(&self, kept: &mut Kept, shown: &ShownRef<'_>) -> [u8; 17] {
        kept.testify(shown);
        if self.connection.is_some() && kept.connection != self.connection {
            // The latest testimony's connection: the server that sent what the record holds.
            kept.connection.clone_from(&self.connection);
        }
        kept.id
    }

    fn register_locked(&self, inner: &mut Inner, shown: &ShownRef<'_>) -> [u8; 17] {
        let hash = self.uris.hash_one(shown.uri);
        if let Some(index) = inner.find_index(hash, shown.uri) {
            return self.testified(&mut inner.records[index], shown);
        }
        let n = inner.next;
        inner.next += 1;
        let id = self.id_of(n);
        inner.by_hash.insert(hash, n);
        inner
            .records
            .push_back(Kept::shown(shown, id, hash, self.connection.clone()));
        while inner.records.len() > MAX_RECORDS {
            inner.evict_oldest();
        }
        id
    }

    /// The record behind `id`. Fails with [`ErrorKind::EvictedReference`] for an id this
    /// registry issued and no longer keeps, and [`ErrorKind::UnknownReference`] for any other.
    pub fn lookup(&self, id: &str) -> Result<ReferenceRecord, Error> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        self.find_id(&inner, id).map(Kept::record)
    }

    /// The record behind `id`, under the lock. Both misses read "unknown reference": what the
    /// model learns from a miss is the same whether the id was evicted or never issued.
    fn find_id<'i>(&self, inner: &'i Inner, id: &str) -> Result<&'i Kept, Error> {
        self.index_of_id(inner, id).map(|index| &inner.records[index])
    }

    /// Where in `records` the record behind `id` is.
    fn index_of_id(&self, inner: &Inner, id: &str) -> Result<usize, Error> {
        let miss = |kind| Error::new(kind, format!("unknown reference id: {}", shown_id(id)));
        let n = parse_id(id)
            .map(|p| self.permute_back(p))
            .ok_or_else(|| miss(ErrorKind::UnknownReference))?;
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
        let kept = &mut inner.records[index];
        kept.verified = Some(Box::new(verified));
        Ok(kept.record())
    }

    /// Every record kept, oldest first.
    #[must_use]
    pub fn records(&self) -> Vec<ReferenceRecord> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.records.iter().map(Kept::record).collect()
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
            records: inner.records.iter().map(Kept::record).collect(),
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
            let id = registry.id_of(n);
            if id_str(&id) != record.id {
                return Err(bad("a record's id is not the one its key and place give"));
            }
            let hash = registry.uris.hash_one(record.uri.as_str());
            inner.by_hash.insert(hash, n);
            inner.records.push_back(Kept::of(record, id, hash));
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

    /// The id of counter `n`: `ref_` and its permuted counter in 13 base-36 digits, the most
    /// significant first (what [`parse_id`] reads back).
    fn id_of(&self, n: u64) -> [u8; 17] {
        let mut id = *b"ref_0000000000000";
        let mut x = self.permute(n);
        for d in id[4..].iter_mut().rev() {
            let r = u8::try_from(x % 36).unwrap_or(0);
            *d = if r < 10 { b'0' + r } else { b'a' + r - 10 };
            x /= 36;
        }
        id
    }

    /// A four-round Feistel network over the 64-bit counter: a bijection, so ids never repeat,
    /// and keyed, so they cannot be told from one another without the key.
    fn permute(&self, n: u64) -> u64 {
        let (mut left, mut right) = halves(n);
        for round in 0..4 {
            (left, right) = (right, left ^ self.round(round, right));
        }
        join(left, right)
    }

    fn permute_back(&self, p: u64) -> u64 {
        let (mut left, mut right) = halves(p);
        for round in (0..4).rev() {
            (left, right) = (right ^ self.round(round, left), left);
        }
        join(left, right)
    }

    /// A round: the half mixed with the round's key by splitmix64's finalizer (every bit of
    /// the input moves about half the bits of the output). The keys come from the registry's
    /// key through `SipHash`, once.
    fn round(&self, round: u8, half: u32) -> u32 {
        let mut z = u64::from(half) ^ self.rounds[usize::from(round)];
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        halves(z ^ (z >> 31)).1
    }
}

/// What a stub leaves where its id goes until the reference is registered: as long as an id,
/// and never one.
pub(crate) const ID_PLACEHOLDER: &str = "ref_?????????????";

/// The stubs a lane has written and not yet registered. Reading has no side effects: a lane
/// that may take back what it wrote (a container that turns out to be one block, a key given
/// twice, a budget) registers only the stubs it kept, when it is done, with
/// [`ReferenceRegistry::register_shown`]. The strings of every stub share a few buffers.
///
/// A reference the registry holds already is written with its id at once: registering it
/// again changes nothing. Only a new one waits.
#[derive(Debug)]
pub(crate) struct Stubs<'r> {
    registry: &'r ReferenceRegistry,
    shown: Vec<Shown>,
    /// The stubs registered before these, where these follow others ([`Stubs::following`]),
    /// with these: what a record held must outlast to be written at once.
    waiting: Waiting,
    /// The stubs' strings, in chunks of [`CHUNK`] bytes: a string at offset `o` is in chunk
    /// `o / CHUNK`. The first chunk grows as a string grows; every later one is made whole, so
    /// that a million stubs leave at most one chunk unused, not half of one buffer.
    text: Vec<String>,
}

/// The bytes of a chunk of stubs' strings: more than any stub's strings (five of at most
/// 65,534 bytes each).
const CHUNK: usize = 1 << 19;

/// One stub written: where its id goes in the lane's output, and the record it stands for,
/// its strings (and its size) in [`Stubs::text`].
///
/// Twenty-four bytes: a message of a million links holds a million of them until it is done.
#[derive(Debug)]
struct Shown {
    at: usize,
    /// Where its strings start in [`Stubs::text`]: the uri, then each string present, then
    /// the claimed size, where [`SIZED`] says there is one, in [`SIZE_DIGITS`] hex digits.
    start: u32,
    /// The lengths of the uri, name, media type, expiry and digest, in that order, one after
    /// the other from `start`; [`ABSENT`] for a string not given. Each is bounded by what
    /// classify admits (a uri of 4096 characters is at most 16 KiB). The uri's, always
    /// given, holds [`SIZED`] too.
    lens: [u16; 5],
    source: ReferenceSource,
    disposition: Option<Disposition>,
}

const _: () = assert!(std::mem::size_of::<Shown>() <= 24);

/// The length of a stub's string that is not given.
const ABSENT: u16 = u16::MAX;

/// In the uri's length: the stub claims a size, kept after its strings.
const SIZED: u16 = 1 << 15;

/// How a claimed size is kept after a stub's strings: as many hex digits as a `u64` has.
const SIZE_DIGITS: usize = 16;

/// A record held whose id a stub could write at once, and what a fetch verified of it.
struct Known(Option<ShownVerified>);

/// The stubs that wait to be registered before the next: how many (the records they may
/// make), and the hashes of the uris among them that the registry held when they were shown
/// (they may change those records). Stubs taken back stay counted: waiting without need only
/// means writing a placeholder, never another id.
#[derive(Debug, Clone, Default)]
struct Waiting {
    count: usize,
    held: HashSet<u64, BuildHasherDefault<Hashed>>,
}

/// What a stub states of a record whose bytes a fetch verified.
pub(crate) struct ShownVerified {
    pub(crate) mime_type: String,
    pub(crate) bytes: u64,
}

/// A stub's record, its strings borrowed.
struct ShownRef<'s> {
    uri: &'s str,
    name: Option<&'s str>,
    mime_type: Option<&'s str>,
    expires_at: Option<&'s str>,
    digest: Option<&'s str>,
    source: ReferenceSource,
    disposition: Option<Disposition>,
    size_bytes: Option<u64>,
}

impl<'s> ShownRef<'s> {
    fn of(reference: &'s Reference<'_>) -> Self {
        ShownRef {
            uri: reference.uri,
            name: reference.name,
            mime_type: reference.mime_type,
            expires_at: reference.expires_at,
            digest: reference.digest,
            source: reference.source,
            disposition: reference.disposition,
            size_bytes: reference.size_bytes,
        }
    }
}

impl<'r> Stubs<'r> {
    /// No stubs yet, for `registry`.
    pub(crate) fn new(registry: &'r ReferenceRegistry) -> Self {
        Stubs {
            registry,
            shown: Vec::new(),
            waiting: Waiting::default(),
            text: Vec::new(),
        }
    }

    /// The registry these stubs are registered with.
    pub(crate) fn registry(&self) -> &'r ReferenceRegistry {
        self.registry
    }

    /// No stubs yet, for stubs to be registered after these (appended to them).
    pub(crate) fn following(&self) -> Self {
        Stubs {
            waiting: self.waiting.clone(),
            ..Stubs::new(self.registry)
        }
    }

    /// Writes `reference`'s id at the end of `out` where the registry holds it; else a
    /// placeholder, for the id it gets when the stubs are registered.
    /// What a fetch verified of it comes back, where the registry holds that: the stub states
    /// it instead of the claims.
    pub(crate) fn push_id(&mut self, reference: &Reference<'_>, out: &mut String) -> Option<ShownVerified> {
        if let Some(Known(verified)) = self.registry.push_known_id(reference, &mut self.waiting, out) {
            return verified;
        }
        self.waiting.count += 1;
        let strings = [
            Some(reference.uri),
            reference.name,
            reference.mime_type,
            reference.expires_at,
            reference.digest,
        ];
        let (start, lens) = self.keep_strings(strings, reference.size_bytes);
        let shown = Shown {
            at: out.len(),
            start,
            lens,
            source: reference.source,
            disposition: reference.disposition,
        };
        self.shown.push(shown);
        out.push_str(ID_PLACEHOLDER);
        None
    }

    /// Keeps a stub's strings, one after the other in one chunk; gives where they start and
    /// their lengths.
    fn keep_strings(&mut self, strings: [Option<&str>; 5], size: Option<u64>) -> (u32, [u16; 5]) {
        let mut lens = [ABSENT; 5];
        let mut total = 0;
        for (i, (len, string)) in lens.iter_mut().zip(strings).enumerate() {
            if let Some(string) = string {
                // The uri's length leaves room for the flag.
                let n = kept_len(string, if i == 0 { SIZED - 1 } else { ABSENT - 1 });
                *len = u16::try_from(n).unwrap_or(0);
                total += n;
            }
        }
        let size = size.map(|size| {
            lens[0] |= SIZED;
            total += SIZE_DIGITS;
            format!("{size:016x}")
        });
        if self.text.last().is_none_or(|chunk| chunk.len() + total > CHUNK) {
            let capacity = if self.text.is_empty() { 0 } else { CHUNK };
            self.text.push(String::with_capacity(capacity));
        }
        let chunk_index = self.text.len() - 1;
        let chunk = &mut self.text[chunk_index];
        let start = u32::try_from(chunk_index * CHUNK + chunk.len()).unwrap_or(u32::MAX);
        chunk.reserve(total);
        for (len, string) in lens.iter().zip(strings) {
            if let Some(string) = string {
                chunk.push_str(string.get(..usize::from(*len & !SIZED)).unwrap_or_default());
            }
        }
        chunk.push_str(size.as_deref().unwrap_or_default());
        (start, lens)
    }

    /// How many stubs were written.
    pub(crate) fn len(&self) -> usize {
        self.shown.len()
    }

    /// Moves the stubs from the `from`th on to `to(at)`: the text they were written in was
    /// copied there.
    pub(crate) fn moved_from(&mut self, from: usize, to: impl Fn(usize) -> usize) {
        for shown in self.shown.iter_mut().skip(from) {
            shown.at = to(shown.at);
        }
    }

    /// Forgets the stubs written at or past `len` of the output: it was cut back there.
    pub(crate) fn forget_from(&mut self, len: usize) {
        let kept = self.shown.iter().rposition(|s| s.at < len).map_or(0, |last| last + 1);
        self.truncate(kept);
    }

    /// Forgets every stub but the first `count`.
    pub(crate) fn truncate(&mut self, count: usize) {
        if let Some(first) = self.shown.get(count) {
            let start = first.start as usize;
            self.text.truncate(start / CHUNK + 1);
            if let Some(chunk) = self.text.last_mut() {
                chunk.truncate(start % CHUNK);
            }
            self.shown.truncate(count);
        }
    }

    /// Takes the stubs of `other`, whose output was copied into this one's: each stub's place
    /// in it moved by `moved`.
    pub(crate) fn append(&mut self, other: &Stubs<'_>, moved: impl Fn(usize) -> usize) {
        self.waiting.count += other.shown.len();
        self.waiting.held.extend(&other.waiting.held);
        for s in &other.shown {
            let r = other.get(s);
            let (start, lens) =
                self.keep_strings([Some(r.uri), r.name, r.mime_type, r.expires_at, r.digest], r.size_bytes);
            self.shown.push(Shown {
                at: moved(s.at),
                start,
                lens,
                ..*s
            });
        }
    }

    fn get(&self, shown: &Shown) -> ShownRef<'_> {
        let start = shown.start as usize;
        let chunk = self.text.get(start / CHUNK).map_or("", String::as_str);
        let mut at = start % CHUNK;
        let mut lens = shown.lens;
        let sized = lens[0] & SIZED != 0;
        lens[0] &= !SIZED;
        let [uri, name, mime_type, expires_at, digest] = lens.map(|len| {
            (len != ABSENT).then(|| {
                let from = at;
                at += usize::from(len);
                chunk.get(from..at).unwrap_or("")
            })
        });
        let size_bytes = sized
            .then(|| chunk.get(at..at + SIZE_DIGITS))
            .flatten()
            .and_then(|digits| u64::from_str_radix(digits, 16).ok());
        ShownRef {
            uri: uri.unwrap_or(""),
            name,
            mime_type,
            expires_at,
            digest,
            source: shown.source,
            disposition: shown.disposition,
            size_bytes,
        }
    }
}

/// How much of a stub's string is kept: all of it, as classify bounds every string far below
/// what a `u16` counts; past that, cut at a character's edge.
fn kept_len(s: &str, most: u16) -> usize {
    let mut end = s.len();
    if end > usize::from(most) {
        end = usize::from(most);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
    }
    end
}

/// An id as the registry writes it: ASCII, so always a `str`.
fn id_str(id: &[u8; 17]) -> &str {
    std::str::from_utf8(id).unwrap_or_default()
}

fn halves(x: u64) -> (u32, u32) {
    let low = u32::try_from(x & u64::from(u32::MAX)).unwrap_or(0);
    let high = u32::try_from(x >> 32).unwrap_or(0);
    (high, low)
}

fn join(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

fn parse_id(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("ref_")?;
    if digits.len() != 13 {
        return None;
    }
    digits.bytes().try_fold(0u64, |acc, b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'z' => b - b'a' + 10,
            _ => return None,
        };
        acc.checked_mul(36)?.checked_add(u64::from(d))
    })
}

/// An id as an error message may show it: cleaned and cut like any label.
fn shown_id(id: &str) -> String {
    crate::text::clean_label(id).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{parse_id, ReferenceRegistry};

    #[test]
    fn ids_read_back_as_their_permuted_counters() {
        let registry = ReferenceRegistry::with_seed(9);
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let random = std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        });
        for n in (0..2000)
            .chain([u64::MAX, u64::MAX - 1, 1 << 63])
            .chain(random.take(5000))
        {
            let id = registry.id_of(n);
            let id = std::str::from_utf8(&id).unwrap();
            assert!(
                id.starts_with("ref_") && id[4..].bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()),
                "{id}"
            );
            assert_eq!(parse_id(id), Some(registry.permute(n)), "{id}");
            assert_eq!(registry.permute_back(registry.permute(n)), n);
        }
    }

    /// The hashes the registry keeps point at its records and at nothing else, however many
    /// it evicts within one message (a stale one would grow without bound).
    #[test]
    fn every_hash_kept_is_a_record_kept() {
        use crate::{history, HistoryOptions};
        let registry = ReferenceRegistry::with_seed(2);
        let link = |i: usize| serde_json::json!({"type": "resource_link", "uri": format!("https://h.example/{i}"), "name": "n"});
        for (from, to) in [(0, 1500), (1000, 4600), (4000, 4100)] {
            let links: Vec<_> = (from..to).map(link).collect();
            history(
                &serde_json::json!({ "content": links }),
                &registry,
                &HistoryOptions::default(),
            )
            .unwrap();
            let inner = registry.inner.lock().unwrap();
            assert_eq!(inner.by_hash.len(), inner.records.len(), "after {from}..{to}");
            for (n, kept) in (inner.next - inner.records.len() as u64..).zip(&inner.records) {
                assert_eq!(inner.by_hash.get(&kept.hash), Some(&n));
            }
        }
    }
}
