"""Fetching what a reference stub names, when the model asks for it.

A stub (``[ref_…]``) stands where a link or a bulk reference was; the uri stays in the
``Registry``. Offer the model the fetch tool, and answer its calls with a ``Fetcher``:

    registry = Registry(fetch_tool="fetch_reference")
    tools = [*tool_definitions(mcp_tools), fetch.tool_definition("anthropic")]
    fetcher = fetch.Fetcher(fetch.Policy(max_bytes=1 << 20))
    ...
    result = fetcher.fetch_reference(tool_use.input, tool_use.id, registry)

The fetch runs under the ``Policy`` (``https`` only, public addresses only, a 16 MiB ceiling
and a 30 s timeout unless told otherwise), verifies what arrives against what the reference
claimed, and answers as the lanes show content: text as text, images as media, anything else
as a marker naming type and size. A refusal is a failed call naming the reason, never the uri.
It runs over the crate's own HTTP(S) transport, with the interpreter released while it waits.
"""

from __future__ import annotations

from typing import Any, Dict

from ._native import Fetcher, Policy, fetch_tool_definition
from ._types import TargetLike

__all__ = ["Fetcher", "Policy", "tool_definition"]


def tool_definition(target: TargetLike = "anthropic", name: str = "fetch_reference") -> Dict[str, Any]:
    """The fetch tool's definition in the target's shape; its input is ``{"ref_id": "ref_…"}``."""
    return fetch_tool_definition(target, name)
