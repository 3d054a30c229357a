"""Stubs of the native module; the package re-exports it (``mcp_agent_view``,
``mcp_agent_view.fetch``)."""

import os
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._types import TargetLike

class Error(ValueError):
    """A message that cannot be read, or an argument that cannot be taken."""

    kind: str
    line: Optional[int]
    column: Optional[int]

class Registry:
    """The references of one conversation; safe to share between threads."""

    def __init__(self, seed: Optional[int] = None, *, fetch_tool: Optional[str] = None) -> None: ...
    @property
    def fetch_tool(self) -> Optional[str]: ...
    def lookup(self, id: str) -> dict[str, Any]: ...
    def snapshot(self) -> dict[str, Any]: ...
    @staticmethod
    def restore(snapshot: Any) -> Registry: ...
    def __len__(self) -> int: ...

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
    message: Any, registry: Registry, *, target: TargetLike = "neutral", provenance: str = "push-event"
) -> Tuple[List[dict[str, Any]], List[dict[str, Any]]]: ...
def script(message: Any, registry: Registry, *, target: TargetLike = "neutral") -> Any: ...
def tool_result(message: Any, name: str, tool_use_id: str, registry: Registry, *, target: TargetLike = "anthropic") -> ToolResult: ...
def tool_call_failed(name: str, tool_use_id: str, error: str, *, target: TargetLike = "anthropic") -> ToolResult: ...
def tool_result_messages(results: Sequence[ToolResult], *, target: TargetLike = "anthropic") -> List[dict[str, Any]]: ...
def tool_definitions(tools: Iterable[Any], *, target: TargetLike = "anthropic") -> List[dict[str, Any]]: ...
def prompt_messages(message: Any, registry: Registry, *, target: TargetLike = "neutral") -> List[dict[str, Any]]: ...
def classify(message: Any) -> List[dict[str, Any]]: ...

MAX_INPUT_ROUNDS: int
def sampling_request(message: Any, registry: Registry, *, target: TargetLike = "neutral") -> dict[str, Any]: ...
def elicitation(message: Any) -> dict[str, Any]: ...

class Policy:
    """What a fetch may do: the crate's ``FetchPolicy``."""

    def __init__(
        self,
        *,
        max_bytes: int = 16777216,
        allow_schemes: Sequence[str] = (),
        origin: Optional[str] = None,
        bearer: Optional[str] = None,
        allow_origins: Sequence[str] = (),
        timeout: float = 30.0,
        max_redirects: int = 3,
        cross_origin_redirects: bool = True,
        allow_files_under: Optional[Union[str, os.PathLike[str]]] = None,
        allow_hard_links: bool = False,
    ) -> None: ...
    @property
    def max_bytes(self) -> int: ...

class Fetcher:
    """Fetches references when the model calls the fetch tool."""

    def __init__(
        self, policy: Optional[Policy] = None, *, save_dir: Optional[Union[str, os.PathLike[str]]] = None
    ) -> None: ...
    def fetch_reference(
        self, input: Any, tool_use_id: str, registry: Registry, *, target: TargetLike = "anthropic"
    ) -> ToolResult: ...

def fetch_tool_definition(target: TargetLike = "anthropic", name: str = "fetch_reference") -> dict[str, Any]: ...
