//! Issue 29: with two `Content-Encoding` header lines only the first was decoded, and
//! still-gzipped bytes were presented as verified `application/octet-stream`.

use mcp_agent_view::fetch::{Refusal, Verifier};

#[test]
fn a_list_of_codings_is_decoded_whole_or_refused() {
    // Two lines reach the verifier as one list, as the HTTP transport joins them.
    for list in ["gzip, gzip", "gzip,deflate", "deflate, gzip", "gzip, br"] {
        assert!(
            matches!(Verifier::new(1 << 20, Some(list)), Err(Refusal::Encoding(_))),
            "{list}"
        );
    }
    for list in ["gzip", "identity, gzip", "gzip, identity", "", "identity"] {
        assert!(Verifier::new(1 << 20, Some(list)).is_ok(), "{list}");
    }
}
