//! The requests a server sends the host (inside an input-required result, or over a session):
//! a sampling request's messages for the host's own model, and an elicitation's words for the
//! person it asks. Both are a server's content on its way to someone who trusts the host.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::input::{Input, JsonSource, Source};
use crate::lanes::prompt::{prompt_messages_from, AgentMessage};
use crate::media::target::Target;
use crate::reference::ReferenceRegistry;
use crate::render::{Provenance, MESSAGE_MAX_CHARS};
use crate::text::{clean_label, holds_absolute_url, push_clean_to};

/// A `sampling/createMessage` request as the host's own model may read it: its messages shown
/// as the other lanes show content, and the rest of its params handed back apart.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The messages, each block mapped as [`convert`](crate::convert) maps it (no uri, media
    /// checked for the target, unknown blocks marked), stubs saying `from sampling request`;
    /// roles `user` and `assistant` only, as a prompt's.
    pub messages: Vec<AgentMessage<'static>>,
    /// `systemPrompt`, as the server wrote it: the server's words, for the host to give its
    /// model apart from its own system prompt (as a first user turn, say), never merged in.
    pub system_prompt: Option<String>,
    /// `maxTokens`, where it is a whole number.
    pub max_tokens: Option<u64>,
    /// `temperature`, where it is a number.
    pub temperature: Option<f64>,
    /// `stopSequences`, the strings among them.
    pub stop_sequences: Vec<String>,
    /// `modelPreferences` (hints and priorities) as they came.
    pub model_preferences: Option<Value>,
    /// `includeContext` (`none`, `thisServer`, `allServers`) as it came.
    pub include_context: Option<String>,
    /// `tools` as they came: for [`Target::mcp_tool_definition`] where the host offers them
    /// to its model.
    pub tools: Option<Value>,
    /// `toolChoice` (`{"mode": "auto" | "required" | "none"}`) as it came: how the server asks
    /// the model to use `tools`.
    pub tool_choice: Option<Value>,
}

impl SamplingRequest {
    /// The request in JSON, its messages in `target`'s shape: `{"messages", "systemPrompt",
    /// "maxTokens", "temperature", "stopSequences", "modelPreferences", "includeContext",
    /// "tools", "toolChoice"}`, each field the request had (`messages` and `stopSequences`
    /// always).
    #[must_use]
    pub fn to_json(&self, target: &Target) -> Value {
        let mut out = Map::new();
        out.insert(
            "messages".to_owned(),
            Value::Array(target.messages_json(&self.messages)),
        );
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(value) = value {
                out.insert(key.to_owned(), value);
            }
        };
        put("systemPrompt", self.system_prompt.clone().map(Value::String));
        put("maxTokens", self.max_tokens.map(Value::from));
        put("temperature", self.temperature.map(Value::from));
        put(
            "stopSequences",
            Some(Value::Array(
                self.stop_sequences.iter().cloned().map(Value::String).collect(),
            )),
        );
        put("modelPreferences", self.model_preferences.clone());
        put("includeContext", self.include_context.clone().map(Value::String));
        put("tools", self.tools.clone());
        put("toolChoice", self.tool_choice.clone());
        Value::Object(out)
    }
}

/// Reads a `sampling/createMessage` request: its `params`, the request (`{"method", "params"}`)
/// or the JSON-RPC request, as JSON bytes or a `Value`.
///
/// Fails with [`ErrorKind::UnsupportedRequest`] where the params are no object, or a message
/// holds `tool_use` or `tool_result` content (a tool loop inside the request: the host answers
/// the server that it does not take part); with [`ErrorKind::Json`] where bytes are no JSON.
///
/// ```
/// use mcp_agent_view::{sampling_request, ReferenceRegistry, Target};
///
/// let params = br#"{"messages": [{"role": "user", "content": {"type": "resource_link",
///     "uri": "https://files.example/q3.csv?sig=SECRET", "name": "q3.csv"}}],
///     "systemPrompt": "You are terse.", "maxTokens": 100}"#;
/// let request = sampling_request(params, &ReferenceRegistry::new(), &Target::anthropic())?;
/// let stub = request.messages[0].content[0].as_text().unwrap();
/// assert!(stub.ends_with("q3.csv — from sampling request") && !stub.contains("SECRET"));
/// assert_eq!(request.system_prompt.as_deref(), Some("You are terse."));
/// assert_eq!(request.max_tokens, Some(100));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn sampling_request<'a>(
    request: impl Input<'a>,
    registry: &ReferenceRegistry,
    target: &Target,
) -> Result<SamplingRequest, Error> {
    let owned;
    let value = match request.source() {
        Source::Json(JsonSource::Bytes(bytes)) => {
            owned = crate::repair::parse_json(bytes)?;
            &owned
        }
        Source::Json(JsonSource::Value(value)) => value,
        Source::Message(_) | Source::Blocks(_) => {
            return Err(unsupported(
                "a sampling request is read from its JSON, not from decoded blocks",
            ))
        }
    };
    let params = params_of(value).ok_or_else(|| unsupported("a sampling request's params are no object"))?;
    let messages = params.get("messages").cloned().unwrap_or(Value::Array(Vec::new()));
    if holds_tool_content(&messages) {
        return Err(unsupported(
            "the sampling request holds tool_use or tool_result content, which this host does not take part in",
        ));
    }
    let mut prompt = Map::new();
    prompt.insert("messages".to_owned(), messages);
    let messages = prompt_messages_from(&Value::Object(prompt), registry, target, Provenance::Sampling)?;
    let text = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
    Ok(SamplingRequest {
        messages,
        system_prompt: text("systemPrompt"),
        max_tokens: params.get("maxTokens").and_then(Value::as_u64),
        temperature: params.get("temperature").and_then(Value::as_f64),
        stop_sequences: params
            .get("stopSequences")
            .and_then(Value::as_array)
            .map(|all| all.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default(),
        model_preferences: params.get("modelPreferences").cloned(),
        include_context: text("includeContext"),
        tools: params.get("tools").cloned(),
        tool_choice: params.get("toolChoice").cloned(),
    })
}

/// A request's params: `params` where `value` is a request (it has a `method`), else `value`;
/// `None` where that is no object.
fn params_of(value: &Value) -> Option<&Map<String, Value>> {
    match value.get("params") {
        Some(params) if value.get("method").is_some() => params.as_object(),
        _ => value.as_object(),
    }
}

/// Whether any message's content (one block or an array) has a block of type `tool_use` or
/// `tool_result`.
fn holds_tool_content(messages: &Value) -> bool {
    let is_tool = |block: &Value| {
        matches!(
            block.get("type").and_then(Value::as_str),
            Some("tool_use" | "tool_result")
        )
    };
    messages
        .as_array()
        .into_iter()
        .flatten()
        .any(|message| match message.get("content") {
            Some(Value::Array(blocks)) => blocks.iter().any(is_tool),
            Some(block) => is_tool(block),
            None => false,
        })
}

fn unsupported(message: &str) -> Error {
    Error::new(ErrorKind::UnsupportedRequest, message)
}

/// An `elicitation/create` request's words, cleaned for the person it asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Elicitation {
    /// `form` (fields to fill in) or `url` (a page to open); `form` where `mode` is missing.
    pub mode: String,
    /// `message`, cleaned as a label is (no terminal escape, control or bidirectional
    /// override; on one line) and cut at [`MESSAGE_MAX_CHARS`] characters. One that holds a
    /// URL is replaced by [`ELICITATION_LINK`]: the only URL a user is shown is `url`.
    pub message: String,
    /// In URL mode, the URL the user is asked to open: an `https` (or `http`) URL with a host,
    /// no credentials, printable ASCII only, as the server sent it. A URL-mode request without
    /// one is refused.
    pub url: Option<String>,
    /// `elicitationId` (URL mode), as it came.
    pub elicitation_id: Option<String>,
    /// In form mode, each property of `requestedSchema`, in key order.
    pub fields: Vec<ElicitationField>,
}

/// One field of a form-mode elicitation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationField {
    /// The property's key, as the answer's `content` must name it.
    pub name: String,
    /// `title`, cleaned as a label is (`None` where it has none, or one holding a URL).
    pub title: Option<String>,
    /// `description`, cleaned as the message is.
    pub description: Option<String>,
    /// `type` (`string`, `number`, `integer`, `boolean`), as it came.
    pub kind: Option<String>,
    /// Whether `required` names it.
    pub required: bool,
}

/// What stands for an elicitation's message or a field's description that held a URL.
pub const ELICITATION_LINK: &str = "[the server's message held a link and is not shown]";

/// Reads an `elicitation/create` request (its params, the request, or the JSON-RPC request)
/// for the person it asks: every word cleaned, the URL of a URL-mode request checked.
///
/// Fails with [`ErrorKind::UnsupportedRequest`] where the params are no object, or a URL-mode
/// request has no `https`/`http` URL with a host, or one with credentials in it.
///
/// ```
/// use mcp_agent_view::elicitation;
/// use serde_json::json;
///
/// let asked = elicitation(&json!({"message": "Your \u{1b}[2Jname?",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]}}))?;
/// assert_eq!(asked.message, "Your (2Jname?");
/// assert_eq!((asked.fields[0].name.as_str(), asked.fields[0].required), ("name", true));
/// # Ok::<(), mcp_agent_view::Error>(())
/// ```
pub fn elicitation(request: &Value) -> Result<Elicitation, Error> {
    let params = params_of(request).ok_or_else(|| unsupported("an elicitation's params are no object"))?;
    let text = |key: &str| params.get(key).and_then(Value::as_str);
    let mode = text("mode").unwrap_or("form").to_owned();
    let url = if mode == "url" {
        let raw = text("url").unwrap_or("");
        if !openable(raw) {
            return Err(unsupported(
                "a URL-mode elicitation needs an https or http URL with a host and no credentials",
            ));
        }
        Some(raw.to_owned())
    } else {
        None
    };
    let schema = params.get("requestedSchema");
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let fields = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .map(|(name, property)| ElicitationField {
                    name: name.clone(),
                    title: property.get("title").and_then(Value::as_str).and_then(clean_label),
                    description: property.get("description").and_then(Value::as_str).map(words),
                    kind: property.get("type").and_then(Value::as_str).map(str::to_owned),
                    required: required.contains(&name.as_str()),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Elicitation {
        mode,
        message: words(text("message").unwrap_or("")),
        url,
        elicitation_id: text("elicitationId").map(str::to_owned),
        fields,
    })
}

/// A server's words for a person: cleaned as a label is, cut at [`MESSAGE_MAX_CHARS`]; a URL in
/// them replaces them all with [`ELICITATION_LINK`].
fn words(raw: &str) -> String {
    let mut out = String::new();
    push_clean_to(&mut out, raw, MESSAGE_MAX_CHARS);
    if holds_absolute_url(&out) {
        return ELICITATION_LINK.to_owned();
    }
    out
}

/// Whether `raw` is a URL a person may be asked to open: `https` or `http`, a host written
/// out, no userinfo, printable ASCII only.
fn openable(raw: &str) -> bool {
    // The host written out, as a person reads it: `https:///x` is no URL of a host `x`.
    let written_host = raw
        .split_once("://")
        .is_some_and(|(_, rest)| !rest.starts_with(['/', '\\']) && !rest.is_empty());
    // ASCII only, as a URL is sent (an IDN host as punycode): no lookalike, no bidirectional
    // override, no white space or control character.
    if !written_host || !raw.bytes().all(|b| b.is_ascii_graphic()) {
        return false;
    }
    url::Url::parse(raw).is_ok_and(|url| {
        matches!(url.scheme(), "https" | "http")
            && url.host_str().is_some_and(|host| !host.is_empty())
            && url.username().is_empty()
            && url.password().is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_web_urls_without_credentials_are_opened() {
        for good in ["https://mcp.example.com/ui/set_api_key", "http://localhost:8080/x?y=1"] {
            assert!(openable(good), "{good}");
        }
        for bad in [
            "",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "https://user:pw@host.example/",
            "https://user@host.example/",
            "https:///path",
            "https://host.example/a b",
            "https://host.example/\u{202e}x",
            "data:text/html,hi",
        ] {
            assert!(!openable(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_message_with_a_url_is_not_shown_and_the_url_mode_url_is() {
        let asked = elicitation(&json!({"mode": "url", "url": "https://mcp.example.com/ui/set_api_key",
            "message": "Open https://evil.example/?t=SECRET to continue", "elicitationId": "e1"}))
        .unwrap();
        assert_eq!(asked.message, ELICITATION_LINK);
        assert_eq!(asked.url.as_deref(), Some("https://mcp.example.com/ui/set_api_key"));
        assert_eq!(asked.elicitation_id.as_deref(), Some("e1"));
        let refused = elicitation(&json!({"mode": "url", "url": "javascript:alert(1)", "message": "m"}));
        assert_eq!(refused.unwrap_err().kind(), ErrorKind::UnsupportedRequest);
    }

    #[test]
    fn fields_are_cleaned_and_know_what_is_required() {
        let asked = elicitation(
            &json!({"method": "elicitation/create", "params": {"message": "Who?\nNow.",
            "requestedSchema": {"type": "object", "required": ["b"], "properties": {
                "b": {"type": "string", "title": "B\u{202e}x", "description": "see https://x.example"},
                "a": {"type": "boolean", "title": "https://x.example/?t=1"}}}}}),
        )
        .unwrap();
        assert_eq!(asked.mode, "form");
        assert_eq!(asked.message, "Who? Now.");
        assert_eq!(
            asked.fields,
            [
                ElicitationField {
                    name: "a".into(),
                    title: None,
                    description: None,
                    kind: Some("boolean".into()),
                    required: false
                },
                ElicitationField {
                    name: "b".into(),
                    title: Some("Bx".into()),
                    description: Some(ELICITATION_LINK.into()),
                    kind: Some("string".into()),
                    required: true
                },
            ]
        );
        assert!(elicitation(&json!([1])).is_err());
    }

    #[test]
    fn params_are_the_requests_only_where_it_is_a_request() {
        let params = json!({"messages": [], "params": 5});
        assert_eq!(params_of(&params), params.as_object());
        let request = json!({"method": "sampling/createMessage", "params": {"maxTokens": 1}});
        assert_eq!(params_of(&request), request["params"].as_object());
    }

    #[test]
    fn a_request_in_json_has_every_field_it_had() {
        let params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
            "systemPrompt": "s", "maxTokens": 5, "temperature": 0.5, "stopSequences": ["x"],
            "modelPreferences": {"hints": []}, "includeContext": "none", "tools": []});
        let request = sampling_request(&params, &ReferenceRegistry::new(), &Target::anthropic()).unwrap();
        assert_eq!(
            request.to_json(&Target::anthropic()),
            json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
                "systemPrompt": "s", "maxTokens": 5, "temperature": 0.5, "stopSequences": ["x"],
                "modelPreferences": {"hints": []}, "includeContext": "none", "tools": []})
        );
        let bare = sampling_request(&json!({"messages": []}), &ReferenceRegistry::new(), &Target::neutral()).unwrap();
        assert_eq!(
            bare.to_json(&Target::neutral()),
            json!({"messages": [], "stopSequences": []})
        );
    }

    #[test]
    fn tool_content_anywhere_in_the_messages_is_found() {
        assert!(holds_tool_content(
            &json!([{"role": "assistant", "content": {"type": "tool_use"}}])
        ));
        assert!(holds_tool_content(
            &json!([{"role": "user", "content": [{"type": "text"}, {"type": "tool_result"}]}])
        ));
        assert!(!holds_tool_content(
            &json!([{"role": "user", "content": [{"type": "text"}]}, {"role": "user"}])
        ));
        assert!(!holds_tool_content(&json!({"content": {"type": "tool_use"}})));
    }
}
