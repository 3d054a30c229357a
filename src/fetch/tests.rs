//! The fetch room's own helpers against their oracles: the address judgement against the IANA
//! special-purpose registries and the standard library's tests, the RFC 3339 reader against
//! chrono's, the storage names.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::policy::{is_public, parse_rfc3339};
use super::storage_name;

/// The standard library's own tests of special addresses: every address any of them marks is
/// not public.
fn special_by_std(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_unspecified()
                || v4.is_multicast()
        }
        IpAddr::V6(v6) => {
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || v6.to_ipv4_mapped().is_some_and(|v4| special_by_std(IpAddr::V4(v4)))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn what_std_marks_special_is_never_public(bits in any::<u32>(), high in any::<u128>()) {
        let v4 = IpAddr::V4(Ipv4Addr::from(bits));
        prop_assert!(!(special_by_std(v4) && is_public(v4)), "{v4}");
        let mapped = IpAddr::V6(Ipv4Addr::from(bits).to_ipv6_mapped());
        prop_assert_eq!(is_public(mapped), is_public(v4), "{}", mapped);
        let v6 = IpAddr::V6(Ipv6Addr::from(high));
        prop_assert!(!(special_by_std(v6) && is_public(v6)), "{v6}");
    }

    #[test]
    fn rfc3339_reads_as_chrono_reads(secs in -62_135_596_800i64..253_402_300_799, offset in -1439i32..1440, frac in proptest::option::of(0u32..1_000_000_000)) {
        let zone = chrono::FixedOffset::east_opt(offset * 60).unwrap();
        let at = chrono::DateTime::from_timestamp(secs, frac.unwrap_or(0)).unwrap().with_timezone(&zone);
        let text = if frac.is_some() { at.format("%Y-%m-%dT%H:%M:%S%.f%:z") } else { at.format("%Y-%m-%dT%H:%M:%S%:z") }.to_string();
        prop_assert_eq!(parse_rfc3339(&text), Some(secs), "{}", text);
    }

    #[test]
    fn what_chrono_refuses_is_refused(text in "[0-9T:Z+.-]{10,30}") {
        let chrono = chrono::DateTime::parse_from_rfc3339(&text).ok().map(|d| d.timestamp());
        let ours = parse_rfc3339(&text);
        // chrono also reads a space for the T and a leap second as :59; we read neither as
        // anything but what RFC 3339's grammar says. Where we read a date, chrono reads it so.
        if let Some(ours) = ours {
            prop_assert!(chrono == Some(ours) || text.contains(":60"), "{}: {:?} vs {:?}", text, ours, chrono);
        }
    }
}

#[test]
fn storage_names_come_from_the_id_and_the_observed_type() {
    assert_eq!(storage_name("ref_abc", "audio/wav"), "ref_abc.wav");
    assert_eq!(storage_name("ref_abc", "image/jpeg"), "ref_abc.jpg");
    assert_eq!(storage_name("ref_abc", "text/csv; charset=utf-8"), "ref_abc.csv");
    assert_eq!(storage_name("ref_abc", "text/x-weird"), "ref_abc.txt");
    assert_eq!(storage_name("ref_abc", "application/x-../../etc"), "ref_abc.bin");
}

/// The IANA IPv4 Special-Purpose Address Registry as it stands (and multicast), each entry
/// with its "Globally Reachable" column: an oracle written apart from `is_public`'s tables,
/// the most specific entry deciding.
const SPECIAL_V4: [(&str, u8, bool); 25] = [
    ("0.0.0.0", 8, false),
    ("0.0.0.0", 32, false),
    ("10.0.0.0", 8, false),
    ("100.64.0.0", 10, false),
    ("127.0.0.0", 8, false),
    ("169.254.0.0", 16, false),
    ("172.16.0.0", 12, false),
    ("192.0.0.0", 24, false),
    ("192.0.0.0", 29, false),
    ("192.0.0.8", 32, false),
    ("192.0.0.9", 32, true),
    ("192.0.0.10", 32, true),
    ("192.0.0.170", 32, false),
    ("192.0.0.171", 32, false),
    ("192.0.2.0", 24, false),
    ("192.31.196.0", 24, true),
    ("192.52.193.0", 24, true),
    ("192.88.99.0", 24, false),
    ("192.168.0.0", 16, false),
    ("192.175.48.0", 24, true),
    ("198.18.0.0", 15, false),
    ("198.51.100.0", 24, false),
    ("203.0.113.0", 24, false),
    ("224.0.0.0", 4, false),
    ("240.0.0.0", 4, false),
];

fn in_table_v4(ip: u32) -> bool {
    !SPECIAL_V4
        .iter()
        .filter(|(base, len, _)| {
            let base = u32::from(base.parse::<Ipv4Addr>().unwrap());
            let mask = u32::MAX.checked_shl(32 - u32::from(*len)).unwrap_or(0);
            ip & mask == base
        })
        .max_by_key(|(_, len, _)| *len)
        .is_none_or(|(_, _, global)| *global)
}

/// Addresses at and around each range's edges, and anywhere.
fn v4_addresses() -> impl Strategy<Value = u32> {
    let edge = (0..SPECIAL_V4.len(), any::<bool>(), -2i64..=2).prop_map(|(i, end, delta)| {
        let (base, len, _) = SPECIAL_V4[i];
        let base = i64::from(u32::from(base.parse::<Ipv4Addr>().unwrap()));
        let size = 1i64 << (32 - u32::from(len));
        let at = if end { base + size - 1 } else { base } + delta;
        u32::try_from(at.clamp(0, i64::from(u32::MAX))).unwrap()
    });
    prop_oneof![edge, any::<u32>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8192))]

    #[test]
    fn public_v6_is_what_the_table_leaves(ip in v6_addresses()) {
        let address = Ipv6Addr::from(ip);
        prop_assert_eq!(is_public(IpAddr::V6(address)), public_by_table_v6(ip), "{}", address);
    }

    #[test]
    fn public_v4_is_what_the_iana_table_leaves(ip in v4_addresses()) {
        let address = Ipv4Addr::from(ip);
        prop_assert_eq!(is_public(IpAddr::V4(address)), !in_table_v4(ip), "{}", address);
        // Inside IPv6, mapped, NAT64 or 6to4, the same address is judged the same.
        let [a, b, c, d] = address.octets();
        let nat64 = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d]));
        let six_to_four = Ipv6Addr::new(0x2002, u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d]), 0, 0, 0, 0, 1);
        prop_assert_eq!(is_public(IpAddr::V6(address.to_ipv6_mapped())), !in_table_v4(ip));
        prop_assert_eq!(is_public(IpAddr::V6(nat64)), !in_table_v4(ip));
        prop_assert_eq!(is_public(IpAddr::V6(six_to_four)), !in_table_v4(ip));
    }
}

/// How the IPv6 ranges are judged: refused, or as the IPv4 address they hold at a segment.
#[derive(Clone, Copy)]
enum V6Rule {
    Refused,
    Global,
    V4At(usize),
}

/// The IPv6 ranges, longest prefix deciding: an oracle apart from `is_public`'s arithmetic.
const SPECIAL_V6: [(&str, u32, V6Rule); 30] = [
    ("::", 16, V6Rule::Refused),
    ("::", 96, V6Rule::V4At(6)),
    ("::", 112, V6Rule::Refused),
    ("::", 128, V6Rule::Refused),
    ("::1", 128, V6Rule::Refused),
    ("::ffff:0:0", 96, V6Rule::V4At(6)),
    ("64:ff9b::", 96, V6Rule::V4At(6)),
    ("64:ff9b:1::", 48, V6Rule::Refused),
    ("100::", 64, V6Rule::Refused),
    ("100:0:0:1::", 64, V6Rule::Refused),
    ("2001::", 23, V6Rule::Refused),
    ("2001::", 32, V6Rule::Refused),
    ("2001:1::1", 128, V6Rule::Global),
    ("2001:1::2", 128, V6Rule::Global),
    ("2001:1::3", 128, V6Rule::Global),
    ("2001:2::", 48, V6Rule::Refused),
    ("2001:3::", 32, V6Rule::Global),
    ("2001:4:112::", 48, V6Rule::Global),
    ("2001:10::", 28, V6Rule::Refused),
    ("2001:20::", 28, V6Rule::Global),
    ("2001:30::", 28, V6Rule::Global),
    ("2001:db8::", 32, V6Rule::Refused),
    ("2002::", 16, V6Rule::V4At(1)),
    ("2620:4f:8000::", 48, V6Rule::Global),
    ("3fff::", 20, V6Rule::Refused),
    ("5f00::", 16, V6Rule::Refused),
    ("fc00::", 7, V6Rule::Refused),
    ("fe80::", 10, V6Rule::Refused),
    ("fec0::", 10, V6Rule::Refused),
    ("ff00::", 8, V6Rule::Refused),
];

fn mask128(len: u32) -> u128 {
    u128::MAX.checked_shl(128 - len).unwrap_or(0)
}

fn public_by_table_v6(ip: u128) -> bool {
    let address = Ipv6Addr::from(ip);
    let rule = SPECIAL_V6
        .iter()
        .filter(|(base, len, _)| ip & mask128(*len) == u128::from(base.parse::<Ipv6Addr>().unwrap()))
        .max_by_key(|(_, len, _)| *len)
        .map(|(_, _, rule)| *rule);
    match rule {
        None | Some(V6Rule::Global) => true,
        Some(V6Rule::Refused) => false,
        Some(V6Rule::V4At(at)) => {
            let segments = address.segments();
            let high = u32::from(segments[at]) << 16;
            !in_table_v4(high | u32::from(segments[at + 1]))
        }
    }
}

fn v6_addresses() -> impl Strategy<Value = u128> {
    let edge = (0..SPECIAL_V6.len(), any::<bool>(), -2i8..=2, any::<u32>()).prop_map(|(i, end, delta, low)| {
        let (base, len, _) = SPECIAL_V6[i];
        let base = u128::from(base.parse::<Ipv6Addr>().unwrap());
        let size = if len == 0 {
            u128::MAX
        } else {
            (!mask128(len)).wrapping_add(1)
        };
        // An edge, or an address inside with a random low part (an IPv4 address in it).
        let at = if end {
            base.wrapping_add(size).wrapping_sub(1)
        } else {
            base | u128::from(low)
        };
        at.wrapping_add_signed(i128::from(delta))
    });
    prop_oneof![edge, any::<u128>()]
}

/// A row per entry of the IANA special-purpose registries (and multicast): an address inside
/// it, and whether it is public. Where an entry holds a more specific one, the address is
/// outside that.
#[test]
fn every_special_purpose_entry_is_judged_as_its_registry_says() {
    #[rustfmt::skip]
    let rows: [(&str, bool); 55] = [
        ("0.255.255.255", false), ("0.0.0.0", false), ("10.200.0.1", false),
        ("100.127.255.255", false), ("127.53.0.1", false), ("169.254.169.254", false),
        ("172.31.0.1", false), ("192.0.0.255", false), ("192.0.0.7", false),
        ("192.0.0.8", false), ("192.0.0.9", true), ("192.0.0.10", true),
        ("192.0.0.170", false), ("192.0.0.171", false), ("192.0.2.77", false),
        ("192.31.196.1", true), ("192.52.193.1", true), ("192.88.99.1", false),
        ("192.168.255.1", false), ("192.175.48.6", true), ("198.19.255.255", false),
        ("198.51.100.9", false), ("203.0.113.200", false), ("239.255.255.250", false),
        ("240.0.0.1", false), ("255.255.255.255", false),
        ("::", false), ("::1", false), ("::ffff:10.0.0.1", false), ("::ffff:1.1.1.1", true),
        ("64:ff9b::7f00:1", false), ("64:ff9b::808:808", true), ("64:ff9b:1::808:808", false),
        ("64:ff9b:1:ffff::1", false), ("100::1", false), ("100:0:0:1::1", false),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", false), ("2001:1ff::1", false),
        ("2001:1::1", true), ("2001:1::2", true), ("2001:1::3", true), ("2001:1::4", false),
        ("2001:2::1", false), ("2001:3::1", true), ("2001:4:112::1", true),
        ("2001:10::1", false), ("2001:20::1", true), ("2001:30::1", true),
        ("2001:db8:85a3::8a2e:370:7334", false), ("2002:c000:0204::1", false),
        ("2620:4f:8000::1", true), ("3fff:fff::1", false), ("5f00:1::1", false),
        ("fd00::1", false), ("fe80::1", false),
    ];
    for (address, public) in rows {
        assert_eq!(is_public(address.parse().unwrap()), public, "{address}");
    }
    for (address, public) in [
        ("fec0::1", false),
        ("ff02::1", false),
        ("2606:4700::1111", true),
        ("3fff:1000::1", true),
        ("5eff::1", true),
    ] {
        assert_eq!(is_public(address.parse().unwrap()), public, "{address}");
    }
}
