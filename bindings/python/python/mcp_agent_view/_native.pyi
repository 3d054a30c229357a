"""Stubs of the native module; the package re-exports it (``mcp_agent_view``,
``mcp_agent_view.fetch``). Held to the module by ``stubtest`` in ``bindings/python/run-tests``.

A ``target`` of ``None`` is each function's default target: ``"anthropic"`` where a result goes
into a tool loop (``tool_result``, ``tool_call_failed``, ``tool_result_messages``,
``tool_definitions``, ``Fetcher.fetch_reference``, ``fetch_tool_definition``), ``"neutral"``
elsewhere."""

import os
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, final

from ._types import TargetLike

__all__ = [
    "Error",
    "MAX_INPUT_ROUNDS",
    "TARGETS",
    "PROVENANCES",
    "Registry",
    "ToolResult",
    "history_text",
    "convert_blocks",
    "script",
    "tool_result",
    "tool_call_failed",
    "tool_result_messages",
    "prompt_messages",
    "sampling_request",
    "elicitation",
    "classify",
    "tool_definitions",
    "Policy",
    "Fetcher",
    "fetch_tool_definition",
]

class Error(ValueError):
    """A message that cannot be read, or an argument that cannot be taken."""

    kind: str
    line: Optional[int]
    column: Optional[int]

@final
class Registry:
    """The references of one conversation; safe to share between threads."""

    def __new__(cls, seed: Optional[int] = None, *, fetch_tool: Optional[str] = None) -> "Registry": ...
    @property
    def fetch_tool(self) -> Optional[str]: ...
    def lookup(self, id: str) -> dict[str, Any]: ...
    def snapshot(self) -> dict[str, Any]: ...
    @staticmethod
    def restore(snapshot: Any) -> Registry: ...
    def __len__(self) -> int: ...

@final
class ToolResult:
    """The tool result the model reads for one call."""

    @property
    def tool_use_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def is_error(self) -> bool: ...
    @property
    def content(self) -> List[dict[str, Any]]: ...
    @property
    def held_for_user(self) -> List[dict[str, Any]]: ...
    @property
    def pending(self) -> Optional[dict[str, Any]]:
        """What the server asked instead of a result (2026-07-28), or ``None``:
        ``{"kind": "input_required", "requests": [{"key", "method", "params"}], "requestState"}``
        or ``{"kind": "task", "taskId", "status", "pollIntervalMs"}``."""
    def retry_params(self, arguments: Any, responses: Mapping[str, Any]) -> dict[str, Any]:
        """The ``tools/call`` params that call the tool again with each request's answer."""

def history_text(
    message: Any, registry: Registry, *, budget: Optional[int] = None, provenance: str = "tool-result"
) -> str: ...
def convert_blocks(
    message: Any, registry: Registry, *, target: Optional[TargetLike] = None, provenance: str = "push-event"
) -> Tuple[List[dict[str, Any]], List[dict[str, Any]]]: ...
def script(message: Any, registry: Registry, *, target: Optional[TargetLike] = None) -> Any: ...
def tool_result(message: Any, name: str, tool_use_id: str, registry: Registry, *, target: Optional[TargetLike] = None) -> ToolResult: ...
def tool_call_failed(name: str, tool_use_id: str, error: str, *, target: Optional[TargetLike] = None) -> ToolResult: ...
def tool_result_messages(results: Sequence[ToolResult], *, target: Optional[TargetLike] = None) -> List[dict[str, Any]]: ...
def tool_definitions(tools: Iterable[Any], *, target: Optional[TargetLike] = None) -> List[dict[str, Any]]: ...
def prompt_messages(message: Any, registry: Registry, *, target: Optional[TargetLike] = None) -> List[dict[str, Any]]: ...
def classify(message: Any) -> List[dict[str, Any]]: ...

MAX_INPUT_ROUNDS: int
TARGETS: Tuple[str, ...]
"""The targets' names, from the crate's table: what ``target=`` takes (or a dict)."""
PROVENANCES: Tuple[str, ...]
"""The provenances' names, from the crate's table: what ``provenance=`` takes."""
def sampling_request(message: Any, registry: Registry, *, target: Optional[TargetLike] = None) -> dict[str, Any]: ...
def elicitation(message: Any) -> dict[str, Any]: ...

@final
class Policy:
    """What a fetch may do: the crate's ``FetchPolicy``. Unless given: ``max_bytes`` 16 MiB
    (16777216), no scheme but ``https``, no origin allowed beyond public addresses."""

    def __new__(
        cls,
        *,
        max_bytes: int = ...,
        allow_schemes: Sequence[str] = ...,
        origin: Optional[str] = None,
        bearer: Optional[str] = None,
        allow_origins: Sequence[str] = ...,
        timeout: float = 30.0,
        max_redirects: int = 3,
        cross_origin_redirects: bool = True,
        allow_files_under: Optional[Union[str, os.PathLike[str]]] = None,
        allow_hard_links: bool = False,
    ) -> "Policy": ...
    @property
    def max_bytes(self) -> int: ...

@final
class Fetcher:
    """Fetches references when the model calls the fetch tool."""

    def __new__(
        cls, policy: Optional[Policy] = None, *, save_dir: Optional[Union[str, os.PathLike[str]]] = None
    ) -> "Fetcher": ...
    def fetch_reference(
        self, input: Any, tool_use_id: str, registry: Registry, *, target: Optional[TargetLike] = None
    ) -> ToolResult: ...

def fetch_tool_definition(target: Optional[TargetLike] = None, name: str = ...) -> dict[str, Any]:
    """The fetch tool's definition; ``name`` is ``"fetch_reference"`` unless given."""
