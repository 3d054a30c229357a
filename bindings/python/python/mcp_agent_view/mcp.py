"""MCP requests through the official ``mcp`` SDK, their answers raw.

The SDK validates every result against its own models before a caller sees it, so a result it
does not know (a block type from a newer revision, an unknown annotation role) is an exception
and the whole answer is lost, its good blocks with it. These functions send the same request
through the same session (its handshake, transport, headers and timeouts) and return the answer
as the server sent it, a ``dict`` for this package's lanes to read block by block:

    raw = await mcp.call_tool(session, "weather", {"city": "Oslo"})
    result = tool_result(raw, "weather", tool_use.id, registry)

A JSON-RPC error (from the server, or the SDK's own for a timeout or a closed connection) is
returned as the error response ``{"jsonrpc": "2.0", "error": {"code", "message", "data"}}``,
which ``tool_result`` shows the model as a failed call. ``session`` is a ``ClientSession`` of
either SDK line (1.x, as LangChain's adapters pin it, or 2.x) or a ``Client`` of the SDK 2.x;
install it with ``pip install "mcp-agent-view[mcp]"``.

A server of revision 2026-07-28 may answer with an input-required result (``resultType:
"input_required"``): requests for the client (``elicitation/create``, ``sampling/createMessage``,
``roots/list``) and a state to echo. Each function answers them and asks again, at most
``MAX_INPUT_ROUNDS`` times: ``on_input(method, params)`` (sync or async) returns each request's
result, or ``None`` where the host does not answer that kind. Without it, ``answer_plainly``
answers: an elicitation declined, no roots, no sampling. A request left unanswered, or rounds
past the bound, end the call as an error response naming why; a task (``resultType: "task"``)
is returned as it came, for ``tool_result(...).pending``.
"""

from __future__ import annotations

import inspect
from typing import Any, Awaitable, Callable, Dict, Mapping, Optional, Union

from ._native import MAX_INPUT_ROUNDS, Registry, tool_result

__all__ = ["MAX_INPUT_ROUNDS", "OnInput", "answer_plainly", "call_tool", "get_prompt", "read_resource"]

OnInput = Callable[[str, Dict[str, Any]], Union[Optional[Dict[str, Any]], Awaitable[Optional[Dict[str, Any]]]]]
"""Answers one request of an input-required result: ``(method, params)`` to its result, or
``None`` where the host does not answer that kind."""


def answer_plainly(method: str, params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """What a host with no form, no model of its own and no roots answers: an elicitation
    declined, no roots, and no sampling (``None``)."""
    if method == "elicitation/create":
        return {"action": "decline"}
    if method == "roots/list":
        return {"roots": []}
    return None


async def call_tool(
    session: Any,
    name: str,
    arguments: Optional[Mapping[str, Any]] = None,
    *,
    timeout: Optional[float] = None,
    on_input: OnInput = answer_plainly,
    max_rounds: int = MAX_INPUT_ROUNDS,
) -> Dict[str, Any]:
    """``tools/call``: the raw result, or the JSON-RPC error response; an input-required
    result answered by ``on_input`` and the call made again."""
    params: Dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = dict(arguments)
    return await _answered(session, "tools/call", params, timeout, on_input, max_rounds)


async def get_prompt(
    session: Any,
    name: str,
    arguments: Optional[Mapping[str, str]] = None,
    *,
    timeout: Optional[float] = None,
    on_input: OnInput = answer_plainly,
    max_rounds: int = MAX_INPUT_ROUNDS,
) -> Dict[str, Any]:
    """``prompts/get``: the raw result, or the JSON-RPC error response."""
    params: Dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = dict(arguments)
    return await _answered(session, "prompts/get", params, timeout, on_input, max_rounds)


async def read_resource(
    session: Any,
    uri: str,
    *,
    timeout: Optional[float] = None,
    on_input: OnInput = answer_plainly,
    max_rounds: int = MAX_INPUT_ROUNDS,
) -> Dict[str, Any]:
    """``resources/read``: the raw result, or the JSON-RPC error response."""
    return await _answered(session, "resources/read", {"uri": str(uri)}, timeout, on_input, max_rounds)


def _failed(message: str) -> Dict[str, Any]:
    """An error response the lanes show as a failed request: the client's own words."""
    return {"jsonrpc": "2.0", "error": {"code": -32603, "message": message}}


async def _answered(
    session: Any,
    method: str,
    params: Dict[str, Any],
    timeout: Optional[float],
    on_input: OnInput,
    max_rounds: int,
) -> Dict[str, Any]:
    """The request, its input-required results answered and the request made again."""
    raw = await _request(session, method, params, timeout)
    rounds = 0
    while True:
        result = raw.get("result", raw) if "jsonrpc" in raw else raw
        if not isinstance(result, dict) or result.get("resultType") != "input_required":
            return raw
        # The crate reads what is asked (``pending``), as every lane reads the answer.
        pending = tool_result(raw, "call", "call", Registry()).pending
        if not pending or pending.get("kind") != "input_required":
            return raw  # a failed call, as tool_result shows it
        if rounds >= max_rounds:
            return _failed(f"the server asked for input more than {max_rounds} times")
        rounds += 1
        responses: Dict[str, Any] = {}
        for request in pending["requests"]:
            answer = on_input(request["method"], request["params"])
            if inspect.isawaitable(answer):
                answer = await answer
            if answer is None:
                return _failed(f"the server asked for {request['method']}, which this client does not answer")
            responses[request["key"]] = answer
        again = {key: value for key, value in params.items() if key not in ("inputResponses", "requestState")}
        again["inputResponses"] = responses
        if pending.get("requestState") is not None:
            again["requestState"] = pending["requestState"]
        raw = await _request(session, method, again, timeout)


_NEEDS_EXTRA = "mcp_agent_view.mcp needs the mcp SDK, the package's extra: pip install 'mcp-agent-view[mcp]'"


def _session(session: Any) -> Any:
    """The ``ClientSession`` behind a 2.x ``Client`` (its ``session``), or the session itself."""
    try:
        from mcp import ClientSession
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(_NEEDS_EXTRA, name=e.name) from e

    inner = session if isinstance(session, ClientSession) else getattr(session, "session", None)
    if not isinstance(inner, ClientSession):
        raise TypeError(f"expected an mcp ClientSession or Client, got {type(session).__name__}")
    return inner


async def _request(session: Any, method: str, params: Dict[str, Any], timeout: Optional[float]) -> Dict[str, Any]:
    session = _session(session)
    try:
        if hasattr(session, "_dispatcher") and hasattr(session, "_stamp"):
            return await _raw(session, method, params, timeout)
        return await _raw_v1(session, method, params, timeout)
    except Exception as e:
        error = _error_of(e)
        if error is None:
            raise
        return {"jsonrpc": "2.0", "error": error}


class _AsSent:
    """A result type for the SDK 1.x ``send_request`` that keeps the result as sent."""

    @staticmethod
    def model_validate(result: Any) -> Dict[str, Any]:
        return dict(result)


async def _raw_v1(session: Any, method: str, params: Dict[str, Any], timeout: Optional[float]) -> Dict[str, Any]:
    """The SDK 1.x: ``send_request`` with the request typed as the SDK types it and a result
    type that validates nothing (1.x checks a result only by the type it is given)."""
    from datetime import timedelta

    import mcp.types

    # Typed as either line types it: the two lines' request unions differ.
    types: Any = mcp.types
    request_type = {
        "tools/call": types.CallToolRequest,
        "prompts/get": types.GetPromptRequest,
        "resources/read": types.ReadResourceRequest,
    }[method]
    request = types.ClientRequest(request_type.model_validate({"method": method, "params": params}))
    read_timeout = None if timeout is None else timedelta(seconds=timeout)
    result: Dict[str, Any] = await session.send_request(request, _AsSent, request_read_timeout_seconds=read_timeout)
    return result


async def _raw(session: Any, method: str, params: Dict[str, Any], timeout: Optional[float]) -> Dict[str, Any]:
    """What ``ClientSession.send_request`` does up to its validation: the session stamps the
    request (protocol version, client info, headers), its dispatcher sends it and returns the
    result dict. The SDK reaches its dispatcher the same way for its own raw requests."""
    from mcp.shared.inbound import MCP_NAME_HEADER, NAME_BEARING_METHODS, encode_header_value

    data: Dict[str, Any] = {"method": method, "params": params}
    opts: Dict[str, Any] = {}
    session._stamp(data, opts)
    headers = opts.setdefault("headers", {})
    name = params.get(NAME_BEARING_METHODS.get(method, ""))
    if MCP_NAME_HEADER not in headers and isinstance(name, str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    if timeout is None:
        timeout = getattr(session, "_session_read_timeout_seconds", None)
    if timeout is not None:
        opts["timeout"] = timeout
    raw = await session._dispatcher.send_raw_request(method, data.get("params"), opts)
    return dict(raw)


def _error_of(e: BaseException) -> Optional[Dict[str, Any]]:
    """The JSON-RPC error an SDK ``MCPError`` carries."""
    error = getattr(e, "error", None)
    code = getattr(error, "code", None)
    message = getattr(error, "message", None)
    if not isinstance(code, int) or not isinstance(message, str):
        return None
    out: Dict[str, Any] = {"code": code, "message": message}
    data = getattr(error, "data", None)
    if data is not None:
        out["data"] = data
    return out
