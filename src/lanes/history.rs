//! The history lane: a tool result's text in the conversation history, as one string.

use crate::classify::{beside_blocks, classify_block, for_user_only, Class};

use crate::error::Error;
use crate::input::{Input, JsonSource, Source};
use crate::lanes::beside_text;
use crate::reference::{write_id, ReferenceRegistry, Stubs};
use crate::render::{rpc_error, show, Provenance, DISPLAYED_TO_USER, TOOL_ERROR_LINE};
use crate::wire::{json_of, walk, Block, Message, Sink};

/// Options of the history lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Where the blocks came from, as reference stubs say. Default: a tool result.
    pub provenance: Provenance,
    /// The most characters the string may have: a hard maximum, whatever the budget. Past it
    /// the string is cut, never inside a stub or marker, and ends with the longest notice that
    /// fits: `[truncated — original was N chars]`, else `[truncated]`, else `…` (a budget of 0
    /// gives `""`). Default: no limit.
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
/// `[request failed: error <code>: <message>]`; a tool result as the tool-result lane tells
/// the model (`[tool error]` first, its `structuredContent` where no text is left, never
/// nothing).
///
/// `input` is JSON (bytes, text, a `Value`) or a decoded [`Message`] or
/// blocks. From bytes the string is rendered in one pass, each block as it is read: strings
/// are borrowed, base64 is only measured, and nothing else is built. Fails only where JSON is
/// not JSON or no MCP message.
///
/// ```
/// use mcp_agent_view::{history, HistoryOptions, ReferenceRegistry};
///
/// let bytes = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[
///     {"type":"text","text":"Here is the report."},
///     {"type":"resource","resource":{"uri":"file:///n.txt","text":"Quarterly notes: revenue up 4%."}},
///     {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}}"#;
/// let text = history(bytes, &ReferenceRegistry::new(), &HistoryOptions::default())?;
/// assert_eq!(text, "Here is the report.\nQuarterly notes: revenue up 4%.\n[image: image/png, 8B]");
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn history<'a>(
    input: impl Input<'a>,
    registry: &ReferenceRegistry,
    options: &HistoryOptions,
) -> Result<String, Error> {
    match input.source() {
        Source::Json(JsonSource::Bytes(bytes)) => history_bytes(bytes, registry, options),
        Source::Json(JsonSource::Value(value)) => history_bytes(&json_of(value)?, registry, options),
        Source::Message(message) => Ok(history_message(message, registry, options)),
        Source::Blocks(blocks) => Ok(rendered(blocks, registry, options, None)),
    }
}

fn history_message(message: &Message<'_>, registry: &ReferenceRegistry, options: &HistoryOptions) -> String {
    if let Message::RpcError(error) = message {
        return cut_to_budget(rpc_error(error), &[], options.budget).0;
    }
    rendered(message.blocks(), registry, options, message.tool_result())
}

/// Decoded blocks rendered, as [`Render::finish`] finishes them.
fn rendered<'b, 'c: 'b>(
    blocks: impl IntoIterator<Item = &'b Block<'c>>,
    registry: &ReferenceRegistry,
    options: &HistoryOptions,
    tool: Option<(bool, Option<&str>)>,
) -> String {
    let mut render = Render::new(Stubs::new(registry), options);
    for block in blocks {
        render.push(block);
    }
    render.finish(options.budget, tool)
}

fn history_bytes(bytes: &[u8], registry: &ReferenceRegistry, options: &HistoryOptions) -> Result<String, Error> {
    let new = || {
        let mut render = Render::new(Stubs::new(registry), options);
        // Blobs shrink to markers: start small, however large the input.
        render.out.reserve(bytes.len().min(64 * 1024));
        render
    };
    let mut render = new();
    let shape = walk(bytes, &mut render, new)?;
    if let Some(error) = shape.rpc_error() {
        return Ok(cut_to_budget(rpc_error(error), &[], options.budget).0);
    }
    Ok(render.finish(options.budget, shape.tool_result()))
}

/// Renders blocks into one string as they come.
struct Render<'r> {
    out: String,
    /// Byte ranges of the stubs and markers, which a budget never cuts in half: kept where
    /// there is a budget.
    atomic: Option<Vec<std::ops::Range<usize>>>,
    count: usize,
    /// How many blocks were held back for the user, and whether a text block was shown.
    held: usize,
    has_text: bool,
    /// The stubs written, registered when the string is done: what the budget cuts is
    /// never registered.
    stubs: Stubs<'r>,
    provenance: Provenance,
}

impl<'r> Render<'r> {
    fn new(stubs: Stubs<'r>, options: &HistoryOptions) -> Self {
        Render {
            out: String::new(),
            atomic: options.budget.map(|_| Vec::new()),
            count: 0,
            held: 0,
            has_text: false,
            stubs,
            provenance: options.provenance,
        }
    }

    fn push(&mut self, block: &Block<'_>) {
        if for_user_only(block) {
            self.held += 1;
            return;
        }
        let class = classify_block(block);
        self.has_text |= matches!(class, Class::Text { text } if !text.trim().is_empty());
        if self.count > 0 {
            self.out.push('\n');
        }
        self.count += 1;
        let start = self.out.len();
        show(&class, self.provenance, &mut self.stubs, &mut self.out);
        if let Some(atomic) = self.atomic.as_mut().filter(|_| !class.is_text()) {
            atomic.push(start..self.out.len());
        }
    }

    /// The string, the budget applied; for a tool result (`tool`: its `isError` and its
    /// `structuredContent`), what the tool-result lane shows beside the blocks, and the error
    /// line first.
    fn finish(mut self, budget: Option<usize>, tool: Option<(bool, Option<&str>)>) -> String {
        if tool.is_some() && self.out.trim().is_empty() {
            // Empty texts are nothing for the model: the result's own rules apply.
            self.out.clear();
            self.count = 0;
        }
        let from = self.stubs.len();
        let beside = match tool {
            Some((_, structured)) => beside_blocks(structured, self.count, self.has_text, self.held)
                .map(|beside| beside_text(beside, &mut self.stubs)),
            None => (self.count == 0 && self.held > 0).then(|| DISPLAYED_TO_USER.to_owned()),
        };
        if let Some(beside) = beside {
            if self.count > 0 {
                self.out.push('\n');
            }
            let start = self.out.len();
            self.out.push_str(&beside);
            self.stubs.moved_from(from, |at| start as u64 + at);
            if let Some(atomic) = self.atomic.as_mut() {
                atomic.push(start..self.out.len());
            }
        }
        if let Some((true, _)) = tool {
            let line = format!("{TOOL_ERROR_LINE}\n");
            self.out.insert_str(0, &line);
            self.stubs.moved_from(0, |at| at + line.len() as u64);
            for range in self.atomic.iter_mut().flatten() {
                *range = range.start + line.len()..range.end + line.len();
            }
            if let Some(atomic) = self.atomic.as_mut() {
                atomic.insert(0, 0..TOOL_ERROR_LINE.len());
            }
        }
        let Render {
            out, atomic, mut stubs, ..
        } = self;
        let (mut out, kept) = cut_to_budget(out, atomic.as_deref().unwrap_or_default(), budget);
        stubs.forget_from(kept);
        stubs
            .registry()
            .register_shown(&stubs, |at, id| write_id(&mut out, at, id));
        out
    }
}

impl<'a> Sink<'a> for Render<'_> {
    fn block(&mut self, block: Block<'a>) {
        self.push(&block);
    }
}

/// Cuts `out` to at most `budget` characters, never inside a range of `atomic`, and ends it
/// with the longest notice that fits: `[truncated — original was N chars]`, else
/// `[truncated]`, else `…`. A budget of 0 gives the empty string. Gives the string, and how
/// many of its bytes are kept from `out`.
fn cut_to_budget(mut out: String, atomic: &[std::ops::Range<usize>], budget: Option<usize>) -> (String, usize) {
    let Some(budget) = budget else {
        let len = out.len();
        return (out, len);
    };
    let total = out.chars().count();
    if total <= budget {
        let len = out.len();
        return (out, len);
    }
    let notice = [
        format!("[truncated — original was {total} chars]"),
        "[truncated]".to_owned(),
        "…".to_owned(),
    ]
    .into_iter()
    .find(|n| n.chars().count() <= budget)
    .unwrap_or_default();
    // Room for the kept part and the line break before the notice.
    let room = budget.saturating_sub(notice.chars().count() + 1);
    let mut end = if room == 0 {
        0
    } else {
        out.char_indices().nth(room).map_or(out.len(), |(i, _)| i)
    };
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
    (out, kept)
}
