"""pydantic-ai: ``view(MCPToolset(…))`` for ``Agent(toolsets=[…])``.

    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from mcp_agent_view.integrations.pydantic_ai import view

    agent = Agent("anthropic:claude-sonnet-4-5", toolsets=[view(MCPToolset("server.py"))])

The toolset's tools, connection and every other method are its own; only a tool call changes: it
is sent through the toolset's own connection and its result taken as sent (never through the
SDK's check, which refuses a whole result for one block it does not know), then shown as this
package shows it, in pydantic-ai's own parts: text as ``str``, images as ``BinaryImage``, audio
and documents as ``BinaryContent``, a reference as its stub; no uri. A failed call (``isError``
or a JSON-RPC error) is ``ToolFailed``: the model reads the failure and the run goes on, without
the retry prompt ``ModelRetry`` would add. Blocks for the user only are kept out of the model's
view, in the tool return's ``metadata["held_for_user"]``. With ``fetcher=``, the toolset has one
more tool, the registry's fetch tool, which opens a stub's reference under the fetcher's policy.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .._native import Fetcher, Registry
from ..mcp import OnInput
from ._common import Options, Shown, call, fetch, options, require

_pydantic_ai = require("pydantic_ai", "pydantic-ai")

from pydantic_ai import messages  # noqa: E402
from pydantic_ai.exceptions import ToolFailed  # noqa: E402
from pydantic_ai.mcp import MCPToolset  # noqa: E402
from pydantic_ai.tools import ToolDefinition  # noqa: E402
from pydantic_ai.toolsets import WrapperToolset  # noqa: E402

__all__ = ["ViewedToolset", "view"]


def view(
    toolset: MCPToolset[Any],
    *,
    registry: Optional[Registry] = None,
    fetcher: Optional[Fetcher] = None,
    on_input: Optional[OnInput] = None,
) -> ViewedToolset:
    """``toolset`` with its tool results shown as this package shows them. ``registry`` holds
    the references its results name (one of its own unless given), shared by every tool; with
    ``fetcher`` the model can open them through the fetch tool; ``on_input`` answers what a
    server asks before it answers (``mcp.answer_plainly`` unless given)."""
    if not isinstance(toolset, MCPToolset):
        raise TypeError(f"view takes a pydantic_ai.mcp.MCPToolset, got {type(toolset).__name__}")
    settings = options(registry, fetcher, on_input)
    return ViewedToolset(toolset, registry=settings.registry, fetcher=settings.fetcher, on_input=settings.on_input)


@dataclass
class ViewedToolset(WrapperToolset[Any]):
    """An ``MCPToolset`` whose tool results the model reads as this package shows them."""

    registry: Registry = field(default_factory=Registry)
    fetcher: Optional[Fetcher] = None
    on_input: Optional[OnInput] = None

    @property
    def _options(self) -> Options:
        return options(self.registry, self.fetcher, self.on_input)

    async def get_tools(self, ctx: Any) -> Dict[str, Any]:
        tools = await super().get_tools(ctx)
        definition = self._options.fetch_tool
        if definition is not None:
            toolset = self.wrapped
            assert isinstance(toolset, MCPToolset)
            tool_def = ToolDefinition(
                name=definition["name"],
                description=definition["description"],
                parameters_json_schema=definition["inputSchema"],
            )
            tools[tool_def.name] = toolset.tool_for_tool_def(tool_def, ctx=ctx)
        return tools

    async def call_tool(self, name: str, tool_args: Dict[str, Any], ctx: Any, tool: Any) -> Any:
        settings = self._options
        if settings.fetch_tool is not None and name == settings.fetch_tool["name"]:
            return parts_of(await fetch(settings, tool_args, getattr(ctx, "tool_call_id", None) or name))
        toolset = self.wrapped
        assert isinstance(toolset, MCPToolset)
        async with toolset:
            shown = await call(toolset.client.session, name, tool_args, self.registry, on_input=settings.on_input)
        return parts_of(shown)


def parts_of(shown: Shown) -> Any:
    """What pydantic-ai takes from a tool for ``shown``."""
    if shown.is_error:
        raise ToolFailed(shown.text() or "The tool call failed.")
    parts: List[Any] = [_part(block) for block in shown.content]
    value: Any = parts[0] if len(parts) == 1 else parts
    if shown.held_for_user:
        return messages.ToolReturn(return_value=value, metadata={"held_for_user": shown.held_for_user})
    return value


def _part(block: Dict[str, Any]) -> Any:
    kind = block.get("type")
    if kind == "image":
        return messages.BinaryImage(data=base64.b64decode(block["data"]), media_type=block["mimeType"])
    if kind in ("audio", "document"):
        return messages.BinaryContent(data=base64.b64decode(block["data"]), media_type=block["mimeType"])
    return block.get("text", "")
