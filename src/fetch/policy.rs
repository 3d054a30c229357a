//! The fetch policy: what may be fetched, decided before anything is dialed. No I/O here.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use url::{Host, Url};

use super::Refusal;
use crate::error::{Error, ErrorKind};
use crate::reference::ReferenceRecord;

/// The host's rules for fetching references (RFC-005 §6 and §7). Every rule fails closed.
///
/// ```
/// use mcp_agent_view::fetch::FetchPolicy;
///
/// let policy = FetchPolicy::new()
///     .origin("https://files.example.com")?
///     .bearer("s3cret")
///     .max_bytes(1 << 20);
/// assert_eq!(policy.max_bytes_allowed(), 1 << 20);
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
#[derive(Clone)]
pub struct FetchPolicy {
    pub(crate) max_bytes: u64,
    pub(crate) schemes: Vec<String>,
    pub(crate) origin: Option<url::Origin>,
    pub(crate) bearer: Option<String>,
    pub(crate) allowed_origins: Vec<url::Origin>,
    pub(crate) timeout: Duration,
    pub(crate) max_redirects: u8,
    pub(crate) cross_origin_redirects: bool,
    pub(crate) now: Option<SystemTime>,
    pub(crate) files_under: Option<PathBuf>,
    pub(crate) hard_links: bool,
}

impl std::fmt::Debug for FetchPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The credential is not printed.
        f.debug_struct("FetchPolicy")
            .field("max_bytes", &self.max_bytes)
            .field("schemes", &self.schemes)
            .field("origin", &self.origin.as_ref().map(url::Origin::ascii_serialization))
            .field("bearer", &self.bearer.as_ref().map(|_| "…"))
            .field(
                "allowed_origins",
                &self
                    .allowed_origins
                    .iter()
                    .map(url::Origin::ascii_serialization)
                    .collect::<Vec<_>>(),
            )
            .field("timeout", &self.timeout)
            .field("max_redirects", &self.max_redirects)
            .field("cross_origin_redirects", &self.cross_origin_redirects)
            .field("files_under", &self.files_under)
            .field("hard_links", &self.hard_links)
            .finish_non_exhaustive()
    }
}

/// The default byte ceiling: 16 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 16 * 1024 * 1024;

impl Default for FetchPolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl FetchPolicy {
    /// The defaults: `https` only, no dialed origin (so no credential goes anywhere), public
    /// addresses only, a ceiling of [`DEFAULT_MAX_BYTES`], a 30 s timeout, at most 3
    /// redirects (one out of the origin is followed as a fresh fetch, without a credential).
    #[must_use]
    pub fn new() -> Self {
        FetchPolicy {
            max_bytes: DEFAULT_MAX_BYTES,
            schemes: vec!["https".to_owned()],
            origin: None,
            bearer: None,
            allowed_origins: Vec::new(),
            timeout: Duration::from_secs(30),
            max_redirects: 3,
            cross_origin_redirects: true,
            now: None,
            files_under: None,
            hard_links: false,
        }
    }

    /// The hard ceiling on the decoded bytes of one fetch.
    #[must_use]
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The ceiling in force.
    #[must_use]
    pub fn max_bytes_allowed(&self) -> u64 {
        self.max_bytes
    }

    /// Allows a scheme besides `https` (`http`, `data`, …), in any case. Fails with
    /// [`ErrorKind::Policy`] for `file`, which only
    /// [`FetchPolicy::allow_files_under`] allows (it names the directory files may come from),
    /// and for what is no scheme (a letter, then letters, digits, `+`, `-`, `.`). The CLI and
    /// both packages give their users this check and its words.
    pub fn allow_scheme(mut self, scheme: &str) -> Result<Self, Error> {
        let refused = |why: String| Err(Error::new(ErrorKind::Policy, why));
        let bytes = scheme.as_bytes();
        let well_formed = bytes.first().is_some_and(u8::is_ascii_alphabetic)
            && bytes.len() <= 32
            && bytes
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        if !well_formed {
            return refused(format!("not a scheme: {}", shown(scheme)));
        }
        let scheme = scheme.to_ascii_lowercase();
        if scheme == "file" {
            return refused("file: is allowed only under a directory, which allow_files_under names".to_owned());
        }
        if !self.schemes.contains(&scheme) {
            self.schemes.push(scheme);
        }
        Ok(self)
    }

    /// The origin the connection was dialed to (`https://host:port`): the one origin that gets
    /// the host's credential, and that is fetched from whatever address it has (a server on
    /// loopback is the host's own choice). Fails where `origin` is no URL with a host.
    pub fn origin(mut self, origin: &str) -> Result<Self, Error> {
        self.origin = Some(parse_origin(origin)?);
        Ok(self)
    }

    /// The connection's credential, sent as `Authorization: Bearer …` to the dialed origin
    /// only, never after a redirect elsewhere.
    #[must_use]
    pub fn bearer(mut self, token: &str) -> Self {
        self.bearer = Some(token.to_owned());
        self
    }

    /// Allows an origin whose addresses are not public (loopback, private, link-local,
    /// unique-local), by name. It gets no credential.
    pub fn allow_origin(mut self, origin: &str) -> Result<Self, Error> {
        self.allowed_origins.push(parse_origin(origin)?);
        Ok(self)
    }

    /// The timeout of one whole fetch.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The most redirects one fetch follows.
    #[must_use]
    pub fn max_redirects(mut self, hops: u8) -> Self {
        self.max_redirects = hops;
        self
    }

    /// Whether a redirect out of the origin is followed (the default: without any
    /// credential, as a fresh fetch under every rule) or refused outright
    /// ([`Refusal::CrossOriginRedirect`]). RFC-005 §7 allows either.
    #[must_use]
    pub fn cross_origin_redirects(mut self, follow: bool) -> Self {
        self.cross_origin_redirects = follow;
        self
    }

    /// Allows `file:` references to regular files beneath `dir`, and nowhere else. The path
    /// is resolved inside `dir` so that no component can leave it, whatever is swapped
    /// meanwhile: no symlink is followed and no `..` taken below `dir` (`dir` itself is
    /// opened as the host names it). A directory, FIFO, socket or device is refused, and so
    /// is any file on procfs, sysfs or another filesystem of the kernel's own, wherever it is
    /// mounted; a file with more than one link is refused unless
    /// [`FetchPolicy::allow_hard_links`]. The ceiling holds on the file's size and on what is
    /// read, and the timeout covers the read.
    ///
    /// ```
    /// use mcp_agent_view::fetch::FetchPolicy;
    ///
    /// let policy = FetchPolicy::new().allow_files_under("/srv/shared");
    /// assert_eq!(policy.files_allowed_under(), Some(std::path::Path::new("/srv/shared")));
    /// ```
    #[must_use]
    pub fn allow_files_under(mut self, dir: impl Into<PathBuf>) -> Self {
        self.files_under = Some(dir.into());
        self
    }

    /// Allows a `file:` reference to a file with more than one link. Refused by default: a
    /// hard link inside the directory to a file outside it (on the same filesystem) reads as
    /// any other file there.
    #[must_use]
    pub fn allow_hard_links(mut self, allow: bool) -> Self {
        self.hard_links = allow;
        self
    }

    /// The directory `file:` references may be read from, where the host named one.
    #[must_use]
    pub fn files_allowed_under(&self) -> Option<&Path> {
        self.files_under.as_deref()
    }

    /// The schemes allowed: `https`, those named, and `file` where a directory is.
    fn allowed_schemes(&self) -> Vec<String> {
        let mut allowed = self.schemes.clone();
        if self.files_under.is_some() {
            allowed.push("file".to_owned());
        }
        allowed
    }

    /// The clock `expiresAt` is judged by: the system's unless set (for tests).
    #[must_use]
    pub fn now(mut self, now: SystemTime) -> Self {
        self.now = Some(now);
        self
    }

    /// Decides, before anything is dialed, whether `record` may be fetched, and how: its
    /// claims ([`FetchPolicy::check_claims`]), then its uri (scheme, userinfo, origin).
    pub fn plan(&self, record: &ReferenceRecord) -> Result<Plan, Refusal> {
        self.check_claims(record)?;
        let url = Url::parse(&record.uri).map_err(|_| Refusal::BadUri)?;
        self.admit(&url)?;
        self.plan_url(url)
    }

    /// Refuses a URL whose scheme the policy does not allow, or that carries userinfo.
    fn admit(&self, url: &Url) -> Result<(), Refusal> {
        let allowed =
            self.schemes.iter().any(|s| s == url.scheme()) || (url.scheme() == "file" && self.files_under.is_some());
        if !allowed {
            return Err(Refusal::Scheme {
                allowed: self.allowed_schemes(),
            });
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(Refusal::Userinfo);
        }
        Ok(())
    }

    /// Refuses, whatever the transport, a record that claims more bytes than the ceiling,
    /// whose `digest` is none this crate can check (`sha256:` and 43 base64url characters), or
    /// whose `expiresAt` is past, or no RFC 3339 date-time of at most 64 characters.
    pub fn check_claims(&self, record: &ReferenceRecord) -> Result<(), Refusal> {
        if let Some(claimed) = record.size_bytes.filter(|&size| size > self.max_bytes) {
            return Err(Refusal::OverCeiling {
                ceiling: self.max_bytes,
                claimed: Some(claimed),
            });
        }
        if let Some(digest) = &record.digest {
            if !super::verify::is_checkable_digest(digest) {
                return Err(Refusal::BadDigest);
            }
        }
        if let Some(expires_at) = &record.expires_at {
            let readable = expires_at.chars().count() <= 64;
            let Some(expiry) = parse_rfc3339(expires_at).filter(|_| readable) else {
                return Err(Refusal::BadExpiry);
            };
            let now = self.now.unwrap_or_else(SystemTime::now);
            let now = now
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
            if expiry <= now {
                return Err(Refusal::Expired);
            }
        }
        Ok(())
    }

    /// The plan for `url`, its scheme allowed: where it goes, with which credential, and which
    /// addresses may answer.
    pub(crate) fn plan_url(&self, url: Url) -> Result<Plan, Refusal> {
        match url.scheme() {
            "http" | "https" => {}
            "data" => return Ok(Plan::local(url, Via::Data)),
            "file" => return Ok(Plan::local(url, Via::File)),
            _ => return Err(Refusal::NoTransport),
        }
        if url.host().is_none() {
            return Err(Refusal::BadUri);
        }
        let origin = url.origin();
        let dialed = self.origin.as_ref() == Some(&origin);
        let named = dialed || self.allowed_origins.contains(&origin);
        if !named {
            // An address literal is judged now; a name once it resolves (by the transport).
            match url.host() {
                Some(Host::Ipv4(ip)) if !is_public(IpAddr::V4(ip)) => return Err(Refusal::NotPublic),
                Some(Host::Ipv6(ip)) if !is_public(IpAddr::V6(ip)) => return Err(Refusal::NotPublic),
                Some(Host::Domain(name)) if is_local_name(name) => return Err(Refusal::NotPublic),
                _ => {}
            }
        }
        Ok(Plan {
            bearer: if dialed { self.bearer.clone() } else { None },
            public_only: !named,
            url,
            via: Via::Http,
        })
    }

    /// Whether a redirect from `from` to `to` may be followed, and how: within its origin, as
    /// it was; out of it (where the policy follows such redirects), as a fresh fetch of `to`
    /// under every rule (scheme, origin, addresses), and never with a credential again, for
    /// the rest of the chain.
    pub(crate) fn redirect(&self, from: &Plan, to: Url) -> Result<Plan, Refusal> {
        if !to.username().is_empty() || to.password().is_some() {
            return Err(Refusal::Userinfo);
        }
        if to.origin() == from.url.origin() {
            return Ok(Plan {
                url: to,
                ..from.clone()
            });
        }
        if !self.cross_origin_redirects {
            return Err(Refusal::CrossOriginRedirect);
        }
        if !matches!(to.scheme(), "http" | "https") {
            return Err(Refusal::Scheme {
                allowed: self
                    .schemes
                    .iter()
                    .filter(|s| matches!(s.as_str(), "http" | "https"))
                    .cloned()
                    .collect(),
            });
        }
        self.admit(&to)?;
        let mut plan = self.plan_url(to)?;
        plan.bearer = None;
        Ok(plan)
    }
}

fn parse_origin(origin: &str) -> Result<url::Origin, Error> {
    let bad = || Error::new(ErrorKind::Policy, format!("not an origin: {}", shown(origin)));
    let url = Url::parse(origin).map_err(|_| bad())?;
    match url.origin() {
        o @ url::Origin::Tuple(..) => Ok(o),
        url::Origin::Opaque(_) => Err(bad()),
    }
}

fn shown(s: &str) -> String {
    crate::text::clean_label(s).unwrap_or_default()
}

/// How a fetch is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// An HTTP(S) GET.
    Http,
    /// A `data:` URL, decoded here.
    Data,
    /// A `file:` URL, read from the host's disk (only where the host allowed the scheme).
    File,
}

/// What the policy decided for one fetch: the URL, the credential it carries, and whether
/// only public addresses may answer.
#[derive(Clone)]
pub struct Plan {
    /// Where to fetch from.
    pub url: Url,
    /// The credential to send: only to the dialed origin.
    pub bearer: Option<String>,
    /// Whether the transport must refuse any address that is not public, once resolved.
    pub public_only: bool,
    /// How.
    pub via: Via,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("url", &self.url.as_str())
            .field("bearer", &self.bearer.as_ref().map(|_| "…"))
            .field("public_only", &self.public_only)
            .field("via", &self.via)
            .finish()
    }
}

impl Plan {
    fn local(url: Url, via: Via) -> Plan {
        Plan {
            url,
            bearer: None,
            public_only: false,
            via,
        }
    }

    /// Whether `address`, where the plan's host resolved, may answer.
    #[must_use]
    pub fn admits(&self, address: IpAddr) -> bool {
        !self.public_only || is_public(address)
    }
}

/// Names that are the host itself, whatever they resolve to.
fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = name.rsplit('.').collect();
    matches!(labels.first(), Some(&("localhost" | "local" | "internal")))
}

/// Whether `ip` is a public unicast address: what the IANA IPv4 and IPv6 Special-Purpose
/// Address Registries leave, or mark "globally reachable"; never a multicast address. The
/// most specific entry decides (192.0.0.9/32, an anycast address the registry marks globally
/// reachable, is public inside 192.0.0.0/24, which is not). An IPv4 address inside IPv6
/// (mapped, compatible, NAT64's `64:ff9b::/96`, 6to4) is judged as that IPv4 address.
#[must_use]
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

/// What a special-purpose entry makes of the addresses in it.
#[derive(Clone, Copy)]
enum Reach {
    /// Not globally reachable (or reserved, or not for use as an address at all).
    Not,
    /// Globally reachable, as the registry says.
    Global,
    /// An IPv4 address embedded at this 16-bit segment, judged as itself.
    V4At(usize),
}

/// The IANA IPv4 Special-Purpose Address Registry, with multicast (224.0.0.0/4, in a registry
/// of its own) beside it: each entry's prefix, length and "Globally Reachable" column.
#[rustfmt::skip]
const SPECIAL_V4: [([u8; 4], u8, Reach); 25] = [
    ([0, 0, 0, 0], 8, Reach::Not),            // "this network" (RFC 791)
    ([0, 0, 0, 0], 32, Reach::Not),           // "this host on this network"
    ([10, 0, 0, 0], 8, Reach::Not),           // private-use (RFC 1918)
    ([100, 64, 0, 0], 10, Reach::Not),        // shared address space (RFC 6598)
    ([127, 0, 0, 0], 8, Reach::Not),          // loopback
    ([169, 254, 0, 0], 16, Reach::Not),       // link local (RFC 3927)
    ([172, 16, 0, 0], 12, Reach::Not),        // private-use
    ([192, 0, 0, 0], 24, Reach::Not),         // IETF protocol assignments (RFC 6890)
    ([192, 0, 0, 0], 29, Reach::Not),         // IPv4 service continuity prefix (RFC 7335)
    ([192, 0, 0, 8], 32, Reach::Not),         // IPv4 dummy address (RFC 7600)
    ([192, 0, 0, 9], 32, Reach::Global),      // port control protocol anycast (RFC 7723)
    ([192, 0, 0, 10], 32, Reach::Global),     // TURN anycast (RFC 8155)
    ([192, 0, 0, 170], 32, Reach::Not),       // NAT64/DNS64 discovery (RFC 8880)
    ([192, 0, 0, 171], 32, Reach::Not),       // NAT64/DNS64 discovery
    ([192, 0, 2, 0], 24, Reach::Not),         // documentation (TEST-NET-1)
    ([192, 31, 196, 0], 24, Reach::Global),   // AS112-v4 (RFC 7535)
    ([192, 52, 193, 0], 24, Reach::Global),   // AMT (RFC 7450)
    ([192, 88, 99, 0], 24, Reach::Not),       // deprecated 6to4 relay anycast (RFC 7526)
    ([192, 168, 0, 0], 16, Reach::Not),       // private-use
    ([192, 175, 48, 0], 24, Reach::Global),   // direct delegation AS112 service (RFC 7534)
    ([198, 18, 0, 0], 15, Reach::Not),        // benchmarking (RFC 2544)
    ([198, 51, 100, 0], 24, Reach::Not),      // documentation (TEST-NET-2)
    ([203, 0, 113, 0], 24, Reach::Not),       // documentation (TEST-NET-3)
    ([224, 0, 0, 0], 4, Reach::Not),          // multicast (RFC 5771)
    ([240, 0, 0, 0], 4, Reach::Not),          // reserved, and limited broadcast within it
];

/// The IANA IPv6 Special-Purpose Address Registry, with multicast, the deprecated site-local
/// and IPv4-compatible ranges, and the rest of `::/16` (no public unicast there) beside it.
#[rustfmt::skip]
const SPECIAL_V6: [([u16; 8], u8, Reach); 30] = [
    ([0, 0, 0, 0, 0, 0, 0, 0], 16, Reach::Not),           // the rest of ::/16, unassigned
    ([0, 0, 0, 0, 0, 0, 0, 0], 96, Reach::V4At(6)),       // IPv4-compatible (deprecated, RFC 4291)
    ([0, 0, 0, 0, 0, 0, 0, 0], 112, Reach::Not),          // :: to ::ffff, no IPv4 address
    ([0, 0, 0, 0, 0, 0, 0, 0], 128, Reach::Not),          // unspecified
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, Reach::Not),          // loopback
    ([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, Reach::V4At(6)),  // IPv4-mapped
    ([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, Reach::V4At(6)), // IPv4-IPv6 translation (RFC 6052)
    ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, Reach::Not),   // local-use IPv4/IPv6 translation (RFC 8215)
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, Reach::Not),       // discard-only (RFC 6666)
    ([0x100, 0, 0, 1, 0, 0, 0, 0], 64, Reach::Not),       // dummy IPv6 prefix (RFC 9780)
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, Reach::Not),      // IETF protocol assignments (RFC 2928)
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, Reach::Not),      // TEREDO (RFC 4380)
    ([0x2001, 1, 0, 0, 0, 0, 0, 1], 128, Reach::Global),  // port control protocol anycast
    ([0x2001, 1, 0, 0, 0, 0, 0, 2], 128, Reach::Global),  // TURN anycast
    ([0x2001, 1, 0, 0, 0, 0, 0, 3], 128, Reach::Global),  // DNS-SD service registration anycast (RFC 9665)
    ([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, Reach::Not),      // benchmarking (RFC 5180)
    ([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, Reach::Global),   // AMT (RFC 7450)
    ([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, Reach::Global), // AS112-v6 (RFC 7535)
    ([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, Reach::Not),   // deprecated ORCHID (RFC 4843)
    ([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, Reach::Global), // ORCHIDv2 (RFC 7343)
    ([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28, Reach::Global), // drone remote ID entity tags (RFC 9374)
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, Reach::Not),  // documentation (RFC 3849)
    ([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, Reach::V4At(1)),  // 6to4 (RFC 3056)
    ([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, Reach::Global), // direct delegation AS112 service
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, Reach::Not),      // documentation (RFC 9637)
    ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, Reach::Not),      // segment routing (SRv6) SIDs (RFC 9602)
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, Reach::Not),       // unique-local (RFC 4193)
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, Reach::Not),      // link-local unicast (RFC 4291)
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, Reach::Not),      // site-local (deprecated, RFC 3879)
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, Reach::Not),       // multicast
];

/// The reach of the most specific entry of `table` holding `bits` (an address of `width` bits),
/// where one does.
fn most_specific<B: Copy>(table: &[(B, u8, Reach)], bits: u128, width: u32, base: impl Fn(B) -> u128) -> Option<Reach> {
    table
        .iter()
        .filter(|(prefix, len, _)| {
            let shift = width - u32::from(*len);
            let mask = u128::MAX.checked_shl(shift).unwrap_or(0) & (u128::MAX >> (128 - width));
            bits & mask == base(*prefix)
        })
        .max_by_key(|(_, len, _)| *len)
        .map(|(_, _, reach)| *reach)
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let bits = u128::from(u32::from(ip));
    match most_specific(&SPECIAL_V4, bits, 32, |p| u128::from(u32::from_be_bytes(p))) {
        None | Some(Reach::Global) => true,
        // No IPv4 entry embeds an address.
        Some(Reach::Not | Reach::V4At(_)) => false,
    }
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    match most_specific(&SPECIAL_V6, bits, 128, |p| u128::from(Ipv6Addr::from(p))) {
        None | Some(Reach::Global) => true,
        Some(Reach::Not) => false,
        Some(Reach::V4At(at)) => {
            let s = ip.segments();
            is_public_v4(Ipv4Addr::from(u32::from(s[at]) << 16 | u32::from(s[at + 1])))
        }
    }
}

/// An RFC 3339 `date-time` as seconds since the Unix epoch; `None` where it is not one
/// (`2026-13-01T00:00:00Z`, a missing offset, a day past its month's end).
#[must_use]
pub(crate) fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let digits = |at: usize, n: usize| -> Option<i64> {
        let part = b.get(at..at + n)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0')))
    };
    let sep = |at: usize, c: u8| b.get(at) == Some(&c);
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    if !(sep(4, b'-') && sep(7, b'-') && matches!(b.get(10), Some(b'T' | b't')) && sep(13, b':') && sep(16, b':')) {
        return None;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let days_in_month = *month_days.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut at = 19;
    if sep(at, b'.') {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == start {
            return None;
        }
    }
    let offset = match b.get(at) {
        Some(b'Z' | b'z') if at + 1 == b.len() => 0,
        Some(sign @ (b'+' | b'-')) if at + 6 == b.len() && sep(at + 3, b':') => {
            let (h, m) = (digits(at + 1, 2)?, digits(at + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = h * 60 + m;
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    // Days from the civil date (Howard Hinnant's algorithm), then seconds.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hour * 3600 + minute * 60 + second - offset * 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates_read_as_seconds() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2026-12-01T11:30:00Z"), Some(1_796_124_600));
        assert_eq!(parse_rfc3339("2026-12-01T12:30:00+01:00"), Some(1_796_124_600));
        assert_eq!(parse_rfc3339("2026-12-01t11:30:00.123z"), Some(1_796_124_600));
        assert_eq!(parse_rfc3339("2024-02-29T00:00:00-00:30"), Some(1_709_166_600));
        // Leap years: every fourth, not every hundredth, every four hundredth.
        assert_eq!(parse_rfc3339("2000-02-29T00:00:00Z"), Some(951_782_400));
        assert_eq!(parse_rfc3339("1996-02-29T00:00:00Z"), Some(825_552_000));
        for not_leap in ["1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2023-02-29T00:00:00Z"] {
            assert_eq!(parse_rfc3339(not_leap), None, "{not_leap}");
        }
        assert_eq!(parse_rfc3339("2100-02-28T23:59:60Z"), Some(4_107_542_400));
        for bad in [
            "not-a-date",
            "",
            "2026-12-01",
            "2026-12-01T11:30:00",
            "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T11:30:00.Z",
            "2026-12-01T11:30:00+0100",
            "2026-12-01 11:30:00Z",
            "+026-12-01T11:30:00Z",
            "2026-12-01T11:30:00Zjunk",
            "2026-12-01T11:30:00+01:00x",
            "2026-12-01T11:60:00Z",
            "2026-12-01T11:30:61Z",
            "2026-12-01T11:30:00+24:00",
            "2026-12-01T11:30:00+01:60",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn special_addresses_are_not_public() {
        for ip in [
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "127.0.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.1",
            "203.0.113.1",
            "224.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",
            "100::1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.169.0.1",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "2002:0808:0808::",
        ] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }
}
