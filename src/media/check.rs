//! The checks media passes before it goes out as media: base64, first bytes, size.

use std::borrow::Cow;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;

use crate::media::target::{AudioFormat, ImageFormat, Target};
use crate::text::base64_decoded_len;

/// What a media check is about: the kind of media the block claims to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    Image,
    Audio,
    Pdf,
}

/// What the first bytes show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sniffed {
    Image(ImageFormat),
    Audio(AudioFormat),
    Pdf,
}

/// The outcome of the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Checked<'a> {
    /// Goes out as media, with its real media type and clean base64.
    Send {
        mime_type: &'static str,
        data: Cow<'a, str>,
    },
    /// Does not go out; the reason ends its marker.
    NotSent(NotSent),
}

/// Why media does not go out as media.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotSent {
    /// Neither the declared type nor the bytes are a type the target accepts.
    UnsupportedType,
    /// The declared type is accepted, but the bytes show no type the target accepts.
    Mismatch,
    /// The base64 does not decode.
    InvalidBase64,
    /// Over the target's limit, in bytes.
    TooLarge(u64),
}

/// The base64 engine for what MCP servers send: standard alphabet, padding optional.
const FORGIVING: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Decodes base64 as MCP servers send it: standard alphabet, line breaks allowed, padding
/// optional.
pub(crate) fn decode_base64(data: &[u8]) -> Option<Vec<u8>> {
    if data.iter().any(u8::is_ascii_whitespace) {
        let compact: Vec<u8> = data.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
        FORGIVING.decode(compact).ok()
    } else {
        FORGIVING.decode(data).ok()
    }
}

/// How many base64 characters give the bytes the type check reads (12 bytes).
const PREFIX_CHARS: usize = 16;

/// Checks media data claimed to be `claim`, declared as `declared`, against `target`.
///
/// Only the first bytes are decoded to tell the type; the whole is decoded (to prove it is
/// valid base64) only when everything else passed.
pub(crate) fn check<'a>(claim: Claim, declared: Option<&str>, data: &'a [u8], target: &Target) -> Checked<'a> {
    let sniffed = match sniff_prefix(data) {
        Ok(sniffed) => sniffed,
        Err(reason) => return Checked::NotSent(reason),
    };
    let (mime_type, limit) = match (claim, sniffed) {
        (Claim::Image, Some(Sniffed::Image(f))) if target.images.contains(&f) => {
            (f.mime_type(), target.max_image_bytes)
        }
        (Claim::Audio, Some(Sniffed::Audio(f))) if target.audio.contains(&f) => (f.mime_type(), target.max_audio_bytes),
        (Claim::Pdf, Some(Sniffed::Pdf)) if target.pdf => ("application/pdf", target.max_pdf_bytes),
        (_, None) if declared_is_accepted(claim, declared.map(essence).as_deref(), target) => {
            return Checked::NotSent(NotSent::Mismatch)
        }
        _ => return Checked::NotSent(NotSent::UnsupportedType),
    };
    if let Some(limit) = limit {
        // The size from the length alone is an upper bound: only data over the limit by it
        // has its line breaks counted out.
        if base64_decoded_len(data) > limit && decoded_len(data) > limit {
            return Checked::NotSent(NotSent::TooLarge(limit));
        }
    }
    match clean_base64(data) {
        Some(data) => Checked::Send { mime_type, data },
        None => Checked::NotSent(NotSent::InvalidBase64),
    }
}

/// The type the first bytes show, `None` where they show none this crate knows; an error where
/// the base64 of the first bytes does not decode.
fn sniff_prefix(data: &[u8]) -> Result<Option<Sniffed>, NotSent> {
    // On the stack: this runs for every medium a lane may send.
    let mut prefix = [0u8; PREFIX_CHARS];
    let mut len = 0;
    for &c in data.iter().filter(|c| !c.is_ascii_whitespace()).take(PREFIX_CHARS) {
        prefix[len] = c;
        len += 1;
    }
    if let Some(bytes) = (len == PREFIX_CHARS).then(|| decode_prefix(&prefix)).flatten() {
        return Ok(sniff(&bytes));
    }
    // Short or padded: the engine, which knows every rule of the tail.
    let mut bytes = [0u8; PREFIX_CHARS / 4 * 3];
    let decoded = FORGIVING
        .decode_slice(&prefix[..len], &mut bytes)
        .map_err(|_| NotSent::InvalidBase64)?;
    Ok(sniff(&bytes[..decoded]))
}

/// Each byte's six bits in the standard base64 alphabet; `0xff` for any other byte.
const SEXTETS: [u8; 256] = {
    let mut table = [0xff; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0u8;
    while i < 64 {
        table[alphabet[i as usize] as usize] = i;
        i += 1;
    }
    table
};

/// Sixteen characters of the alphabet as their twelve bytes, by table, without branches: the
/// engine's set-up cost more than these few characters (it ran for every image a lane sent).
/// `None` where any is not of the alphabet (padding, for one).
fn decode_prefix(chars: &[u8; PREFIX_CHARS]) -> Option<[u8; PREFIX_CHARS / 4 * 3]> {
    let mut bits = 0u128;
    let mut bad = 0u8;
    for &c in chars {
        let sextet = SEXTETS[usize::from(c)];
        bad |= sextet;
        bits = bits << 6 | u128::from(sextet & 0x3f);
    }
    let mut bytes = [0u8; PREFIX_CHARS / 4 * 3];
    bytes.copy_from_slice(&bits.to_be_bytes()[4..]);
    (bad & 0xc0 == 0).then_some(bytes)
}

fn sniff(b: &[u8]) -> Option<Sniffed> {
    let riff = |kind: &[u8]| b.len() >= 12 && &b[..4] == b"RIFF" && &b[8..12] == kind;
    Some(match b {
        [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Sniffed::Image(ImageFormat::Png),
        [0xFF, 0xD8, 0xFF, ..] => Sniffed::Image(ImageFormat::Jpeg),
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => Sniffed::Image(ImageFormat::Gif),
        _ if riff(b"WEBP") => Sniffed::Image(ImageFormat::Webp),
        _ if riff(b"WAVE") => Sniffed::Audio(AudioFormat::Wav),
        [b'I', b'D', b'3', ..] => Sniffed::Audio(AudioFormat::Mp3),
        [a, b, c, d, ..] if is_mpeg_audio_frame([*a, *b, *c, *d]) => Sniffed::Audio(AudioFormat::Mp3),
        [b'O', b'g', b'g', b'S', ..] => Sniffed::Audio(AudioFormat::Ogg),
        [b'f', b'L', b'a', b'C', ..] => Sniffed::Audio(AudioFormat::Flac),
        [b'%', b'P', b'D', b'F', b'-', ..] => Sniffed::Pdf,
        _ => return None,
    })
}

/// Whether four bytes are an MPEG audio frame header: the 11-bit sync, and no reserved value
/// in the version, layer, bitrate, sampling-rate or emphasis fields. Text that opens with a
/// UTF-16 byte-order mark is text, never audio: `FF FE` passes every field check with the
/// right next bytes, so both marks are refused first.
fn is_mpeg_audio_frame([a, b, c, d]: [u8; 4]) -> bool {
    let bom = matches!([a, b], [0xFF, 0xFE] | [0xFE, 0xFF]);
    let sync = a == 0xFF && b & 0xE0 == 0xE0;
    let version = (b >> 3) & 0b11; // 0b01 is reserved
    let layer = (b >> 1) & 0b11; // 0b00 is reserved
    let bitrate = c >> 4; // 0b1111 is reserved ("bad")
    let sampling = (c >> 2) & 0b11; // 0b11 is reserved
    let emphasis = d & 0b11; // 0b10 is reserved
    !bom && sync && version != 0b01 && layer != 0b00 && bitrate != 0b1111 && sampling != 0b11 && emphasis != 0b10
}

/// The media type raw `bytes` show by their first bytes, where they show one this crate
/// knows (the image and audio formats, PDF).
pub(crate) fn sniffed_bytes_type(bytes: &[u8]) -> Option<&'static str> {
    Some(match sniff(bytes)? {
        Sniffed::Image(format) => format.mime_type(),
        Sniffed::Audio(format) => format.mime_type(),
        Sniffed::Pdf => "application/pdf",
    })
}

/// The media type the first bytes of base64 `data` show, where they show one this crate
/// knows (the image and audio formats, PDF).
pub(crate) fn sniffed_type(data: &[u8]) -> Option<&'static str> {
    Some(match sniff_prefix(data).ok()?? {
        Sniffed::Image(format) => format.mime_type(),
        Sniffed::Audio(format) => format.mime_type(),
        Sniffed::Pdf => "application/pdf",
    })
}

fn declared_is_accepted(claim: Claim, declared: Option<&str>, target: &Target) -> bool {
    let Some(declared) = declared else { return false };
    match claim {
        Claim::Image => target
            .images
            .iter()
            .any(|f| f.mime_type() == declared || (declared == "image/jpg" && *f == ImageFormat::Jpeg)),
        Claim::Audio => target.audio.iter().any(|f| f.mime_type() == declared),
        Claim::Pdf => target.pdf && declared == "application/pdf",
    }
}

/// A media type's essence, lowercased: `Image/PNG; x=y` is `image/png`.
fn essence(mime: &str) -> String {
    mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// The decoded size. From the length alone, unless that is over some limit and the data has
/// line breaks, which are then counted out.
fn decoded_len(data: &[u8]) -> u64 {
    if memchr::memchr2(b'\n', b'\r', data).is_some() {
        let chars = data.iter().filter(|b| !b.is_ascii_whitespace() && **b != b'=').count();
        (chars as u64) * 3 / 4
    } else {
        base64_decoded_len(data)
    }
}

/// The data as base64 a provider accepts: no white space, padded. Borrowed where it already
/// is; `None` where it is not valid base64. The check runs at memory speed (SIMD).
fn clean_base64(data: &[u8]) -> Option<Cow<'_, str>> {
    let has_space =
        memchr::memchr3(b' ', b'\n', b'\r', data).is_some() || memchr::memchr2(b'\t', b'\x0c', data).is_some();
    let compact: Cow<'_, [u8]> = if has_space {
        Cow::Owned(data.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect())
    } else {
        Cow::Borrowed(data)
    };
    let missing = (4 - compact.len() % 4) % 4;
    let valid = if missing == 0 {
        base64_simd::STANDARD.check(&compact).is_ok()
    } else {
        base64_simd::STANDARD_NO_PAD.check(&compact).is_ok()
    };
    if !valid {
        return None;
    }
    match compact {
        Cow::Borrowed(bytes) if missing == 0 => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
        compact => {
            let mut text = String::from_utf8(compact.into_owned()).ok()?;
            text.extend(std::iter::repeat_n('=', missing));
            Some(Cow::Owned(text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_decodes_by_table_as_the_engine_decodes_it() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..12)
                .map(|_| crate::json::xorshift(&mut x).to_le_bytes()[0])
                .collect();
            let chars: [u8; PREFIX_CHARS] = FORGIVING.encode(&bytes).into_bytes().try_into().unwrap();
            assert_eq!(decode_prefix(&chars).map(Vec::from), Some(bytes));
        }
        assert_eq!(decode_prefix(b"iVBORw0KGgoAAA=="), None);
        assert_eq!(decode_prefix(b"iVBORw0KGgo-AAAA"), None);
        assert_eq!(decode_prefix(b"iVBORw0KGgo\xffAAAA"), None);
    }

    #[test]
    fn magic_numbers() {
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n\0\0\0\r"),
            Some(Sniffed::Image(ImageFormat::Png))
        );
        assert_eq!(
            sniff(b"\xff\xd8\xff\xe0\0\x10JFIF"),
            Some(Sniffed::Image(ImageFormat::Jpeg))
        );
        assert_eq!(sniff(b"GIF89a\x01\0"), Some(Sniffed::Image(ImageFormat::Gif)));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(Sniffed::Image(ImageFormat::Webp)));
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt "), Some(Sniffed::Audio(AudioFormat::Wav)));
        assert_eq!(sniff(b"ID3\x04\0\0"), Some(Sniffed::Audio(AudioFormat::Mp3)));
        assert_eq!(sniff(b"\xff\xfb\x90\x64"), Some(Sniffed::Audio(AudioFormat::Mp3)));
        assert_eq!(
            sniff(b"\xff\xf3\x48\xc4"),
            Some(Sniffed::Audio(AudioFormat::Mp3)),
            "MPEG-2 layer III"
        );
        assert_eq!(
            sniff(b"\xff\xe3\x18\xc4"),
            Some(Sniffed::Audio(AudioFormat::Mp3)),
            "MPEG-2.5"
        );
        // Not a frame: a byte-order mark, or a reserved value in any field.
        for not_mp3 in [
            &b"\xff\xfeh\0e\0"[..],
            b"\xfe\xff\0h\0e",
            b"\xff\xeb\x90\x64", // version 01
            b"\xff\xf9\x90\x64", // layer 00
            b"\xff\xfb\xf0\x64", // bitrate 1111
            b"\xff\xfb\x9c\x64", // sampling rate 11
            b"\xff\xfb\x90\x66", // emphasis 10
            b"\xff\xfb\x90",     // too short for a header
            b"\xff\xc0\x90\x64", // no sync
        ] {
            assert_eq!(sniff(not_mp3), None, "{not_mp3:x?}");
        }
        assert_eq!(sniff(b"OggS\0\x02"), Some(Sniffed::Audio(AudioFormat::Ogg)));
        assert_eq!(sniff(b"fLaC\0\0"), Some(Sniffed::Audio(AudioFormat::Flac)));
        assert_eq!(sniff(b"%PDF-1.7\n"), Some(Sniffed::Pdf));
        assert_eq!(sniff(b"<svg xmlns="), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn clean_base64_strips_space_and_pads() {
        assert_eq!(clean_base64(b"aGVs\nbG8=").as_deref(), Some("aGVsbG8="));
        assert_eq!(clean_base64(b"aGVsbG8").as_deref(), Some("aGVsbG8="));
        assert!(matches!(clean_base64(b"aGVsbG8="), Some(Cow::Borrowed(_))));
        assert_eq!(clean_base64(b"aGVs*G8="), None);
        assert_eq!(clean_base64(b"aGVsbG8=aGVs"), None, "padding inside");
        assert_eq!(clean_base64(b"aA="), None);
    }
}
