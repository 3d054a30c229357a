"""What an AI agent reads when content arrives from an MCP server.

The Rust crate ``mcp-agent-view`` for Python: every MCP content block (text, image, audio,
embedded resources, resource links, MCPL bulk references) read on its own, decided once, and
shown on each lane as the model should read it; no uri ever reaches the model, and one bad block
never costs its siblings.

A ``message`` may be ``str``, ``bytes`` (or ``bytearray``, ``memoryview``), a JSON-compatible
object (``dict``, ``list``) or a pydantic model of the official ``mcp`` SDK; the same message
in any form gives the same output.
Targets are ``"neutral"``, ``"anthropic"``, ``"openai-chat"``, ``"openai-responses"``, or a
dict that starts from one and changes what goes out as media (``TargetLike``:
``{"provider": "openai-responses", "pdf": False}`` sends PDFs as their markers); provenances
``"tool-result"``, ``"push-event"``, ``"channel-message"``,
``"context-injection"``, ``"script-result"``, ``"prompt"``, ``"sampling"``. An unknown name is a
``ValueError`` listing the valid ones.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional

from . import _native, fetch, mcp
from ._native import PROVENANCES, TARGETS, Error, Registry, ToolResult, tool_call_failed, tool_definitions, tool_result
from ._native import classify, elicitation, prompt_messages, sampling_request, script, tool_result_messages
from ._types import TargetLike

__all__ = [
    "PROVENANCES",
    "TARGETS",
    "Converted",
    "Error",
    "Registry",
    "TargetLike",
    "ToolResult",
    "classify",
    "convert",
    "elicitation",
    "fetch",
    "history",
    "mcp",
    "prompt_messages",
    "sampling_request",
    "script",
    "tool_call_failed",
    "tool_definitions",
    "tool_result",
    "tool_result_messages",
]


class Converted(NamedTuple):
    """Every block of a message converted: ``content`` in the target's shape (what the CLI's
    ``blocks --target`` prints), ``held_for_user`` the blocks for the user only (neutral)."""

    content: List[Any]
    held_for_user: List[Any]


def history(message: Any, registry: Registry, *, budget: Optional[int] = None, provenance: str = "tool-result") -> str:
    """One string for the conversation history, at most ``budget`` characters."""
    return _native.history_text(message, registry, budget=budget, provenance=provenance)


def convert(
    message: Any, registry: Registry, *, target: TargetLike = "neutral", provenance: str = "push-event"
) -> Converted:
    """Every block as the agent's block, for pushed events, channel messages and context
    injections."""
    content, held = _native.convert_blocks(message, registry, target=target, provenance=provenance)
    return Converted(content, held)
