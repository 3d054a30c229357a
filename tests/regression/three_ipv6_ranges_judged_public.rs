//! Issue 29: three IPv6 ranges were judged public: `64:ff9b:1::/48` (RFC 8215), `3fff::/20`
//! (RFC 9637) and `5f00::/16` (RFC 9602). Judged here as a host sees it: a reference to the
//! address, planned under the default policy.

use mcp_agent_view::fetch::{FetchPolicy, Refusal};

use crate::fetching::record;

fn planned(address: &str) -> Result<(), Refusal> {
    FetchPolicy::new()
        .plan(&record(&format!("https://[{address}]/a")))
        .map(|_| ())
}

#[test]
fn the_newer_special_purpose_ranges_are_not_public() {
    for address in [
        "64:ff9b:1::1",
        "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
        "3fff::1",
        "3fff:fff:ffff::1",
        "5f00::1",
        "5f00:ffff:ffff::1",
        "100:0:0:1::1",
    ] {
        assert_eq!(planned(address), Err(Refusal::NotPublic), "{address}");
    }
    for address in ["64:ff9b:2::1", "3fff:1000::1", "5eff:ffff::1", "5f01::1"] {
        assert_eq!(planned(address), Ok(()), "{address}");
    }
}
