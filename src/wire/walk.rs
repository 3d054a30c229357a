//! The one walk over a message: its shape found as its members are read, its blocks reported
//! to a sink as they are read.

use std::borrow::Cow;

use super::block::{key_name, read_block, read_raw, read_resource_contents, read_scalar, read_text};
use super::pending::{pending_in, ResultType};
use super::{Block, Message, Prompt, PromptMessage, Role, RpcError, ToolResult};
use crate::error::{Error, ErrorKind};
use crate::json::{whole_number, Mark, Peek, Reader};
use crate::wire::kinds::{is_block_type, malformed, Scalar};

/// What decoding a message finds, in order: each block once, never taken back.
/// [`Message::parse`] collects, a lane renders as it goes.
pub(crate) trait Sink<'a> {
    /// A block of the message's content, prompt message or read resource.
    fn block(&mut self, block: Block<'a>);
    /// The end of one prompt message, with its role.
    fn end_prompt_message(&mut self, _role: Option<Role<'a>>) {}
}

/// One walk over a message: its sink, and how it reads objects.
struct Walker<'s, S> {
    sink: &'s mut S,
    /// Each object's keys are indexed before anything of it is reported: the second walk.
    decided: bool,
    /// The first walk reported blocks that a later key took back (an object that turned out
    /// to be one block, a key given twice): its sink is dropped and the message walked again,
    /// decided.
    taken_back: bool,
}

/// What the walk learned of the message's shape beside its blocks.
#[derive(Default)]
struct Shape<'a> {
    kind: Option<ShapeKind>,
    structured_content: Option<Cow<'a, str>>,
    is_error: bool,
    result_type: Option<Cow<'a, str>>,
    meta: Option<Cow<'a, str>>,
    description: Option<Cow<'a, str>>,
    rpc_error: Option<Box<RpcError<'a>>>,
}

impl Shape<'_> {
    fn of(kind: ShapeKind) -> Self {
        Shape {
            kind: Some(kind),
            ..Shape::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeKind {
    ToolResult,
    RoleContent,
    Prompt,
    Resource,
    Blocks,
    RpcError,
    NoContent,
}

fn unrecognized() -> Error {
    Error::new(
        ErrorKind::UnrecognizedMessage,
        "unrecognized message: expected a JSON-RPC response, a tool, prompt or resource result, a content block or an array of blocks",
    )
}

/// Walks a message at the reader's position, reporting its blocks to the walker's sink.
fn walk_message<'a, S: Sink<'a>>(r: &mut Reader<'a>, w: &mut Walker<'_, S>) -> Result<Shape<'a>, Error> {
    match r.peek()? {
        Peek::Array => {
            read_content(r, w.sink)?;
            Ok(Shape::of(ShapeKind::Blocks))
        }
        Peek::Object => walk_object(r, w, true),
        _ => {
            // JSON first, then the shape: bad bytes are a JSON error.
            r.skip()?;
            r.finish()?;
            Err(unrecognized())
        }
    }
}

/// Which keys an object had, for deciding what it is.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)] // one flag a key: the plainest record of what was seen
struct Seen {
    rpc: bool,
    role: bool,
    string_type: bool,
    /// The string `type` is a block type this crate knows.
    block_type: bool,
    content: bool,
    structured: bool,
    result_type: bool,
}

/// What the walk of one object keeps as it reads its members.
#[derive(Default)]
struct ObjectWalk<'a> {
    shape: Shape<'a>,
    seen: Seen,
    result: Option<Shape<'a>>,
    /// A nested `payload` object's shape (an event's, inside a notification's `params`).
    payload: Option<Shape<'a>>,
    /// How many members streamed blocks to the sink (`content`, an array `messages` or
    /// `contents`, `result`): more than one, and which to keep is decided as `serde_json`
    /// would (the last of each key, one container), on a second walk.
    streamed: u32,
}

/// The keys of a message object the walk reads, each once: where a key is repeated, the last
/// counts, as in `serde_json`.
const MESSAGE_KEYS: [&[u8]; 16] = [
    b"jsonrpc",
    b"id",
    b"result",
    b"params",
    b"payload",
    b"error",
    b"type",
    b"role",
    b"content",
    b"structuredContent",
    b"isError",
    b"resultType",
    b"_meta",
    b"description",
    b"messages",
    b"contents",
];

/// Walks an object that may be a JSON-RPC response (`outer`), a result, or a single block:
/// streaming on the first walk, decided on the second.
// Inlined even unoptimized: objects nest 127 deep, and a frame between each two would cost
// stack.
#[allow(clippy::inline_always)]
#[inline(always)]
fn walk_object<'a, S: Sink<'a>>(r: &mut Reader<'a>, w: &mut Walker<'_, S>, outer: bool) -> Result<Shape<'a>, Error> {
    if w.decided {
        walk_object_decided(r, w, outer)
    } else {
        walk_object_streaming(r, w, outer)
    }
}

/// The first walk of an object: one pass, blocks reported as they are read. Where the object
/// turns out to be one block (a string `type`) after a member reported blocks, or where more
/// than one member reported blocks (a key repeated, or two containers), those blocks were
/// wrong: the walker notes it, and the message is walked again, each object decided first
/// ([`walk_object_decided`]).
fn walk_object_streaming<'a, S: Sink<'a>>(
    r: &mut Reader<'a>,
    w: &mut Walker<'_, S>,
    outer: bool,
) -> Result<Shape<'a>, Error> {
    let start = r.mark();
    let mut walk = ObjectWalk::default();
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        member(&key_name(&key), r, w, &mut walk, outer)?;
    }
    if walk.streamed > 1 || walk.is_one_block() && walk.streamed > 0 {
        // What this walk finds no longer counts: any shape will do.
        w.taken_back = true;
        return Ok(Shape::of(ShapeKind::NoContent));
    }
    if walk.is_one_block() {
        // Nothing of it was reported: read it again as one block.
        return one_block(r, w, start);
    }
    walk.decide(outer)
}

/// Walks an object as `serde_json` reads it into a `Value`, deciding what it is before
/// reporting anything of it: each key's last value alone, and of `content`, `messages` and
/// `contents` the one the message's shape takes (`content`, else an array `messages`, else
/// an array `contents`). Two passes: the first finds where each key's last value stands; the
/// second reads those values, or the object as one block.
// Kept out of the first walk's code: only what a later key took back comes here.
#[cold]
#[inline(never)]
fn walk_object_decided<'a, S: Sink<'a>>(
    r: &mut Reader<'a>,
    w: &mut Walker<'_, S>,
    outer: bool,
) -> Result<Shape<'a>, Error> {
    let start = r.mark();
    let mut last = [None; MESSAGE_KEYS.len()];
    let end = last_members(r, &mut last)?;
    let at = |name: &[u8]| MESSAGE_KEYS.iter().position(|n| *n == name).and_then(|k| last[k]);
    let Some(container) = container(r, outer, at)? else {
        return one_block(r, w, start);
    };
    let mut walk = ObjectWalk::default();
    for (name, mark) in MESSAGE_KEYS.iter().zip(&last) {
        let Some(mark) = *mark else { continue };
        let streams = matches!(*name, b"content" | b"messages" | b"contents");
        if streams && *name != container {
            continue;
        }
        // Of a result and params, the one the message is (a response's result first); neither
        // where the object is no JSON-RPC message, whose own container the message is (as
        // `decide` keeps no result then).
        if *name == b"params" && at(b"result").is_some()
            || matches!(*name, b"result" | b"params") && !container.is_empty()
            || *name == b"payload" && !container.is_empty() && at(container).is_some()
        {
            continue;
        }
        r.rewind(mark);
        member(name, r, w, &mut walk, outer)?;
    }
    r.rewind(end);
    walk.decide(outer)
}

/// Reports the object that starts at `start` as one block.
fn one_block<'a, S: Sink<'a>>(r: &mut Reader<'a>, w: &mut Walker<'_, S>, start: Mark) -> Result<Shape<'a>, Error> {
    r.rewind(start);
    w.sink.block(read_block(r)?);
    Ok(Shape::of(ShapeKind::Blocks))
}

/// Notes in `last` where the last value of each of [`MESSAGE_KEYS`] stands in the object at
/// `r`; gives where the object ends.
fn last_members(r: &mut Reader<'_>, last: &mut [Option<Mark>; MESSAGE_KEYS.len()]) -> Result<Mark, Error> {
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        if let Some(k) = MESSAGE_KEYS.iter().position(|name| *name == &*key_name(&key)) {
            last[k] = Some(r.mark());
        }
        r.skip()?;
    }
    Ok(r.mark())
}

/// Of an object whose members' last values stand `at`, the member whose blocks it shows
/// (`content`, `messages` or `contents`; empty where the object is a JSON-RPC message, whose
/// result or params is the message, whatever else it holds); `None` where the object is one
/// block.
fn container<'a>(
    r: &mut Reader<'a>,
    outer: bool,
    at: impl Fn(&[u8]) -> Option<Mark>,
) -> Result<Option<&'static [u8]>, Error> {
    // What the last value of `name` is, the reader left at it.
    let peek = |r: &mut Reader<'a>, name: &[u8]| -> Result<Option<Peek>, Error> {
        at(name)
            .map(|mark| {
                r.rewind(mark);
                r.peek()
            })
            .transpose()
    };
    // One block: a string `type`, and no `content` unless the type is a block type (as
    // `ObjectWalk::is_one_block`).
    if peek(r, b"type")? == Some(Peek::String)
        && (at(b"content").is_none() || is_block_type(r.string()?.text().as_bytes()))
    {
        return Ok(None);
    }
    let rpc = at(b"jsonrpc").is_some() || at(b"id").is_some();
    Ok(Some(
        if outer && rpc && (at(b"result").is_some() || at(b"params").is_some()) {
            b""
        } else if at(b"content").is_some() {
            b"content"
        } else if peek(r, b"messages")? == Some(Peek::Array) {
            b"messages"
        } else {
            b"contents"
        },
    ))
}

/// Reads one member of a message object, its key `name` read, into `walk`. The members that
/// nest a message are read here, the rest by [`leaf_member`]: each level of nesting holds
/// only this small frame and its object's.
fn member<'a, S: Sink<'a>>(
    name: &[u8],
    r: &mut Reader<'a>,
    w: &mut Walker<'_, S>,
    walk: &mut ObjectWalk<'a>,
    outer: bool,
) -> Result<(), Error> {
    let nested = match name {
        // A notification's `params` is its message, as a response's `result` is.
        b"result" | b"params" if outer => &mut walk.result,
        b"payload" if !outer && r.peek()? == Peek::Object => &mut walk.payload,
        _ => return leaf_member(name, r, w, walk, outer),
    };
    walk.streamed += 1;
    *nested = Some(if r.peek()? == Peek::Object {
        walk_object(r, w, false)?
    } else {
        r.skip()?;
        Shape::of(ShapeKind::NoContent)
    });
    Ok(())
}

/// Reads a member of a message object that nests no message.
fn leaf_member<'a, S: Sink<'a>>(
    name: &[u8],
    r: &mut Reader<'a>,
    w: &mut Walker<'_, S>,
    walk: &mut ObjectWalk<'a>,
    outer: bool,
) -> Result<(), Error> {
    let ObjectWalk { shape, seen, .. } = walk;
    match name {
        b"jsonrpc" | b"id" if outer => {
            seen.rpc = true;
            r.skip()?;
        }
        b"error" if outer => shape.rpc_error = Some(Box::new(read_rpc_error(r)?)),
        b"type" => {
            seen.string_type = r.peek()? == Peek::String;
            seen.block_type = seen.string_type && is_block_type(r.string()?.text().as_bytes());
            if !seen.string_type {
                r.skip()?;
            }
        }
        b"role" => {
            seen.role = true;
            r.skip()?;
        }
        b"content" => {
            walk.streamed += 1;
            seen.content = true;
            read_content(r, w.sink)?;
        }
        b"structuredContent" => {
            seen.structured = true;
            let raw = read_raw(r)?;
            shape.structured_content = (raw != "null").then_some(raw);
        }
        b"isError" => shape.is_error = matches!(read_scalar(r)?, Scalar::Bool(true)),
        b"resultType" => {
            seen.result_type = true;
            shape.result_type = read_text(r)?;
        }
        b"_meta" => shape.meta = Some(read_raw(r)?),
        b"description" => shape.description = read_text(r)?,
        b"messages" if r.peek()? == Peek::Array => {
            walk.streamed += 1;
            shape.kind = Some(ShapeKind::Prompt);
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                read_prompt_message(r, w)?;
            }
        }
        b"contents" if r.peek()? == Peek::Array => {
            walk.streamed += 1;
            shape.kind.get_or_insert(ShapeKind::Resource);
            let mut items = r.array()?;
            while r.next_element(&mut items)? {
                w.sink.block(read_resource_contents(r)?);
            }
        }
        b"messages" | b"contents" => {
            // The last value of the key counts: not an array, it takes back an earlier one.
            walk.streamed += 2;
            r.skip()?;
        }
        _ => r.skip()?,
    }
    Ok(())
}

impl<'a> ObjectWalk<'a> {
    /// Whether the object is one block: a string `type`, and no `content` unless the type is
    /// a block type (an object of another type with content is a result carrying its blocks,
    /// as `{"type": "channel_message", "content": […]}`).
    fn is_one_block(&self) -> bool {
        self.seen.string_type && (self.seen.block_type || !self.seen.content)
    }

    /// What the object is, from what its members were: its payload's message, where it has
    /// one and no `structuredContent` of its own. (A payload is read beside no container: on
    /// the first walk both would have streamed, and the second reads the container alone.)
    fn decide(self, outer: bool) -> Result<Shape<'a>, Error> {
        match self.payload {
            Some(payload) if !self.seen.structured => Ok(payload),
            _ => decide(self.shape, &self.seen, self.result, outer),
        }
    }
}

/// What an object that is no block is, from the keys it had. Only a JSON-RPC message (a
/// `jsonrpc` or `id` beside it) is failed by its `error`; any other keeps none.
fn decide<'a>(mut shape: Shape<'a>, seen: &Seen, result: Option<Shape<'a>>, outer: bool) -> Result<Shape<'a>, Error> {
    let rpc_error = shape.rpc_error.take();
    if seen.rpc {
        if let Some(result) = result {
            return Ok(result);
        }
        if let Some(error) = rpc_error {
            return Ok(Shape {
                rpc_error: Some(error),
                ..Shape::of(ShapeKind::RpcError)
            });
        }
    }
    shape.kind = if seen.content {
        Some(if seen.role && !seen.structured {
            ShapeKind::RoleContent
        } else {
            ShapeKind::ToolResult
        })
    } else if shape.kind.is_some() {
        shape.kind
    } else if seen.structured {
        Some(ShapeKind::ToolResult)
    } else if seen.result_type || !outer {
        Some(ShapeKind::NoContent)
    } else {
        return Err(unrecognized());
    };
    Ok(shape)
}

/// `content`: one block, or an array of blocks.
fn read_content<'a>(r: &mut Reader<'a>, sink: &mut impl Sink<'a>) -> Result<(), Error> {
    if r.peek()? == Peek::Array {
        let mut items = r.array()?;
        while r.next_element(&mut items)? {
            sink.block(read_block(r)?);
        }
    } else {
        sink.block(read_block(r)?);
    }
    Ok(())
}

fn read_prompt_message<'a, S: Sink<'a>>(r: &mut Reader<'a>, w: &mut Walker<'_, S>) -> Result<(), Error> {
    if r.peek()? != Peek::Object {
        r.skip()?;
        w.sink
            .block(Block::bare(malformed(None, "prompt message is not an object")));
        w.sink.end_prompt_message(None);
        return Ok(());
    }
    let mut role = None;
    // Where the last `content` stands: it counts, as in `serde_json`.
    let mut content = None;
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        match &*key_name(&key) {
            b"role" => role = read_text(r)?.map(Role::parse),
            b"content" if w.decided => {
                content = Some(r.mark());
                r.skip()?;
            }
            b"content" => {
                // A second `content` takes back the blocks of the first.
                w.taken_back |= content.replace(r.mark()).is_some();
                read_content(r, w.sink)?;
            }
            _ => r.skip()?,
        }
    }
    match content {
        Some(mark) if w.decided => {
            let end = r.mark();
            r.rewind(mark);
            read_content(r, w.sink)?;
            r.rewind(end);
        }
        Some(_) => {}
        None => w
            .sink
            .block(Block::bare(malformed(None, "prompt message without content"))),
    }
    w.sink.end_prompt_message(role);
    Ok(())
}

fn read_rpc_error<'a>(r: &mut Reader<'a>) -> Result<RpcError<'a>, Error> {
    let mut error = RpcError {
        code: None,
        message: Cow::Borrowed(""),
        data: None,
    };
    if r.peek()? != Peek::Object {
        r.skip()?;
        return Ok(error);
    }
    let mut seq = r.object()?;
    while let Some(key) = r.next_key(&mut seq)? {
        match &*key_name(&key) {
            b"code" => {
                error.code = match read_scalar(r)? {
                    Scalar::Number(n) => json_integer(&n),
                    _ => None,
                }
            }
            b"message" => error.message = read_text(r)?.unwrap_or_default(),
            b"data" => error.data = Some(read_raw(r)?),
            _ => r.skip()?,
        }
    }
    Ok(error)
}

/// Collects a message's blocks into a [`Message`].
#[derive(Default)]
struct Collect<'a> {
    blocks: Vec<Block<'a>>,
    messages: Vec<PromptMessage<'a>>,
}

impl<'a> Sink<'a> for Collect<'a> {
    fn block(&mut self, block: Block<'a>) {
        self.blocks.push(block);
    }

    fn end_prompt_message(&mut self, role: Option<Role<'a>>) {
        let mut content = std::mem::take(&mut self.blocks);
        // A message of one block would otherwise keep room for four: memory linear in the
        // input, not in four blocks a message.
        content.shrink_to_fit();
        self.messages.push(PromptMessage { role, content });
    }
}

/// Walks the message in `bytes`, reporting its blocks to `sink`, and checks the JSON ends.
/// Where the first walk reported blocks that a later key took back, `sink` is replaced by a
/// new one `new_sink` makes, and told the message again, decided.
pub(crate) fn walk<'a, S: Sink<'a>>(
    bytes: &'a [u8],
    sink: &mut S,
    new_sink: impl FnOnce() -> S,
) -> Result<MessageShape<'a>, Error> {
    let mut walker = Walker {
        sink,
        decided: false,
        taken_back: false,
    };
    let shape = walk_once(bytes, &mut walker);
    if !walker.taken_back {
        return Ok(MessageShape(shape?));
    }
    drop(shape);
    *walker.sink = new_sink();
    walker.decided = true;
    walker.taken_back = false;
    Ok(MessageShape(walk_once(bytes, &mut walker)?))
}

/// [`walk`] for a sink that cannot take back what it was told (it hands each block on as it
/// comes): every object decided before anything of it is reported, so nothing is ever
/// reported twice. Slower than [`walk`] (each container's members are found before they are
/// read), and its memory the same.
pub(crate) fn walk_decided<'a, S: Sink<'a>>(bytes: &'a [u8], sink: &mut S) -> Result<MessageShape<'a>, Error> {
    let mut walker = Walker {
        sink,
        decided: true,
        taken_back: false,
    };
    let shape = walk_once(bytes, &mut walker);
    debug_assert!(!walker.taken_back, "a decided walk takes nothing back");
    Ok(MessageShape(shape?))
}

fn walk_once<'a, S: Sink<'a>>(bytes: &'a [u8], walker: &mut Walker<'_, S>) -> Result<Shape<'a>, Error> {
    let mut reader = Reader::new(bytes);
    let shape = walk_message(&mut reader, walker);
    if let Err(e) = &shape {
        if e.kind() == ErrorKind::Json {
            return shape;
        }
    }
    // Trailing bytes make the input no JSON, whatever its shape.
    reader.finish()?;
    shape
}

/// What a walk found beside the blocks, opaque outside this module.
pub(crate) struct MessageShape<'a>(Shape<'a>);

impl<'a> MessageShape<'a> {
    /// Whether the message is a prompt (`messages[]`).
    pub(crate) fn is_prompt(&self) -> bool {
        self.0.kind == Some(ShapeKind::Prompt)
    }

    /// The JSON-RPC error, where the message is one.
    pub(crate) fn rpc_error(&self) -> Option<&RpcError<'a>> {
        self.0.rpc_error.as_deref()
    }

    /// Whether the message carries nothing but its fields: no content, messages or contents.
    pub(crate) fn is_bare(&self) -> bool {
        matches!(self.0.kind, Some(ShapeKind::NoContent) | None)
    }

    /// `resultType`, where the message (or the response's result) has a string one.
    pub(crate) fn result_type(&self) -> Option<&str> {
        self.0.result_type.as_deref()
    }

    /// Where the message is a tool result: its `isError`, and its `structuredContent` as JSON
    /// text.
    pub(crate) fn tool_result(&self) -> Option<(bool, Option<&str>)> {
        (self.0.kind == Some(ShapeKind::ToolResult)).then_some((self.0.is_error, self.0.structured_content.as_deref()))
    }
}

impl<'a> Message<'a> {
    /// Detects and decodes the message in `bytes`: a JSON-RPC response (`result` or `error`), a
    /// `CallToolResult`, a `GetPromptResult`, a `ReadResourceResult`, an event payload
    /// `{content: […]}`, a bare array of blocks or a single block. Strings are borrowed from
    /// `bytes`.
    ///
    /// Fails where `bytes` are not JSON (or nest deeper than 127 levels, as `serde_json`), or are JSON of none of
    /// these shapes; a bad block inside is never an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Message<'a>, Error> {
        // Most messages have a few blocks: room for them at once, not grown one at a time.
        let new = || Collect {
            blocks: Vec::with_capacity(8),
            messages: Vec::new(),
        };
        let mut collect = new();
        let MessageShape(shape) = walk(bytes, &mut collect, new)?;
        let Collect { blocks, messages } = collect;
        // A result that is nothing but what the server asks (2026-07-28): what it asks is read
        // from the JSON once more. Any other shape reads as it did, its `resultType` kept.
        let task = match ResultType::of(shape.result_type.as_deref()) {
            ResultType::InputRequired => Some(false),
            ResultType::Task => Some(true),
            ResultType::Complete | ResultType::Unknown(_) => None,
        };
        if let (Some(task), Some(ShapeKind::NoContent) | None) = (task, shape.kind) {
            if let Some(pending) = pending_in(bytes, task)? {
                return Ok(Message::Pending(pending));
            }
        }
        Ok(match shape.kind {
            Some(ShapeKind::ToolResult) => Message::ToolResult(ToolResult {
                content: blocks,
                structured_content: shape.structured_content,
                is_error: shape.is_error,
                result_type: shape.result_type,
                meta: shape.meta,
            }),
            Some(ShapeKind::Prompt) => Message::Prompt(Prompt {
                description: shape.description,
                messages,
            }),
            Some(ShapeKind::Resource) => Message::Resource(blocks),
            Some(ShapeKind::Blocks | ShapeKind::RoleContent) => Message::Blocks(blocks),
            Some(ShapeKind::RpcError) => Message::RpcError(shape.rpc_error.map_or_else(
                || RpcError {
                    code: None,
                    message: Cow::Borrowed(""),
                    data: None,
                },
                |error| *error,
            )),
            Some(ShapeKind::NoContent) | None => Message::NoContent,
        })
    }
}

/// A JSON number as an `i64`, where its value is a whole number in range: `-32602`, and
/// `-32602.0` or `-3.2602e4` too (JavaScript writes no fraction of a whole number, Python
/// keeps one, so the same code reads the same however it was written; `-0` is `0`).
fn json_integer(number: &str) -> Option<i64> {
    whole_number(number).and_then(|n| i64::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_code_is_read_by_its_value() {
        for (number, code) in [
            ("-32602", Some(-32602)),
            ("-32602.0", Some(-32602)),
            ("-3.2602e4", Some(-32602)),
            ("-0", Some(0)),
            ("-0.0", Some(0)),
            ("9223372036854775807", Some(i64::MAX)),
            ("-9223372036854775808", Some(i64::MIN)),
            ("-9.223372036854775808e18", Some(i64::MIN)),
            ("9223372036854775808", None),
            ("9.223372036854775808e18", None),
            ("-32602.5", None),
            ("1e400", None),
        ] {
            assert_eq!(json_integer(number), code, "{number}");
        }
    }

    #[test]
    fn bytes_past_the_message_make_it_no_json_whatever_its_shape() {
        let kind = |json: &str| {
            walk(json.as_bytes(), &mut Collect::default(), Collect::default)
                .err()
                .map(|e| e.kind())
        };
        assert_eq!(kind(r#"{"content":[]} x"#), Some(ErrorKind::Json));
        assert_eq!(kind(r#"{"foo":1} x"#), Some(ErrorKind::Json));
        assert_eq!(kind(r#"{"foo":1}"#), Some(ErrorKind::UnrecognizedMessage));
        assert_eq!(kind(r#"{"content":[}"#), Some(ErrorKind::Json));
    }

    /// How many walks `json` took, and the texts of the blocks the last one collected.
    fn walks(json: &str) -> (usize, Vec<String>) {
        let mut walks = 1;
        let mut collect = Collect::default();
        walk(json.as_bytes(), &mut collect, || {
            walks += 1;
            Collect::default()
        })
        .unwrap();
        let blocks = collect
            .blocks
            .iter()
            .chain(collect.messages.iter().flat_map(|m| &m.content));
        let texts = blocks.map(|b| format!("{:?}", b.kind)).collect();
        (walks, texts)
    }

    #[test]
    fn only_a_message_whose_blocks_a_later_key_took_back_is_walked_again() {
        let text = |t: &str| format!(r#"{{"type":"text","text":"{t}"}}"#);
        let (a, b) = (text("a"), text("b"));
        let once = [
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{a}],"isError":false}}}}"#),
            format!(r#"{{"isError":true,"content":[{a}],"jsonrpc":"2.0"}}"#),
            a.clone(),
            format!(r#"{{"content":{a},"type":"channel_message"}}"#),
            format!(r#"{{"messages":[{{"content":{a},"role":"user"}}]}}"#),
        ];
        for json in once {
            assert_eq!(walks(&json).0, 1, "{json}");
        }
        let twice = [
            // One block after its `content` was read.
            (format!(r#"{{"content":[{a}],"type":"text","text":"b"}}"#), b.as_str()),
            // A key given twice, two containers, a prompt message's `content` given twice.
            (format!(r#"{{"content":[{a}],"content":[{b}]}}"#), &b),
            (
                format!(r#"{{"contents":[{{"uri":"x:","text":"a"}}],"content":[{b}]}}"#),
                &b,
            ),
            (format!(r#"{{"messages":[{{"content":{a}}}],"content":[{b}]}}"#), &b),
            (format!(r#"{{"messages":[{{"content":{a},"content":{b}}}]}}"#), &b),
            (
                format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{a}]}},"result":{{"content":[{b}]}}}}"#),
                &b,
            ),
            // A response's result or a notification's params is the message, whatever else
            // its object holds; a payload counts only where there is no content beside it.
            (
                format!(r#"{{"id":1,"result":{{"content":[{b}]}},"content":[{a}]}}"#),
                &b,
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","result":{{"content":[{b}]}},"content":[{a}]}}"#),
                &b,
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","params":{{"content":[{b}]}},"content":[{a}]}}"#),
                &b,
            ),
            (
                format!(r#"{{"id":1,"params":{{"content":[{a}]}},"result":{{"content":[{b}]}}}}"#),
                &b,
            ),
            (
                format!(r#"{{"params":{{"content":[{a}],"payload":{{"content":[{b}]}}}},"id":1}}"#),
                &a,
            ),
            (
                format!(r#"{{"params":{{"payload":{{"content":[{b}]}},"payload":{{}}}},"id":1}}"#),
                "[]",
            ),
            // Inside the message, `id` and `result` are keys like any other.
            (
                format!(
                    r#"{{"id":1,"result":{{"id":2,"result":{{}},"content":[{b}]}},"result":{{"id":2,"result":{{}},"content":[{b}]}}}}"#
                ),
                &b,
            ),
        ];
        for (json, kept) in twice {
            let (count, texts) = walks(&json);
            assert_eq!(count, 2, "{json}");
            assert_eq!(texts, walks(kept).1, "{json}");
        }
    }

    #[test]
    fn each_key_of_a_message_is_read_where_it_counts() {
        fn parse(json: &str) -> Result<Message<'_>, Error> {
            Message::parse(json.as_bytes())
        }
        let text = r#"{"type":"text","text":"hi"}"#;
        // A `role` beside `content` makes a message of blocks, not a tool result.
        assert!(matches!(parse(r#"{"role":"user","content":[]}"#), Ok(Message::Blocks(b)) if b.is_empty()));
        let Ok(Message::ToolResult(result)) = parse(r#"{"content":[],"_meta":{"a":1},"resultType":"complete"}"#) else {
            panic!("a tool result");
        };
        assert_eq!(result.meta.as_deref(), Some(r#"{"a":1}"#));
        assert_eq!(result.result_type.as_deref(), Some("complete"));
        let Ok(Message::Prompt(prompt)) = parse(r#"{"description":"d","messages":[]}"#) else {
            panic!("a prompt");
        };
        assert_eq!(prompt.description.as_deref(), Some("d"));
        // An event's `id` inside its params is no JSON-RPC id: the payload is the message.
        let event =
            format!(r#"{{"jsonrpc":"2.0","method":"e","params":{{"id":"e1","payload":{{"content":[{text}]}}}}}}"#);
        let Ok(Message::ToolResult(result)) = parse(&event) else {
            panic!("the payload's content");
        };
        assert_eq!(result.content.len(), 1);
        let Ok(Message::RpcError(error)) =
            parse(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m","data":[1]}}"#)
        else {
            panic!("an error");
        };
        assert_eq!(
            (error.code, &*error.message, error.data.as_deref()),
            (Some(-1), "m", Some("[1]"))
        );
        // Beside a payload, an event's own structuredContent makes it the message; the
        // payload's blocks are shown all the same.
        let event = format!(
            r#"{{"jsonrpc":"2.0","method":"e","params":{{"structuredContent":{{"x":1}},"payload":{{"content":[{text}],"isError":true}}}}}}"#
        );
        let Ok(Message::ToolResult(result)) = parse(&event) else {
            panic!("a tool result");
        };
        assert_eq!(
            (
                result.content.len(),
                result.structured_content.as_deref(),
                result.is_error
            ),
            (1, Some(r#"{"x":1}"#), false)
        );
        // A container given again as no array: the last value counts, as in serde_json.
        for json in [
            format!(r#"{{"messages":[{{"role":"user","content":{text}}}],"messages":5}}"#),
            r#"{"contents":[{"uri":"x:","text":"a"}],"contents":null}"#.to_owned(),
        ] {
            let kept = serde_json::from_str::<serde_json::Value>(&json).unwrap().to_string();
            let expected = parse(&kept).map(|_| ()).map_err(|e| e.kind());
            assert_eq!(expected, Err(ErrorKind::UnrecognizedMessage), "{json}");
            assert_eq!(parse(&json).map(|_| ()).map_err(|e| e.kind()), expected, "{json}");
        }
    }
}
