//! Bytes off the wire → the fetch verifier, under every content coding, cut into chunks the
//! input chooses. Nothing may panic; what it gives is never over the ceiling; it gives the
//! same (or nothing) however the body is cut; an identity body is given back exactly, or refused only for
//! the ceiling; a gzip of the bytes gives the bytes back; a digest of what it gave verifies.
#![no_main]

use std::io::Write as _;

use libfuzzer_sys::fuzz_target;
use mcp_agent_view::fetch::{Refusal, Verifier};

fn run(coding: Option<&str>, ceiling: u64, wire: &[u8], chunk: usize) -> Result<Vec<u8>, Refusal> {
    let mut verifier = Verifier::new(ceiling, coding)?;
    for piece in wire.chunks(chunk.max(1)) {
        verifier.push(piece)?;
    }
    verifier.finish(None, None).map(|checked| checked.bytes)
}

fuzz_target!(|input: &[u8]| {
    let [mode, ceiling, chunk, wire @ ..] = input else { return };
    let ceiling = u64::from(*ceiling) * 8;
    let chunk = usize::from(*chunk) + 1;
    let coding = [None, Some("gzip"), Some("deflate"), Some("gzip")][usize::from(mode % 4)];
    let wire = if mode % 4 == 3 {
        // A real gzip of the input: it must come back whole, or be refused for the ceiling.
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(wire).unwrap();
        encoder.finish().unwrap()
    } else {
        wire.to_vec()
    };
    let whole = run(coding, ceiling, &wire, wire.len());
    // Which refusal comes first may depend on the cut (a corrupt stream can pass the ceiling
    // before its fault shows); whether anything is given, and what, may not.
    assert_eq!(run(coding, ceiling, &wire, chunk).ok(), whole.clone().ok(), "the same however the body is cut");
    if let Ok(bytes) = &whole {
        assert!(bytes.len() as u64 <= ceiling, "never over the ceiling");
    }
    let original = &input[3..];
    if coding.is_none() || mode % 4 == 3 {
        match &whole {
            Ok(bytes) => assert_eq!(bytes, original, "the bytes given back exactly"),
            Err(refusal) => {
                assert!(matches!(refusal, Refusal::OverCeiling { .. }), "{refusal}");
                assert!(original.len() as u64 > ceiling);
            }
        }
    }
    if let Ok(bytes) = whole {
        use base64::Engine as _;
        use sha2::Digest as _;
        let digest = format!("sha256:{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(&bytes)));
        let mut verifier = Verifier::new(ceiling, coding).unwrap();
        verifier.push(&wire).unwrap();
        assert!(verifier.finish(Some(&digest), None).unwrap().digest_verified);
    }
});
