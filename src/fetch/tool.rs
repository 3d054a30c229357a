//! The `fetch_reference` tool: its definition for each provider, and the handler that
//! answers a call with what the model reads.

use std::borrow::Cow;
use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Value};

use super::{Fetched, Fetcher};
use crate::classify::Disposition;
use crate::lanes::agent::{convert_block, AgentBlock};
use crate::lanes::tool_result::AgentToolResult;
use crate::media::{Provider, Target};
use crate::reference::{ReferenceRegistry, Verified};
use crate::render::Provenance;
use crate::wire::{Base64, Block, BlockKind, Contents, EmbeddedBody};

/// The name the tool has unless the host names it otherwise.
pub const TOOL_NAME: &str = "fetch_reference";

const TOOL_DESCRIPTION: &str = "Fetch the content behind a reference stub ([ref_…]) shown earlier. \
The host fetches and verifies it; text comes back as text, images as images, anything else as a note naming the saved file.";

/// The `fetch_reference` tool's definition in `provider`'s shape, named `name`; its input is
/// `{"ref_id": "ref_…"}`.
///
/// ```
/// use mcp_agent_view::{fetch::tool_definition, Provider};
///
/// let tool = tool_definition(Provider::Anthropic, "fetch_reference");
/// assert_eq!(tool["input_schema"]["required"][0], "ref_id");
/// let tool = tool_definition(Provider::OpenAiChat, "fetch_reference");
/// assert_eq!(tool["function"]["name"], "fetch_reference");
/// ```
#[must_use]
pub fn tool_definition(provider: Provider, name: &str) -> Value {
    let schema = json!({
        "type": "object",
        "properties": {"ref_id": {"type": "string", "description": "The id in the stub, ref_ and 13 characters."}},
        "required": ["ref_id"],
        "additionalProperties": false
    });
    Target::for_provider(provider).tool_definition(name, Some(TOOL_DESCRIPTION), schema)
}

/// Answers a `fetch_reference` call: `input` is the call's arguments (`{"ref_id": …}`, as an
/// object or as its JSON text).
///
/// Verified bytes go back to the model as an embedded resource of the observed type goes
/// through [`classify_block`](crate::classify_block): text as text, an image as media the
/// `target` accepts, anything else as a marker naming type and size, and a line naming the
/// saved file where the fetcher saves. A `disposition: "never"` reference is fetched and saved
/// for the host, and its bytes never reach the model: the answer names the saved file and its
/// verified facts only. A failure is an error result naming the reason, never the uri.
#[must_use]
pub fn fetch_reference(
    input: &Value,
    tool_use_id: &str,
    registry: &ReferenceRegistry,
    fetcher: &Fetcher<'_>,
    target: &Target,
) -> AgentToolResult<'static> {
    let parsed;
    let input = match input {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
            &parsed
        }
        other => other,
    };
    let name = registry.fetch_tool().unwrap_or(TOOL_NAME);
    let Some(id) = input.get("ref_id").and_then(Value::as_str) else {
        return failed(name, tool_use_id, "the call needs a ref_id");
    };
    let id = id.trim().trim_start_matches('[').trim_end_matches(']');
    match fetcher.fetch(registry, id) {
        Ok(done) => answer(tool_use_id, &done, registry, target),
        Err(refusal) => failed(
            name,
            tool_use_id,
            &format!("{} ({})", refusal, crate::text::clean_label(id).unwrap_or_default()),
        ),
    }
}

fn failed(name: &str, tool_use_id: &str, why: &str) -> AgentToolResult<'static> {
    let text = Cow::Owned(format!("[{name} failed: {why}]"));
    AgentToolResult::new(name, tool_use_id, vec![AgentBlock::Text { text }], true)
}

/// What the model reads of a verified fetch.
fn answer(
    tool_use_id: &str,
    fetched: &Fetched,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentToolResult<'static> {
    let verified = fetched.verified();
    let facts = facts(&fetched.record.id, verified);
    let mut content = Vec::new();
    if fetched.record.disposition == Some(Disposition::Never) {
        content.push(AgentBlock::Text {
            text: Cow::Owned(format!(
                "{facts}; disposition never: its content is for the host, not shown"
            )),
        });
    } else {
        let data = base64::engine::general_purpose::STANDARD.encode(&fetched.bytes);
        let block = Block {
            kind: BlockKind::Embedded(EmbeddedBody {
                uri: None,
                mime_type: Some(Cow::Borrowed(&verified.mime_type)),
                contents: Contents::Blob(Base64(Cow::Owned(data.into_bytes()))),
            }),
            annotations: None,
            meta: None,
        };
        content.push(convert_block(&block, Provenance::ToolResult, registry, target).into_owned());
        if verified.path.is_some() {
            content.push(AgentBlock::Text {
                text: Cow::Owned(facts),
            });
        }
    }
    AgentToolResult::new(registry.fetch_tool().unwrap_or(TOOL_NAME), tool_use_id, content, false)
}

/// `[ref_… fetched: audio/wav, 19B, digest verified, saved as ref_….wav]`: facts, and the
/// saved file's name (not its directory).
fn facts(id: &str, verified: &Verified) -> String {
    let mut out = format!("[{id} fetched: {}, ", verified.mime_type);
    out.push_str(&crate::text::format_size(verified.bytes));
    if verified.digest_verified {
        out.push_str(", digest verified");
    }
    if let Some(path) = &verified.path {
        let name = Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push_str(", saved as ");
        out.push_str(&name);
    }
    out.push(']');
    out
}
