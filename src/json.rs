//! A pull reader over JSON bytes: the one pass every lane makes over its input.
//!
//! It borrows every string from the input as text: the input is checked to be UTF-8 once, as
//! a whole, at memory speed (or string by string, where it is not all UTF-8, so that one bad
//! string costs only itself); a base64 blob is never copied. It skips what a lane does not need
//! at the speed of a scan, and holds no recursion of its own: nesting is bounded by
//! [`MAX_DEPTH`] with a clear error. An escaped lone surrogate reads as U+FFFD, and a number of
//! any size is kept as its digits, so neither costs the message.

// The token functions are inlined into their callers where the build is optimized: returned
// through memory, their `Result<Option<…>>` values stall on store forwarding. Not in a debug
// build, where each inlined call keeps stack slots of its own in its caller's frame, and every
// level of nesting a lane walks into would hold them all.
#![allow(clippy::inline_always)]

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;

use crate::error::{Error, ErrorKind};

/// How deep objects and arrays may nest.
pub(crate) const MAX_DEPTH: usize = 127;

/// The kind of the next value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Peek {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// A string as it stands in the input, between its quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawStr<'a> {
    raw: &'a str,
    /// [`ESCAPED`], as a whole word: a `bool` here left seven bytes of padding
    /// that every move of a `Result<Option<RawStr>>` copied in two overlapping loads, which
    /// stalled on store forwarding in the hottest loop.
    flags: usize,
}

/// The string has a backslash escape.
const ESCAPED: usize = 1;

impl<'a> RawStr<'a> {
    /// The bytes between the quotes, escapes as written.
    pub(crate) fn raw(&self) -> &'a [u8] {
        self.raw.as_bytes()
    }

    /// The bytes between the quotes as text, escapes as written (the reader has checked their
    /// UTF-8).
    pub(crate) fn as_str(&self) -> &'a str {
        self.raw
    }

    /// Whether the string has a backslash escape.
    pub(crate) fn is_escaped(&self) -> bool {
        self.flags & ESCAPED != 0
    }

    /// The string's text: borrowed where it has no escape. The reader has checked its UTF-8.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn text(&self) -> Cow<'a, str> {
        if self.flags & ESCAPED == 0 {
            return Cow::Borrowed(self.raw);
        }
        Cow::Owned(unescape(self.raw))
    }
}

/// Unescapes a string the reader has checked: every escape is well formed.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let escape = &rest[at + 1..];
        let mut consumed = 2;
        match escape.as_bytes().first() {
            Some(b'n') => out.push('\n'),
            Some(b't') => out.push('\t'),
            Some(b'r') => out.push('\r'),
            Some(b'b') => out.push('\u{8}'),
            Some(b'f') => out.push('\u{c}'),
            Some(b'u') => {
                let code = hex4(&escape.as_bytes()[1..]).unwrap_or(0xFFFD);
                consumed = 6;
                let low = escape
                    .as_bytes()
                    .get(5..11)
                    .filter(|next| next.starts_with(b"\\u"))
                    .and_then(|next| hex4(&next[2..]))
                    .filter(|low| (0xDC00..0xE000).contains(low));
                let c = match (code, low) {
                    (0xD800..=0xDBFF, Some(low)) => {
                        consumed = 12;
                        char::from_u32(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                    }
                    (0xD800..=0xDFFF, _) => None,
                    _ => char::from_u32(code),
                };
                out.push(c.unwrap_or('\u{FFFD}'));
            }
            Some(&other) => out.push(char::from(other)),
            None => consumed = 1,
        }
        rest = &rest[at + consumed..];
    }
    out.push_str(rest);
    out
}

fn hex4(bytes: &[u8]) -> Option<u32> {
    let digits = bytes.get(..4)?;
    digits
        .iter()
        .try_fold(0u32, |acc, &b| Some(acc * 16 + char::from(b).to_digit(16)?))
}

/// The state of one object or array being read: whether its first member is still to come.
pub(crate) struct Seq {
    first: bool,
}

/// A place in the input a reader can go back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    depth: usize,
}

/// The keys of one object read so far, to tell a repeated one: the first eight plain keys
/// on the stack, the rest (and any escaped one) by name in a hash set, so that an object of a
/// hundred thousand keys costs each key one lookup, not a search of all before it.
#[derive(Default)]
pub(crate) struct KeySet<'a> {
    inline: [&'a [u8]; 8],
    len: usize,
    more: HashSet<Cow<'a, [u8]>>,
}

impl<'a> KeySet<'a> {
    /// Adds `key`; `false` where the object had it already (under any spelling).
    pub(crate) fn insert(&mut self, key: &RawStr<'a>) -> bool {
        if !key.is_escaped() && self.more.is_empty() && self.len < self.inline.len() {
            let raw = key.raw();
            if self.inline[..self.len].contains(&raw) {
                return false;
            }
            self.inline[self.len] = raw;
            self.len += 1;
            return true;
        }
        if self.more.is_empty() {
            self.more
                .extend(self.inline[..self.len].iter().map(|k| Cow::Borrowed(*k)));
        }
        let name = if key.is_escaped() {
            Cow::Owned(key.text().into_owned().into_bytes())
        } else {
            Cow::Borrowed(key.raw())
        };
        self.more.insert(name)
    }
}

/// Reads JSON bytes one token at a time. A clone reads on from the same place.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    /// The input as text, where all of it is UTF-8 (checked once, at memory speed): a string
    /// read is then a slice of it. Where it is not, each string is checked as it is read.
    text: Option<&'a str>,
    pos: usize,
    depth: usize,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether `bytes` can stand in a JSON string as they are: no quote, backslash or control
/// byte. Told a word at a time.
pub(crate) fn is_plain(bytes: &[u8]) -> bool {
    let mut words = bytes.chunks_exact(8);
    let mut found = 0;
    for chunk in &mut words {
        found |= stops(word(chunk));
    }
    found == 0 && words.remainder().iter().all(|&b| b != b'"' && b != b'\\' && b >= 0x20)
}

/// How many bytes of a string [`first_stop`] looks at in one step.
const STEP: usize = 16;

/// How many bytes of a string [`Reader::scan_string`] looks at a [`STEP`] at a time, before it
/// takes the rest (base64, mostly) [`LONG_BLOCK`] bytes at a time.
const RUN: usize = 384;

/// Where in a string's next sixteen bytes the first stop is (a quote, a backslash or a
/// control byte), looked at as two eight-byte words; 16 where there is none. Most strings of
/// a message end within a step or two.
#[cfg_attr(not(debug_assertions), inline(always))]
fn first_stop(chunk: &[u8; STEP]) -> usize {
    let (low, high) = (word(&chunk[..8]), word(&chunk[8..]));
    // `stops` is exact up to its first stop only, which is its lowest bit.
    let found = u128::from(stops(low)) | u128::from(stops(high)) << 64;
    (found.trailing_zeros() / 8) as usize
}

/// Eight bytes as one little-endian word.
#[cfg_attr(not(debug_assertions), inline(always))]
fn word(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

/// Eight bytes' stops: the high bit of each byte that is a quote, a backslash or a control
/// byte, exact up to the first (past it, a borrow may mark a byte that is none). Zero where
/// the eight bytes are plain string.
#[cfg_attr(not(debug_assertions), inline(always))]
fn stops(w: u64) -> u64 {
    let quote = w ^ (ONES * u64::from(b'"'));
    let backslash = w ^ (ONES * u64::from(b'\\'));
    ((quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash)
        | (w.wrapping_sub(ONES * 0x20) & !w))
        & HIGHS
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes,
            text: std::str::from_utf8(bytes).ok(),
            pos: 0,
            depth: 0,
        }
    }

    /// The input from `start` to `end` as text, where it is UTF-8.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn text_at(&self, start: usize, end: usize) -> Option<&'a str> {
        match self.text {
            Some(text) => text.get(start..end),
            None => std::str::from_utf8(self.bytes.get(start..end)?).ok(),
        }
    }

    /// Where the reader stands, in bytes.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Where the reader stands, to come back to with [`Reader::rewind`]. Kept as two words
    /// rather than a clone of the reader: a clone loads its position and depth as one, just
    /// after they were stored apart, and waits for both stores to land.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            depth: self.depth,
        }
    }

    /// Goes back to where `mark` was taken.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.depth = mark.depth;
    }

    /// The input between two positions (a value read) as text, lossily where it is not
    /// UTF-8: a slice of the input's text where all of it is, with no second look.
    pub(crate) fn text_between(&self, start: usize, end: usize) -> Cow<'a, str> {
        match self.text.and_then(|text| text.get(start..end)) {
            Some(text) => Cow::Borrowed(text),
            None => String::from_utf8_lossy(&self.bytes[start..end]),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The kind of the next value, white space skipped.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn peek(&mut self) -> Result<Peek, Error> {
        self.skip_ws();
        match self.bytes.get(self.pos) {
            Some(b'{') => Ok(Peek::Object),
            Some(b'[') => Ok(Peek::Array),
            Some(b'"') => Ok(Peek::String),
            Some(b'-' | b'0'..=b'9') if self.beyond_f64() => Ok(Peek::String),
            Some(b'-' | b'0'..=b'9') => Ok(Peek::Number),
            Some(b't' | b'f') => Ok(Peek::Bool),
            Some(b'n') => Ok(Peek::Null),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// Reads a string.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn string(&mut self) -> Result<RawStr<'a>, Error> {
        // Most callers have just peeked at its quote.
        if self.bytes.get(self.pos) == Some(&b'"') {
            self.pos += 1;
        } else {
            self.skip_ws();
            if matches!(self.bytes.get(self.pos), Some(b'-' | b'0'..=b'9')) && self.beyond_f64() {
                return self.number().map(|raw| RawStr { raw, flags: 0 });
            }
            self.expect(b'"')?;
        }
        let start = self.pos;
        let mut escaped = 0;
        loop {
            self.pos = self.scan_string(self.pos);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    // Checked here, so that every string read is UTF-8.
                    let Some(raw) = self.text_at(start, self.pos) else {
                        return Err(self.invalid_utf8(&self.bytes[start..self.pos]));
                    };
                    self.pos += 1;
                    return Ok(RawStr { raw, flags: escaped });
                }
                Some(b'\\') => {
                    escaped = ESCAPED;
                    match self.bytes.get(self.pos + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 2,
                        Some(b'u') if hex4(self.bytes.get(self.pos + 2..).unwrap_or(&[])).is_some() => self.pos += 6,
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    /// The position of the next quote, backslash or control byte at or after `i`. Runs of up
    /// to a few hundred bytes (keys, texts, small images) are looked at [`STEP`] bytes at a
    /// time; past that (base64), the quote or backslash is found with `memchr` (SIMD), and the
    /// span before it checked for control bytes in blocks the compiler vectorizes,
    /// [`LONG_BLOCK`] bytes at a time.
    fn scan_string(&self, mut i: usize) -> usize {
        let bytes = self.bytes;
        for _ in 0..RUN / STEP {
            let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk) else {
                break;
            };
            let at = first_stop(chunk);
            if at < STEP {
                return i + at;
            }
            i += STEP;
        }
        if bytes.len() - i < STEP {
            while let Some(&b) = bytes.get(i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    return i;
                }
                i += 1;
            }
            return i;
        }
        // A block at a time, so that each byte comes from memory once: the quote or backslash
        // found in the block, then the bytes before it checked while they are in the cache.
        for block in bytes[i..].chunks(LONG_BLOCK) {
            let end = memchr::memchr2(b'"', b'\\', block);
            let span = &block[..end.unwrap_or(block.len())];
            if has_control(span) {
                if let Some(at) = span.iter().position(|&b| b < 0x20) {
                    return i + at;
                }
            }
            if let Some(end) = end {
                return i + end;
            }
            i += block.len();
        }
        i
    }

    /// Whether the number at the reader's position is beyond `f64`'s range (`1e400`): such a
    /// number is read as the string of its digits ([`Peek::String`], [`Reader::string`]), as
    /// [`crate::parse_json`] reads it. The reader stays where it stood.
    fn beyond_f64(&mut self) -> bool {
        let at = self.pos;
        let beyond = self.number().is_ok_and(is_beyond_f64);
        self.pos = at;
        beyond
    }

    /// Reads a number, returning its text as written.
    pub(crate) fn number(&mut self) -> Result<&'a str, Error> {
        self.skip_ws();
        let start = self.pos;
        let digits = |r: &mut Self| {
            let from = r.pos;
            while r.bytes.get(r.pos).is_some_and(u8::is_ascii_digit) {
                r.pos += 1;
            }
            r.pos > from
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        if self.bytes.get(self.pos) == Some(&b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(self.error("invalid number"));
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        // Every byte was seen to be a digit, a sign, a point or an exponent: ASCII, text.
        self.text_at(start, self.pos)
            .ok_or_else(|| self.error("invalid number"))
    }

    /// Reads `true` or `false`.
    pub(crate) fn boolean(&mut self) -> Result<bool, Error> {
        self.skip_ws();
        if self.bytes[self.pos..].starts_with(b"true") {
            self.pos += 4;
            Ok(true)
        } else if self.bytes[self.pos..].starts_with(b"false") {
            self.pos += 5;
            Ok(false)
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// Reads `null`.
    pub(crate) fn null(&mut self) -> Result<(), Error> {
        self.skip_ws();
        if self.bytes[self.pos..].starts_with(b"null") {
            self.pos += 4;
            Ok(())
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// Enters an object.
    pub(crate) fn object(&mut self) -> Result<Seq, Error> {
        self.skip_ws();
        self.expect(b'{')?;
        self.enter()
    }

    /// The next key of the object, its colon read; `None` at its end.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn next_key(&mut self, seq: &mut Seq) -> Result<Option<RawStr<'a>>, Error> {
        if !self.next_member(seq, b'}')? {
            return Ok(None);
        }
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error("expected a key"));
        }
        // Keys are short and plain: looked at a step at a time, the general reader for
        // anything else (an escape, a key near the end of the input or longer than 32 bytes).
        let start = self.pos + 1;
        let mut i = start;
        let key = loop {
            let Some(chunk) = self.bytes.get(i..).and_then(<[u8]>::first_chunk) else {
                break self.string()?;
            };
            let at = first_stop(chunk);
            if at == STEP {
                if i - start >= 32 - STEP {
                    break self.string()?;
                }
                i += STEP;
                continue;
            }
            let end = i + at;
            // Not UTF-8: the general reader says where.
            let (b'"', Some(raw)) = (self.bytes[end], self.text_at(start, end)) else {
                break self.string()?;
            };
            self.pos = end + 1;
            break RawStr { raw, flags: 0 };
        };
        if self.bytes.get(self.pos) == Some(&b':') {
            self.pos += 1;
        } else {
            self.skip_ws();
            self.expect(b':')?;
        }
        Ok(Some(key))
    }

    /// Reads `literal` where it stands at the reader's position, exactly; the reader stays
    /// where it stood otherwise. For a value a reader expects, compared at once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn eat<const N: usize>(&mut self, literal: &[u8; N]) -> bool {
        self.skip_ws();
        let hit = self.bytes.get(self.pos..self.pos + N) == Some(&literal[..]);
        if hit {
            self.pos += N;
        }
        hit
    }

    /// Reads the object's next key and its colon where they are exactly `quoted` (the key in
    /// its quotes, then `:`), after the comma where one is due, white space around them
    /// skipped; the reader stays where it stood otherwise. Servers write the keys of a block
    /// in the same order: a reader that expects one compares its bytes at once, where
    /// [`Reader::next_key`] scans for its end and its caller matches it against every key.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn eat_key<const N: usize>(&mut self, seq: &mut Seq, quoted: &[u8; N]) -> bool {
        let start = self.pos;
        self.skip_ws();
        if !seq.first {
            if self.bytes.get(self.pos) != Some(&b',') {
                self.pos = start;
                return false;
            }
            self.pos += 1;
            self.skip_ws();
        }
        if self.bytes.get(self.pos..self.pos + N) == Some(&quoted[..]) {
            self.pos += N;
            self.skip_ws();
            seq.first = false;
            true
        } else {
            self.pos = start;
            false
        }
    }

    /// Enters an array.
    pub(crate) fn array(&mut self) -> Result<Seq, Error> {
        self.skip_ws();
        self.expect(b'[')?;
        self.enter()
    }

    /// Whether the array has another element; the reader then stands before it.
    pub(crate) fn next_element(&mut self, seq: &mut Seq) -> Result<bool, Error> {
        self.next_member(seq, b']')
    }

    fn enter(&mut self) -> Result<Seq, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            // Point at the bracket that went too deep.
            self.pos -= 1;
            return Err(self.error("recursion limit exceeded"));
        }
        Ok(Seq { first: true })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_member(&mut self, seq: &mut Seq, close: u8) -> Result<bool, Error> {
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&close) {
            self.pos += 1;
            self.depth -= 1;
            return Ok(false);
        }
        if seq.first {
            seq.first = false;
        } else {
            self.expect(b',')?;
        }
        Ok(true)
    }

    /// Reads the next value as [`Reader::skip`] does, and gives where containers in it start
    /// and end (past the closing bracket), ordered by where they start: for
    /// [`Reader::step_over`] on a later reading. Noted are the values of an object's members
    /// (what a reader of the object's keys steps over) at least `min_len` bytes long for each
    /// container noted in them and themselves, so that the notes take at most one for each
    /// `min_len` bytes of input, however deep containers nest.
    pub(crate) fn spans(&mut self, min_len: usize) -> Result<Vec<(usize, usize)>, Error> {
        let mut spans = Vec::new();
        // Each open container: where it starts, whether it is an object, its state, whether it
        // is a member's value, and how many containers are noted in it.
        let mut open: Vec<(usize, bool, Seq, bool, usize)> = Vec::new();
        let mut at_value = true;
        loop {
            if at_value {
                let peek = self.peek()?;
                let start = self.pos;
                let member = open.last().is_some_and(|&(_, object, ..)| object);
                match peek {
                    Peek::Object => open.push((start, true, self.object()?, member, 0)),
                    Peek::Array => open.push((start, false, self.array()?, member, 0)),
                    _ => self.skip()?,
                }
            }
            let Some((_, object, seq, ..)) = open.last_mut() else {
                break;
            };
            at_value = if *object {
                self.next_key(seq)?.is_some()
            } else {
                self.next_element(seq)?
            };
            if !at_value {
                let Some((start, _, _, member, mut noted)) = open.pop() else {
                    break;
                };
                if member && self.pos - start >= min_len.saturating_mul(noted + 1) {
                    spans.push((start, self.pos));
                    noted += 1;
                }
                if let Some(parent) = open.last_mut() {
                    parent.4 += noted;
                }
            }
        }
        // Pushed as each closed: inner ones first.
        spans.sort_unstable();
        Ok(spans)
    }

    /// Skips the next value, whatever it is; nested values without recursion, and without
    /// allocating: which brackets are open is a bit a level.
    pub(crate) fn skip(&mut self) -> Result<(), Error> {
        self.step_over(&[])
    }

    /// Skips the next value as [`Reader::skip`] does, stepping at once to the end of each
    /// container in it that `spans` (from [`Reader::spans`] over the same input) notes.
    pub(crate) fn step_over(&mut self, spans: &[(usize, usize)]) -> Result<(), Error> {
        // Bit n of `objects` is set where the bracket open at depth n (from here) is an object.
        let mut objects: u128 = 0;
        let mut open = 0u32;
        let base = self.depth;
        loop {
            // A value.
            let peek = self.peek()?;
            let noted = match peek {
                Peek::Object | Peek::Array if !spans.is_empty() => {
                    spans.binary_search_by_key(&self.pos, |&(start, _)| start).ok()
                }
                _ => None,
            };
            if let Some(at) = noted {
                self.pos = spans[at].1;
            } else {
                match peek {
                    Peek::Object => {
                        self.pos += 1;
                        self.enter()?;
                        objects |= 1 << open;
                        open += 1;
                        if !self.skip_member(true, &mut open)? {
                            continue;
                        }
                    }
                    Peek::Array => {
                        self.pos += 1;
                        self.enter()?;
                        objects &= !(1 << open);
                        open += 1;
                        if !self.skip_member(false, &mut open)? {
                            continue;
                        }
                    }
                    Peek::String => {
                        self.string()?;
                    }
                    Peek::Number => {
                        self.number()?;
                    }
                    Peek::Bool => {
                        self.boolean()?;
                    }
                    Peek::Null => self.null()?,
                }
            }
            // After a value: a comma and the next member, or close brackets.
            loop {
                if open == 0 {
                    debug_assert_eq!(self.depth, base);
                    return Ok(());
                }
                let object = objects & (1 << (open - 1)) != 0;
                self.skip_ws();
                match self.bytes.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        if object {
                            self.key_colon()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {}
                    Some(b']') if !object => {}
                    _ => return Err(self.error("expected `,` or the end of the object or array")),
                }
                self.pos += 1;
                self.depth -= 1;
                open -= 1;
            }
        }
    }

    /// Just inside an opened bracket: whether a first member follows (its key read, for an
    /// object); where the bracket closes at once, it is closed.
    fn skip_member(&mut self, object: bool, open: &mut u32) -> Result<bool, Error> {
        self.skip_ws();
        let close = if object { b'}' } else { b']' };
        if self.bytes.get(self.pos) == Some(&close) {
            self.pos += 1;
            self.depth -= 1;
            *open -= 1;
            return Ok(true);
        }
        if object {
            self.key_colon()?;
        }
        Ok(false)
    }

    /// A key and its colon.
    fn key_colon(&mut self) -> Result<(), Error> {
        self.skip_ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error("expected a key"));
        }
        self.string()?;
        self.skip_ws();
        self.expect(b':')
    }

    /// Checks that nothing but white space follows.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error("trailing characters"))
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn expect(&mut self, byte: u8) -> Result<(), Error> {
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(byte))
        }
    }

    #[cold]
    #[inline(never)]
    fn unexpected(&self, byte: u8) -> Error {
        if self.pos >= self.bytes.len() {
            self.error("unexpected end of input")
        } else {
            self.error(match byte {
                b':' => "expected `:`",
                b',' => "expected `,` or the end of the object or array",
                _ => "expected a value",
            })
        }
    }

    /// The error of a string at the reader's position whose bytes are not UTF-8, pointing at
    /// the first bad byte.
    #[cold]
    #[inline(never)]
    fn invalid_utf8(&mut self, raw: &[u8]) -> Error {
        let good = std::str::from_utf8(raw).map_or_else(|e| e.valid_up_to(), str::len);
        self.pos = self.pos - raw.len() + good;
        self.error("invalid unicode code point")
    }

    /// An error at the reader's position, with its line and column.
    #[allow(clippy::naive_bytecount)] // only on the way to an error
    #[cold]
    #[inline(never)]
    pub(crate) fn error(&self, what: &str) -> Error {
        let before = &self.bytes[..self.pos.min(self.bytes.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.len() - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        Error::new(
            ErrorKind::Json,
            format!("input is not JSON: {what} at line {line} column {column}"),
        )
        .at(line, column)
    }
}

/// A JSON number's value where it is a whole number from -2^63 to 2^64-1: digits in that
/// range exactly, any other number (`1e3`, `1000.0`, `-0`, digits past 64 bits) by the `f64`
/// it reads as (as JavaScript's and Python's JSON
/// hold them), so that every reader of a number's value reads it one way.
pub(crate) fn whole_number(number: &str) -> Option<i128> {
    // -2^63 and 2^64.
    const RANGE: std::ops::Range<i128> = -(1 << 63)..(1 << 64);
    if let Some(n) = number.parse::<i128>().ok().filter(|n| RANGE.contains(n)) {
        return Some(n);
    }
    let value = number.parse::<f64>().ok()?;
    #[allow(clippy::cast_possible_truncation)] // whole, and in range
    (value.fract() == 0.0 && (-9_223_372_036_854_775_808.0..18_446_744_073_709_551_616.0).contains(&value))
        .then_some(value as i128)
}

/// A JSON number's value as an integer from 0 to 2^53-1, where it is one.
pub(crate) fn as_u53(number: &str) -> Option<u64> {
    whole_number(number)
        .and_then(|n| u64::try_from(n).ok())
        .filter(|&n| n < (1 << 53))
}

/// Writes a JSON number by its value, so that the same JSON written by any library reads the
/// same: a whole number within 64 bits as its digits (`1.0`, `1e2`, `-0` give `1`, `100`, `0`),
/// any other as the shortest decimal that reads back as the same `f64`, as `serde_json` writes
/// it (`2.50` gives `2.5`, `1e300` gives `1e+300`). A number beyond `f64`'s range (`1e400`) is
/// written as the string of its digits (`"1e400"`), as [`parse_json`](crate::parse_json)
/// reads it: no library reads it as a number, and a `Value` holds it only as that string.
pub(crate) fn write_number(out: &mut String, number: &str) {
    if let Some(n) = whole_number(number) {
        // Digits that are the value (all but `-0`, and those past 64 bits) are it written.
        if number != "-0" && number.parse::<i128>() == Ok(n) {
            out.push_str(number);
        } else {
            // Writing into a string cannot fail.
            let _ = write!(out, "{n}");
        }
        return;
    }
    // Past `f64`'s range the value is infinite, and no `Number`.
    if let Some(n) = number.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
        out.push_str(&n.to_string());
    } else {
        // A number's characters need no escape.
        out.push('"');
        out.push_str(number);
        out.push('"');
    }
}

/// Whether a JSON number is beyond `f64`'s range (`1e400`), which `serde_json` refuses: the
/// reader reads it as a string, and [`crate::repair`] makes it one.
pub(crate) fn is_beyond_f64(number: &str) -> bool {
    // At most 308 digits and no exponent: below 10^308, so within range without parsing
    // (`f64::MAX` is about 1.8 × 10^308: a number of 309 digits may be beyond it).
    (number.len() > 308 || number.contains(['e', 'E'])) && number.parse::<f64>().is_ok_and(f64::is_infinite)
}

/// How many bytes of a long string (base64) [`Reader::scan_string`] looks at a time: a block
/// that stays in the first-level cache between finding its quote and checking its bytes
/// (two passes over the whole string read a 50 MB blob from memory twice).
const LONG_BLOCK: usize = 16 * 1024;

/// Whether `span` has a control byte, told in one pass the compiler vectorizes (stopping at
/// the first 64 bytes that have one).
fn has_control(span: &[u8]) -> bool {
    span.chunks(64)
        .any(|chunk| chunk.iter().fold(0u8, |c, &b| c | u8::from(b < 0x20)) != 0)
}

/// A deterministic pseudo-random sequence for tests: the next of Marsaglia's xorshift64.
#[cfg(test)]
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(json: &str) -> Vec<String> {
        let mut r = Reader::new(json.as_bytes());
        let mut seq = r.array().unwrap();
        let mut out = Vec::new();
        while r.next_element(&mut seq).unwrap() {
            out.push(r.string().unwrap().text().into_owned());
        }
        r.finish().unwrap();
        out
    }

    #[test]
    fn strings_unescape_and_borrow_where_they_can() {
        assert_eq!(
            texts(
                r#"["plain", "a\"b\\c\/d", "\n\t\r\b\f", "\u00e9\ud83d\ude00", "\ud800x", "\udc00", "0123456789abcdef\"tail"]"#
            ),
            [
                "plain",
                "a\"b\\c/d",
                "\n\t\r\u{8}\u{c}",
                "é😀",
                "\u{FFFD}x",
                "\u{FFFD}",
                "0123456789abcdef\"tail"
            ]
        );
        let mut r = Reader::new(br#""long string without escapes at all""#);
        assert!(matches!(r.string().unwrap().text(), Cow::Borrowed(_)));
    }

    #[test]
    fn skip_reads_any_value_and_numbers_keep_their_digits() {
        let mut r = Reader::new(br#" [1, -2.5e+3, {"a": [true, false, null, {"b": "}"}]}, "x", 1e400] "#);
        r.skip().unwrap();
        r.finish().unwrap();
        let mut r = Reader::new(b"1e400");
        assert_eq!(r.number().unwrap(), "1e400");
        assert_eq!(as_u53("1e400"), None);
        assert_eq!(as_u53("1e3"), Some(1000));
        assert_eq!(as_u53("9007199254740991"), Some(9_007_199_254_740_991));
        assert_eq!(as_u53("9007199254740992"), None);
        assert_eq!(as_u53("-1"), None);
        assert_eq!(as_u53("1.5"), None);
    }

    /// Whatever the bytes, a string
    /// the reader returns is UTF-8, on the key path and the value path.
    #[test]
    fn every_string_the_reader_returns_is_utf8() {
        let alphabet: &[u8] = &[
            b'a', b'"', b'\\', b'u', b'0', b'n', 0x7f, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0xf0, 0xff, b':',
        ];
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..50_000 {
            let len = usize::try_from(xorshift(&mut x) % 40).unwrap();
            let mut json = vec![b'{', b'"'];
            json.extend((0..len).map(|_| alphabet[usize::try_from(xorshift(&mut x) % 15).unwrap()]));
            json.extend_from_slice(b"\":\"");
            json.extend((0..len).map(|_| alphabet[usize::try_from(xorshift(&mut x) % 15).unwrap()]));
            json.extend_from_slice(b"\"}");
            let mut r = Reader::new(&json);
            let Ok(mut seq) = r.object() else { continue };
            if let Ok(Some(key)) = r.next_key(&mut seq) {
                assert!(std::str::from_utf8(key.raw()).is_ok(), "{json:?}");
                if let Ok(value) = r.string() {
                    assert!(std::str::from_utf8(value.raw()).is_ok(), "{json:?}");
                }
            }
        }
    }

    /// A number read is ASCII.
    #[test]
    fn numbers_are_ascii() {
        let alphabet: &[u8] = b"-+.eE0123456789\xc3\xa9x";
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..50_000 {
            let len = usize::try_from(xorshift(&mut x) % 12).unwrap() + 1;
            let bytes: Vec<u8> = (0..len)
                .map(|_| alphabet[usize::try_from(xorshift(&mut x) % alphabet.len() as u64).unwrap()])
                .collect();
            if let Ok(number) = Reader::new(&bytes).number() {
                assert!(number.is_ascii() && !number.is_empty(), "{bytes:?}");
            }
        }
    }

    #[test]
    fn bad_json_is_an_error_with_its_place() {
        for (bad, what) in [
            ("[1,]", "expected a value at line 1 column 4"),
            ("{\"a\" 1}", "expected `:` at line 1 column 6"),
            ("[\"a\n\"]", "control character in a string at line 1 column 4"),
            (
                "[01]",
                "expected `,` or the end of the object or array at line 1 column 3",
            ),
            (
                "\n  [1 2]",
                "expected `,` or the end of the object or array at line 2 column 6",
            ),
            ("[\"\\x\"]", "invalid escape at line 1 column 3"),
            ("[", "unexpected end of input at line 1 column 2"),
            ("tru", "expected a value at line 1 column 1"),
        ] {
            let mut r = Reader::new(bad.as_bytes());
            let error = r.skip().and_then(|()| r.finish()).unwrap_err();
            assert_eq!(error.to_string(), format!("input is not JSON: {what}"), "{bad:?}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let error = Reader::new(deep.as_bytes()).skip().unwrap_err();
        assert_eq!(
            error.to_string(),
            "input is not JSON: recursion limit exceeded at line 1 column 128"
        );
        // serde_json's own limit: 127 levels read, 128 do not.
        for (levels, ok) in [(127, true), (128, false)] {
            let nested = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            assert_eq!(Reader::new(nested.as_bytes()).skip().is_ok(), ok, "{levels}");
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&nested).is_ok(),
                ok,
                "{levels}"
            );
        }
    }

    #[test]
    fn a_string_is_told_text_wherever_its_non_ascii_bytes_stand() {
        let read = |bytes: &[u8]| Some(Reader::new(bytes).string().unwrap().text().into_owned());
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 40, 383, 384, 385, 1000] {
            let plain = "a".repeat(len);
            assert_eq!(read(format!("\"{plain}\"").as_bytes()).as_deref(), Some(&*plain));
            for at in [0, len / 2, len.saturating_sub(1), len] {
                let (head, tail) = plain.split_at(at);
                for (inner, text) in [
                    ("é", Some(format!("{head}é{tail}"))),
                    ("\\u00e9", Some(format!("{head}é{tail}"))),
                ] {
                    let json = format!("\"{head}{inner}{tail}\"");
                    assert_eq!(read(json.as_bytes()), text, "{json}");
                }
                let mut bad = format!("\"{head}").into_bytes();
                bad.push(0xff);
                bad.extend_from_slice(format!("{tail}\"").as_bytes());
                // Not UTF-8: an error where the string is read, pointing at the bad byte.
                let error = Reader::new(&bad).string().unwrap_err();
                assert_eq!(
                    error.to_string(),
                    format!(
                        "input is not JSON: invalid unicode code point at line 1 column {}",
                        at + 2
                    ),
                    "0xff at {at} of {len}"
                );
            }
        }
    }

    #[test]
    fn a_string_near_the_end_of_the_input_stops_only_at_its_quote() {
        // Fewer than STEP bytes from the end, a string is looked at a byte at a time: a space
        // or any other printable byte is text there, as anywhere.
        for len in 0..2 * STEP {
            let text: String = (0..len).map(|k| [' ', '~', '\u{7f}', 'a'][k % 4]).collect();
            let json = format!("\"{text}\"");
            let read = Reader::new(json.as_bytes()).string().map(|s| s.text().into_owned());
            assert_eq!(read.ok().as_deref(), Some(&*text), "{json:?}");
        }
    }

    #[test]
    fn bytes_past_ascii_at_the_same_place_of_two_steps_are_both_told() {
        // A string is looked at STEP bytes a step: a byte that is no UTF-8 in any step, at any
        // place, is told.
        for at in 0..STEP {
            for steps in [1, 2, 5, 23, 24, 30] {
                let second = steps * STEP + at;
                let mut bytes = vec![b'"'];
                bytes.extend(std::iter::repeat_n(b'a', second + 1));
                bytes[1 + at] = 0xff;
                bytes[1 + second] = 0xff;
                bytes.push(b'"');
                let error = Reader::new(&bytes).string().unwrap_err();
                assert!(
                    error.to_string().contains("invalid unicode code point"),
                    "{at} {steps}: {error}"
                );
            }
        }
    }

    #[test]
    fn long_strings_stop_where_a_byte_at_a_time_stops() {
        // Past the first few hundred bytes a string is looked at a block at a time: a stop or a
        // byte past ASCII on either side of a block's edge is found as a byte loop finds it.
        let edges = [RUN, RUN + LONG_BLOCK, RUN + 2 * LONG_BLOCK];
        let mut places = vec![0, 1, RUN - 1, RUN + 1];
        for edge in edges {
            places.extend([edge - 1, edge, edge + 1]);
        }
        let len = RUN + 3 * LONG_BLOCK + 10;
        // Printable bytes, a space among them, around each stop.
        let printable = || -> Vec<u8> { (0..len).map(|k| b"Aa ~"[k % 4]).collect() };
        for &at in &places {
            for (byte, also_high) in [
                (b'"', None),
                (b'\\', None),
                (0x01, None),
                (0x1f, Some(at / 2)),
                (b'"', Some(at.saturating_sub(2))),
            ] {
                let mut bytes = printable();
                // Bytes past ASCII (an `é`) are string like any other.
                if let Some(high) = also_high.filter(|&h| h + 1 < at) {
                    bytes[high..high + 2].copy_from_slice("é".as_bytes());
                }
                bytes[at] = byte;
                let stop = Reader::new(&bytes).scan_string(0);
                let expected = bytes.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
                assert_eq!(Some(stop), expected, "{byte:#x} at {at}");
            }
        }
        // Two control bytes side by side: each must count, not cancel the other.
        for &at in &places {
            let mut bytes = printable();
            bytes[at..at + 2].copy_from_slice(&[0x01, 0x1f]);
            assert_eq!(Reader::new(&bytes).scan_string(0), at, "two control bytes at {at}");
        }
        // No stop at all: the end of the input, past every block.
        assert_eq!(Reader::new(&vec![b'A'; len]).scan_string(0), len);
        // Control bytes and nothing else past the first steps, or one in every 64 bytes: the
        // first of them stops it.
        for every in [1, 32, 64] {
            let mut bytes = printable();
            for at in (RUN..len).step_by(every) {
                bytes[at] = 0x01;
            }
            assert_eq!(Reader::new(&bytes).scan_string(0), RUN, "a control byte every {every}");
        }
    }

    #[test]
    fn plain_strings_are_those_serde_json_writes_as_they_stand() {
        for len in [0, 1, 7, 8, 9, 16, 23] {
            let plain = "é".repeat(len);
            assert!(is_plain(plain.as_bytes()));
            assert_eq!(serde_json::to_string(&plain).unwrap(), format!("\"{plain}\""));
            for at in 0..=len {
                for stop in ['"', '\\', '\n', '\u{1}', '\u{1f}'] {
                    let s = format!("{}{stop}{}", "a".repeat(at), "b".repeat(len - at));
                    assert!(!is_plain(s.as_bytes()), "{s:?}");
                    assert_ne!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
                }
            }
        }
        let kept = "\u{7f} \u{2028} é";
        assert!(is_plain(kept.as_bytes()));
        assert_eq!(serde_json::to_string(kept).unwrap(), format!("\"{kept}\""));
    }

    #[test]
    fn both_ways_of_looking_at_a_step_agree() {
        let alphabet = [b'"', b'\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, b'a', b'a', b'a', b'a'];
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20_000 {
            let chunk: [u8; STEP] = std::array::from_fn(|_| alphabet[usize::try_from(xorshift(&mut x) % 12).unwrap()]);
            // Against the definition, a byte at a time.
            let by_byte = chunk.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            assert_eq!(first_stop(&chunk), by_byte.unwrap_or(STEP), "{chunk:?}");
        }
    }

    #[test]
    fn strings_read_as_text_whether_or_not_the_rest_of_the_input_is_utf8() {
        // All of the input UTF-8: strings are slices of it. One byte that is not, anywhere:
        // each string is checked as it is read, and only the bad one fails, where it is bad.
        for tail in [&b"\"ok\""[..], b"\"\xff\""] {
            let mut json = br#"{"k\u00e9y": "t\u00e9xt", "\u00e9": "caf"#.to_vec();
            json.extend_from_slice("é".as_bytes());
            json.extend_from_slice(br#"", "n": -1.5e3, "z": "#);
            json.extend_from_slice(tail);
            json.push(b'}');
            let mut r = Reader::new(&json);
            let mut seq = r.object().unwrap();
            let mut read = Vec::new();
            while let Some(key) = r.next_key(&mut seq).unwrap() {
                let value = match r.peek().unwrap() {
                    Peek::Number => Ok(r.number().unwrap().to_owned()),
                    _ => r.string().map(|s| s.text().into_owned()).map_err(|e| e.to_string()),
                };
                read.push((key.text().into_owned(), value));
                if read.last().is_some_and(|(_, v)| v.is_err()) {
                    break;
                }
            }
            let mut expected = vec![
                ("k\u{e9}y".to_owned(), Ok("t\u{e9}xt".to_owned())),
                ("\u{e9}".to_owned(), Ok("caf\u{e9}".to_owned())),
                ("n".to_owned(), Ok("-1.5e3".to_owned())),
            ];
            expected.push(if tail.len() == 4 {
                ("z".to_owned(), Ok("ok".to_owned()))
            } else {
                (
                    "z".to_owned(),
                    Err("input is not JSON: invalid unicode code point at line 1 column 65".to_owned()),
                )
            });
            assert_eq!(read, expected, "{}", String::from_utf8_lossy(&json));
        }
    }

    #[test]
    fn keys_of_any_length_read_whole_wherever_they_stand() {
        for len in 0..40 {
            let key: String = (0..len)
                .map(|i| char::from(b'a' + u8::try_from(i % 26).unwrap()))
                .collect();
            for json in [
                format!(r#"{{"{key}":1}}"#),
                format!(r#"{{"{key}" : 1 , "x\"{key}":2}}"#),
                format!(r#"{{"{key}":1,"{key}":2}}"#),
            ] {
                let mut r = Reader::new(json.as_bytes());
                let mut seq = r.object().unwrap();
                let first = r.next_key(&mut seq).unwrap().unwrap();
                assert_eq!(first.raw(), key.as_bytes(), "{json}");
                assert!(!first.is_escaped());
                r.skip().unwrap();
                while let Some(k) = r.next_key(&mut seq).unwrap() {
                    assert!(k.raw().ends_with(key.as_bytes()), "{json}");
                    r.skip().unwrap();
                }
                r.finish().unwrap();
            }
        }
        let mut r = Reader::new(b"{\"a\tb\":1}");
        let mut seq = r.object().unwrap();
        assert_eq!(
            r.next_key(&mut seq).unwrap_err().to_string(),
            "input is not JSON: control character in a string at line 1 column 4"
        );
    }

    #[test]
    fn keys_compare_through_escapes() {
        let mut r = Reader::new(br#"{"type": 1, "t\u0079pe": 2}"#);
        let mut seq = r.object().unwrap();
        while let Some(key) = r.next_key(&mut seq).unwrap() {
            assert_eq!(key.text(), "type");
            r.skip().unwrap();
        }
    }

    #[test]
    fn a_skipped_value_closes_each_bracket_with_its_own_kind() {
        for bad in ["[1}", r#"{"a":1]"#, r#"[{"a":[1}]}]"#, r#"{"a":{"b":[1,2}}}"#] {
            let skipped = Reader::new(bad.as_bytes()).skip().unwrap_err();
            assert!(
                skipped
                    .to_string()
                    .contains("expected `,` or the end of the object or array"),
                "{bad}: {skipped}"
            );
            // Stepped over with notes that name none of its containers, alike.
            let elsewhere = [(bad.len(), bad.len())];
            let stepped = Reader::new(bad.as_bytes()).step_over(&elsewhere).unwrap_err();
            assert_eq!(stepped.to_string(), skipped.to_string(), "{bad}");
        }
    }

    #[test]
    fn spans_are_where_long_member_values_start_and_end_in_order() {
        let json = r#" {"a": [1, {"b": "cc"}, []], "d": {"e": [[]]}, "f": {"g": {"h": [0, 0]}}} "#;
        let mut r = Reader::new(json.as_bytes());
        let spans = r.spans(5).unwrap();
        assert_eq!(r.position(), json.len() - 1, "the value read whole");
        let texts: Vec<&str> = spans.iter().map(|&(start, end)| &json[start..end]).collect();
        // Not the whole (no member's value), `{"b": "cc"}` (an array's item) nor `[[]]` (short).
        assert_eq!(
            texts,
            [
                r#"[1, {"b": "cc"}, []]"#,
                r#"{"e": [[]]}"#,
                r#"{"g": {"h": [0, 0]}}"#,
                r#"{"h": [0, 0]}"#,
                "[0, 0]"
            ]
        );
        // A container is noted where it holds `min_len` bytes for each noted in it and itself.
        let thin = r#"{"a":{"a":{"a":{"a":"0123456789"}}}}"#;
        let spans = Reader::new(thin.as_bytes()).spans(12).unwrap();
        let texts: Vec<&str> = spans.iter().map(|&(start, end)| &thin[start..end]).collect();
        assert_eq!(texts, [r#"{"a":{"a":"0123456789"}}"#, r#"{"a":"0123456789"}"#]);
        assert!(Reader::new(b"1").spans(0).unwrap().is_empty());
        // Bad JSON fails as a skip fails, at the same place.
        for bad in [r#"{"a": [1, }"#, r#"[{"a" 1}]"#, r#"{"a": "\q"}"#, "[[[["] {
            let skipped = Reader::new(bad.as_bytes()).skip().unwrap_err();
            assert_eq!(
                Reader::new(bad.as_bytes()).spans(0).unwrap_err().to_string(),
                skipped.to_string(),
                "{bad}"
            );
        }
    }

    /// A key set tells a key given twice under any spelling, before and past its first eight
    /// keys, whichever of the two spellings comes first.
    #[test]
    fn a_key_set_tells_a_key_given_twice_however_it_is_spelled() {
        // Where each object's first repeat is, or `None`.
        let first_repeat = |json: &str| {
            let mut r = Reader::new(json.as_bytes());
            let mut seq = r.object().unwrap();
            let mut keys = KeySet::default();
            let mut at = 0;
            while let Some(key) = r.next_key(&mut seq).unwrap() {
                if !keys.insert(&key) {
                    return Some(at);
                }
                r.skip().unwrap();
                at += 1;
            }
            None
        };
        let many = (0..20).map(|i| format!(r#""k{i}":0"#)).collect::<Vec<_>>().join(",");
        for (json, repeat) in [
            (r#"{"a":1,"b":2}"#.to_owned(), None),
            (r#"{"a":1,"a":2}"#.to_owned(), Some(1)),
            (r#"{"\u0061":1,"a":2}"#.to_owned(), Some(1)),
            (r#"{"a":1,"\u0061":2}"#.to_owned(), Some(1)),
            (r#"{"\u0061":1,"b":2,"\u0062":3}"#.to_owned(), Some(2)),
            (format!("{{{many}}}"), None),
            (format!(r#"{{{many},"k3":1}}"#), Some(20)),
            (format!(r#"{{{many},"k\u0031\u0035":1}}"#), Some(20)),
            (format!(r#"{{"\u006b0":1,{many}}}"#), Some(1)),
        ] {
            assert_eq!(first_repeat(&json), repeat, "{json}");
        }
    }

    #[test]
    fn a_key_is_eaten_where_it_stands_exactly_as_expected() {
        let mut r = Reader::new(b"{\"a\":1,\"b\":2, \"c\": 3,\"d\" :4,\"e\":5 ,\n  \"f\":\t6}");
        let mut seq = r.object().unwrap();
        // Not the next key: nothing read.
        assert!(!r.eat_key(&mut seq, b"\"b\":"));
        assert!(r.eat_key(&mut seq, b"\"a\":"));
        assert_eq!(r.number().unwrap(), "1");
        assert!(r.eat_key(&mut seq, b"\"b\":"));
        assert_eq!(r.number().unwrap(), "2");
        // White space after the comma and the colon (as Python writes JSON): eaten too.
        assert!(r.eat_key(&mut seq, b"\"c\":"));
        assert_eq!(r.number().unwrap(), "3");
        // White space before the colon: read the general way, nothing eaten.
        let before = r.position();
        assert!(!r.eat_key(&mut seq, b"\"d\":"));
        assert_eq!(r.position(), before);
        assert_eq!(r.next_key(&mut seq).unwrap().unwrap().raw(), b"d");
        assert_eq!(r.number().unwrap(), "4");
        assert!(r.eat_key(&mut seq, b"\"e\":"));
        assert_eq!(r.number().unwrap(), "5");
        // Indented, and white space before the comma.
        assert!(r.eat_key(&mut seq, b"\"f\":"));
        assert_eq!(r.number().unwrap(), "6");
        // The end of the object, and of the input: nothing to eat.
        assert!(!r.eat_key(&mut seq, b"\"f\":"));
        assert!(r.next_key(&mut seq).unwrap().is_none());
        r.finish().unwrap();
        assert!(!r.eat_key(&mut seq, b"\"f\":"));

        // A literal: whole, or not at all (a string's closing quote is part of it).
        let mut r = Reader::new(br#" "text""#);
        assert!(!r.eat(b"\"texts\""));
        assert!(!r.eat(b"\"text\"\""));
        // White space before a value is skipped, as every value read skips it.
        assert_eq!(r.position(), 1);
        assert!(r.eat(b"\"text\""));
        r.finish().unwrap();
    }

    #[test]
    fn a_number_beyond_f64_reads_as_the_string_of_its_digits() {
        let nines = "9".repeat(308);
        let beyond = format!("9{nines}");
        let max = format!("17976931348623157{}", "0".repeat(292));
        for (number, string) in [
            ("1e400", true),
            ("-1E+400", true),
            ("1e308", false),
            ("1e-400", false),
            (nines.as_str(), false),
            (beyond.as_str(), true),
            (max.as_str(), false),
            ("0.5", false),
        ] {
            let bytes = format!(" {number} ");
            let mut r = Reader::new(bytes.as_bytes());
            let peek = r.peek().unwrap();
            assert_eq!(peek == Peek::String, string, "{number}");
            if string {
                assert_eq!(r.string().unwrap().text(), number);
            } else {
                assert_eq!(r.number().unwrap(), number);
            }
            r.finish().unwrap();
        }
        // Read at once as a string, with no peek before.
        let mut r = Reader::new(b"[1e400]");
        let mut items = r.array().unwrap();
        assert!(r.next_element(&mut items).unwrap());
        assert_eq!(r.string().unwrap().as_str(), "1e400");
        assert!(!r.next_element(&mut items).unwrap());
        // Anything else is still no string.
        assert!(Reader::new(b"12").string().is_err());
    }

    fn written(number: &str) -> String {
        let mut out = String::new();
        write_number(&mut out, number);
        out
    }

    #[test]
    fn a_number_is_written_by_its_value() {
        for (number, shown) in [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("1", "1"),
            ("1.0", "1"),
            ("1E2", "100"),
            ("10e-1", "1"),
            ("-7", "-7"),
            ("-7.000", "-7"),
            ("2.50", "2.5"),
            ("0.1", "0.1"),
            ("1e-7", "1e-7"),
            ("1.5e-07", "1.5e-7"),
            ("1e-400", "0"),
            ("1e+16", "10000000000000000"),
            ("1e19", "10000000000000000000"),
            // 2^64 and past it: no longer 64 bits, so the shortest decimal.
            ("18446744073709551616", "1.8446744073709552e+19"),
            ("1e20", "1e+20"),
            ("1e300", "1e+300"),
            ("-1.5e300", "-1.5e+300"),
            // 64 bits exactly, either sign.
            ("18446744073709551615", "18446744073709551615"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("-9223372036854775809", "-9223372036854775808"),
            ("123456789012345678901234567890", "1.2345678901234568e+29"),
            ("1023.9999999999999", "1023.9999999999999"),
        ] {
            assert_eq!(written(number), shown, "{number}");
            // What is written is written again as itself, and means what the number did.
            assert_eq!(written(shown), shown, "{shown}");
            let (a, b) = (number.parse::<f64>().unwrap(), shown.parse::<f64>().unwrap());
            #[allow(clippy::float_cmp)] // the same value exactly (`-0.0` is `0.0`)
            let same = a == b;
            assert!(same, "{number} {shown}");
        }
    }

    /// A number beyond `f64`'s range is the string of its digits, as `parse_json` reads it.
    #[test]
    fn a_number_beyond_f64_is_written_as_the_string_of_its_digits() {
        for number in ["1e400", "-1e400", "1E999", "-2.5e+309", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"] {
            let written = written(number);
            assert_eq!(written, format!("\"{number}\""));
            let value = crate::repair::parse_json(number.as_bytes()).unwrap();
            assert_eq!(serde_json::to_string(&value).unwrap(), written);
        }
    }

    /// Any `f64`, written as `serde_json`, Python (`1e+16`, `1.0`) or JavaScript (`1e+21`,
    /// `1`) write it, is written the same.
    #[test]
    fn a_number_written_by_any_library_is_written_the_same() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let bits = xorshift(&mut state);
            let value = match bits % 4 {
                0 => f64::from_bits(bits),
                #[allow(clippy::cast_precision_loss)]
                1 => (bits >> 11) as f64,
                2 => f64::from(u32::try_from(bits >> 40).unwrap()) / 8.0,
                _ => -f64::from(u32::try_from(bits >> 44).unwrap()),
            };
            if !value.is_finite() {
                continue;
            }
            let serde = serde_json::Number::from_f64(value).unwrap().to_string();
            let exp = format!("{value:e}");
            let debug = format!("{value:?}");
            let shown = written(&serde);
            // JavaScript's digits of a whole number past 2^53 name another number (its own loss).
            let display = format!("{value}");
            let whole_past_53 = value.fract() == 0.0 && value.abs() >= 9_007_199_254_740_992.0;
            for spelling in [&exp, &debug, &exp.replace('e', "e+"), &display] {
                if spelling.contains("e+-") || (whole_past_53 && spelling == &display) {
                    continue;
                }
                assert_eq!(written(spelling), shown, "{spelling} against {serde}");
            }
        }
    }
}
