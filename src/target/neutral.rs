//! The crate's own neutral JSON.

use serde_json::{json, Value};

use crate::lanes::agent::AgentBlock;
use crate::tool_result::AgentToolResult;

pub(super) fn blocks(blocks: &[AgentBlock<'_>]) -> Value {
    Value::Array(blocks.iter().map(AgentBlock::to_json).collect())
}

/// `{"type":"tool_result","toolUseId":…,"isError":…,"content":[…]}` per result.
pub(super) fn tool_results(results: &[AgentToolResult<'_>]) -> Vec<Value> {
    results
        .iter()
        .map(|r| {
            json!({
                "type": "tool_result",
                "toolUseId": r.tool_use_id,
                "isError": r.is_error,
                "content": blocks(&r.content),
            })
        })
        .collect()
}
