//! The crate's one error type.
//!
//! Bad input *inside* a message is never an error: it becomes a marker in what the agent reads.
//! An [`Error`] is for a call that cannot go on at all: bytes that are not JSON, JSON that is no
//! MCP message, or a reference id the registry does not hold.

use std::fmt;

/// What went wrong, for matching on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not JSON (or nests deeper than the JSON parser allows).
    Json,
    /// The input is JSON, but no MCP message this crate reads: not a JSON-RPC response, a
    /// result, a content block or an array of blocks.
    UnrecognizedMessage,
    /// A reference id that this registry never issued.
    UnknownReference,
    /// A fetch policy given an argument it cannot take (an origin that is no URL with a host).
    Policy,
    /// A registry snapshot that [`ReferenceRegistry::restore`](crate::ReferenceRegistry::restore)
    /// cannot take: another format, no key, or records its key and counter do not give.
    Snapshot,
    /// A reference id that this registry issued and has since evicted. Its message reads
    /// "unknown reference", as for an id never issued.
    EvictedReference,
    /// A provider name that is none of `neutral`, `anthropic`, `openai-chat`,
    /// `openai-responses` ([`Provider`](crate::Provider)'s `FromStr` and `Deserialize`).
    UnknownProvider,
    /// A provenance name that is none of [`Provenance::NAMES`](crate::Provenance::NAMES)'s
    /// (`Provenance`'s `FromStr`).
    UnknownProvenance,
    /// A server started by [`rmcp_bridge::StdioServer`](crate) could not be started, exited,
    /// closed its output, wrote a line that is not JSON or is over the limit, or refused to
    /// initialize. The message names the step (`start`, `initialize`, `call`) and the cause.
    Server,
    /// A server started by [`rmcp_bridge::StdioServer`](crate) did not answer in time.
    Timeout,
    /// A tool name that is not 1 to 64 ASCII letters, digits, `_` or `-`
    /// ([`ReferenceRegistry::with_fetch_tool`](crate::ReferenceRegistry::with_fetch_tool)).
    ToolName,
    /// Answers to an input-required result that do not answer its requests one to one
    /// ([`InputRequired::retry_params`](crate::InputRequired::retry_params)).
    InputResponses,
    /// A server's request the crate cannot show as it asks: a sampling request whose messages
    /// hold `tool_use` or `tool_result` content, or params that are no object.
    UnsupportedRequest,
}

/// An error of a call into this crate. Opaque; match on [`Error::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<Inner>);

/// Boxed, so that a `Result` of this crate is a word wider than its value: the reader returns
/// one for every token.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
    /// Where in the input, for JSON errors: line and column, from 1.
    at: Option<(usize, usize)>,
}

/// The item `name` names in `names`, exactly; else an error of `kind`, `unknown <what>
/// "<name>"; expected one of …` (the name cut at 40 characters).
pub(crate) fn named<T: Copy>(names: &[(T, &'static str)], name: &str, kind: ErrorKind, what: &str) -> Result<T, Error> {
    names.iter().find(|(_, n)| *n == name).map(|(t, _)| *t).ok_or_else(|| {
        let known: Vec<&str> = names.iter().map(|(_, n)| *n).collect();
        Error::new(
            kind,
            format!(
                "unknown {what} {:?}; expected one of {}",
                name.chars().take(40).collect::<String>(),
                known.join(", ")
            ),
        )
    })
}

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(Inner {
            kind,
            message: message.into(),
            at: None,
        }))
    }

    /// The same error, at `line` and `column` of the input.
    #[cold]
    pub(crate) fn at(mut self, line: usize, column: usize) -> Self {
        self.0.at = Some((line, column));
        self
    }

    /// The line of the input where it is not JSON (from 1), for an error of kind
    /// [`ErrorKind::Json`]; as `serde_json::Error::line`.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        self.0.at.map(|(line, _)| line)
    }

    /// The column of that line (from 1, in bytes), for an error of kind [`ErrorKind::Json`];
    /// as `serde_json::Error::column`.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        self.0.at.map(|(_, column)| column)
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {}
