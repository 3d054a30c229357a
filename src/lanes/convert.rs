//! `convert`: one block in, one agent block out, for pushed events, channel messages and
//! context injections.

use std::borrow::Cow;
use std::convert::Infallible;

use crate::classify::{classify_block, for_user_only, lasting_text, Class};
use crate::error::Error;
use crate::input::{Input, JsonSource, Source};
use crate::lanes::agent::{convert_class_deferred, AgentBlock};
use crate::lanes::script::beside_blocks;
use crate::reference::{guessed_else_waited, ReferenceRegistry, Stubs};
use crate::render::{rpc_error, Provenance, TOOL_ERROR_LINE};
use crate::target::Target;
use crate::wire::{json_of, walk, Block, Message, RpcError, Sink};

/// Every block of a message, converted: what goes to the model, and what is held back for the
/// user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use]
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
        Source::Blocks(blocks) => Ok(converted(|| blocks, provenance, registry, target, None)),
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
    converted(|| message.blocks(), provenance, registry, target, message.tool_result())
}

/// Decoded blocks (`blocks()` gives them, as often as they are converted) converted, with
/// what `tool` shows beside them (see [`Lane::finish`]).
fn converted<'a, 'b: 'a, I: IntoIterator<Item = &'a Block<'b>>>(
    blocks: impl Fn() -> I,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
    tool: Option<(bool, Option<&str>)>,
) -> Converted<'a> {
    let Ok(converted) = guessed_else_waited(registry, true, |stubs| {
        Ok::<_, Infallible>(Lane::of(blocks(), provenance, stubs, target).finish(tool))
    });
    converted
}

/// [`convert`] of JSON bytes, in one pass.
fn convert_bytes<'a>(
    bytes: &'a [u8],
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<Converted<'a>, Error> {
    guessed_else_waited(registry, true, |stubs| {
        let mut sink = Streaming {
            lane: Lane::new(provenance, stubs, target),
            bytes,
        };
        let shape = walk(bytes, &mut sink)?;
        if let Some(error) = shape.rpc_error() {
            return Ok(Some(rpc_error_converted(error)));
        }
        Ok(sink.lane.finish(shape.tool_result()))
    })
}

fn rpc_error_converted(error: &RpcError<'_>) -> Converted<'static> {
    Converted {
        content: vec![AgentBlock::Text {
            text: Cow::Owned(rpc_error(error)),
        }],
        held_for_user: Vec::new(),
    }
}

/// Every block of `message` converted, as [`convert`] converts them; the tool-result lane
/// reads every message as a tool result (`tool_result`), so a message of no result shape gets
/// the same lines beside its blocks.
pub(crate) fn converted_blocks<'a>(
    message: &'a Message<'_>,
    provenance: Provenance,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Converted<'a> {
    let structured = message.tool_result().and_then(|(_, structured)| structured);
    converted(
        || message.blocks(),
        provenance,
        registry,
        target,
        Some((false, structured)),
    )
}

/// The convert lane: each block converted as it comes, the stubs' ids written when the lane
/// knows what it shows (what a walk takes back is never registered).
struct Lane<'a, 'r> {
    content: Vec<AgentBlock<'a>>,
    held_for_user: Vec<AgentBlock<'a>>,
    has_text: bool,
    provenance: Provenance,
    target: &'r Target,
    /// Every stub written, each at its place in its block's text.
    stubs: Stubs<'r>,
    /// Each text with stubs, in order: the first of its stubs, and which block it is (eight
    /// bytes).
    texts: Vec<(u32, Place)>,
}

/// Which agent block a text with stubs is: its index in `content`, or in `held_for_user` with
/// [`Place::HELD`] set. Four bytes: a message of a million links has a million of them.
#[derive(Clone, Copy)]
struct Place(u32);

impl Place {
    const HELD: u32 = 1 << 31;
}

impl<'a, 'r> Lane<'a, 'r> {
    fn new(provenance: Provenance, stubs: Stubs<'r>, target: &'r Target) -> Self {
        Lane {
            // Most messages have a few blocks: room for eight at once (320 bytes), grown as
            // needed past them.
            content: Vec::with_capacity(8),
            held_for_user: Vec::new(),
            has_text: false,
            provenance,
            target,
            stubs,
            texts: Vec::new(),
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
            let for_user = for_user_only(block);
            let stubs = lane.stubs.len();
            let out = lane.convert(block, for_user);
            lane.keep(out, stubs, for_user);
        }
        lane
    }

    /// Converts one block (`for_user`: its audience leaves out the assistant) into its agent
    /// block, the stubs written in it kept at their places in its text.
    fn convert<'b>(&mut self, block: &'b Block<'_>, for_user: bool) -> AgentBlock<'b> {
        let class = classify_block(block);
        if !for_user {
            self.has_text |= matches!(class, Class::Text { .. });
        }
        convert_class_deferred(class, self.provenance, &mut self.stubs, self.target)
    }

    /// Keeps a converted block; the stubs from the `stubs`th on were written in its text.
    fn keep(&mut self, out: AgentBlock<'a>, stubs: usize, for_user: bool) {
        let place = if for_user {
            self.held_for_user.push(out);
            Place(u32::try_from(self.held_for_user.len() - 1).unwrap_or(u32::MAX) | Place::HELD)
        } else {
            self.content.push(out);
            Place(u32::try_from(self.content.len() - 1).unwrap_or(u32::MAX) & !Place::HELD)
        };
        // Where the stubs guess, their ids are written already.
        if self.stubs.len() > stubs && self.stubs.wait() {
            self.texts.push((u32::try_from(stubs).unwrap_or(u32::MAX), place));
        }
    }

    fn mark(&self) -> (usize, usize, usize, usize, bool) {
        (
            self.content.len(),
            self.held_for_user.len(),
            self.texts.len(),
            self.stubs.len(),
            self.has_text,
        )
    }

    fn reset(&mut self, (content, held, texts, stubs, has_text): (usize, usize, usize, usize, bool)) {
        self.content.truncate(content);
        self.held_for_user.truncate(held);
        self.texts.truncate(texts);
        self.stubs.truncate(stubs);
        self.has_text = has_text;
    }

    /// The blocks, with what a tool result shows beside them, every stub's id written.
    /// `tool`, for a tool result: its `isError` and its `structuredContent`. `None` where the
    /// stubs guessed and the guess did not hold.
    fn finish(mut self, tool: Option<(bool, Option<&str>)>) -> Option<Converted<'a>> {
        if let Some((_, structured)) = tool {
            let beside = beside_blocks(
                structured,
                self.content.len(),
                self.has_text,
                self.held_for_user.len(),
                &mut self.stubs,
            );
            if let Some((beside, stubs)) = beside {
                let out = AgentBlock::Text {
                    text: Cow::Owned(beside),
                };
                let from = self.stubs.len();
                self.stubs.append(stubs, |at| at);
                self.keep(out, from, false);
            }
        }
        let Lane {
            mut content,
            mut held_for_user,
            stubs,
            texts,
            ..
        } = self;
        // The ids come in the stubs' order, and so do the texts they were written in.
        let (mut stub, mut text_of) = (0, 0);
        let registered = stubs.registry().register_shown(stubs, |at, id| {
            while texts.get(text_of + 1).is_some_and(|&(first, _)| first as usize <= stub) {
                text_of += 1;
            }
            stub += 1;
            let Some(&(_, Place(place))) = texts.get(text_of) else {
                return;
            };
            let index = (place & !Place::HELD) as usize;
            let block = if place & Place::HELD == 0 {
                content.get_mut(index)
            } else {
                held_for_user.get_mut(index)
            };
            if let Some(AgentBlock::Text { text }) = block {
                text.to_mut().replace_range(at..at + id.len(), id);
            }
        });
        if !registered {
            return None;
        }
        if let Some((true, _)) = tool {
            content.insert(
                0,
                AgentBlock::Text {
                    text: Cow::Borrowed(TOOL_ERROR_LINE),
                },
            );
        }
        Some(Converted { content, held_for_user })
    }
}

/// The convert lane on the one walk over bytes: each block converted where it was read, what
/// it borrowed from the bytes kept borrowed.
struct Streaming<'a, 'r> {
    lane: Lane<'a, 'r>,
    bytes: &'a [u8],
}

impl<'a> Sink<'a> for Streaming<'a, '_> {
    fn block(&mut self, block: Block<'a>) {
        self.look(&block);
    }

    fn look(&mut self, block: &Block<'a>) -> bool {
        let for_user = for_user_only(block);
        let stubs = self.lane.stubs.len();
        let out = rebased(self.lane.convert(block, for_user), block, self.bytes);
        self.lane.keep(out, stubs, for_user);
        true
    }

    type Mark = (usize, usize, usize, usize, bool);

    fn mark(&self) -> Self::Mark {
        self.lane.mark()
    }

    fn reset(&mut self, mark: Self::Mark) {
        self.lane.reset(mark);
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
