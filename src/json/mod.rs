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
mod tests;
