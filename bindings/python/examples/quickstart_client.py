"""A quickstart MCP client: a stdio server's tools offered to Claude, every tool call answered,
until the model stops asking. Copy it; this package's part is four calls.

    pip install "mcp-agent-view[examples]"
    ANTHROPIC_API_KEY=… python quickstart_client.py <server command> [args…]
    ANTHROPIC_API_KEY=… python quickstart_client.py path/to/server.py   # or .js, as the quickstart

Queries are read from standard input, one a line; ``quit`` or the end of input stops. The
official ``anthropic`` SDK calls the Messages API (at ``ANTHROPIC_BASE_URL`` where it is set)
with the model ``ANTHROPIC_MODEL`` (default below), ``max_tokens`` 10000 and the server's tools
only. Each turn's tool calls run at once over the official ``mcp`` SDK's connection; each
``tool_use`` is answered by one ``tool_result``, all of them in one ``user`` message; at most ten
rounds a query.

What this package does here: ``mcp.call_tool`` returns each answer as the server sent it (the
SDK alone would refuse a result with a block it does not know, losing the whole answer);
``tool_result`` turns an answer, a JSON-RPC error or a failure to call into what the model
reads; ``tool_result_messages`` makes the message to append; ``tool_definitions`` the tools. A
rejected call is an error result, never the end of the conversation; ``structuredContent`` is
read where the content has no text; images go as images; an embedded resource's text as text,
its uri never; a block nobody knows becomes a marker and costs no sibling.

A server that asks before it answers (revision 2026-07-28's input-required results, or requests
over the session under an older revision) is answered the same way either way: an elicitation
declined (there is no form here), no roots, and a sampling request through the same Messages API,
one level deep (its messages read by ``sampling_request``, the server's system prompt given as
the server's words in the first user turn, no tools).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Dict, List, Sequence

from anthropic import AsyncAnthropic
from mcp import Client, StdioServerParameters, types

import mcp_agent_view as mav
from mcp_agent_view import mcp as raw_mcp

MODEL = os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-5")
# Thinking and the reply share max_tokens; leave room for both.
MAX_TOKENS = 10000
MAX_ROUNDS = 10


def server_parameters(argv: Sequence[str]) -> StdioServerParameters:
    """A server command and its arguments; a lone ``.py`` or ``.js`` path runs with Python or
    Node, as the official quickstart client takes it."""
    if len(argv) == 1 and argv[0].endswith((".py", ".js", ".mjs")):
        command = sys.executable if argv[0].endswith(".py") else "node"
        return StdioServerParameters(command=command, args=[argv[0]])
    return StdioServerParameters(command=argv[0], args=list(argv[1:]))


class Asked:
    """What the server asks the client, answered: elicitation declined, no roots, sampling through
    the Messages API once a key is set (``api``)."""

    def __init__(self) -> None:
        self.api: AsyncAnthropic | None = None
        self.registry = mav.Registry()

    async def __call__(self, method: str, params: Dict[str, Any]) -> Dict[str, Any] | None:
        if method != "sampling/createMessage" or self.api is None:
            return raw_mcp.answer_plainly(method, params)
        try:
            request = mav.sampling_request(params, self.registry, target="anthropic")
        except mav.Error:  # tool content: this client takes no part in a tool loop of the server's
            return None
        messages = request["messages"]
        if request.get("systemPrompt"):
            said = f"[the requesting server's instructions] {request['systemPrompt']}"
            messages = [{"role": "user", "content": [{"type": "text", "text": said}]}, *messages]
        if not messages:
            return None
        max_tokens = min(request.get("maxTokens") or MAX_TOKENS, MAX_TOKENS)
        reply = await self.api.messages.create(model=MODEL, max_tokens=max_tokens, messages=messages)
        text = "".join(block.text for block in reply.content if block.type == "text")
        stop = "maxTokens" if reply.stop_reason == "max_tokens" else "endTurn"
        return {"role": "assistant", "content": {"type": "text", "text": text}, "model": reply.model, "stopReason": stop}

    # The same answers to a server of an older revision, which asks over the session.
    async def sampling(self, context: Any, params: types.CreateMessageRequestParams) -> Any:
        answer = await self("sampling/createMessage", params.model_dump(by_alias=True, exclude_none=True, mode="json"))
        if answer is None:
            return types.ErrorData(code=-32603, message="this client answers no such sampling request")
        return types.CreateMessageResult.model_validate(answer)

    async def elicitation(self, context: Any, params: Any) -> Any:
        return types.ElicitResult(action="decline")

    async def roots(self, context: Any) -> Any:
        return types.ListRootsResult(roots=[])


async def answer(
    client: Client, offered: set[str], tool_use: Any, registry: mav.Registry, asked: Asked
) -> mav.ToolResult:
    """One call's tool result: what the server answered, or why no answer came."""
    if tool_use.name not in offered:
        return mav.tool_call_failed(tool_use.name, tool_use.id, "no tool of that name is offered")
    try:
        raw = await raw_mcp.call_tool(client, tool_use.name, tool_use.input, on_input=asked)
    except Exception as e:  # the connection failed: the call failed, the conversation goes on
        return mav.tool_call_failed(tool_use.name, tool_use.id, str(e) or type(e).__name__)
    return mav.tool_result(raw, tool_use.name, tool_use.id, registry)


async def ask(
    api: AsyncAnthropic,
    client: Client,
    tools: List[Dict[str, Any]],
    messages: List[Dict[str, Any]],
    registry: mav.Registry,
    asked: Asked,
) -> None:
    """Runs one query to the end: the model's text printed, every tool call answered."""
    offered = {tool["name"] for tool in tools}
    for _ in range(MAX_ROUNDS):
        reply = await api.messages.create(model=MODEL, max_tokens=MAX_TOKENS, messages=messages, tools=tools)
        messages.append({"role": "assistant", "content": reply.content})
        for block in reply.content:
            if block.type == "text":
                print(block.text, flush=True)
        uses = [block for block in reply.content if block.type == "tool_use"]
        if not uses:
            return
        # Every call of the turn at once; each answered, in the order the model asked.
        results = await asyncio.gather(*(answer(client, offered, use, registry, asked) for use in uses))
        messages.extend(mav.tool_result_messages(results))
    print(f"[Stopped after {MAX_ROUNDS} tool-use rounds]", flush=True)


async def main(argv: Sequence[str]) -> int:
    if not argv:
        print("usage: python quickstart_client.py <server command> [args…]", file=sys.stderr)
        return 2
    asked = Asked()
    params = server_parameters(argv)
    async with Client(
        params, sampling_callback=asked.sampling, elicitation_callback=asked.elicitation, list_roots_callback=asked.roots
    ) as client:
        # The server's tools, as it lists them, in the Messages API's shape.
        tools = mav.tool_definitions((await client.list_tools()).tools)
        print("Connected to server with tools:", [tool["name"] for tool in tools], flush=True)
        if not os.environ.get("ANTHROPIC_API_KEY"):
            print("No ANTHROPIC_API_KEY found. To query these tools with Claude, set your API key.")
            return 0
        api = asked.api = AsyncAnthropic()
        registry = mav.Registry()
        messages: List[Dict[str, Any]] = []
        while True:
            line = await asyncio.to_thread(sys.stdin.readline)
            query = line.strip()
            if not line or query.lower() == "quit":
                return 0
            if not query:
                continue
            kept = len(messages)
            messages.append({"role": "user", "content": query})
            try:
                await ask(api, client, tools, messages, registry, asked)
            except Exception as e:  # the API failed: this query is lost, the next one runs
                del messages[kept:]
                print(f"Error: {e}", flush=True)


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main(sys.argv[1:])))
    except Exception as e:  # the server could not be started or reached
        print(f"quickstart_client: {e}", file=sys.stderr)
        sys.exit(1)
