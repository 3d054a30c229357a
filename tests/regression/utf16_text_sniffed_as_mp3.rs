//! Issue 29: the MP3 sniffer took any `FF Ex` start, so UTF-16LE text (BOM `FF FE`) read as
//! `audio/mpeg`, was sent as an audio block and saved as `.mp3`.

use base64::Engine as _;
use mcp_agent_view::fetch::Verifier;
use mcp_agent_view::{convert, Message, Provenance, ReferenceRegistry, Target};
use serde_json::json;

#[test]
fn text_with_a_utf16_mark_is_text_and_never_audio() {
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("hello".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let mut verifier = Verifier::new(1 << 20, None).unwrap();
    verifier.push(&utf16).unwrap();
    assert_eq!(
        verifier.finish(None, Some("audio/mpeg")).unwrap().mime_type,
        "text/plain"
    );
    // Inline, declared as audio, it is no audio block for a target that takes MP3.
    let data = base64::engine::general_purpose::STANDARD.encode(&utf16);
    let message = Message::decode(&json!([{"type": "audio", "data": data, "mimeType": "audio/mpeg"}])).unwrap();
    let blocks = convert(
        &message,
        Provenance::ToolResult,
        &ReferenceRegistry::new(),
        &Target::openai_chat_audio(),
    )
    .unwrap()
    .content;
    assert!(
        blocks[0].as_text().is_some_and(|t| t.contains("not sent")),
        "{blocks:?}"
    );
}
