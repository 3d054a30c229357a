"""The OpenAI Agents SDK: ``view(MCPServerStdio(…))`` (or any of its ``MCPServer*``) for
``Agent(mcp_servers=[…])``.

    from agents import Agent
    from agents.mcp import MCPServerStdio
    from mcp_agent_view.integrations.openai_agents import view

    async with view(MCPServerStdio(params={"command": "python", "args": ["server.py"]})) as server:
        agent = Agent(name="assistant", mcp_servers=[server])

``view`` returns the same server, its ``call_tool`` answered by this package: the call goes
through the server's own session, its result is taken as sent (never through the SDK's check,
which refuses a whole result for one block it does not know) and shown as this package shows
it, in the only blocks the SDK's MCP converter carries to the model: text and images (a data
url). Audio and PDFs, which that converter would dump as JSON with their uri and base64, go as
their markers (type and size); a reference as its stub; no uri. A failed call (``isError`` or a
JSON-RPC error) is a result that says so (``[tool returned an error]`` and the server's text, as
the package writes a failed call for OpenAI's APIs), and the run goes on. It does not raise:
the SDK's default ``failure_error_function`` gives the model only "An error occurred while
running the tool. Please try again.", which hides what the server said, so the model could not
correct its call. ``structuredContent`` is read where
nothing else came, whatever ``use_structured_content`` says. Blocks for the user only are kept
from the model (the SDK has nowhere to carry them). The call's ``meta`` is not sent, and the
server's ``max_retry_attempts`` does not retry it. With ``fetcher=``, the server lists one more
tool, the registry's fetch tool, which opens a stub's reference under the fetcher's policy.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from .._native import Fetcher, Registry, tool_result_messages
from ..mcp import OnInput
from ._common import Shown, call, fetch, options, require

require("agents", "openai-agents")

from agents.mcp import MCPServer  # noqa: E402
from mcp import types  # noqa: E402

__all__ = ["TARGET", "view"]

TARGET: Mapping[str, Any] = {"provider": "neutral", "pdf": False, "audio": [], "max_image_bytes": 20 * 1024 * 1024}
"""What the SDK's MCP converter carries: text, and images up to OpenAI's 20 MiB; PDFs and audio
as their markers."""


def view(
    server: MCPServer,
    *,
    registry: Optional[Registry] = None,
    fetcher: Optional[Fetcher] = None,
    on_input: Optional[OnInput] = None,
) -> MCPServer:
    """``server`` with its tool calls answered by this package. ``registry`` holds the
    references its results name (one of its own unless given); with ``fetcher`` the model can
    open them through the fetch tool; ``on_input`` answers what a server asks before it answers
    (``mcp.answer_plainly`` unless given). There is no ``target``: the SDK converts the result
    for its model itself, from text and images only (``TARGET``)."""
    if not isinstance(server, MCPServer):
        raise TypeError(f"view takes an agents.mcp.MCPServer, got {type(server).__name__}")
    settings = options(registry, fetcher, on_input)
    unviewed = server.call_tool
    fetch_tool = settings.fetch_tool

    async def call_tool(
        tool_name: str, arguments: Optional[Dict[str, Any]] = None, meta: Optional[Dict[str, Any]] = None
    ) -> types.CallToolResult:
        if fetch_tool is not None and tool_name == fetch_tool["name"]:
            return result_of(await fetch(settings, arguments, tool_name, TARGET))
        session = getattr(server, "session", None)
        if session is None:
            # The server's own error for a call before connect().
            return await unviewed(tool_name, arguments, meta)
        return result_of(await call(session, tool_name, arguments, settings.registry, TARGET, settings.on_input))

    if fetch_tool is not None:
        unlisted = server.list_tools

        async def list_tools(run_context: Any = None, agent: Any = None) -> List[types.Tool]:
            tools = [tool for tool in await unlisted(run_context, agent) if tool.name != fetch_tool["name"]]
            return [*tools, types.Tool.model_validate(fetch_tool)]

        server.list_tools = list_tools  # type: ignore[method-assign]
    server.call_tool = call_tool  # type: ignore[method-assign]
    return server


def result_of(shown: Shown) -> types.CallToolResult:
    """The result the SDK's converter reads for ``shown``: text and image blocks only."""
    if shown.is_error:
        # The package's own words for a failed call to OpenAI's APIs, one text.
        (message,) = tool_result_messages([shown.result], target="openai-chat")
        return types.CallToolResult.model_validate({"content": [{"type": "text", "text": message["content"]}]})
    # TARGET sends no audio and no PDF: every block is text or an image.
    content: List[Dict[str, Any]] = list(shown.content)
    return types.CallToolResult.model_validate({"content": content})
