//! Verification as bytes arrive: content codings decoded, a hard ceiling on the decoded
//! bytes, the digest checked, the type sniffed. Nothing partial leaves this room.

use std::io::Write;

use base64::Engine as _;
use sha2::{Digest as _, Sha256};

use super::Refusal;

/// Checks a body as it arrives. Feed it the bytes as they came off the wire ([`Verifier::push`]:
/// it decodes the content coding itself), then [`Verifier::finish`]: only then are there bytes,
/// and only if every check held.
///
/// ```
/// use mcp_agent_view::fetch::Verifier;
///
/// let mut verifier = Verifier::new(64, None)?;
/// verifier.push(b"RIFF0000WAVEpayload")?;
/// let checked = verifier.finish(None, Some("image/png"))?;
/// assert_eq!(checked.mime_type, "audio/wav"); // what the bytes show, not what was claimed
/// assert!(!checked.digest_verified);
/// # Ok::<(), mcp_agent_view::fetch::Refusal>(())
/// ```
pub struct Verifier {
    decoding: Decoding,
    /// Whether any byte arrived: an empty body is empty, whatever its coding says.
    arrived: bool,
}

enum Decoding {
    Identity(Ceiling),
    Gzip(flate2::write::GzDecoder<Ceiling>),
    /// `deflate` as HTTP means it (zlib), or, as some servers send it, raw: told by the
    /// first two bytes.
    Deflate(Vec<u8>, u64),
    Zlib(flate2::write::ZlibDecoder<Ceiling>),
    Raw(flate2::write::DeflateDecoder<Ceiling>),
}

/// The decoded bytes, refused past the ceiling.
struct Ceiling {
    bytes: Vec<u8>,
    max: u64,
    over: bool,
}

impl Write for Ceiling {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() as u64 + buf.len() as u64 > self.max {
            self.over = true;
            return Err(std::io::Error::other("over the ceiling"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What passed every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The decoded identity octets.
    pub bytes: Vec<u8>,
    /// The observed media type: what the bytes show; where they show nothing, the claimed
    /// type if the bytes can be it (text for a textual type), else `text/plain` for UTF-8 and
    /// `application/octet-stream` for the rest.
    pub mime_type: String,
    /// Whether a digest was given and the bytes matched it.
    pub digest_verified: bool,
}

impl Verifier {
    /// A verifier with a ceiling of `max_bytes` decoded bytes, for a body in
    /// `content_encoding`: the `Content-Encoding` list, every header line of it joined with
    /// commas (`None`, empty or `identity`; `gzip`, `x-gzip`, `deflate`). A list of more than
    /// one coding (`gzip, gzip`), and any other coding, is refused: bytes still encoded are
    /// never presented as decoded.
    pub fn new(max_bytes: u64, content_encoding: Option<&str>) -> Result<Self, Refusal> {
        let sink = Ceiling {
            bytes: Vec::new(),
            max: max_bytes,
            over: false,
        };
        let list = content_encoding.unwrap_or("").to_ascii_lowercase();
        let mut codings = list
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty() && *c != "identity");
        let coding = codings.next();
        if codings.next().is_some() {
            return Err(Refusal::Encoding(clean(&list)));
        }
        let decoding = match coding {
            None => Decoding::Identity(sink),
            Some("gzip" | "x-gzip") => Decoding::Gzip(flate2::write::GzDecoder::new(sink)),
            Some("deflate") => Decoding::Deflate(Vec::new(), max_bytes),
            Some(other) => return Err(Refusal::Encoding(clean(other))),
        };
        Ok(Verifier {
            decoding,
            arrived: false,
        })
    }

    /// Takes the next bytes off the wire. Fails the moment the decoded bytes pass the
    /// ceiling (stop reading then: the transfer is to be aborted), or where the coding is
    /// corrupt.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Refusal> {
        self.arrived |= !chunk.is_empty();
        if let Decoding::Deflate(head, max) = &mut self.decoding {
            head.extend_from_slice(chunk);
            if head.len() < 2 {
                return Ok(());
            }
            let sink = Ceiling {
                bytes: Vec::new(),
                max: *max,
                over: false,
            };
            let (cmf, flg) = (head[0], head[1]);
            let zlib = cmf & 0x0f == 8 && (u16::from(cmf) * 256 + u16::from(flg)) % 31 == 0;
            let head = std::mem::take(head);
            self.decoding = if zlib {
                Decoding::Zlib(flate2::write::ZlibDecoder::new(sink))
            } else {
                Decoding::Raw(flate2::write::DeflateDecoder::new(sink))
            };
            return self.push(&head);
        }
        let written = match &mut self.decoding {
            Decoding::Identity(sink) => sink.write_all(chunk),
            // Flushed at once: a decoder holds what it decoded until the next write otherwise,
            // and the ceiling is to hold the moment it is passed.
            Decoding::Gzip(d) => d.write_all(chunk).and_then(|()| d.flush()),
            Decoding::Zlib(d) => d.write_all(chunk).and_then(|()| d.flush()),
            Decoding::Raw(d) => d.write_all(chunk).and_then(|()| d.flush()),
            Decoding::Deflate(..) => Ok(()),
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) if self.is_over() => Err(self.over()),
            Err(_) => Err(Refusal::Corrupt),
        }
    }

    /// Where the decoded bytes go, once the coding is known.
    fn sink(&self) -> Option<&Ceiling> {
        match &self.decoding {
            Decoding::Identity(sink) => Some(sink),
            Decoding::Gzip(d) => Some(d.get_ref()),
            Decoding::Zlib(d) => Some(d.get_ref()),
            Decoding::Raw(d) => Some(d.get_ref()),
            Decoding::Deflate(..) => None,
        }
    }

    fn is_over(&self) -> bool {
        self.sink().is_some_and(|sink| sink.over)
    }

    /// The refusal of a body past the ceiling (asked only where `is_over`, so once
    /// the coding is known).
    fn over(&self) -> Refusal {
        Refusal::OverCeiling {
            ceiling: self.sink().map_or(0, |sink| sink.max),
            claimed: None,
        }
    }

    /// Ends the body: the coding must end cleanly, the bytes must match `digest` where one is
    /// given (`sha256:` and base64url, as RFC-005 writes it), and their type is sniffed
    /// (`claimed` is the server's testimony, kept only where the bytes can be it).
    pub fn finish(mut self, digest: Option<&str>, claimed: Option<&str>) -> Result<Checked, Refusal> {
        if !self.arrived {
            self.decoding = Decoding::Identity(Ceiling {
                bytes: Vec::new(),
                max: 0,
                over: false,
            });
        }
        let ended = match &mut self.decoding {
            Decoding::Identity(_) => Ok(()),
            Decoding::Gzip(d) => d.try_finish(),
            Decoding::Zlib(d) => d.try_finish(),
            Decoding::Raw(d) => d.try_finish(),
            // Bytes arrived, and too few to tell the coding: no whole stream.
            Decoding::Deflate(..) => return Err(Refusal::Corrupt),
        };
        if ended.is_err() {
            // A decoder writes its last bytes as it ends: they too may pass the ceiling.
            return Err(if self.is_over() { self.over() } else { Refusal::Corrupt });
        }
        let finished = match self.decoding {
            Decoding::Identity(sink) => Ok(sink),
            Decoding::Gzip(d) => d.finish(),
            Decoding::Zlib(d) => d.finish(),
            Decoding::Raw(d) => d.finish(),
            Decoding::Deflate(..) => return Err(Refusal::Corrupt),
        };
        let bytes = finished.map_err(|_| Refusal::Corrupt)?.bytes;
        let digest_verified = match digest {
            None => false,
            Some(digest) if digest_matches(digest, &bytes)? => true,
            Some(_) => return Err(Refusal::DigestMismatch),
        };
        Ok(Checked {
            mime_type: observed_type(&bytes, claimed),
            bytes,
            digest_verified,
        })
    }
}

/// Whether `bytes` have the SHA-256 `digest` names. A digest of another algorithm, or that is
/// no base64url of 32 bytes, is refused: it cannot be checked, so nothing is presented.
fn digest_matches(digest: &str, bytes: &[u8]) -> Result<bool, Refusal> {
    let expected = expected_digest(digest).ok_or(Refusal::BadDigest)?;
    Ok(Sha256::digest(bytes).as_slice() == expected.as_slice())
}

/// The 32 bytes `digest` names: `sha256:` and exactly 43 base64url characters, unpadded.
fn expected_digest(digest: &str) -> Option<Vec<u8>> {
    digest
        .strip_prefix("sha256:")
        .filter(|b64| b64.len() == 43)
        .and_then(|b64| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(b64).ok())
        .filter(|d| d.len() == 32)
}

/// Whether `digest` is one this crate can check (RFC-005's `sha256:` and 43 base64url
/// characters): any other refuses a fetch before anything is dialed.
pub(crate) fn is_checkable_digest(digest: &str) -> bool {
    expected_digest(digest).is_some()
}

/// What the bytes are: their magic number's type; else the claimed type where the bytes can
/// be it; else text or octets.
fn observed_type(bytes: &[u8], claimed: Option<&str>) -> String {
    if let Some(sniffed) = crate::media::check::sniffed_bytes_type(bytes) {
        return sniffed.to_owned();
    }
    let text = std::str::from_utf8(bytes).is_ok() || is_utf16_text(bytes);
    let claimed = claimed.and_then(|c| c.parse::<mime::Mime>().ok());
    match claimed {
        // A claimed magic-number type the bytes do not show is not kept.
        Some(m) if text && crate::classify::is_textual(&m) => m.essence_str().to_owned(),
        _ if text => "text/plain".to_owned(),
        _ => "application/octet-stream".to_owned(),
    }
}

/// Whether `bytes` are UTF-16 text: a byte-order mark, then whole code units that decode.
fn is_utf16_text(bytes: &[u8]) -> bool {
    let units = |big: bool| {
        bytes[2..].chunks_exact(2).map(move |u| {
            if big {
                u16::from_be_bytes([u[0], u[1]])
            } else {
                u16::from_le_bytes([u[0], u[1]])
            }
        })
    };
    let big = match bytes {
        [0xFE, 0xFF, ..] => true,
        [0xFF, 0xFE, ..] => false,
        _ => return false,
    };
    bytes.len() % 2 == 0 && char::decode_utf16(units(big)).all(|c| c.is_ok())
}

fn clean(s: &str) -> String {
    crate::text::clean_label(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn the_ceiling_is_on_decoded_bytes_and_holds_at_once() {
        let body = vec![b'x'; 1000];
        let packed = gzip(&body);
        assert!(packed.len() < 64);
        let mut v = Verifier::new(64, Some("gzip")).unwrap();
        assert!(matches!(v.push(&packed), Err(Refusal::OverCeiling { ceiling: 64, .. })));

        let mut v = Verifier::new(1000, Some("gzip")).unwrap();
        v.push(&packed).unwrap();
        assert_eq!(v.finish(None, None).unwrap().bytes, body);

        let mut v = Verifier::new(10, None).unwrap();
        v.push(b"0123456789").unwrap();
        assert!(matches!(v.push(b"a"), Err(Refusal::OverCeiling { .. })));
    }

    #[test]
    fn deflate_is_read_as_zlib_or_raw() {
        let body = b"hello hello hello hello";
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(body).unwrap();
        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        r.write_all(body).unwrap();
        for packed in [z.finish().unwrap(), r.finish().unwrap()] {
            let mut v = Verifier::new(100, Some("deflate")).unwrap();
            // One byte at a time: the coding is told from the first two.
            for b in &packed {
                v.push(std::slice::from_ref(b)).unwrap();
            }
            assert_eq!(v.finish(None, None).unwrap().bytes, body);
        }
    }

    fn decoded(coding: &str, wire: &[u8]) -> Result<Vec<u8>, Refusal> {
        let mut v = Verifier::new(100, Some(coding))?;
        v.push(wire)?;
        v.finish(None, None).map(|c| c.bytes)
    }

    #[test]
    fn the_shortest_streams_are_told_apart() {
        // An empty body is empty, whatever its coding says.
        assert_eq!(decoded("deflate", b""), Ok(Vec::new()));
        assert_eq!(decoded("gzip", b""), Ok(Vec::new()));
        assert_eq!(decoded("identity", b""), Ok(Vec::new()));
        // Two bytes are a whole raw deflate stream (one empty final block)...
        assert_eq!(decoded("deflate", b"\x03\x00"), Ok(Vec::new()));
        // ...one byte is none.
        assert_eq!(decoded("deflate", b"\x03"), Err(Refusal::Corrupt));
        // A raw stream whose first byte looks like zlib's method, but whose check fails, is raw.
        let raw = b"\x08\x00\x00\xff\xff\x01\x01\x00\xfe\xffz";
        assert_eq!(decoded("deflate", raw), Ok(b"z".to_vec()));
        // A corrupt stream within the ceiling is corrupt, not over it.
        assert_eq!(
            decoded("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff"),
            Err(Refusal::Corrupt)
        );
    }

    #[test]
    fn a_corrupt_or_cut_coding_gives_nothing() {
        let packed = gzip(b"some text that is long enough to matter");
        let mut v = Verifier::new(100, Some("gzip")).unwrap();
        v.push(&packed[..packed.len() - 6]).unwrap();
        assert_eq!(v.finish(None, None), Err(Refusal::Corrupt));
        let mut v = Verifier::new(100, Some("gzip")).unwrap();
        assert!(v
            .push(b"not gzip at all")
            .and_then(|()| v.finish(None, None).map(|_| ()))
            .is_err());
        assert_eq!(
            Verifier::new(100, Some("br")).err(),
            Some(Refusal::Encoding("br".into()))
        );
    }

    #[test]
    fn digests_are_checked_on_the_decoded_bytes() {
        let body = b"RIFF0000WAVEpayload";
        let digest = "sha256:uM7OLD5sO8G3SeWw3LirIreZM71523d9_qXxkn8ewpM";
        let mut v = Verifier::new(100, Some("gzip")).unwrap();
        v.push(&gzip(body)).unwrap();
        let checked = v.finish(Some(digest), None).unwrap();
        assert!(checked.digest_verified);
        assert_eq!(checked.mime_type, "audio/wav");

        let mut v = Verifier::new(100, None).unwrap();
        v.push(b"RIFF0000WAVEpayloaD").unwrap();
        assert_eq!(v.finish(Some(digest), None), Err(Refusal::DigestMismatch));
        let mut v = Verifier::new(100, None).unwrap();
        v.push(body).unwrap();
        assert_eq!(v.finish(Some("md5:abc"), None), Err(Refusal::BadDigest));
    }

    #[test]
    fn the_observed_type_is_what_the_bytes_show() {
        let observed = |bytes: &[u8], claimed| observed_type(bytes, claimed);
        assert_eq!(
            observed(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Some("text/plain")),
            "image/png"
        );
        assert_eq!(observed(b"a,b\n1,2\n", Some("text/csv")), "text/csv");
        assert_eq!(
            observed(b"{}", Some("application/json; charset=utf-8")),
            "application/json"
        );
        assert_eq!(observed(b"plain", Some("image/png")), "text/plain");
        assert_eq!(observed(b"\0\xfe\xff", Some("text/plain")), "application/octet-stream");
        assert_eq!(observed(b"\0\xfe\xff", None), "application/octet-stream");
        // UTF-16 text with its mark is text, never MP3 (`FF FE` is also a frame sync).
        assert_eq!(observed(b"\xff\xfeh\0e\0l\0l\0o\0", None), "text/plain");
        assert_eq!(observed(b"\xfe\xff\0h\0i", Some("text/csv")), "text/csv");
        assert_eq!(observed(b"\xff\xfeh\0e\0", Some("audio/mpeg")), "text/plain");
        assert_eq!(
            observed(b"\xff\xfeh\0e\0\0", None),
            "application/octet-stream",
            "half a unit"
        );
        assert_eq!(
            observed(b"\xff\xfe\x00\xd8", None),
            "application/octet-stream",
            "a lone surrogate"
        );
    }
}
