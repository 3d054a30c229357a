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
(the adapter's artifact carries only structured content, so they are not passed on). With
``fetcher=``, ``get_tools()`` gives one more tool, the registry's fetch tool, which opens a stub's
reference under the fetcher's policy.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, List, Optional, cast

from .._native import Fetcher, Registry
from ..mcp import OnInput
from ._common import Options, Shown, call, fetch, options, require

require("langchain_mcp_adapters", "langchain")

from langchain_mcp_adapters.callbacks import CallbackContext  # noqa: E402
from langchain_mcp_adapters.client import MultiServerMCPClient  # noqa: E402
from langchain_mcp_adapters.interceptors import MCPToolCallRequest  # noqa: E402
from langchain_mcp_adapters.sessions import create_session  # noqa: E402
from langchain_core.messages import content as blocks  # noqa: E402
from langchain_core.tools import BaseTool, StructuredTool, ToolException  # noqa: E402
from mcp import types  # noqa: E402

__all__ = ["Interceptor", "ViewedClient", "view"]

# The adapter needs a uri on an embedded blob and never shows it: this one names nothing.
_NO_URI = "mcp-agent-view:blob"


def view(
    client: MultiServerMCPClient,
    *,
    registry: Optional[Registry] = None,
    fetcher: Optional[Fetcher] = None,
    on_input: Optional[OnInput] = None,
) -> MultiServerMCPClient:
    """A client like ``client`` whose tools' results are shown as this package shows them.
    ``registry`` holds the references their results name (one of its own unless given); with
    ``fetcher`` the model can open them through the fetch tool; ``on_input`` answers what a
    server asks before it answers (``mcp.answer_plainly`` unless given)."""
    if not isinstance(client, MultiServerMCPClient):
        raise TypeError(f"view takes a langchain_mcp_adapters MultiServerMCPClient, got {type(client).__name__}")
    settings = options(registry, fetcher, on_input)
    return ViewedClient(
        client.connections,
        callbacks=client.callbacks,
        tool_interceptors=[*client.tool_interceptors, Interceptor(client, settings)],
        tool_name_prefix=client.tool_name_prefix,
        handle_tool_errors=True,
        options=settings,
    )


class ViewedClient(MultiServerMCPClient):
    """A ``MultiServerMCPClient`` whose ``get_tools()`` adds the fetch tool where there is a fetcher."""

    def __init__(self, *args: Any, options: Options, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options = options

    async def get_tools(self, *, server_name: Optional[str] = None) -> List[BaseTool]:
        tools = await super().get_tools(server_name=server_name)
        definition = self.options.fetch_tool
        if definition is None:
            return tools
        return [*(tool for tool in tools if tool.name != definition["name"]), fetch_tool(self.options, definition)]


def fetch_tool(settings: Options, definition: Dict[str, Any]) -> BaseTool:
    """The fetch tool, answering as the adapter's tools do (``content_and_artifact``)."""

    async def fetch_reference(**arguments: Any) -> Any:
        shown = await fetch(settings, arguments, definition["name"])
        if shown.is_error:
            raise ToolException(shown.text() or "The fetch failed.")
        return [_block(block) for block in shown.content], None

    return StructuredTool(
        name=definition["name"],
        description=definition["description"],
        args_schema=definition["inputSchema"],
        coroutine=fetch_reference,
        response_format="content_and_artifact",
        handle_tool_error=True,
    )


def _block(block: Dict[str, Any]) -> Any:
    kind = block.get("type")
    if kind == "image":
        return blocks.create_image_block(base64=block["data"], mime_type=block["mimeType"])
    if kind == "audio":
        return blocks.create_audio_block(base64=block["data"], mime_type=block["mimeType"])
    if kind == "document":
        return blocks.create_file_block(base64=block["data"], mime_type=block["mimeType"])
    return blocks.create_text_block(text=block.get("text", ""))


class Interceptor:
    """The innermost tool interceptor: the call made raw, its result shown."""

    def __init__(self, client: MultiServerMCPClient, settings: Options) -> None:
        self.client = client
        self.settings = settings

    async def __call__(self, request: MCPToolCallRequest, handler: Callable[..., Awaitable[Any]]) -> Any:
        connection: Dict[str, Any] = dict(self.client.connections[request.server_name])
        if request.headers is not None and connection.get("transport") != "stdio":
            connection["headers"] = {**connection.get("headers", {}), **request.headers}
        callbacks = self.client.callbacks.to_mcp_format(
            context=CallbackContext(server_name=request.server_name, tool_name=request.name)
        )
        async with create_session(cast(Any, connection), mcp_callbacks=callbacks) as session:
            await session.initialize()
            shown = await call(session, request.name, request.args, self.settings.registry, on_input=self.settings.on_input)
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
