"""A stdio MCP server written with the official ``mcp`` SDK, sending what that SDK's own client
refuses: a block of a type no spec revision defines and an annotation role it does not know
(added by a middleware, as a server on a newer revision or an extension would), and JSON-RPC
errors."""

from typing import Any

import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

NOTE = "The report is ready."


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    return types.ListToolsResult(
        tools=[
            types.Tool(name="report", description="A report with a hologram.", input_schema=schema),
            types.Tool(name="plain", description="Plain text.", input_schema=schema),
            types.Tool(name="broken", description="Always a JSON-RPC error.", input_schema=schema),
            types.Tool(name="slow", description="Answers after ten seconds.", input_schema=schema),
        ]
    )


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "broken":
        raise MCPError(code=-32602, message="broken: the city is required", data={"field": "city"})
    if params.name == "slow":
        await anyio.sleep(10)
    city = (params.arguments or {}).get("city", "nowhere")
    return types.CallToolResult(content=[types.TextContent(text=f"{NOTE} ({city})")])


async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    if params.name != "brief":
        raise MCPError(code=-32602, message=f"unknown prompt {params.name}")
    return types.GetPromptResult(
        messages=[types.PromptMessage(role="user", content=types.TextContent(text="Summarize the report."))]
    )


async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    if params.uri != "file:///report.txt":
        raise MCPError(code=-32002, message="Resource not found", data={"uri": params.uri})
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=params.uri, mime_type="text/plain", text=NOTE)]
    )


async def newer_revision(ctx: Any, call_next: Any) -> Any:
    """Adds what a newer revision would send: a hologram block, an unknown audience role."""
    result = await call_next(ctx)
    name = (ctx.params or {}).get("name")
    if isinstance(result, dict) and ctx.method == "tools/call" and name == "report":
        result["content"].append({"type": "hologram", "frames": 3})
        result["content"].append(
            {"type": "text", "text": "For the auditor only.", "annotations": {"audience": ["auditor"]}}
        )
    if isinstance(result, dict) and ctx.method == "prompts/get":
        result["messages"].append({"role": "user", "content": {"type": "hologram", "frames": 1}})
    if isinstance(result, dict) and ctx.method == "resources/read":
        result["contents"].append({"uri": "file:///report.holo", "mimeType": "model/hologram", "frames": 2})
    return result


server = Server(
    "sdk-server",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_get_prompt=get_prompt,
    on_read_resource=read_resource,
)
server.middleware.append(newer_revision)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
