//! One serializer per provider over the same agent blocks, tool results and messages: the top
//! floor. What each provider accepts (the media policy the lanes check against) is a floor
//! below, in `media`; its types are named here too.

mod anthropic;

mod neutral;
mod openai_chat;
mod openai_responses;
mod shape;

pub use crate::media::{AudioFormat, ImageDetail, ImageFormat, Provider, Target};

use crate::media::check;

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::lanes::agent::AgentBlock;
use crate::lanes::convert::Converted;
use crate::lanes::prompt::AgentMessage;
use crate::lanes::tool_result::AgentToolResult;

impl Target {
    /// Blocks as the provider's content: Anthropic content blocks, OpenAI Chat content parts,
    /// OpenAI Responses input items, or the neutral JSON.
    ///
    /// No shape carries an empty or white-space-only text block (the providers refuse one):
    /// such a block is left out where other content remains, and where none does the content
    /// is one `[empty text]` block.
    ///
    /// A `Value` of [`Target::blocks_view`]; for many blocks, serialize the view itself.
    #[must_use]
    pub fn blocks_json(&self, blocks: &[AgentBlock<'_>]) -> Value {
        to_value(&self.blocks_view(blocks))
    }

    /// [`Target::blocks_json`] as a value to serialize (`serde_json::to_writer`, …): the
    /// same JSON, written as it goes, with no `Value` built for any block.
    #[must_use]
    pub fn blocks_view<'s>(&'s self, blocks: &'s [AgentBlock<'s>]) -> Shaped<'s> {
        Shaped {
            target: self,
            what: What::Blocks(self.sendable(blocks, crate::render::EMPTY_TEXT)),
        }
    }

    /// Everything one assistant turn's tool calls add to the conversation, in the target's
    /// shape, in order: for Anthropic one `user` message holding every `tool_result` block;
    /// for OpenAI Chat one `tool` message per call (text only, contiguous), then, where any
    /// result carries media, one `user` message with that media; for OpenAI Responses one
    /// `function_call_output` item per call (text only), then a `user` message for media; for
    /// the neutral target one neutral `tool_result` object per call.
    ///
    /// No result carries an empty or white-space-only text block: such a block is left out
    /// where other content remains, and a result left with none reads
    /// `[tool returned no content]`.
    ///
    /// ```
    /// use mcp_agent_view::{tool_result, ReferenceRegistry, Target};
    ///
    /// let target = Target::anthropic();
    /// let answer = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"22.5 C"}]}}"#;
    /// let result = tool_result(answer, "get_weather", "toolu_01", &ReferenceRegistry::new(), &target);
    /// let messages = target.tool_result_messages(&[result]);
    /// assert_eq!(messages, [serde_json::json!({"role": "user", "content": [{"type": "tool_result",
    ///     "tool_use_id": "toolu_01", "is_error": false, "content": [{"type": "text", "text": "22.5 C"}]}]})]);
    /// ```
    ///
    /// A `Vec` of [`Target::tool_results_view`]'s items; for many blocks, serialize the view.
    #[must_use]
    pub fn tool_result_messages(&self, results: &[AgentToolResult<'_>]) -> Vec<Value> {
        match to_value(&self.tool_results_view(results)) {
            Value::Array(items) => items,
            _ => Vec::new(),
        }
    }

    /// The tools a server listed (rmcp's `tools/list` answer, `ListToolsResult::tools`), as
    /// the provider's tool definitions, each tool's name, description and input schema as the
    /// server gave them; then, where `fetch_tool` names the fetch tool the host offers (give
    /// it [`ReferenceRegistry::fetch_tool`](crate::ReferenceRegistry::fetch_tool)), its
    /// definition ([`fetch::tool_definition`](crate::fetch::tool_definition)).
    ///
    /// ```
    /// use mcp_agent_view::Target;
    /// use rmcp::model::Tool;
    /// use std::sync::Arc;
    ///
    /// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// let tool = Tool::new("get_weather", "The weather in a city", Arc::new(schema.as_object().unwrap().clone()));
    /// let tools = Target::anthropic().tool_definitions(&[tool], None);
    /// assert_eq!(tools[0]["name"], "get_weather");
    /// assert_eq!(tools[0]["input_schema"]["properties"]["city"]["type"], "string");
    /// ```
    #[cfg(feature = "rmcp")]
    #[must_use]
    pub fn tool_definitions(&self, tools: &[rmcp::model::Tool], fetch_tool: Option<&str>) -> Vec<Value> {
        tools
            .iter()
            .map(|tool| {
                let schema = Value::Object((*tool.input_schema).clone());
                self.tool_definition(&tool.name, tool.description.as_deref(), schema)
            })
            .chain(fetch_tool.map(|name| crate::fetch::tool_definition(self.provider, name)))
            .collect()
    }

    /// One tool's definition in the provider's shape (as [`Target::tool_definitions`] gives
    /// each): its name, description (none, no `description` key) and input JSON Schema.
    ///
    /// ```
    /// let tool = mcp_agent_view::Target::openai_chat().tool_definition("f", None, serde_json::json!({"type": "object"}));
    /// assert_eq!(tool, serde_json::json!({"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}));
    /// ```
    #[must_use]
    pub fn tool_definition(&self, name: &str, description: Option<&str>, input_schema: Value) -> Value {
        tool_shape(self.provider, name, description, input_schema)
    }

    /// An MCP tool as `tools/list` lists it (JSON: `name`, `description`, `inputSchema`) as
    /// [`Target::tool_definition`] gives it; a tool without `inputSchema` takes
    /// `{"type": "object"}`. `None` where the tool has no name.
    ///
    /// ```
    /// let tool = serde_json::json!({"name": "search", "description": "Searches", "inputSchema": {"type": "object"}});
    /// let definition = mcp_agent_view::Target::anthropic().mcp_tool_definition(&tool);
    /// assert_eq!(definition, Some(serde_json::json!({"name": "search", "description": "Searches", "input_schema": {"type": "object"}})));
    /// assert_eq!(mcp_agent_view::Target::anthropic().mcp_tool_definition(&serde_json::json!({})), None);
    /// ```
    #[must_use]
    pub fn mcp_tool_definition(&self, tool: &Value) -> Option<Value> {
        let name = tool.get("name")?.as_str()?;
        let schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({"type": "object"}));
        let description = tool.get("description").and_then(Value::as_str);
        Some(self.tool_definition(name, description, schema))
    }

    /// [`Target::tool_result_messages`] as a value to serialize: the same JSON array, written as
    /// it goes.
    #[must_use]
    pub fn tool_results_view<'s>(&'s self, results: impl IntoIterator<Item = &'s AgentToolResult<'s>>) -> Shaped<'s> {
        let results = results.into_iter().map(|r| self.sendable_result(r)).collect();
        Shaped {
            target: self,
            what: What::ToolResults(results),
        }
    }

    /// One result's share of a turn, for a host that keeps results apart and puts the turn
    /// together itself (the Node package does, keeping no native value a result):
    /// `{"attachments": […], "item": …, "oneUserMessage": …}`.
    ///
    /// [`Target::tool_result_messages`] of some results is, from their parts in order: the
    /// items, in one `{"content": [items], "role": "user"}` message where `oneUserMessage`
    /// (Anthropic), else each item on its own; then, where any result has attachments, one
    /// `{"content": [every attachment], "role": "user"}` message. No results, no messages.
    ///
    /// ```
    /// use mcp_agent_view::{tool_result, ReferenceRegistry, Target};
    ///
    /// let target = Target::openai_chat();
    /// let answer = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"22.5 C"}]}}"#;
    /// let result = tool_result(answer, "get_weather", "call_1", &ReferenceRegistry::new(), &target);
    /// let parts = serde_json::to_value(target.tool_result_parts(&result)).unwrap();
    /// assert_eq!(parts["item"], serde_json::json!({"content": "22.5 C", "role": "tool", "tool_call_id": "call_1"}));
    /// assert_eq!(parts["attachments"], serde_json::json!([]));
    /// assert_eq!(target.tool_result_messages(&[result]), [parts["item"].clone()]);
    /// ```
    #[must_use]
    pub fn tool_result_parts<'s>(&'s self, result: &'s AgentToolResult<'s>) -> ToolResultParts<'s> {
        ToolResultParts {
            target: self,
            result: self.sendable_result(result),
        }
    }

    /// `result` with its content as this target takes it ([`Target::sendable`]).
    fn sendable_result<'s>(&self, result: &'s AgentToolResult<'s>) -> Cow<'s, AgentToolResult<'s>> {
        match self.sendable(&result.content, crate::render::NO_CONTENT) {
            Cow::Borrowed(_) => Cow::Borrowed(result),
            Cow::Owned(content) => Cow::Owned(AgentToolResult {
                content,
                ..result.clone()
            }),
        }
    }

    /// Prompt messages in the provider's message shape.
    ///
    /// As in [`Target::blocks_json`], no message carries an empty or white-space-only text
    /// block; and a message is `user` or `assistant`, whatever role it claimed.
    #[must_use]
    pub fn messages_json(&self, messages: &[AgentMessage<'_>]) -> Vec<Value> {
        match to_value(&self.messages_view(messages)) {
            Value::Array(items) => items,
            _ => Vec::new(),
        }
    }

    /// [`Target::messages_json`] as a value to serialize: the same JSON array, written as it
    /// goes.
    #[must_use]
    pub fn messages_view<'s>(&'s self, messages: &'s [AgentMessage<'s>]) -> Shaped<'s> {
        Shaped {
            target: self,
            what: What::Messages(messages),
        }
    }
}

impl Target {
    /// A conversion as the packages hand it over, written as it is serialized:
    /// `{"content": …, "heldForUser": …}`, the content in this target's shape and what was held
    /// back for the user in the neutral shape.
    #[must_use]
    pub fn converted_view<'s>(&'s self, converted: &'s Converted<'s>) -> ConvertedView<'s> {
        ConvertedView {
            target: self,
            converted,
        }
    }

    /// One tool result as the packages hand it over, written as it is serialized:
    /// `{"toolUseId", "name", "content", "isError", "heldForUser", "pending"}`, the content in
    /// this target's shape, what was held back for the user in the neutral shape, `pending`
    /// null where the server answered.
    #[must_use]
    pub fn tool_result_view<'s>(&'s self, result: &'s AgentToolResult<'s>) -> ToolResultView<'s> {
        ToolResultView { target: self, result }
    }
}

/// [`Target::converted_view`].
pub struct ConvertedView<'s> {
    target: &'s Target,
    converted: &'s Converted<'s>,
}

impl Serialize for ConvertedView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'x> {
            content: Shaped<'x>,
            held_for_user: Shaped<'x>,
        }
        let neutral = Target::neutral();
        Out {
            content: self.target.blocks_view(&self.converted.content),
            held_for_user: neutral.blocks_view(&self.converted.held_for_user),
        }
        .serialize(s)
    }
}

/// [`Target::tool_result_view`].
pub struct ToolResultView<'s> {
    target: &'s Target,
    result: &'s AgentToolResult<'s>,
}

impl Serialize for ToolResultView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'x> {
            tool_use_id: &'x str,
            name: &'x str,
            content: Shaped<'x>,
            is_error: bool,
            held_for_user: Shaped<'x>,
            pending: Option<&'x crate::wire::pending::Pending>,
        }
        let (result, neutral) = (self.result, Target::neutral());
        Out {
            tool_use_id: &result.tool_use_id,
            name: &result.name,
            content: self.target.blocks_view(&result.content),
            is_error: result.is_error,
            held_for_user: neutral.blocks_view(&result.held_for_user),
            pending: result.pending.as_ref(),
        }
        .serialize(s)
    }
}

/// [`Target::tool_result_parts`].
pub struct ToolResultParts<'s> {
    target: &'s Target,
    result: Cow<'s, AgentToolResult<'s>>,
}

impl Serialize for ToolResultParts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (target, result) = (self.target, &*self.result);
        shape::object!(s,
            "attachments" => ResultAttachments(target, &[result]),
            "item" => ResultItem(target, result),
            "oneUserMessage" => target.one_user_message())
    }
}

/// A provider's JSON for blocks, tool results or prompt messages, written as it is serialized
/// (with `serde_json::to_writer`, `to_string`, …): nothing is built per block, so memory stays
/// with what was read however many blocks there are. [`Target::blocks_view`],
/// [`Target::tool_results_view`] and [`Target::messages_view`] make one.
pub struct Shaped<'s> {
    target: &'s Target,
    what: What<'s>,
}

enum What<'s> {
    Blocks(Cow<'s, [AgentBlock<'s>]>),
    ToolResults(Vec<Cow<'s, AgentToolResult<'s>>>),
    Messages(&'s [AgentMessage<'s>]),
}

impl Serialize for Shaped<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let target = self.target;
        match &self.what {
            What::Blocks(blocks) => match target.provider {
                Provider::Neutral => neutral::blocks(blocks).serialize(s),
                Provider::Anthropic => anthropic::blocks(blocks).serialize(s),
                Provider::OpenAiChat => openai_chat::user_parts(blocks).serialize(s),
                Provider::OpenAiResponses => openai_responses::items(blocks, target).serialize(s),
            },
            // An empty turn appends nothing: no API takes a message with no content.
            What::ToolResults(results) if results.is_empty() => {
                serde::ser::SerializeSeq::end(s.serialize_seq(Some(0))?)
            }
            What::ToolResults(results) => {
                use serde::ser::SerializeSeq as _;
                let results: Vec<&AgentToolResult<'_>> = results.iter().map(|r| &**r).collect();
                let attachments = results.iter().any(|r| target.attaches(r));
                let mut seq = s.serialize_seq(None)?;
                if target.one_user_message() {
                    let items = shape::Items(|| results.iter().map(|r| ResultItem(target, r)));
                    seq.serialize_element(&UserMessage(items))?;
                } else {
                    for result in &results {
                        seq.serialize_element(&ResultItem(target, result))?;
                    }
                }
                if attachments {
                    seq.serialize_element(&UserMessage(ResultAttachments(target, &results)))?;
                }
                seq.end()
            }
            What::Messages(messages) => {
                use serde::ser::SerializeSeq as _;
                let mut seq = s.serialize_seq(Some(messages.len()))?;
                for message in *messages {
                    let sent = message.as_sent();
                    let content = target.sendable(&sent.content, crate::render::EMPTY_TEXT);
                    seq.serialize_element(&MessageOut {
                        role: &sent.role,
                        content: &content,
                        target,
                    })?;
                }
                seq.end()
            }
        }
    }
}

/// `{"content": …, "role": "user"}`.
struct UserMessage<T>(T);

impl<T: Serialize> Serialize for UserMessage<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        shape::object!(s, "content" => self.0, "role" => "user")
    }
}

/// A result as its item of the turn: Anthropic's `tool_result` block, OpenAI Chat's `tool`
/// message, OpenAI Responses' `function_call_output`, the neutral `tool_result` object.
struct ResultItem<'a>(&'a Target, &'a AgentToolResult<'a>);

impl Serialize for ResultItem<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ResultItem(target, result) = *self;
        match target.provider {
            Provider::Neutral => neutral::tool_result(result).serialize(s),
            Provider::Anthropic => anthropic::tool_result(result).serialize(s),
            Provider::OpenAiChat => openai_chat::tool_result(result).serialize(s),
            Provider::OpenAiResponses => openai_responses::tool_result(result, target).serialize(s),
        }
    }
}

/// The parts results add to the `user` message after the turn's items: for the APIs whose
/// tool outputs take text only, each result's media; nothing for the others.
struct ResultAttachments<'a>(&'a Target, &'a [&'a AgentToolResult<'a>]);

impl Serialize for ResultAttachments<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ResultAttachments(target, results) = *self;
        match target.provider {
            Provider::OpenAiChat => openai_chat::attachments(results).serialize(s),
            Provider::OpenAiResponses => openai_responses::attachments(results, target).serialize(s),
            Provider::Neutral | Provider::Anthropic => s.collect_seq(std::iter::empty::<()>()),
        }
    }
}

impl Target {
    /// Whether the turn's items go in one `user` message (Anthropic's `tool_result` blocks)
    /// rather than one after another (messages or items of their own).
    fn one_user_message(&self) -> bool {
        self.provider == Provider::Anthropic
    }

    /// Whether `result` adds parts to the `user` message after the turn's items.
    fn attaches(&self, result: &AgentToolResult<'_>) -> bool {
        matches!(self.provider, Provider::OpenAiChat | Provider::OpenAiResponses) && shape::has_media(result)
    }
}

/// One prompt message in the provider's shape: OpenAI's non-user messages take text only,
/// media as its marker.
struct MessageOut<'x> {
    role: &'x crate::wire::Role<'x>,
    content: &'x [AgentBlock<'x>],
    target: &'x Target,
}

impl Serialize for MessageOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use shape::object;
        let (role, content) = (self.role.as_str(), self.content);
        let user = matches!(self.role, crate::wire::Role::User);
        match self.target.provider {
            Provider::Neutral => object!(s, "content" => neutral::blocks(content), "role" => role),
            Provider::Anthropic => object!(s, "content" => anthropic::blocks(content), "role" => role),
            Provider::OpenAiChat if user => object!(s, "content" => openai_chat::user_parts(content), "role" => role),
            Provider::OpenAiResponses if user => {
                object!(s, "content" => openai_responses::items(content, self.target), "role" => role)
            }
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                object!(s, "content" => text_only(content), "role" => role)
            }
        }
    }
}

/// One tool's definition in `provider`'s shape: Anthropic `{name, description, input_schema}`,
/// OpenAI Chat `{type: "function", function: {name, description, parameters}}`, OpenAI
/// Responses `{type: "function", name, description, parameters, strict: false}`, neutral
/// (MCP's own) `{name, description, inputSchema}`. No description, no `description` key.
///
/// `strict: false` because the Responses API holds a function to strict mode unless told
/// otherwise, and strict mode refuses a schema that does not close every object
/// (`additionalProperties: false`) and require every property, as MCP tools' schemas seldom
/// do. Chat Completions is not strict unless asked.
pub(crate) fn tool_shape(provider: Provider, name: &str, description: Option<&str>, schema: Value) -> Value {
    let mut tool = serde_json::Map::new();
    tool.insert("name".to_owned(), name.into());
    if let Some(description) = description {
        tool.insert("description".to_owned(), description.into());
    }
    let schema_key = match provider {
        Provider::Anthropic => "input_schema",
        Provider::Neutral => "inputSchema",
        Provider::OpenAiChat | Provider::OpenAiResponses => "parameters",
    };
    tool.insert(schema_key.to_owned(), schema);
    match provider {
        Provider::OpenAiChat => serde_json::json!({"type": "function", "function": tool}),
        Provider::OpenAiResponses => {
            tool.insert("type".to_owned(), "function".into());
            tool.insert("strict".to_owned(), false.into());
            Value::Object(tool)
        }
        Provider::Anthropic | Provider::Neutral => Value::Object(tool),
    }
}

/// A view as a `Value`; the views write only strings, numbers, booleans, arrays and objects
/// with string keys, which a `Value` always holds.
fn to_value(view: &impl Serialize) -> Value {
    serde_json::to_value(view).unwrap_or(Value::Null)
}

/// The text a block reads as where only text is taken: its text, or its media marker with the
/// note, if any.
fn text_of<'x>(block: &'x AgentBlock<'_>, note: Option<&str>) -> std::borrow::Cow<'x, str> {
    let (label, mime_type, data) = match block {
        AgentBlock::Text { text } => return std::borrow::Cow::Borrowed(text),
        AgentBlock::Image { mime_type, data } => ("image", mime_type, data),
        AgentBlock::Audio { mime_type, data } => ("audio", mime_type, data),
        AgentBlock::Document { mime_type, data } => ("file", mime_type, data),
    };
    std::borrow::Cow::Owned(crate::render::media_text(label, mime_type, data, note))
}

/// Blocks as one text, for a message that takes text only: `first` (where given), then each
/// block's text (media as its marker, with `note`), one a line. Written out as it is
/// serialized, never joined in memory beside the blocks.
pub(super) struct Lines<'x> {
    pub(super) first: Option<&'x str>,
    pub(super) blocks: &'x [AgentBlock<'x>],
    pub(super) note: Option<&'x str>,
}

impl std::fmt::Display for Lines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut line_break = false;
        for line in self
            .first
            .into_iter()
            .map(std::borrow::Cow::Borrowed)
            .chain(self.blocks.iter().map(|b| text_of(b, self.note)))
        {
            if std::mem::replace(&mut line_break, true) {
                f.write_str("\n")?;
            }
            f.write_str(&line)?;
        }
        Ok(())
    }
}

impl Serialize for Lines<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Blocks as one text, media as markers, one a line.
fn text_only<'x>(blocks: &'x [AgentBlock<'x>]) -> Lines<'x> {
    Lines {
        first: None,
        blocks,
        note: None,
    }
}

/// Whether a block is a text block with nothing but white space.
fn is_blank(block: &AgentBlock<'_>) -> bool {
    block.as_text().is_some_and(|t| t.trim().is_empty())
}

impl Target {
    /// Why this target would not take `block`'s media: media checked for another target (a
    /// 6 MiB PNG checked for OpenAI, serialized for Anthropic) is checked again, by its type and
    /// size, where it goes out. `None` for media it takes, and for text.
    fn refuses(&self, block: &AgentBlock<'_>) -> Option<check::NotSent> {
        let (mime_type, data, formats, limit): (&str, &str, Vec<&str>, Option<u64>) = match block {
            AgentBlock::Text { .. } => return None,
            AgentBlock::Image { mime_type, data } => (
                mime_type,
                data,
                self.images.iter().map(|f| f.mime_type()).collect(),
                self.max_image_bytes,
            ),
            AgentBlock::Audio { mime_type, data } => (
                mime_type,
                data,
                self.audio.iter().map(|f| f.mime_type()).collect(),
                self.max_audio_bytes,
            ),
            AgentBlock::Document { mime_type, data } => (
                mime_type,
                data,
                if self.pdf { vec!["application/pdf"] } else { Vec::new() },
                self.max_pdf_bytes,
            ),
        };
        if !formats.contains(&mime_type) {
            return Some(check::NotSent::UnsupportedType);
        }
        match limit {
            Some(limit) if crate::text::base64_decoded_len(data.as_bytes()) > limit => {
                Some(check::NotSent::TooLarge(limit))
            }
            _ => None,
        }
    }

    /// `blocks` as this target takes them: media it would not take as its marker with the
    /// reason, and no empty or white-space-only text block; where none is left, one text
    /// block of `instead`.
    fn sendable<'s, 'a>(&self, blocks: &'s [AgentBlock<'a>], instead: &'static str) -> Cow<'s, [AgentBlock<'a>]> {
        if !blocks.iter().any(|b| is_blank(b) || self.refuses(b).is_some()) {
            return Cow::Borrowed(blocks);
        }
        let kept: Vec<AgentBlock<'a>> = blocks
            .iter()
            .filter(|b| !is_blank(b))
            .map(|b| {
                let (label, mime_type, data) = match b {
                    AgentBlock::Text { .. } => return b.clone(),
                    AgentBlock::Image { mime_type, data } => ("image", mime_type, data),
                    AgentBlock::Audio { mime_type, data } => ("audio", mime_type, data),
                    AgentBlock::Document { mime_type, data } => ("file", mime_type, data),
                };
                match self.refuses(b) {
                    None => b.clone(),
                    Some(reason) => {
                        let size = crate::text::base64_decoded_len(data.as_bytes());
                        AgentBlock::Text {
                            text: Cow::Owned(crate::render::not_sent(label, Some(mime_type), size, reason)),
                        }
                    }
                }
            })
            .collect();
        if kept.is_empty() {
            return Cow::Owned(vec![AgentBlock::Text {
                text: Cow::Borrowed(instead),
            }]);
        }
        Cow::Owned(kept)
    }
}

/// The file name OpenAI's file parts want; a document's own name could carry its uri, so none
/// is used.
const DOCUMENT_NAME: &str = "document.pdf";
