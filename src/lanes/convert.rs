//! `convert`: one block in, one agent block out, for pushed events, channel messages and
//! context injections.

use std::borrow::Cow;

use crate::classify::{beside_blocks, classify_block, for_user_only, lasting_text, Class};
use crate::error::Error;
use crate::input::{Input, JsonSource, Source};
use crate::lanes::agent::{convert_class_deferred, AgentBlock};
use crate::lanes::beside_text;
use crate::media::target::Target;
use crate::reference::{write_id, ReferenceRegistry, Stubs};
use crate::render::{rpc_error, Provenance, TOOL_ERROR_LINE};
use crate::wire::pending::{pending_in, Pending, ResultType};
use crate::wire::{json_of, walk, Block, Message, Role, RpcError, Sink};

/// Every block of a message, converted: what goes to the model, and what is held back for the
/// user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use]
#[non_exhaustive]
pub struct Converted<'a> {
    /// The agent blocks the model reads, in order.
    pub content: Vec<AgentBlock<'a>>,
    /// The agent blocks of the blocks whose `annotations.audience` leaves out the assistant:
    /// held back from the model, for the host to show the user (as `tool_result` does).
    pub held_for_user: Vec<AgentBlock<'a>>,
}

impl Converted<'_> {
    /// The same blocks, owning their strings.
    pub fn into_owned(self) -> Converted<'static> {
        Converted {
            content: self.content.into_iter().map(AgentBlock::into_owned).collect(),
            held_for_user: self.held_for_user.into_iter().map(AgentBlock::into_owned).collect(),
        }
    }
}

/// Converts every block of a message, in order, into what the agent reads: one agent block for
/// each, in [`Converted::content`], or, for a block for the user only, in
/// [`Converted::held_for_user`]. Inline and embedded images and audio, and PDFs, go as media
/// where they pass the `target`'s checks (else their marker with the reason); every other block
/// as a text block holding what the [`history`](crate::history) lane shows for it. A uri-form
/// image is a reference (a stub), never a URL for the provider to fetch.
///
/// A tool result (or an event payload of its shape) tells the model what
/// [`tool_result`](fn@crate::tool_result) tells it: `[tool error]` first where it has
/// `isError: true`, its `structuredContent` where no text block is left, and
/// `[output displayed to user]` or `[tool returned no content]` rather than nothing. A
/// JSON-RPC error gives one text block, `[request failed: error <code>: <message>]`.
///
/// `input` is JSON (bytes, text, a `Value`) or a decoded [`Message`] or blocks. From bytes each
/// block is converted as it is read, its text borrowed from the bytes where it had no escape:
/// nothing else is built. Fails only where JSON is not JSON or no MCP message.
///
/// ```
/// use mcp_agent_view::{convert, Provenance, ReferenceRegistry, Target};
///
/// let json = br#"{"content": [
///     {"type": "text", "text": "for the model"},
///     {"type": "text", "text": "for the user", "annotations": {"audience": ["user"]}},
///     {"type": "resource", "resource": {"uri": "file:///n.txt", "text": "Quarterly notes."}}
/// ]}"#;
/// let converted = convert(json, Provenance::PushEvent, &ReferenceRegistry::new(), &Target::anthropic())?;
/// assert_eq!(converted.content[0].as_text(), Some("for the model"));
/// assert_eq!(converted.content[1].as_text(), Some("Quarterly notes."));
/// assert_eq!(converted.held_for_user[0].as_text(), Some("for the user"));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn convert<'a>(
    input: impl Input<'a>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Converted<'a>, Error> {
    match input.source() {
        Source::Json(JsonSource::Bytes(bytes)) => convert_bytes(bytes, provenance, registry, target),
        Source::Json(JsonSource::Value(value)) => {
            let bytes = json_of(value)?;
            Ok(convert_bytes(&bytes, provenance, registry, target)?.into_owned())
        }
        Source::Message(message) => Ok(convert_message(message, provenance, registry, target)),
        Source::Blocks(blocks) => Ok(converted(blocks, provenance, registry, target, None)),
    }
}

/// [`convert`] of a decoded message.
pub(crate) fn convert_message<'a>(
    message: &'a Message<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Converted<'a> {
    if let Message::RpcError(error) = message {
        return rpc_error_converted(error);
    }
    converted(message.blocks(), provenance, registry, target, message.tool_result())
}

/// Decoded blocks converted, with what `tool` shows beside them (see [`Lane::finish`]).
fn converted<'a, 'b: 'a>(
    blocks: impl IntoIterator<Item = &'a Block<'b>>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
    tool: Option<(bool, Option<&str>)>,
) -> Converted<'a> {
    Lane::of(blocks, provenance, Stubs::new(registry), target).finish(tool)
}

/// [`convert`] of JSON bytes, in one pass.
fn convert_bytes<'a>(
    bytes: &'a [u8],
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Converted<'a>, Error> {
    let new = || Streaming::new(Lane::new(provenance, Stubs::new(registry), target), bytes);
    let mut sink = new();
    let shape = walk(bytes, &mut sink, new)?;
    if let Some(error) = shape.rpc_error() {
        return Ok(rpc_error_converted(error));
    }
    Ok(sink.lane.finish(shape.tool_result()))
}

fn rpc_error_converted(error: &RpcError<'_>) -> Converted<'static> {
    Converted {
        content: vec![AgentBlock::Text {
            text: Cow::Owned(rpc_error(error)),
        }],
        held_for_user: Vec::new(),
    }
}

/// What one call's answer is, for the tool-result lane.
pub(crate) enum Outcome<'a> {
    /// A JSON-RPC error, with its message; or an answer of a `resultType` this crate does not
    /// know, or one that lacks what its type needs.
    Failed(String),
    /// An input-required result or a task: no content, something for the host to do.
    Pending(Pending),
    /// A result: its blocks converted, with the lines a tool result shows beside them, and
    /// its `isError`.
    Result(Converted<'a>, bool),
}

impl Default for Outcome<'_> {
    fn default() -> Self {
        Outcome::Result(Converted::default(), false)
    }
}

/// The answer to one `tools/call`, read as a tool result whatever its shape: from bytes in
/// one pass, as [`convert`] reads them.
pub(crate) fn tool_outcome<'a>(
    input: impl Input<'a>,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Outcome<'a>, Error> {
    let provenance = Provenance::ToolResult;
    Ok(match input.source() {
        Source::Json(JsonSource::Bytes(bytes)) => tool_outcome_bytes(bytes, registry, target)?,
        Source::Json(JsonSource::Value(value)) => match tool_outcome_bytes(&json_of(value)?, registry, target)? {
            Outcome::Result(converted, is_error) => Outcome::Result(converted.into_owned(), is_error),
            Outcome::Failed(message) => Outcome::Failed(message),
            Outcome::Pending(pending) => Outcome::Pending(pending),
        },
        Source::Message(Message::RpcError(error)) => Outcome::Failed(error.message.to_string()),
        Source::Message(Message::Pending(pending)) => Outcome::Pending(pending.clone()),
        Source::Message(Message::ToolResult(result))
            if !matches!(ResultType::of(result.result_type.as_deref()), ResultType::Complete) =>
        {
            let word = result.result_type.as_deref().unwrap_or("");
            Outcome::Failed(match ResultType::of(Some(word)) {
                ResultType::Unknown(_) => no_result(word),
                _ => with_content(word),
            })
        }
        Source::Message(message) => {
            let (is_error, structured) = message.tool_result().unwrap_or((false, None));
            let tool = Some((false, structured));
            Outcome::Result(
                converted(message.blocks(), provenance, registry, target, tool),
                is_error,
            )
        }
        Source::Blocks(blocks) => Outcome::Result(
            converted(blocks, provenance, registry, target, Some((false, None))),
            false,
        ),
    })
}

fn tool_outcome_bytes<'a>(
    bytes: &'a [u8],
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Outcome<'a>, Error> {
    let new = || Streaming::new(Lane::new(Provenance::ToolResult, Stubs::new(registry), target), bytes);
    let mut sink = new();
    let shape = walk(bytes, &mut sink, new)?;
    if let Some(error) = shape.rpc_error() {
        return Ok(Outcome::Failed(error.message.to_string()));
    }
    let task = match ResultType::of(shape.result_type()) {
        ResultType::Complete => {
            let (is_error, structured) = shape.tool_result().unwrap_or((false, None));
            return Ok(Outcome::Result(sink.lane.finish(Some((false, structured))), is_error));
        }
        ResultType::Unknown(word) => return Ok(Outcome::Failed(no_result(word))),
        ResultType::InputRequired | ResultType::Task if !shape.is_bare() => {
            return Ok(Outcome::Failed(with_content(shape.result_type().unwrap_or(""))))
        }
        ResultType::InputRequired => false,
        ResultType::Task => true,
    };
    // Decided: no block of it is content. What it asks is read from the JSON once more.
    drop(sink);
    Ok(match pending_in(bytes, task)? {
        Some(pending) => Outcome::Pending(pending),
        None => Outcome::Failed(no_result(if task { "task" } else { "input_required" })),
    })
}

/// Why an input-required result or a task that carries content too is no result: no revision
/// has one.
fn with_content(word: &str) -> String {
    format!("the server answered with resultType {word} and content beside it, which no revision allows")
}

/// Why an answer of `resultType` `word` is no result: a word this crate does not know (cleaned
/// as a label is, cut at 40 characters; one holding a URL is not shown), or a task or an
/// input-required result lacking what its type needs.
fn no_result(word: &str) -> String {
    match ResultType::of(Some(word)) {
        ResultType::Task => "the server answered with a task that has no taskId".to_owned(),
        ResultType::InputRequired => "the server asked for input but sent no request and no state".to_owned(),
        _ => {
            let mut shown = String::new();
            if !crate::text::push_label_to(&mut shown, word, 40) {
                shown.push_str("that cannot be shown");
            }
            format!("the server answered with resultType {shown}, which this client does not know")
        }
    }
}

/// A prompt's blocks converted, from bytes in one pass: every block (none held back), and,
/// where the message is a prompt, where each of its messages ends and the role it claimed.
#[derive(Default)]
pub(crate) struct PromptBlocks<'a> {
    pub(crate) content: Vec<AgentBlock<'a>>,
    /// `None` where the message is no prompt: its blocks are one message.
    pub(crate) ends: Option<Ends<'a>>,
}

/// Where each message of a prompt ends in its blocks, and the role it claimed: eight bytes a
/// message, as a prompt of 200,000 one-word messages has 200,000 of them.
#[derive(Default)]
pub(crate) struct Ends<'a> {
    /// Each message's end, and its role: 0 `user`, 1 `assistant`, `2 + k` the `k`th of
    /// `claimed`.
    pub(crate) at: Vec<(u32, u32)>,
    /// The roles claimed other than `user` and `assistant` (`None`: no role).
    pub(crate) claimed: Vec<Option<Role<'a>>>,
}

impl<'a> Ends<'a> {
    fn push(&mut self, end: usize, role: Option<Role<'a>>) {
        let role = match role {
            Some(Role::User) => 0,
            Some(Role::Assistant) => 1,
            claimed => {
                self.claimed.push(claimed);
                u32::try_from(self.claimed.len() + 1).unwrap_or(u32::MAX)
            }
        };
        self.at.push((u32::try_from(end).unwrap_or(u32::MAX), role));
    }
}

pub(crate) fn prompt_blocks<'a>(
    bytes: &'a [u8],
    registry: &ReferenceRegistry,
    target: &Target,
    provenance: Provenance,
) -> Result<PromptBlocks<'a>, Error> {
    let new = || {
        let mut lane = Lane::new(provenance, Stubs::new(registry), target);
        // A prompt is written for the model, and has no place for what is held back.
        lane.hold = false;
        let mut sink = Streaming::new(lane, bytes);
        sink.ends = Some(Ends::default());
        sink
    };
    let mut sink = new();
    let shape = walk(bytes, &mut sink, new)?;
    if let Some(error) = shape.rpc_error() {
        return Ok(PromptBlocks {
            content: rpc_error_converted(error).content,
            ends: None,
        });
    }
    let ends = sink.ends.take().filter(|_| shape.is_prompt());
    let mut converted = sink.lane.finish(None);
    // Moved into each message's own blocks next: no room past them kept meanwhile.
    converted.content.shrink_to_fit();
    Ok(PromptBlocks {
        content: converted.content,
        ends,
    })
}

/// In a stub's place: its block is held back for the user.
const HELD: usize = 1 << 31;

/// The convert lane: each block converted as it comes, the stubs' ids written when the lane
/// is done.
struct Lane<'a, 'r> {
    content: Vec<AgentBlock<'a>>,
    held_for_user: Vec<AgentBlock<'a>>,
    has_text: bool,
    /// Whether a block for the user only is held back (not on the prompt lane).
    hold: bool,
    provenance: Provenance,
    target: &'r Target,
    /// Every stub written, each at its place: its block's (see [`Lane::keep`]), and where in
    /// its text.
    stubs: Stubs<'r>,
}

impl<'a, 'r> Lane<'a, 'r> {
    fn new(provenance: Provenance, stubs: Stubs<'r>, target: &'r Target) -> Self {
        Lane {
            // Most messages have a few blocks: room for eight at once (320 bytes), grown as
            // needed past them.
            content: Vec::with_capacity(8),
            held_for_user: Vec::new(),
            has_text: false,
            hold: true,
            provenance,
            target,
            stubs,
        }
    }

    /// The lane over decoded blocks, which it may borrow from.
    fn of<'b: 'a>(
        blocks: impl IntoIterator<Item = &'a Block<'b>>,
        provenance: Provenance,
        stubs: Stubs<'r>,
        target: &'r Target,
    ) -> Self {
        let mut lane = Lane::new(provenance, stubs, target);
        for block in blocks {
            lane.push(block, |out| out);
        }
        lane
    }

    /// Converts one block into its agent block, which `lasting` makes live as long as the
    /// lane's, and keeps it.
    fn push<'b>(&mut self, block: &'b Block<'_>, lasting: impl FnOnce(AgentBlock<'b>) -> AgentBlock<'a>) {
        // Its audience leaves out the assistant: held back, where the lane holds any.
        let for_user = self.hold && for_user_only(block);
        let stubs = self.stubs.len();
        let class = classify_block(block);
        if !for_user {
            self.has_text |= matches!(class, Class::Text { text } if !text.trim().is_empty());
        }
        let out = convert_class_deferred(class, self.provenance, &mut self.stubs, self.target);
        self.keep(lasting(out), stubs, for_user);
    }

    /// Keeps a converted block; the stubs from the `stubs`th on were written in its text. A
    /// stub's place is its block's, its index in `content`, or in `held_for_user` with
    /// [`HELD`] set, in the high half, and where in its text in the low half.
    fn keep(&mut self, out: AgentBlock<'a>, stubs: usize, for_user: bool) {
        let place = if for_user {
            self.held_for_user.push(out);
            self.held_for_user.len() - 1 + HELD
        } else {
            self.content.push(out);
            self.content.len() - 1
        };
        self.stubs.moved_from(stubs, |at| (place as u64) << 32 | at);
    }

    /// The blocks, with what a tool result shows beside them, every stub's id written.
    /// `tool`, for a tool result: its `isError` and its `structuredContent`.
    fn finish(mut self, tool: Option<(bool, Option<&str>)>) -> Converted<'a> {
        if let Some((_, structured)) = tool {
            let from = self.stubs.len();
            let beside = beside_blocks(structured, self.content.len(), self.has_text, self.held_for_user.len());
            if let Some(beside) = beside {
                let text = beside_text(beside, &mut self.stubs);
                self.keep(AgentBlock::Text { text: Cow::Owned(text) }, from, false);
            }
        }
        let Lane {
            mut content,
            mut held_for_user,
            stubs,
            ..
        } = self;
        stubs.registry().register_shown(&stubs, |at, id| {
            let (place, at) = (usize::try_from(at >> 32).unwrap_or(usize::MAX), at & 0xffff_ffff);
            let block = if place < HELD {
                content.get_mut(place)
            } else {
                held_for_user.get_mut(place - HELD)
            };
            if let Some(AgentBlock::Text { text }) = block {
                write_id(text.to_mut(), at, id);
            }
        });
        if let Some((true, _)) = tool {
            content.insert(
                0,
                AgentBlock::Text {
                    text: Cow::Borrowed(TOOL_ERROR_LINE),
                },
            );
        }
        Converted { content, held_for_user }
    }
}

/// The convert lane on the one walk over bytes: each block converted where it was read, what
/// it borrowed from the bytes kept borrowed.
struct Streaming<'a, 'r> {
    lane: Lane<'a, 'r>,
    bytes: &'a [u8],
    /// On the prompt lane: where each prompt message ends in the lane's content, and its role.
    ends: Option<Ends<'a>>,
}

impl<'a, 'r> Streaming<'a, 'r> {
    fn new(lane: Lane<'a, 'r>, bytes: &'a [u8]) -> Self {
        Streaming {
            lane,
            bytes,
            ends: None,
        }
    }
}

impl<'a> Sink<'a> for Streaming<'a, '_> {
    fn block(&mut self, block: Block<'a>) {
        let bytes = self.bytes;
        self.lane.push(&block, |out| rebased(out, &block, bytes));
    }

    fn end_prompt_message(&mut self, role: Option<Role<'a>>) {
        if let Some(ends) = &mut self.ends {
            ends.push(self.lane.content.len(), role);
        }
    }
}

/// `out`, converted from `block`, each string it borrows kept borrowed for as long as the bytes
/// live: its text, where it is the block's own text; anything else inside `bytes`. Any other
/// string is copied.
fn rebased<'a>(out: AgentBlock<'_>, block: &Block<'a>, bytes: &'a [u8]) -> AgentBlock<'a> {
    let re = |s: Cow<'_, str>| -> Cow<'a, str> {
        match s {
            Cow::Borrowed(s) => match lasting_text(block) {
                Some(text) if std::ptr::eq(text, s) => Cow::Borrowed(text),
                _ => within(bytes, s).map_or_else(|| Cow::Owned(s.to_owned()), Cow::Borrowed),
            },
            Cow::Owned(s) => Cow::Owned(s),
        }
    };
    out.map_strings(re)
}

/// `s` as a slice of `bytes`, where it lies inside them.
fn within<'a>(bytes: &'a [u8], s: &str) -> Option<&'a str> {
    let start = (s.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize)?;
    let span = bytes.get(start..start.checked_add(s.len())?)?;
    // The same bytes as `s`: UTF-8 already, checked again without `unsafe`.
    std::str::from_utf8(span).ok()
}
