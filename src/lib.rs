//! Decides what an AI agent reads when content arrives from an MCP server.
//!
//! MCP servers send content blocks (`text`, `image`, `audio`, embedded `resource`,
//! `resource_link`, MCPL bulk references) on several lanes: tool results, prompts, pushed
//! events, channel messages, context injections, a script's structured result. This crate
//! reads each block on its own, in one pass over the bytes, decides once what it is
//! ([`classify_block`]), and lets each lane decide only how that class is shown:
//!
//! - [`history`]: one string for the conversation history;
//! - [`convert`]: one [`AgentBlock`] (text, image, audio or document) per block;
//! - [`script`]: a script's JSON result with every block in it replaced by its agent form;
//! - [`tool_result`](fn@tool_result) and [`prompt_messages`]: the outcome of a call as the model should read it.
//!
//! The three lanes read JSON as it arrived (bytes or text, borrowed, nothing built but what it
//! shows), a `serde_json::Value`, or a [`Message`] decoded before ([`Message::parse`]);
//! [`tool_result`](fn@tool_result) and [`prompt_messages`], which answer one call, read the decoded message.
//!
//! Media is checked against a [`Target`] (base64, magic numbers, size) before it goes out as
//! media, and each provider's JSON shape (Anthropic, OpenAI Chat, OpenAI Responses, neutral)
//! comes from the same agent blocks.
//!
//! An embedded resource is inline content: its text shows as text, its blob as media or as a
//! marker naming type and size, and its uri never reaches the agent. References show as a
//! one-line stub whose id the [`ReferenceRegistry`] maps back to the uri, for the host's own
//! fetcher. One bad block never costs its siblings: it becomes a visible marker.
//!
//! ```
//! use mcp_agent_view::{history, HistoryOptions, ReferenceRegistry};
//!
//! let response: serde_json::Value = serde_json::from_str(r#"{
//!   "jsonrpc": "2.0", "id": 1,
//!   "result": {"content": [
//!     {"type": "text", "text": "Here is the report."},
//!     {"type": "resource", "resource": {"uri": "file:///q3.txt?token=s3cret",
//!       "mimeType": "text/plain", "text": "Quarterly notes: revenue up 4%."}},
//!     {"type": "hologram", "frames": 3}
//!   ]}
//! }"#)?;
//! let registry = ReferenceRegistry::new();
//! let text = history(&response, &registry, &HistoryOptions::default())?;
//! assert_eq!(
//!     text,
//!     "Here is the report.\nQuarterly notes: revenue up 4%.\n[unsupported result type: hologram]"
//! );
//! assert!(!text.contains("s3cret"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What this crate does not do
//!
//! - No I/O and no global state in the lanes: they read JSON you already have and return what
//!   the agent reads. I/O happens only where the host asks for it: [`fetch::Fetcher`] fetches
//!   a reference when the model calls `fetch_reference` (under a [`fetch::FetchPolicy`],
//!   through a transport the host gives or the `http` feature's), and the `stdio` feature's
//!   `rmcp_bridge::StdioServer` starts a stdio server and connects rmcp's client to it.
//! - It does not speak JSON-RPC itself or call model APIs.
//! - It never puts base64 into text, a resource's or reference's uri into anything the agent
//!   reads, or a JSON dump of a block in place of a marker.
//!
//! The design, the classification table and every marker string are in the crate's `docs/`.

#![forbid(unsafe_code)]

pub mod classify;
mod error;
pub mod fetch;
pub mod input;
mod json;
mod label_tables;
mod lanes;
mod media;
pub mod provider;
pub mod reference;
mod render;
mod repair;
#[cfg(feature = "rmcp")]
pub mod rmcp_bridge;
mod text;
pub mod wire;

pub use classify::{classify_block, Class};
pub use error::{Error, ErrorKind};
pub use lanes::agent::AgentBlock;
pub use lanes::convert::{convert, Converted};
pub use lanes::history::{history, HistoryOptions};
pub use lanes::prompt::{prompt_messages, AgentMessage};
pub use lanes::sampling::{elicitation, sampling_request, Elicitation, ElicitationField, SamplingRequest};
pub use lanes::script::script;
pub use lanes::tool_result::{tool_call_failed, tool_result, AgentToolResult};
pub use media::{Provider, Target};
pub use reference::ReferenceRegistry;
pub use render::Provenance;
pub use repair::parse_json;
pub use wire::pending::{InputRequest, InputRequired, Pending, TaskHandle, MAX_INPUT_ROUNDS};
pub use wire::{Block, Message};

/// Every string this crate writes for the agent that is no content of a server's: the fixed
/// markers, the limits they state, and the helpers that write sizes and labels. The markers
/// that carry a block's facts (`[image: image/png, 8B]`, a reference's stub) are written by
/// the lanes from the same room; `docs/markers.md` lists them all.
pub mod markers {
    pub use crate::lanes::sampling::ELICITATION_LINK;
    pub use crate::render::{
        DISPLAYED_TO_USER, EMPTY_TEXT, INPUT_REQUIRED, MESSAGE_MAX_CHARS, NO_CONTENT, SCRIPT_MAX_DEPTH, TOOL_ERROR,
        TOOL_ERROR_LINE, TOO_DEEP, WITHHELD,
    };
    pub use crate::text::{base64_decoded_len, clean_label, format_size, label_shows_uri, LABEL_MAX_CHARS};
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
