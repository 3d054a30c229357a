"""What every integration shares: the framework imported or an error naming the extra, the
options every ``view`` takes, and one call made raw (or one fetch) shown as the package shows a
tool result (neutral blocks)."""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType
from typing import Any, Dict, List, Mapping, NamedTuple, Optional

from .. import mcp
from .._native import Fetcher, Registry, ToolResult, fetch_tool_definition, tool_result
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


class Options(NamedTuple):
    """``view``'s options read: the ``registry`` (one of its own unless given, naming the fetch
    tool in its stubs when there is a fetcher), the ``fetcher``, the fetch tool's neutral
    definition (``name``, ``description``, ``inputSchema``) where there is one, and ``on_input``,
    which answers what a server asks before it answers (``mcp.answer_plainly`` unless given)."""

    registry: Registry
    fetcher: Optional[Fetcher]
    fetch_tool: Optional[Dict[str, Any]]
    on_input: mcp.OnInput = mcp.answer_plainly


def options(registry: Optional[Registry], fetcher: Optional[Fetcher], on_input: Optional[mcp.OnInput] = None) -> Options:
    """The options every ``view`` takes, checked: a wrong type is a ``TypeError`` naming it."""
    if on_input is None:
        on_input = mcp.answer_plainly
    elif not callable(on_input):
        raise TypeError(f"on_input is a function (method, params) -> result, got {type(on_input).__name__}")
    if fetcher is not None and not isinstance(fetcher, Fetcher):
        raise TypeError(f"fetcher is a mcp_agent_view.fetch.Fetcher, got {type(fetcher).__name__}")
    if registry is None:
        registry = Registry(fetch_tool="fetch_reference") if fetcher is not None else Registry()
    elif not isinstance(registry, Registry):
        raise TypeError(f"registry is a mcp_agent_view.Registry, got {type(registry).__name__}")
    if fetcher is None:
        return Options(registry, None, None, on_input)
    definition = fetch_tool_definition("neutral", registry.fetch_tool or "fetch_reference")
    return Options(registry, fetcher, definition, on_input)


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
    session: Any,
    name: str,
    arguments: Optional[Mapping[str, Any]],
    registry: Registry,
    target: TargetLike = "neutral",
    on_input: mcp.OnInput = mcp.answer_plainly,
) -> Shown:
    """``tools/call`` through ``session`` (either SDK line), the answer taken as sent and shown;
    what the server asks first (revision 2026-07-28) answered by ``on_input``."""
    raw = await mcp.call_tool(session, name, arguments, on_input=on_input)
    shown = tool_result(raw, name, name, registry, target=target)
    structured = raw.get("structuredContent")
    return Shown(
        shown.content, shown.held_for_user, shown.is_error, structured if isinstance(structured, dict) else None, shown
    )


async def fetch(options: Options, arguments: Any, tool_use_id: str, target: TargetLike = "neutral") -> Shown:
    """The fetch tool's answer to ``arguments`` (the fetch runs on a worker thread)."""
    assert options.fetcher is not None
    fetcher, registry = options.fetcher, options.registry
    shown = await asyncio.to_thread(fetcher.fetch_reference, arguments or {}, tool_use_id, registry, target=target)
    return Shown(shown.content, shown.held_for_user, shown.is_error, None, shown)
