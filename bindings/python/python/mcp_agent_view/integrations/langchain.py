"""LangChain's MCP adapters: ``view(MultiServerMCPClient(…))``, whose ``get_tools()`` gives
tools the model reads right.

    from langchain_mcp_adapters.client import MultiServerMCPClient
    from mcp_agent_view.integrations.langchain import view

    client = view(MultiServerMCPClient({"files": {"command": "python", "args": ["server.py"],
                                                   "transport": "stdio"}}))
    tools = await client.get_tools()

The client returned is a new ``MultiServerMCPClient`` with the same connections, callbacks,
interceptors and tool names, and one more interceptor, innermost: it makes the call itself,
over a session of the same connection (with the headers earlier interceptors set), takes the
result as sent (the SDK's check would refuse the whole result for one block it does not know),
shows it as this package shows it, and hands the adapter a result of the blocks it converts
right: text, images, and audio and documents as embedded blobs (a file block without a uri). A
failed call (``isError`` or a JSON-RPC error) is an ``isError`` result: the adapter's tool error,
a ``ToolMessage`` with ``status="error"`` the run goes on past (``handle_tool_errors`` is on in
the client returned). ``structuredContent`` stays in the tool's artifact for the application; the
model reads it as text where nothing else came. Blocks for the user only are kept from the model
(the adapter's artifact carries only structured content, so they are not passed on).
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, List, Optional, cast

from .._native import Registry
from ._common import Shown, call, require

require("langchain_mcp_adapters", "langchain")

from langchain_mcp_adapters.callbacks import CallbackContext  # noqa: E402
from langchain_mcp_adapters.client import MultiServerMCPClient  # noqa: E402
from langchain_mcp_adapters.interceptors import MCPToolCallRequest  # noqa: E402
from langchain_mcp_adapters.sessions import create_session  # noqa: E402
from mcp import types  # noqa: E402

__all__ = ["Interceptor", "view"]

# The adapter needs a uri on an embedded blob and never shows it: this one names nothing.
_NO_URI = "mcp-agent-view:blob"


def view(client: MultiServerMCPClient, *, registry: Optional[Registry] = None) -> MultiServerMCPClient:
    """A client like ``client`` whose tools' results are shown as this package shows them.
    ``registry`` holds the references their results name (one of its own unless given)."""
    if not isinstance(client, MultiServerMCPClient):
        raise TypeError(f"view takes a langchain_mcp_adapters MultiServerMCPClient, got {type(client).__name__}")
    viewed = MultiServerMCPClient(
        client.connections,
        callbacks=client.callbacks,
        tool_interceptors=[*client.tool_interceptors, Interceptor(client, registry or Registry())],
        tool_name_prefix=client.tool_name_prefix,
        handle_tool_errors=True,
    )
    return viewed


class Interceptor:
    """The innermost tool interceptor: the call made raw, its result shown."""

    def __init__(self, client: MultiServerMCPClient, registry: Registry) -> None:
        self.client = client
        self.registry = registry

    async def __call__(self, request: MCPToolCallRequest, handler: Callable[..., Awaitable[Any]]) -> Any:
        connection: Dict[str, Any] = dict(self.client.connections[request.server_name])
        if request.headers is not None and connection.get("transport") != "stdio":
            connection["headers"] = {**connection.get("headers", {}), **request.headers}
        callbacks = self.client.callbacks.to_mcp_format(
            context=CallbackContext(server_name=request.server_name, tool_name=request.name)
        )
        async with create_session(cast(Any, connection), mcp_callbacks=callbacks) as session:
            await session.initialize()
            shown = await call(session, request.name, request.args, self.registry)
        return result_of(shown)


def result_of(shown: Shown) -> types.CallToolResult:
    """A result of the blocks the adapter converts right, for ``shown`` (read by the SDK's own
    model, as either line spells it)."""
    content: List[Dict[str, Any]] = []
    for block in shown.content:
        if block.get("type") in ("audio", "document"):
            blob = {"uri": _NO_URI, "mimeType": block["mimeType"], "blob": block["data"]}
            content.append({"type": "resource", "resource": blob})
        else:
            content.append(block)
    result = {"content": content, "structuredContent": shown.structured, "isError": shown.is_error}
    return types.CallToolResult.model_validate(result)
