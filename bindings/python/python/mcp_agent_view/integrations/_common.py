"""What every integration shares: the framework imported or an error naming the extra, and one
call made raw and shown as the package shows a tool result (neutral blocks)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Dict, List, Mapping, NamedTuple, Optional

from .. import mcp
from .._native import Registry, ToolResult, tool_result
from .._types import TargetLike


def require(module: str, extra: str) -> ModuleType:
    """``module`` imported, or a ``ModuleNotFoundError`` naming the package's extra."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(
            f"mcp_agent_view.integrations.{extra.replace('-', '_')} needs {module}, the package's extra: "
            f"pip install 'mcp-agent-view[{extra}]'",
            name=e.name,
        ) from e


class Shown(NamedTuple):
    """One tool call as the model reads it: ``content`` neutral blocks (``text``, ``image``,
    ``audio``, ``document``), ``held_for_user`` the blocks for the user only, ``is_error`` a
    failed call (``isError`` or a JSON-RPC error), ``structured`` the result's
    ``structuredContent`` as sent (for the application; the model reads it in ``content``),
    ``result`` the package's ``ToolResult``."""

    content: List[Dict[str, Any]]
    held_for_user: List[Dict[str, Any]]
    is_error: bool
    structured: Optional[Dict[str, Any]]
    result: ToolResult

    def text(self) -> str:
        """The text blocks, one per line: what a framework's error message carries."""
        return "\n".join(block["text"] for block in self.content if block.get("type") == "text")


async def call(
    session: Any, name: str, arguments: Optional[Mapping[str, Any]], registry: Registry, target: TargetLike = "neutral"
) -> Shown:
    """``tools/call`` through ``session`` (either SDK line), the answer taken as sent and shown."""
    raw = await mcp.call_tool(session, name, arguments)
    shown = tool_result(raw, name, name, registry, target=target)
    structured = raw.get("structuredContent")
    return Shown(
        shown.content, shown.held_for_user, shown.is_error, structured if isinstance(structured, dict) else None, shown
    )
