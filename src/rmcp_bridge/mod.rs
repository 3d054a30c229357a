//! From rmcp, the official Rust SDK, to this crate's inputs (feature `rmcp`).
//!
//! rmcp decodes strictly: a result with a block type or an annotation role it does not know
//! does not type as a `CallToolResult`, and `Peer::call_tool` fails with "Unexpected response
//! type". rmcp keeps such a result as raw JSON (`ServerResult::CustomResult`). Ask with
//! `Peer::send_request` and hand the outcome to [`tool_result_from_rmcp`]: a typed result and a
//! raw one both reach the model, every good block intact. The raw path is the fully tolerant
//! one; a typed rmcp value has already lost what rmcp could not type.
//!
//! With the `stdio` feature, [`StdioServer`] starts a stdio MCP server as a child process and
//! connects rmcp's client to it with a line limit that fits real results and a timeout on
//! every step, so that an over-long line, a stray line that is not JSON or a dead server is an
//! error that says so, never a hang.
//!
//! ```
//! use mcp_agent_view::rmcp_bridge::tool_result_from_rmcp;
//! use mcp_agent_view::{ReferenceRegistry, Target};
//! use rmcp::model::{CustomResult, ServerResult};
//!
//! // What rmcp hands back for a result it could not type.
//! let raw = ServerResult::CustomResult(CustomResult(serde_json::json!({"content": [
//!     {"type": "text", "text": "kept", "annotations": {"audience": ["assistant", "auditor"]}},
//!     {"type": "hologram", "frames": 3}
//! ]})));
//! let result = tool_result_from_rmcp(&Ok(raw), "scan", "toolu_1", &ReferenceRegistry::new(), &Target::anthropic());
//! assert_eq!(result.content.len(), 2);
//! assert_eq!(result.content[1].as_text(), Some("[unsupported result type: hologram]"));
//! ```

#[cfg(feature = "stdio")]
mod stdio;

#[cfg(feature = "stdio")]
pub use stdio::{
    answer_plainly, Handshake, OnInput, StdioClient, StdioServer, DEFAULT_MAX_LINE_BYTES, DEFAULT_TIMEOUT,
};

use serde::Serialize;
use serde_json::{json, Value};

use ::rmcp::model::{CallToolResult, ContentBlock, ErrorData, GetPromptResult, ReadResourceResult, ServerResult};
use ::rmcp::service::ServiceError;

use crate::error::{Error, ErrorKind};
use crate::lanes::tool_result::{tool_call_failed, tool_result, AgentToolResult};
use crate::media::Target;
use crate::reference::ReferenceRegistry;

/// The JSON of any rmcp result: a typed one as it serializes, one rmcp could not type
/// (`CustomResult`) exactly as it arrived. Feed it to [`tool_result`](fn@crate::tool_result) or [`Message::decode`](crate::Message::decode).
pub fn server_result_json(result: &ServerResult) -> Result<Value, Error> {
    match result {
        ServerResult::CustomResult(raw) => Ok(raw.0.clone()),
        typed => to_json(typed),
    }
}

/// The JSON of an rmcp `CallToolResult`.
pub fn call_tool_result_json(result: &CallToolResult) -> Result<Value, Error> {
    to_json(result)
}

/// The JSON of one rmcp content block.
pub fn content_json(block: &ContentBlock) -> Result<Value, Error> {
    to_json(block)
}

/// The JSON of an rmcp `GetPromptResult`.
pub fn prompt_result_json(result: &GetPromptResult) -> Result<Value, Error> {
    to_json(result)
}

/// The JSON of an rmcp `ReadResourceResult`.
pub fn read_resource_result_json(result: &ReadResourceResult) -> Result<Value, Error> {
    to_json(result)
}

/// A JSON-RPC error response carrying rmcp's error, for [`tool_result`](fn@crate::tool_result).
#[must_use]
pub fn error_json(error: &ErrorData) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": error.code.0, "message": error.message, "data": error.data}})
}

/// The outcome of one `tools/call` through rmcp, as the model's tool result. Never fails:
///
/// - a result, typed or raw, is mapped as [`tool_result`] maps it;
/// - a JSON-RPC error from the server, and any other failure (a closed transport, a timeout),
///   gives `is_error` and `Tool call <name> failed: <message>`.
#[must_use]
pub fn tool_result_from_rmcp(
    outcome: &Result<ServerResult, ServiceError>,
    name: &str,
    tool_use_id: &str,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentToolResult<'static> {
    let json = match outcome {
        Ok(result) => server_result_json(result),
        Err(ServiceError::McpError(error)) => Ok(error_json(error)),
        Err(other) => return tool_call_failed(name, tool_use_id, &other.to_string()),
    };
    let json = match json {
        Ok(json) => json,
        Err(error) => return tool_call_failed(name, tool_use_id, &error.to_string()),
    };
    tool_result(&json, name, tool_use_id, registry, target).into_owned()
}

/// rmcp's typed `CallToolResult` (what `Peer::call_tool` gives) as the model's tool result.
///
/// A typed result has already lost what rmcp could not type: `Peer::call_tool` fails on a
/// whole result over one block type or audience role it does not know, so its good siblings
/// never arrive. Prefer `Peer::send_request` and [`tool_result_from_rmcp`], which keep such a
/// result as it arrived.
///
/// ```
/// use mcp_agent_view::rmcp_bridge::tool_result_from_typed;
/// use mcp_agent_view::{ReferenceRegistry, Target};
/// use rmcp::model::{CallToolResult, ContentBlock};
///
/// let typed = CallToolResult::success(vec![ContentBlock::text("22.5 C")]);
/// let result = tool_result_from_typed(&typed, "get_weather", "toolu_1", &ReferenceRegistry::new(), &Target::anthropic());
/// assert_eq!(result.content[0].as_text(), Some("22.5 C"));
/// ```
#[must_use]
pub fn tool_result_from_typed(
    result: &CallToolResult,
    name: &str,
    tool_use_id: &str,
    registry: &ReferenceRegistry,
    target: &Target,
) -> AgentToolResult<'static> {
    match call_tool_result_json(result) {
        Ok(json) => tool_result(&json, name, tool_use_id, registry, target).into_owned(),
        Err(error) => tool_call_failed(name, tool_use_id, &error.to_string()),
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<Value, Error> {
    serde_json::to_value(value).map_err(|e| Error::new(ErrorKind::Json, format!("cannot serialize an rmcp value: {e}")))
}
