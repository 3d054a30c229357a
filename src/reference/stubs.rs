//! A lane's stubs not yet registered: where each id goes in the lane's output, and the
//! testimony it stands for, until the lane is done and registers them in order.

use std::collections::HashSet;

use foldhash::fast::FixedState;

use super::{ReferenceRegistry, MAX_RECORDS};
use crate::classify::{Disposition, Reference, ReferenceSource};

/// What a stub leaves where its id goes until the reference is registered: as long as an id,
/// and never one.
const ID_PLACEHOLDER: &str = "ref_?????????????";

/// The stubs a lane has written and not yet registered, each a placeholder in its output.
/// Reading has no side effects: a lane that cuts what it wrote (the history lane's budget,
/// `structuredContent` that cannot be read) registers only the stubs it kept, in order, when
/// it is done, with [`ReferenceRegistry::register_shown`].
///
/// A message may hold a million stubs: each is kept in a few bytes, its strings in
/// [`Stubs::text`].
#[derive(Debug)]
pub(crate) struct Stubs<'r> {
    registry: &'r ReferenceRegistry,
    pub(super) shown: Vec<Shown>,
    /// The hashes of the uris of records held that a stub before may change: a stub of one of
    /// these does not state what a fetch verified.
    changed: HashSet<u64, FixedState>,
    /// The stubs' strings, in chunks of [`CHUNK`] bytes: a string at offset `o` is in chunk
    /// `o / CHUNK`. The first chunk grows as a string grows; every later one is made whole, so
    /// that a million stubs leave at most one chunk unused, not half of one buffer.
    text: Vec<String>,
    /// The sizes the stubs claim, each with where its stub's strings start: few stubs claim
    /// one.
    sizes: Vec<(u32, u64)>,
}

/// The bytes of a chunk of stubs' strings: a stub's five strings fit in one.
const CHUNK: usize = 96 * 1024;

/// The most of a string a stub keeps: all of any that classify admits (a uri of 4096
/// characters is at most 16 KiB), but a number claimed as a digest or expiry, as long as it
/// was written, is cut.
const STRING_MAX: usize = CHUNK / 5;

/// One stub written: where its id goes in the lane's output, and the testimony it stands for,
/// its strings in [`Stubs::text`], one after the other from `start`.
#[derive(Debug)]
pub(super) struct Shown {
    pub(super) at: u64,
    start: u32,
    /// The lengths of the uri, name, media type, expiry and digest, in that order (each at
    /// most [`STRING_MAX`]); [`ABSENT`] for a string not given.
    lens: [u16; 5],
    source: ReferenceSource,
    disposition: Option<Disposition>,
}

/// Twenty-four bytes: a message of a million links holds a million of them until it is done.
const _: () = assert!(std::mem::size_of::<Shown>() <= 24);

/// The length of a stub's string that is not given.
const ABSENT: u16 = u16::MAX;

/// A record held whose id a stub wrote at once, and what a fetch verified of it.
pub(super) struct Held(pub(super) Option<ShownVerified>);

/// What a stub states of a record whose bytes a fetch verified.
pub(crate) struct ShownVerified {
    pub(crate) mime_type: String,
    pub(crate) bytes: u64,
}

impl<'r> Stubs<'r> {
    /// No stubs yet, for `registry`.
    pub(crate) fn new(registry: &'r ReferenceRegistry) -> Self {
        Stubs {
            registry,
            shown: Vec::new(),
            changed: HashSet::default(),
            text: Vec::new(),
            sizes: Vec::new(),
        }
    }

    /// The registry these stubs are registered with.
    pub(crate) fn registry(&self) -> &'r ReferenceRegistry {
        self.registry
    }

    /// Writes `reference`'s id at the end of `out` where the registry holds its record and
    /// registering it again changes nothing; else a placeholder, for the id it gets when the
    /// stubs are registered. What a fetch verified of a record held comes back: the stub
    /// states it instead of the claims.
    pub(crate) fn push_id(&mut self, reference: &Reference<'_>, out: &mut String) -> Option<ShownVerified> {
        let waiting = self.shown.len();
        // Past as many stubs waiting as the registry keeps, they may evict every record held:
        // none is looked up again.
        if waiting < MAX_RECORDS {
            if let Some(Held(verified)) = self.registry.push_held_id(reference, waiting, &mut self.changed, out) {
                return verified;
            }
        }
        self.keep(out.len() as u64, reference);
        out.push_str(ID_PLACEHOLDER);
        None
    }

    /// Keeps the stub of `shown` whose id goes `at`.
    fn keep(&mut self, at: u64, shown: &Reference<'_>) {
        let strings = [
            Some(shown.uri),
            shown.name,
            shown.mime_type,
            shown.expires_at,
            shown.digest,
        ];
        let (start, lens) = self.keep_strings(strings);
        if let Some(size) = shown.size_bytes {
            self.sizes.push((start, size));
        }
        self.shown.push(Shown {
            at,
            start,
            lens,
            source: shown.source,
            disposition: shown.disposition,
        });
    }

    /// Keeps a stub's strings, one after the other in one chunk; gives where they start and
    /// their lengths.
    fn keep_strings(&mut self, strings: [Option<&str>; 5]) -> (u32, [u16; 5]) {
        let strings = strings.map(|s| s.map(|s| &s[..floor_char_boundary(s, STRING_MAX)]));
        let total: usize = strings.iter().flatten().map(|s| s.len()).sum();
        if self.text.last().is_none_or(|chunk| chunk.len() + total > CHUNK) {
            let capacity = if self.text.is_empty() { 0 } else { CHUNK };
            self.text.push(String::with_capacity(capacity));
        }
        let chunk_index = self.text.len() - 1;
        let chunk = &mut self.text[chunk_index];
        let start = u32::try_from(chunk_index * CHUNK + chunk.len()).unwrap_or(u32::MAX);
        for string in strings.iter().flatten() {
            chunk.push_str(string);
        }
        (
            start,
            strings.map(|s| s.map_or(ABSENT, |s| u16::try_from(s.len()).unwrap_or(0))),
        )
    }

    /// The testimony of a stub kept.
    pub(super) fn get(&self, shown: &Shown) -> Reference<'_> {
        let start = shown.start as usize;
        let chunk = self.text.get(start / CHUNK).map_or("", String::as_str);
        let mut at = start % CHUNK;
        let [uri, name, mime_type, expires_at, digest] = shown.lens.map(|len| {
            (len != ABSENT).then(|| {
                let from = at;
                at += usize::from(len);
                chunk.get(from..at).unwrap_or_default()
            })
        });
        Reference {
            uri: uri.unwrap_or_default(),
            name,
            mime_type,
            expires_at,
            digest,
            source: shown.source,
            disposition: shown.disposition,
            size_bytes: self
                .sizes
                .binary_search_by_key(&shown.start, |&(start, _)| start)
                .ok()
                .map(|i| self.sizes[i].1),
            rejected: Vec::new(),
        }
    }

    /// How many stubs were written.
    pub(crate) fn len(&self) -> usize {
        self.shown.len()
    }

    /// Moves the stubs from the `from`th on to `to(at)`: the text they were written in was
    /// copied there.
    pub(crate) fn moved_from(&mut self, from: usize, to: impl Fn(u64) -> u64) {
        for shown in self.shown.iter_mut().skip(from) {
            shown.at = to(shown.at);
        }
    }

    /// Forgets the stubs written at or past `len` of the output: it was cut back there.
    pub(crate) fn forget_from(&mut self, len: usize) {
        self.truncate(self.shown.partition_point(|s| s.at < len as u64));
    }

    /// Forgets every stub but the first `count`.
    pub(crate) fn truncate(&mut self, count: usize) {
        if let Some(first) = self.shown.get(count) {
            let start = first.start as usize;
            self.sizes
                .truncate(self.sizes.partition_point(|&(s, _)| s < first.start));
            self.text.truncate(start / CHUNK + 1);
            if let Some(chunk) = self.text.last_mut() {
                chunk.truncate(start % CHUNK);
            }
            self.shown.truncate(count);
        }
    }
}

/// Writes `id` over the placeholder at `at` in `out`, where there is one.
pub(crate) fn write_id(out: &mut String, at: u64, id: &str) {
    let Ok(at) = usize::try_from(at) else { return };
    if out.get(at..at + ID_PLACEHOLDER.len()) == Some(ID_PLACEHOLDER) {
        out.replace_range(at..at + id.len(), id);
    }
}

/// The longest prefix of `s` of at most `most` bytes that ends at a character's edge.
fn floor_char_boundary(s: &str, most: usize) -> usize {
    let mut end = s.len().min(most);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}
