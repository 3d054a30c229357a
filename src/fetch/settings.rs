//! A fetch policy's settings as data: one type that a host's configuration, the CLI's flags and
//! the packages' options fill field by field, checked once when the policy is made from it.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use super::policy::{FetchPolicy, DEFAULT_MAX_BYTES};
use crate::error::Error;

/// Every setting of a [`FetchPolicy`], as plain data, each field the builder method of its
/// name; [`FetchSettings::policy`] makes the policy and is where every setting is checked.
/// The default is [`FetchPolicy::new`]'s.
///
/// It reads from JSON (or any serde format) with camelCase names, each optional:
/// `maxBytes`, `allowSchemes`, `origin`, `bearer`, `allowOrigins`, `timeoutMs`, `maxRedirects`,
/// `crossOriginRedirects`, `allowFilesUnder`, `allowHardLinks`; other keys are left to the host.
///
/// ```
/// use mcp_agent_view::fetch::FetchSettings;
///
/// let settings: FetchSettings = serde_json::from_str(r#"{"maxBytes": 1048576, "allowSchemes": ["http"]}"#)?;
/// let policy = settings.policy()?;
/// assert_eq!(policy.max_bytes_allowed(), 1 << 20);
///
/// // The file scheme is allowed only under a directory the host names.
/// let files: FetchSettings = serde_json::from_str(r#"{"allowSchemes": ["file"]}"#)?;
/// assert!(files.policy().is_err());
/// let files: FetchSettings = serde_json::from_str(r#"{"allowSchemes": ["file"], "allowFilesUnder": "/srv/shared"}"#)?;
/// assert!(files.policy().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[non_exhaustive]
pub struct FetchSettings {
    /// [`FetchPolicy::max_bytes`].
    pub max_bytes: u64,
    /// [`FetchPolicy::allow_scheme`], each; `file` only with [`FetchSettings::allow_files_under`].
    pub allow_schemes: Vec<String>,
    /// [`FetchPolicy::origin`].
    pub origin: Option<String>,
    /// [`FetchPolicy::bearer`].
    pub bearer: Option<String>,
    /// [`FetchPolicy::allow_origin`], each.
    pub allow_origins: Vec<String>,
    /// [`FetchPolicy::timeout`]; read as `timeoutMs`, milliseconds (0 or more).
    #[serde(rename = "timeoutMs", deserialize_with = "millis")]
    pub timeout: Duration,
    /// [`FetchPolicy::max_redirects`].
    pub max_redirects: u8,
    /// [`FetchPolicy::cross_origin_redirects`].
    pub cross_origin_redirects: bool,
    /// [`FetchPolicy::allow_files_under`].
    pub allow_files_under: Option<PathBuf>,
    /// [`FetchPolicy::allow_hard_links`].
    pub allow_hard_links: bool,
}

impl Default for FetchSettings {
    fn default() -> Self {
        FetchSettings {
            max_bytes: DEFAULT_MAX_BYTES,
            allow_schemes: Vec::new(),
            origin: None,
            bearer: None,
            allow_origins: Vec::new(),
            timeout: Duration::from_secs(30),
            max_redirects: 3,
            cross_origin_redirects: true,
            allow_files_under: None,
            allow_hard_links: false,
        }
    }
}

impl std::fmt::Debug for FetchSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The credential is not printed.
        f.debug_struct("FetchSettings")
            .field("max_bytes", &self.max_bytes)
            .field("allow_schemes", &self.allow_schemes)
            .field("origin", &self.origin)
            .field("bearer", &self.bearer.as_ref().map(|_| "…"))
            .field("allow_origins", &self.allow_origins)
            .field("timeout", &self.timeout)
            .field("max_redirects", &self.max_redirects)
            .field("cross_origin_redirects", &self.cross_origin_redirects)
            .field("allow_files_under", &self.allow_files_under)
            .field("allow_hard_links", &self.allow_hard_links)
            .finish()
    }
}

impl FetchSettings {
    /// The policy these settings describe. Fails with
    /// [`ErrorKind::Policy`](crate::ErrorKind::Policy) where a scheme is no scheme or is
    /// `file` with no [`FetchSettings::allow_files_under`] (a `file` scheme beside a directory
    /// is the directory's, and adds nothing), or an origin is no URL with a host.
    pub fn policy(&self) -> Result<FetchPolicy, Error> {
        let mut policy = FetchPolicy::new()
            .max_bytes(self.max_bytes)
            .timeout(self.timeout)
            .max_redirects(self.max_redirects)
            .cross_origin_redirects(self.cross_origin_redirects)
            .allow_hard_links(self.allow_hard_links);
        for scheme in &self.allow_schemes {
            if self.allow_files_under.is_none() || !scheme.eq_ignore_ascii_case("file") {
                policy = policy.allow_scheme(scheme)?;
            }
        }
        if let Some(origin) = &self.origin {
            policy = policy.origin(origin)?;
        }
        if let Some(token) = &self.bearer {
            policy = policy.bearer(token);
        }
        for origin in &self.allow_origins {
            policy = policy.allow_origin(origin)?;
        }
        if let Some(dir) = &self.allow_files_under {
            policy = policy.allow_files_under(dir);
        }
        Ok(policy)
    }
}

impl TryFrom<&FetchSettings> for FetchPolicy {
    type Error = Error;

    fn try_from(settings: &FetchSettings) -> Result<Self, Error> {
        settings.policy()
    }
}

/// A number of milliseconds, 0 or more, as a duration.
fn millis<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    let ms = f64::deserialize(deserializer)?;
    Duration::try_from_secs_f64(ms / 1000.0)
        .map_err(|_| serde::de::Error::custom("timeoutMs is a number of milliseconds, 0 or more"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn the_default_is_the_policys() {
        let settings = FetchSettings::default();
        assert_eq!(
            format!("{:?}", settings.policy().unwrap()),
            format!("{:?}", FetchPolicy::new())
        );
        let read: FetchSettings = serde_json::from_str("{}").unwrap();
        assert!(read == settings);
    }

    #[test]
    fn every_setting_reaches_the_policy() {
        let settings: FetchSettings = serde_json::from_str(
            r#"{"maxBytes": 10, "allowSchemes": ["http", "DATA"], "origin": "https://a.example:8443/x",
                "bearer": "s3cret", "allowOrigins": ["http://127.0.0.1:9"], "timeoutMs": 1500,
                "maxRedirects": 0, "crossOriginRedirects": false, "allowFilesUnder": "/srv",
                "allowHardLinks": true, "saveDir": "/tmp/ignored"}"#,
        )
        .unwrap();
        let expected = FetchPolicy::new()
            .max_bytes(10)
            .allow_scheme("http")
            .unwrap()
            .allow_scheme("data")
            .unwrap()
            .origin("https://a.example:8443")
            .unwrap()
            .bearer("s3cret")
            .allow_origin("http://127.0.0.1:9")
            .unwrap()
            .timeout(Duration::from_millis(1500))
            .max_redirects(0)
            .cross_origin_redirects(false)
            .allow_files_under("/srv")
            .allow_hard_links(true);
        let policy = settings.policy().unwrap();
        assert_eq!(format!("{policy:?}"), format!("{expected:?}"));
        assert_eq!(policy.files_allowed_under(), Some(std::path::Path::new("/srv")));
        let shown = format!("{settings:?}");
        assert!(
            shown.starts_with("FetchSettings {")
                && shown.contains("max_bytes: 10")
                && shown.contains("bearer: Some(\"…\")")
        );
        assert!(!shown.contains("s3cret"), "{shown}");
        // The same policy through TryFrom, and the same refusal.
        assert_eq!(
            format!("{:?}", FetchPolicy::try_from(&settings).unwrap()),
            format!("{expected:?}")
        );
        let mut refused = settings.clone();
        refused.origin = Some("no origin".to_owned());
        assert_eq!(FetchPolicy::try_from(&refused).unwrap_err().kind(), ErrorKind::Policy);
    }

    #[test]
    fn what_no_policy_takes_is_an_error_of_kind_policy() {
        for json in [
            r#"{"allowSchemes": ["file"]}"#,
            r#"{"allowSchemes": ["FILE"]}"#,
            r#"{"allowSchemes": ["not a scheme"]}"#,
            r#"{"allowSchemes": ["file", "bad scheme"], "allowFilesUnder": "/srv"}"#,
            r#"{"origin": "no origin"}"#,
            r#"{"allowOrigins": ["https://ok.example", "data:text/plain,x"]}"#,
        ] {
            let settings: FetchSettings = serde_json::from_str(json).unwrap();
            assert_eq!(settings.policy().unwrap_err().kind(), ErrorKind::Policy, "{json}");
        }
        // `file` beside a directory is the directory's.
        let settings: FetchSettings =
            serde_json::from_str(r#"{"allowSchemes": ["file"], "allowFilesUnder": "/srv"}"#).unwrap();
        let policy = settings.policy().unwrap();
        assert_eq!(policy.files_allowed_under(), Some(std::path::Path::new("/srv")));
    }

    #[test]
    fn what_is_no_setting_does_not_read() {
        for json in [
            r#"{"timeoutMs": -1}"#,
            r#"{"timeoutMs": "5"}"#,
            r#"{"maxBytes": 1.5}"#,
            r#"{"maxBytes": -1}"#,
            r#"{"maxRedirects": 256}"#,
            r#"{"allowSchemes": "http"}"#,
            r#"{"crossOriginRedirects": 1}"#,
        ] {
            assert!(serde_json::from_str::<FetchSettings>(json).is_err(), "{json}");
        }
        let settings: FetchSettings = serde_json::from_str(r#"{"timeoutMs": 0.5}"#).unwrap();
        assert_eq!(settings.timeout, Duration::from_micros(500));
    }
}
