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
    /// The tool the host offers the model for fetching, which stubs name; none by default.
    fetch_tool: Option<Arc<str>>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The counter of the next record.
    next: u64,
    /// Moves on whenever the records change: a guess made against them holds while it has
    /// not moved.
    generation: u64,
    /// A uri's keyed hash to its record's counter. Two uris of one hash (a 64-bit keyed hash:
    /// about one registry in 10^12 that ever sees a million uris) cost only this: the older
    /// one, registered again, gets a new id.
    by_hash: HashMap<u64, u64, BuildHasherDefault<Hashed>>,
    /// The records kept, oldest first: those of counters `next - records.len()` to `next - 1`.
    records: VecDeque<Kept>,
    /// The rooms of the last guess applied, for the next guess to use again: most messages
    /// make a record or two, and a guess made anew for each allocated its map, its ring and
    /// its records' strings, then freed them and the records they evicted.
    spare: Option<Box<Guess>>,
}

/// A record as the registry keeps it: its id written out, what the server testified.
#[derive(Debug)]
struct Kept {
    id: [u8; 17],
    testimony: Made,
    verified: Option<Box<Verified>>,
    connection: Option<Arc<str>>,
}

impl Kept {
    /// Takes what a reference registered again says (see [`Made::testify`]); what a fetch
    /// verified is forgotten where the digest or size claimed changes.
    fn testify(&mut self, shown: &ShownRef<'_>) {
        let claims = &self.testimony;
        // (Another digest or size is a record that does not hold: no second look needed.)
        if claims.digest.as_deref() != shown.digest || claims.size_bytes != shown.size_bytes {
            // Bytes verified against other claims are no facts about these.
            self.verified = None;
        }
        self.testimony.testify(shown);
    }

    /// Whether registering `shown` again leaves this record as it is.
    fn holds(&self, shown: &ShownRef<'_>) -> bool {
        holds(&self.testimony.as_shown(), shown)
    }

    fn id(&self) -> &str {
        id_str(&self.id)
    }

    fn uri(&self) -> &str {
        &self.testimony.uri
    }

    fn hash(&self) -> u64 {
        self.testimony.hash
    }

    fn record(&self) -> ReferenceRecord {
        let claims = &self.testimony;
        ReferenceRecord {
            id: self.id().to_owned(),
            uri: claims.uri.clone(),
            source: claims.source,
            name: claims.name.clone(),
            mime_type: claims.mime_type.clone(),
            size_bytes: claims.size_bytes,
            disposition: claims.disposition,
            expires_at: claims.expires_at.clone(),
            digest: claims.digest.clone(),
            verified: self.verified.as_deref().cloned(),
            connection: self.connection.as_deref().map(str::to_owned),
        }
    }

    /// The record a stub shows, made anew.
    fn shown(testimony: Made, id: [u8; 17], connection: Option<Arc<str>>) -> Kept {
        Kept {
            id,
            testimony,
            verified: None,
            connection,
        }
    }

    fn of(record: &ReferenceRecord, id: [u8; 17], hash: u64) -> Kept {
        let testimony = ShownRef {
            uri: &record.uri,
            name: record.name.as_deref(),
            mime_type: record.mime_type.as_deref(),
            expires_at: record.expires_at.as_deref(),
            digest: record.digest.as_deref(),
            source: record.source,
            disposition: record.disposition,
            size_bytes: record.size_bytes,
        };
        Kept {
            id,
            testimony: Made::of(&testimony, hash),
            verified: record.verified.clone().map(Box::new),
            connection: record.connection.as_deref().map(Into::into),
        }
    }
}

/// Whether a record of testimony `kept`, shown again as `shown`, stays as it is.
fn holds(kept: &ShownRef<'_>, shown: &ShownRef<'_>) -> bool {
    kept.name == shown.name
        && kept.mime_type == shown.mime_type
        && kept.size_bytes == shown.size_bytes
        && kept.expires_at == shown.expires_at
        && kept.digest == shown.digest
        && (shown.disposition.is_none()
            || kept.disposition == Some(Disposition::Never)
            || kept.disposition == shown.disposition)
}

/// A record's disposition once shown again with `shown`: the strictest it was ever given
/// (`never` is never lost), else the latest.
fn testified_disposition(kept: Option<Disposition>, shown: Option<Disposition>) -> Option<Disposition> {
    if kept == Some(Disposition::Never) {
        kept
    } else {
        shown.or(kept)
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
        (self.records[index].uri() == uri).then_some(index)
    }

    /// Forgets that `hash` leads to the record of counter `n`, where it still does.
    fn unlink(&mut self, hash: u64, n: u64) {
        if self.by_hash.get(&hash) == Some(&n) {
            self.by_hash.remove(&hash);
        }
    }

    /// Evicts the oldest record kept, which it gives.
    fn evict_oldest(&mut self) -> Option<Kept> {
        let first = self.next - self.records.len() as u64;
        let old = self.records.pop_front()?;
        self.unlink(old.hash(), first);
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
            rounds: self.rounds,
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
            rounds: [derive(0), derive(1), derive(2), derive(3)],
            uris: foldhash::fast::FixedState::with_seed(derive(4)),
            inner: Arc::new(Mutex::new(Inner::default())),
            connection: None,
            fetch_tool: None,
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
        Self::known(&inner, hash, index, reference, waiting, out)
    }

    /// [`ReferenceRegistry::push_known_id`], under the lock, `reference.uri` of hash `hash`
    /// held at `index`.
    fn known(
        inner: &Inner,
        hash: u64,
        index: usize,
        reference: &Reference<'_>,
        waiting: &mut Waiting,
        out: &mut String,
    ) -> Option<Known> {
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

    /// Writes `reference`'s id at the end of `out` as [`ReferenceRegistry::push_known_id`]
    /// does, else the id registering it after the stubs `guess` guessed before it would give,
    /// where the records have not changed since the first of them (else a placeholder; the
    /// guess is broken). Gives what `push_known_id` gives, `None` where it guessed.
    fn push_guessed_id(
        &self,
        reference: &Reference<'_>,
        waiting: &mut Waiting,
        guess: &mut Option<Box<Guess>>,
        out: &mut String,
    ) -> Option<Known> {
        let hash = self.uris.hash_one(reference.uri);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let held = inner.find_index(hash, reference.uri);
        if let Some(known) = held.and_then(|index| Self::known(&inner, hash, index, reference, waiting, out)) {
            return Some(known);
        }
        waiting.count += 1;
        let guess = guess.get_or_insert_with(|| Guess::at(&mut inner));
        if guess.broken || inner.generation != guess.start.generation {
            guess.broken = true;
            out.push_str(ID_PLACEHOLDER);
            return None;
        }
        let id = guess.register(self, &inner, hash, held, &ShownRef::of(reference));
        out.push_str(id_str(&id));
        None
    }

    /// Registers what `stubs` showed and has not registered, in order, under one lock, and
    /// writes each id where its stub left room for it (`write(at, id)`).
    ///
    /// The ids and records are those registering the stubs one by one gives, but a new record
    /// is made only where it outlives the message: of a million new links, the registry keeps
    /// the last [`MAX_RECORDS`], and the rest are evicted as soon as they would be made. Each
    /// stub is registered as a [`Guess`] registers it, and the guess then committed.
    ///
    /// Stubs that guessed their ids ([`Stubs::guessing`]) are registered as they guessed, where
    /// the guess holds: nothing of it was taken back, and the records have not changed since.
    /// Where it does not, nothing is registered and this gives `false`: the lane shows the
    /// message again with stubs that wait ([`Stubs::new`]), which are always registered.
    #[must_use]
    pub(crate) fn register_shown(&self, stubs: Stubs<'_>, mut write: impl FnMut(usize, &str)) -> bool {
        match stubs.mode {
            Mode::Guess(guess) => return guess.is_none_or(|guess| self.commit(guess)),
            // The guess is lost: register nothing.
            Mode::Lent => return false,
            Mode::Wait => {}
        }
        if stubs.shown.is_empty() {
            return true;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let mut guess = Guess::at(&mut inner);
        for shown in &stubs.shown {
            let reference = stubs.get(shown);
            let hash = self.uris.hash_one(reference.uri);
            let held = inner.find_index(hash, reference.uri);
            write(shown.at, id_str(&guess.register(self, &inner, hash, held, &reference)));
        }
        self.apply(&mut inner, &mut guess);
        guess.spare(&mut inner);
        true
    }

    /// Registers what `guess` guessed, where it holds (see [`ReferenceRegistry::register_shown`]).
    fn commit(&self, mut guess: Box<Guess>) -> bool {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let holds = !guess.broken && guess.start.generation == inner.generation;
        if holds {
            self.apply(&mut inner, &mut guess);
        }
        guess.spare(&mut inner);
        holds
    }

    /// Does to `inner` what `guess`, made against it as it is, says registering does: the
    /// testimonies to the records held first, then their evictions, then the records made.
    /// The records made move into the registry, each into the room of a record evicted where
    /// there is one, and leave the guess that room's strings.
    fn apply(&self, inner: &mut Inner, guess: &mut Guess) {
        inner.generation += 1;
        for (index, testimony) in &guess.testimonies {
            if let Some(kept) = inner.records.get_mut(*index) {
                self.testified(kept, &testimony.as_shown());
            }
        }
        // (No more than are made: a guess evicts a record held only to make one.)
        for _ in 0..guess.old_evicted {
            guess.spent.extend(inner.evict_oldest());
        }
        let first_kept = guess.first_kept();
        for (&hash, &n) in &guess.by_hash {
            if n >= first_kept {
                inner.by_hash.insert(hash, n);
            } else {
                inner.by_hash.remove(&hash);
            }
        }
        for (n, made) in (first_kept..).zip(guess.made.iter_mut()) {
            let kept = match guess.spent.pop() {
                Some(mut kept) => {
                    std::mem::swap(&mut kept.testimony, made);
                    kept.id = self.id_of(n);
                    kept.verified = None;
                    kept.connection.clone_from(&self.connection);
                    kept
                }
                None => Kept::shown(made.clone(), self.id_of(n), self.connection.clone()),
            };
            inner.records.push_back(kept);
        }
        inner.next = first_kept + guess.made.len() as u64;
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
        inner.generation += 1;
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
            .push_back(Kept::shown(Made::of(shown, hash), id, self.connection.clone()));
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
        inner.generation += 1;
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
    ///
    /// Written two digits at a time from a table, in three parts of five, four and four
    /// digits (a `u64` over `36⁸` is below `36⁵`), each a `u32`: short chains of divisions
    /// the processor runs side by side, where one chain of thirteen 64-bit ones waited on
    /// each other (a link's id had cost an eighth of the history lane on a million links).
    fn id_of(&self, n: u64) -> [u8; 17] {
        const FOUR: u64 = 36 * 36 * 36 * 36;
        let mut id = *b"ref_0000000000000";
        let x = self.permute(n);
        let (high, low) = (x / (FOUR * FOUR), x % (FOUR * FOUR));
        let (first, rest) = id[4..].split_at_mut(1);
        let (high_pairs, rest) = rest.split_at_mut(4);
        let (middle, last) = rest.split_at_mut(4);
        let [high, middle_part, last_part] = [high, low / FOUR, low % FOUR].map(|p| u32::try_from(p).unwrap_or(0));
        first[0] = DIGITS[(high / (36 * 36 * 36 * 36)) as usize * 2 + 1];
        for (digits, part) in [(high_pairs, high), (middle, middle_part), (last, last_part)] {
            let (upper, lower) = ((part / (36 * 36)) % (36 * 36), part % (36 * 36));
            for (pair, value) in digits.chunks_exact_mut(2).zip([upper, lower]) {
                let at = value as usize * 2;
                pair.copy_from_slice(&DIGITS[at..at + 2]);
            }
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

/// The ids a message's stubs guessed as they were shown, and what registering them will do,
/// against the records as they were when the first was guessed: what registering them one by
/// one does, a stub at a time, the registry's records left as they are until
/// [`ReferenceRegistry::register_shown`] applies it.
#[derive(Debug)]
struct Guess {
    /// The records when the first stub was guessed.
    start: Start,
    /// A stub was taken back, or the records changed: nothing of the guess is registered.
    broken: bool,
    /// How many of the records held at the start the records made evict, oldest first.
    old_evicted: usize,
    /// The records made that are kept, oldest first: those of counters from
    /// [`Guess::first_kept`] on.
    made: Ring,
    /// How many records made were evicted by later ones.
    evicted: u64,
    /// What registering does to the registry's map of hashes: a hash leads to the record
    /// made of its counter, or is forgotten where the counter is below
    /// [`Guess::first_kept`] (the record it led to was evicted). Forgotten hashes are purged,
    /// all at once, when the map has grown to [`Guess::PURGE_AT`].
    by_hash: HashMap<u64, u64, BuildHasherDefault<Hashed>>,
    /// What stubs said of the records held at the start, their places then, in order.
    testimonies: Vec<(usize, Made)>,
    /// Records evicted as the guess is applied, whose rooms the records made take: empty
    /// but while it is applied.
    spent: Vec<Kept>,
}

/// The records as a guess found them.
#[derive(Debug, Clone, Copy)]
struct Start {
    generation: u64,
    /// The counter of the first record the message makes.
    first_new: u64,
    /// How many records were held.
    held: usize,
}

/// What a server testified of a reference (as a stub shows it, its strings owned) and its
/// uri's hash: a record kept, one a guess made, or a testimony a guess took.
#[derive(Debug, Clone)]
struct Made {
    hash: u64,
    uri: String,
    name: Option<String>,
    mime_type: Option<String>,
    expires_at: Option<String>,
    digest: Option<String>,
    source: ReferenceSource,
    size_bytes: Option<u64>,
    disposition: Option<Disposition>,
}

impl Made {
    /// `shown` (of hash `hash`).
    fn of(shown: &ShownRef<'_>, hash: u64) -> Made {
        Made {
            hash,
            uri: shown.uri.to_owned(),
            name: shown.name.map(str::to_owned),
            mime_type: shown.mime_type.map(str::to_owned),
            expires_at: shown.expires_at.map(str::to_owned),
            digest: shown.digest.map(str::to_owned),
            source: shown.source,
            size_bytes: shown.size_bytes,
            disposition: shown.disposition,
        }
    }

    /// Holds `shown` (of hash `hash`), in the room its strings had.
    fn set(&mut self, shown: &ShownRef<'_>, hash: u64) {
        self.hash = hash;
        self.uri.clear();
        self.uri.push_str(shown.uri);
        self.take(shown);
        self.disposition = shown.disposition;
        self.source = shown.source;
    }

    /// Takes `shown`'s claims (all but its uri, source and disposition).
    fn take(&mut self, shown: &ShownRef<'_>) {
        fn keep(room: &mut Option<String>, value: Option<&str>) {
            match (room.as_mut(), value) {
                (Some(room), Some(value)) => {
                    room.clear();
                    room.push_str(value);
                }
                (_, value) => *room = value.map(str::to_owned),
            }
        }
        keep(&mut self.name, shown.name);
        keep(&mut self.mime_type, shown.mime_type);
        keep(&mut self.expires_at, shown.expires_at);
        keep(&mut self.digest, shown.digest);
        self.size_bytes = shown.size_bytes;
    }

    /// Takes what a reference registered again says: its name, media type and size as the
    /// stub shows them now, and the strictest disposition it was ever given (`never` is never
    /// lost).
    fn testify(&mut self, shown: &ShownRef<'_>) {
        if !holds(&self.as_shown(), shown) {
            self.take(shown);
            self.disposition = testified_disposition(self.disposition, shown.disposition);
        }
    }

    fn as_shown(&self) -> ShownRef<'_> {
        ShownRef {
            uri: &self.uri,
            name: self.name.as_deref(),
            mime_type: self.mime_type.as_deref(),
            expires_at: self.expires_at.as_deref(),
            digest: self.digest.as_deref(),
            source: self.source,
            disposition: self.disposition,
            size_bytes: self.size_bytes,
        }
    }
}

/// The records a guess made and keeps, oldest first, in a ring whose rooms are used again:
/// a record evicted leaves its strings' room to the next.
#[derive(Debug, Default)]
struct Ring {
    rooms: Vec<Made>,
    /// Where the oldest is.
    first: usize,
    len: usize,
}

impl Ring {
    fn len(&self) -> usize {
        self.len
    }

    /// Where the `k`th oldest is.
    fn room(&self, k: usize) -> Option<usize> {
        (k < self.len).then(|| (self.first + k) % self.rooms.len())
    }

    fn get_mut(&mut self, k: usize) -> Option<&mut Made> {
        self.room(k).map(|room| &mut self.rooms[room])
    }

    /// Keeps `shown` (of hash `hash`) as the newest.
    fn push(&mut self, shown: &ShownRef<'_>, hash: u64) {
        if self.len < self.rooms.len() {
            let room = (self.first + self.len) % self.rooms.len();
            self.rooms[room].set(shown, hash);
        } else {
            // Every room is taken: the oldest first again, a room after the newest. (Never
            // with the oldest elsewhere: a guess evicts before it keeps, so the ring grows
            // only until its first eviction.)
            self.rooms.rotate_left(self.first);
            self.first = 0;
            self.rooms.push(Made::of(shown, hash));
        }
        self.len += 1;
    }

    /// The records held, oldest first: the rooms from the oldest's on, then those before it.
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut Made> {
        let (before, from_first) = self.rooms.split_at_mut(self.first);
        from_first.iter_mut().chain(before).take(self.len)
    }

    /// Holds none, and keeps no more than `rooms` rooms (their strings) to hold the next.
    fn empty(&mut self, rooms: usize) {
        self.first = 0;
        self.len = 0;
        self.rooms.truncate(rooms);
        self.rooms.shrink_to(rooms);
    }

    /// Evicts the oldest, which it gives; its room is used again.
    fn pop_front(&mut self) -> Option<&Made> {
        let room = self.room(0)?;
        self.first = (room + 1) % self.rooms.len();
        self.len -= 1;
        Some(&self.rooms[room])
    }
}

impl Guess {
    /// The size at which [`Guess::by_hash`] is purged of hashes forgotten: a few times the
    /// records a guess keeps, so that a purge is rare and its map stays small.
    const PURGE_AT: usize = 4 * MAX_RECORDS;

    /// The counter of the oldest record made that is kept.
    fn first_kept(&self) -> u64 {
        self.start.first_new + self.evicted
    }

    /// How many rooms of each kind a guess keeps for the next ([`Guess::spare`]): more than
    /// most messages need, little memory.
    const SPARE_ROOMS: usize = 16;

    /// A guess against the records of `inner` as they are, in the rooms of the last one
    /// applied where `inner` keeps them.
    fn at(inner: &mut Inner) -> Box<Guess> {
        let start = Start {
            generation: inner.generation,
            first_new: inner.next,
            held: inner.records.len(),
        };
        if let Some(mut guess) = inner.spare.take() {
            guess.start = start;
            return guess;
        }
        Box::new(Guess {
            start,
            broken: false,
            old_evicted: 0,
            made: Ring::default(),
            evicted: 0,
            by_hash: HashMap::default(),
            testimonies: Vec::new(),
            spent: Vec::new(),
        })
    }

    /// Leaves this guess's rooms to the next guess made against `inner`: emptied, and no
    /// more of them than [`Guess::SPARE_ROOMS`] (a message of a million links leaves no
    /// million rooms behind).
    fn spare(mut self: Box<Self>, inner: &mut Inner) {
        self.broken = false;
        self.old_evicted = 0;
        self.evicted = 0;
        self.made.empty(Self::SPARE_ROOMS);
        self.by_hash.clear();
        self.by_hash.shrink_to(Self::SPARE_ROOMS);
        self.testimonies.clear();
        self.testimonies.shrink_to(Self::SPARE_ROOMS);
        // Every record evicted that it kept went into a record made.
        debug_assert!(self.spent.is_empty());
        self.spent.shrink_to(Self::SPARE_ROOMS);
        inner.spare = Some(self);
    }

    /// The id registering `shown` (of hash `hash`) gives after the stubs guessed before it,
    /// the records `inner` as they were at the start (which hold it at `held`, where they
    /// do); what registering it does, kept.
    fn register(
        &mut self,
        registry: &ReferenceRegistry,
        inner: &Inner,
        hash: u64,
        held: Option<usize>,
        shown: &ShownRef<'_>,
    ) -> [u8; 17] {
        let start = self.start;
        let first_kept = self.first_kept();
        let found = match self.by_hash.get(&hash) {
            // A record made and kept, or a hash forgotten (it leads nowhere now).
            Some(&n) => n
                .checked_sub(first_kept)
                .and_then(|k| usize::try_from(k).ok())
                .and_then(|k| self.made.get_mut(k))
                .filter(|made| made.uri == shown.uri)
                .map(|made| {
                    made.testify(shown);
                    registry.id_of(n)
                }),
            None => held.filter(|&index| index >= self.old_evicted).map(|index| {
                self.testimonies.push((index, Made::of(shown, hash)));
                inner.records[index].id
            }),
        };
        if let Some(id) = found {
            return id;
        }
        if self.by_hash.len() >= Self::PURGE_AT {
            self.purge(inner);
        }
        let n = first_kept + self.made.len() as u64;
        self.by_hash.insert(hash, n);
        // Room first, then the record: the record evicted is the same, and its room is kept.
        // Its hash, where it still leads to it, is forgotten as its counter falls behind.
        while start.held - self.old_evicted + self.made.len() >= MAX_RECORDS {
            if self.old_evicted < start.held {
                self.old_evicted += 1;
            } else if self.made.pop_front().is_some() {
                self.evicted += 1;
            } else {
                break;
            }
        }
        self.made.push(shown, hash);
        registry.id_of(n)
    }

    /// Drops the hashes forgotten that the registry's own map does not have (where it has
    /// one, it forgets it when the guess is applied, as `Inner::unlink` does: a hash of
    /// another uri's record, which a record made took over).
    #[cold]
    fn purge(&mut self, inner: &Inner) {
        let first_kept = self.first_kept();
        self.by_hash
            .retain(|hash, &mut n| n >= first_kept || inner.by_hash.contains_key(hash));
    }
}

/// What a lane shows, `show` given stubs that guess their ids (where `guess`), and again,
/// given stubs that wait, where it gives `None`: the guess did not hold (something was taken
/// back, or another lane registered meanwhile). Stubs that wait are always registered.
pub(crate) fn guessed_else_waited<'r, T: Default, E>(
    registry: &'r ReferenceRegistry,
    guess: bool,
    mut show: impl FnMut(Stubs<'r>) -> Result<Option<T>, E>,
) -> Result<T, E> {
    if guess {
        if let Some(shown) = show(Stubs::guessing(registry))? {
            return Ok(shown);
        }
    }
    Ok(show(Stubs::new(registry))?.unwrap_or_default())
}

/// Every pair of base-36 digits, `00` to `zz`, in order: the pair of `v` at `2 * v`.
static DIGITS: [u8; 2 * 36 * 36] = {
    #[allow(clippy::cast_possible_truncation)] // below 36
    const fn digit(d: usize) -> u8 {
        let d = d as u8;
        if d < 10 {
            b'0' + d
        } else {
            b'a' + d - 10
        }
    }
    let mut table = [0; 2 * 36 * 36];
    let mut v = 0;
    while v < 36 * 36 {
        table[2 * v] = digit(v / 36);
        table[2 * v + 1] = digit(v % 36);
        v += 1;
    }
    table
};

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
    /// The stubs that wait, each with its record.
    shown: Vec<Shown>,
    /// The stubs that guessed: how many, and where the last was written. A guess needs no
    /// more of them than to know whether any is taken back.
    guessed: Guessed,
    /// The stubs registered before these, where these follow others ([`Stubs::following`]),
    /// with these: what a record held must outlast to be written at once.
    waiting: Waiting,
    mode: Mode,
    /// The stubs' strings, in chunks of [`CHUNK`] bytes: a string at offset `o` is in chunk
    /// `o / CHUNK`. The first chunk grows as a string grows; every later one is made whole, so
    /// that a million stubs leave at most one chunk unused, not half of one buffer.
    text: Vec<String>,
}

/// How stubs get their ids.
#[derive(Debug)]
enum Mode {
    /// A placeholder, each stub's record kept, the ids written when the lane is done.
    Wait,
    /// At once, as registering them in order when the lane is done will give, where nothing
    /// is taken back and nobody registers meanwhile: the guess (made at the first stub that
    /// needs it).
    Guess(Option<Box<Guess>>),
    /// Guessing, the guess lent to the stubs that follow ([`Stubs::following`]) until they
    /// are appended.
    Lent,
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

/// How many stubs guessed their ids, and where the last was written in the lane's output
/// (where there is one: places only grow, so a cut before it takes a stub back).
#[derive(Debug, Clone, Copy, Default)]
struct Guessed {
    count: usize,
    last_at: usize,
}

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
            guessed: Guessed::default(),
            waiting: Waiting::default(),
            mode: Mode::Wait,
            text: Vec::new(),
        }
    }

    /// No stubs yet, for `registry`, each to write the id it will get at once: a lane of
    /// these that [`ReferenceRegistry::register_shown`] refuses shows its message again with
    /// stubs that wait.
    pub(crate) fn guessing(registry: &'r ReferenceRegistry) -> Self {
        Stubs {
            mode: Mode::Guess(None),
            ..Stubs::new(registry)
        }
    }

    /// The registry these stubs are registered with.
    pub(crate) fn registry(&self) -> &'r ReferenceRegistry {
        self.registry
    }

    /// No stubs yet, for stubs to be registered after these (appended to them): a guess is
    /// theirs until then.
    pub(crate) fn following(&mut self) -> Self {
        let mode = match std::mem::replace(&mut self.mode, Mode::Wait) {
            Mode::Wait => Mode::Wait,
            guess => {
                self.mode = Mode::Lent;
                guess
            }
        };
        Stubs {
            waiting: self.waiting.clone(),
            mode,
            ..Stubs::new(self.registry)
        }
    }

    /// Writes `reference`'s id at the end of `out` where the registry holds it; else a
    /// placeholder, for the id it gets when the stubs are registered.
    /// What a fetch verified of it comes back, where the registry holds that: the stub states
    /// it instead of the claims.
    pub(crate) fn push_id(&mut self, reference: &Reference<'_>, out: &mut String) -> Option<ShownVerified> {
        let registry = self.registry;
        let at = out.len();
        if let Mode::Guess(guess) = &mut self.mode {
            if let Some(Known(verified)) = registry.push_guessed_id(reference, &mut self.waiting, guess, out) {
                return verified;
            }
            // Its place alone: a guess needs no strings, only to know what is taken back.
            self.guessed = Guessed {
                count: self.guessed.count + 1,
                last_at: at,
            };
            return None;
        }
        if let Some(Known(verified)) = registry.push_known_id(reference, &mut self.waiting, out) {
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

    /// How many stubs were written that were not written with the id of a record held (those
    /// are done).
    pub(crate) fn len(&self) -> usize {
        self.shown.len() + self.guessed.count
    }

    /// Whether these stubs wait for their ids (their places are where the ids are written),
    /// rather than guess them (the ids are written already).
    pub(crate) fn wait(&self) -> bool {
        matches!(self.mode, Mode::Wait)
    }

    /// Moves the stubs from the `from`th on to `to(at)`: the text they were written in was
    /// copied there.
    pub(crate) fn moved_from(&mut self, from: usize, to: impl Fn(usize) -> usize) {
        for shown in self.shown.iter_mut().skip(from) {
            shown.at = to(shown.at);
        }
        if self.guessed.count > from {
            self.guessed.last_at = to(self.guessed.last_at);
        }
    }

    /// Forgets the stubs written at or past `len` of the output: it was cut back there. A
    /// guessed stub taken back breaks the guess (and how many are left is no longer known:
    /// nothing of them is registered).
    pub(crate) fn forget_from(&mut self, len: usize) {
        if self.guessed.count > 0 && self.guessed.last_at >= len {
            self.truncate(0);
        }
        let kept = self.shown.iter().rposition(|s| s.at < len).map_or(0, |last| last + 1);
        self.truncate(kept + self.guessed.count);
    }

    /// Forgets every stub but the first `count`.
    pub(crate) fn truncate(&mut self, count: usize) {
        let fewer = count < self.len();
        if let (Mode::Guess(Some(guess)), true) = (&mut self.mode, fewer) {
            guess.broken = true;
        }
        self.guessed.count = self.guessed.count.min(count);
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
    pub(crate) fn append(&mut self, mut other: Stubs<'_>, moved: impl Fn(usize) -> usize) {
        self.waiting.count += other.len();
        self.waiting.held.extend(&other.waiting.held);
        if let Mode::Lent = self.mode {
            // What followed the guess had it, and guessed on: their places are all it needs.
            self.mode = std::mem::replace(&mut other.mode, Mode::Lent);
            if other.guessed.count > 0 {
                self.guessed = Guessed {
                    count: self.guessed.count + other.guessed.count,
                    last_at: moved(other.guessed.last_at),
                };
            }
            self.shown
                .extend(other.shown.iter().map(|s| Shown { at: moved(s.at), ..*s }));
            return;
        }
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
                assert_eq!(inner.by_hash.get(&kept.hash()), Some(&n));
            }
        }
    }

    fn link(uri: &str) -> crate::Block<'static> {
        crate::Block::decode(&serde_json::json!({"type": "resource_link", "uri": uri, "name": "n"})).into_owned()
    }

    /// The ring keeps its records oldest first through evictions and rooms used again, and
    /// when it grows with every room taken.
    #[test]
    fn the_ring_keeps_its_records_oldest_first() {
        use super::{Ring, ShownRef};
        use crate::classify::ReferenceSource;
        let shown = |uri| ShownRef {
            uri,
            name: None,
            mime_type: None,
            expires_at: None,
            digest: None,
            source: ReferenceSource::ResourceLink,
            disposition: None,
            size_bytes: None,
        };
        let uris = |ring: &mut Ring| ring.iter_mut().map(|made| made.uri.clone()).collect::<Vec<_>>();
        let mut ring = Ring::default();
        assert!(ring.pop_front().is_none());
        for uri in ["a", "b", "c"] {
            ring.push(&shown(uri), 0);
        }
        assert_eq!(ring.pop_front().map(|made| made.uri.clone()).as_deref(), Some("a"));
        ring.push(&shown("d"), 0);
        assert_eq!((ring.len(), ring.rooms.len()), (3, 3), "a's room used again");
        assert_eq!(uris(&mut ring), ["b", "c", "d"]);
        ring.push(&shown("e"), 0);
        assert_eq!(uris(&mut ring), ["b", "c", "d", "e"]);
        assert_eq!(ring.get_mut(3).map(|made| made.uri.clone()).as_deref(), Some("e"));
        assert!(ring.get_mut(4).is_none());
        for expected in ["b", "c", "d", "e"] {
            assert_eq!(ring.pop_front().map(|made| made.uri.clone()).as_deref(), Some(expected));
        }
        assert!(ring.pop_front().is_none());
    }

    /// A guess holds where nothing of it is taken back: a cut past its last stub, or to as
    /// many stubs as it has, takes nothing; a cut at its last stub's place takes it back.
    #[test]
    fn a_guess_holds_where_nothing_is_taken_back() {
        use super::Stubs;
        use crate::classify::{classify_block, Class};
        let registry = ReferenceRegistry::with_seed(8);
        // As a lane writes a stub: its id inside brackets, in one output.
        let push = |stubs: &mut Stubs<'_>, uri: &str, out: &mut String| {
            let block = link(uri);
            let Class::Reference(reference) = classify_block(&block) else {
                panic!("{uri}")
            };
            out.push('[');
            stubs.push_id(&reference, out);
            out.push(']');
        };
        let mut out = String::new();
        let mut stubs = Stubs::guessing(&registry);
        push(&mut stubs, "https://h.example/a", &mut out);
        push(&mut stubs, "https://h.example/b", &mut out);
        stubs.forget_from(out.len());
        stubs.truncate(stubs.len());
        assert_eq!(stubs.len(), 2);
        assert!(registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.len(), 2);

        let mut out = String::new();
        let mut stubs = Stubs::guessing(&registry);
        push(&mut stubs, "https://h.example/c", &mut out);
        let before_d = out.len();
        push(&mut stubs, "https://h.example/d", &mut out);
        // Inside the last stub: its id is taken back.
        stubs.forget_from(before_d + 1);
        assert!(!registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.len(), 2);

        // Stubs that follow (`structuredContent`'s), appended where their text was copied:
        // they count, their last place is the last, and none appended moves it.
        let mut out = String::new();
        let mut stubs = Stubs::guessing(&registry);
        push(&mut stubs, "https://h.example/e", &mut out);
        let none = stubs.following();
        stubs.append(none, |at| 1000 + at);
        stubs.forget_from(500);
        let mut following = stubs.following();
        let mut beside = String::new();
        push(&mut following, "https://h.example/f", &mut beside);
        let start = out.len();
        out.push_str(&beside);
        stubs.append(following, |at| start + at);
        assert_eq!(stubs.len(), 2);
        stubs.forget_from(out.len());
        assert!(registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.len(), 4);
    }

    /// Guessed stubs whose records changed before they were registered (another lane
    /// registered meanwhile), or of which some were taken back, register nothing: the lane
    /// shows its message again with stubs that wait. Those that held register as guessed.
    #[test]
    fn a_guess_registers_only_where_nothing_changed() {
        use super::Stubs;
        use crate::classify::{classify_block, Class};
        let registry = ReferenceRegistry::with_seed(8);
        let shown = |stubs: &mut Stubs<'_>, uri: &str| {
            let block = link(uri);
            let Class::Reference(reference) = classify_block(&block) else {
                panic!("{uri}")
            };
            let mut out = String::new();
            stubs.push_id(&reference, &mut out);
            out
        };
        let before = registry.snapshot();
        let mut stubs = Stubs::guessing(&registry);
        shown(&mut stubs, "https://h.example/a");
        let other = link("https://h.example/other");
        let Class::Reference(reference) = classify_block(&other) else {
            panic!("a link")
        };
        let _ = registry.register(&reference);
        let after_other = registry.snapshot();
        // The records changed: a stub after that writes no guess, and the guess is lost.
        assert_eq!(shown(&mut stubs, "https://h.example/a2"), super::ID_PLACEHOLDER);
        assert!(!registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.snapshot(), after_other);
        assert_ne!(after_other, before);

        let mut stubs = Stubs::guessing(&registry);
        shown(&mut stubs, "https://h.example/b");
        shown(&mut stubs, "https://h.example/c");
        stubs.truncate(1);
        // Taken back: a stub after that writes no guess either.
        assert_eq!(shown(&mut stubs, "https://h.example/c2"), super::ID_PLACEHOLDER);
        assert!(!registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.snapshot(), after_other);

        // Two guesses against the same records: the first registered changes them for the
        // second, which registers nothing.
        let mut stubs = Stubs::guessing(&registry);
        let id = shown(&mut stubs, "https://h.example/b");
        let mut later = Stubs::guessing(&registry);
        let later_id = shown(&mut later, "https://h.example/d");
        assert_eq!(id, later_id, "the same counter, guessed twice");
        assert!(registry.register_shown(stubs, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.lookup(&id).unwrap().uri, "https://h.example/b");
        assert_eq!(registry.len(), 2);
        assert!(!registry.register_shown(later, |_, _| panic!("a guess writes no id")));
        assert_eq!(registry.lookup(&id).unwrap().uri, "https://h.example/b");
        assert_eq!(registry.len(), 2);
    }
}
