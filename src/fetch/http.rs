//! The HTTP transport (feature `http`): ureq with rustls. One GET a call: no redirect
//! followed, nothing decoded, no proxy from the environment, and the name resolved through a
//! resolver that refuses every address the plan does not admit (checked on the address that
//! is dialed, not only on the name).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use super::{Answer, Plan, Refusal, Transport};

/// HTTP(S) GETs through ureq, with rustls and the webpki roots.
#[derive(Debug, Default, Clone, Copy)]
pub struct HttpTransport {
    _private: (),
}

impl HttpTransport {
    /// The transport.
    #[must_use]
    pub fn new() -> Self {
        HttpTransport { _private: () }
    }
}

/// Resolves as the system does, then keeps only the addresses the plan admits.
#[derive(Debug)]
struct Admitting {
    public_only: bool,
    refused: Arc<AtomicBool>,
}

impl Resolver for Admitting {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let all = DefaultResolver::default().resolve(uri, config, timeout)?;
        let mut kept = self.empty();
        for address in all
            .iter()
            .filter(|a| !self.public_only || super::policy::is_public(a.ip()))
        {
            let _ = kept.try_push(*address);
        }
        if kept.is_empty() {
            self.refused.store(true, Ordering::SeqCst);
            return Err(ureq::Error::HostNotFound);
        }
        Ok(kept)
    }
}

impl Transport for HttpTransport {
    fn get(&self, plan: &Plan, timeout: Duration) -> Result<Answer<'_>, Refusal> {
        let refused = Arc::new(AtomicBool::new(false));
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .proxy(None)
            .timeout_global(Some(timeout))
            .user_agent(concat!("mcp-agent-view/", env!("CARGO_PKG_VERSION")))
            .build();
        let resolver = Admitting {
            public_only: plan.public_only,
            refused: Arc::clone(&refused),
        };
        let agent = ureq::Agent::with_parts(config, DefaultConnector::default(), resolver);
        let mut request = agent.get(plan.url.as_str()).header("Accept-Encoding", "gzip, deflate");
        if let Some(token) = &plan.bearer {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let response = match request.call() {
            Ok(response) => response,
            Err(_) if refused.load(Ordering::SeqCst) => return Err(Refusal::NotPublic),
            Err(e) => return Err(why(&e)),
        };
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        if (300..400).contains(&status) {
            if let Some(location) = header("location") {
                return Ok(Answer::Redirect(location));
            }
        }
        let content_type = header("content-type");
        // Every line counts: a second `Content-Encoding` line is a second coding (RFC 9110
        // §8.4), and bytes still encoded must never pass for decoded ones.
        let codings: Vec<&str> = response
            .headers()
            .get_all("content-encoding")
            .iter()
            .map(|v| v.to_str().unwrap_or("\u{fffd}"))
            .collect();
        let content_encoding = (!codings.is_empty()).then(|| codings.join(", "));
        let body = response.into_body().into_reader();
        Ok(Answer::Body {
            status,
            content_type,
            content_encoding,
            body: Box::new(body),
        })
    }
}

/// A transport error as a fixed description: ureq's own messages can hold the URL.
fn why(error: &ureq::Error) -> Refusal {
    match error {
        ureq::Error::Timeout(_) => Refusal::Timeout,
        ureq::Error::HostNotFound => Refusal::Transport("the host was not found"),
        ureq::Error::ConnectionFailed | ureq::Error::Io(_) => Refusal::Transport("the connection failed"),
        ureq::Error::Tls(_) => Refusal::Transport("TLS failed"),
        _ => Refusal::Transport("the request failed"),
    }
}
