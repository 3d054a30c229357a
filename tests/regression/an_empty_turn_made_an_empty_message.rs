//! Issue 48: `tool_result_messages([])` / `toolResultMessages([])` gave a user message with
//! empty content, which the APIs refuse. An empty turn appends nothing.

use mcp_agent_view::Target;

#[test]
fn an_empty_turn_appends_nothing() {
    for target in [
        Target::neutral(),
        Target::anthropic(),
        Target::openai_chat(),
        Target::openai_responses(),
    ] {
        assert_eq!(target.tool_result_messages(&[]), Vec::<serde_json::Value>::new());
        assert_eq!(serde_json::to_string(&target.tool_results_view(&[])).unwrap(), "[]");
    }
}
