//! The history lane: a tool result's text in the conversation history, as one string.

use crate::classify::classify_block;
use crate::reference::ReferenceRegistry;
use crate::render::{rpc_error, show, Provenance};
use crate::wire::{Block, Message};

/// Options of the history lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Where the blocks came from, as reference stubs say. Default: a tool result.
    pub provenance: Provenance,
    /// The most characters the string may have. Past it the string is cut, never inside a
    /// stub or marker, and ends with `[truncated — original was N chars]`. Default: no limit.
    pub budget: Option<usize>,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            provenance: Provenance::ToolResult,
            budget: None,
        }
    }
}

/// Shows a message as one string: its blocks in order, joined with `\n`; text and embedded
/// text verbatim; media as markers; references as stubs. A JSON-RPC error shows as
/// `[request failed: <message>]`.
///
/// ```
/// use mcp_agent_view::{history, HistoryOptions, Message, ReferenceRegistry};
///
/// let json = serde_json::json!({"content": [
///     {"type": "text", "text": "Here is the report."},
///     {"type": "resource", "resource": {
///         "uri": "file:///notes.txt", "mimeType": "text/plain",
///         "text": "Quarterly notes: revenue up 4%."}},
///     {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
/// ]});
/// let text = history(&Message::decode(&json)?, &ReferenceRegistry::new(), &HistoryOptions::default());
/// assert_eq!(text, "Here is the report.\nQuarterly notes: revenue up 4%.\n[image: image/png, 8B]");
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
#[must_use]
pub fn history(message: &Message<'_>, registry: &ReferenceRegistry, options: &HistoryOptions) -> String {
    if let Message::RpcError(error) = message {
        return cut_to_budget(rpc_error(error), &[], options.budget);
    }
    history_blocks(message.blocks(), registry, options)
}

/// Shows blocks as one string, as [`history`] does.
#[must_use]
pub fn history_blocks<'b, 'a: 'b>(
    blocks: impl IntoIterator<Item = &'b Block<'a>>,
    registry: &ReferenceRegistry,
    options: &HistoryOptions,
) -> String {
    let mut out = String::new();
    // Byte ranges of the stubs and markers, which a budget never cuts in half.
    let mut atomic = Vec::new();
    for (i, block) in blocks.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let start = out.len();
        let class = classify_block(block);
        show(&class, options.provenance, registry, &mut out);
        if !class.is_text() {
            atomic.push(start..out.len());
        }
    }
    cut_to_budget(out, &atomic, options.budget)
}

fn cut_to_budget(mut out: String, atomic: &[std::ops::Range<usize>], budget: Option<usize>) -> String {
    let Some(budget) = budget else { return out };
    let total = out.chars().count();
    if total <= budget {
        return out;
    }
    let notice = format!("[truncated — original was {total} chars]");
    // Room for the kept part and the line break before the notice.
    let room = budget.saturating_sub(notice.chars().count() + 1);
    let mut end = out.char_indices().nth(room).map_or(out.len(), |(i, _)| i);
    if let Some(cut) = atomic.iter().find(|r| r.start < end && end < r.end) {
        end = cut.start;
    }
    out.truncate(end);
    let kept = out.trim_end_matches('\n').len();
    out.truncate(kept);
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&notice);
    out
}
