"""A stdio MCP server written with the official ``mcp`` SDK (2.x) that asks before it answers
(protocol revision 2026-07-28): its tools return input-required results, answered by the client
and called again with the answers and the echoed state."""

from typing import Any

import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server

LOGIN = {
    "method": "elicitation/create",
    "params": {
        "message": "Your GitHub \x1b[2Jusername?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
}
ROOTS = {"method": "roots/list", "params": {}}
QUESTION = {
    "method": "sampling/createMessage",
    "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
        "systemPrompt": "Answer in one word.",
        "maxTokens": 20,
    },
}
WEATHER = {
    "name": "get_weather",
    "description": "The weather in a city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
QUESTION_WITH_TOOLS = {
    "method": "sampling/createMessage",
    "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Should I take an umbrella in Paris?"}}],
        "maxTokens": 200,
        "tools": [WEATHER],
        "toolChoice": {"mode": "auto"},
    },
}
TOOLS = {
    "ask_user": "Asks the user for a login and the client for its roots.",
    "ask_model": "Asks the client's model a question.",
    "ask_model_with_tools": "Asks the client's model a question, offering it a tool.",
    "ask_forever": "Asks again, whatever the answer.",
    "show_link": "Answers at once: a link with icons, and structuredContent that is an array.",
}


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    schema = {"type": "object", "properties": {}}
    return types.ListToolsResult(
        tools=[types.Tool(name=name, description=text, input_schema=schema) for name, text in TOOLS.items()]
    )


def dumped(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True) if hasattr(value, "model_dump") else value


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
    answers = {key: dumped(value) for key, value in (params.input_responses or {}).items()}
    if params.name == "ask_forever":
        return types.InputRequiredResult(request_state=f"round-{len(params.request_state or '')}")
    if params.name == "ask_user":
        if not answers:
            return types.InputRequiredResult(input_requests={"login": LOGIN, "roots": ROOTS}, request_state="state-1")
        text = f"login: {answers['login']['action']}; roots: {len(answers['roots']['roots'])}; state: {params.request_state}"
        return types.CallToolResult(content=[types.TextContent(text=text)])
    if params.name == "show_link":
        icon = types.Icon(src="https://cdn.example.com/icons/report.png?token=SECRET", mime_type="image/png", sizes=["48x48"])
        link = types.ResourceLink(
            uri="https://files.example.com/q3/report.pdf?sig=SECRET", name="report.pdf", mime_type="application/pdf", icons=[icon]
        )
        rows = [{"quarter": "Q3", "revenue": 1200}, {"quarter": "Q4", "revenue": 1350}]
        return types.CallToolResult(content=[types.TextContent(text="The report:"), link], structured_content=rows)
    if params.name == "ask_model_with_tools":
        if not answers:
            return types.InputRequiredResult(input_requests={"question": QUESTION_WITH_TOOLS})
        content = answers["question"]["content"]
        calls = [c for c in (content if isinstance(content, list) else [content]) if c.get("type") == "tool_use"]
        said = "; ".join(f"{c['name']}({c['input']})" for c in calls) or "no tool"
        return types.CallToolResult(content=[types.TextContent(text=f"The model called: {said}")])
    if not answers:
        return types.InputRequiredResult(input_requests={"question": QUESTION})
    said = answers["question"]["content"]
    return types.CallToolResult(content=[types.TextContent(text=f"The model said: {said['text']}")])


server = Server("asking-server", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
