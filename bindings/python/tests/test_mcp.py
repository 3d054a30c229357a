"""``mcp_agent_view.mcp`` against a real stdio server written with the official SDK
(``sdk_server.py``): what that SDK's client refuses arrives whole, JSON-RPC errors arrive as
error responses, and the lanes read both."""

from __future__ import annotations

import pathlib
import sys

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import mcp_agent_view as mav
from mcp_agent_view import mcp as raw_mcp

SERVER = StdioServerParameters(command=sys.executable, args=[str(pathlib.Path(__file__).with_name("sdk_server.py"))])
TEXT = "The report is ready. (Oslo)"


def with_session(body):
    """Runs ``body(session)`` on a legacy ``ClientSession`` and then on a 2.x ``Client``
    (which negotiates the newest revision with this server), returning both answers."""

    async def main():
        answers = []
        async with stdio_client(SERVER) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                answers.append(await body(session))
        async with Client(SERVER) as client:
            answers.append(await body(client))
        return answers

    return anyio.run(main)


def test_the_sdk_itself_refuses_the_result():
    async def body(session):
        with pytest.raises(Exception) as refused:
            await session.call_tool("report", {"city": "Oslo"})
        return type(refused.value).__name__

    assert with_session(body) == ["ValidationError", "ValidationError"]


def test_a_result_the_sdk_refuses_arrives_whole():
    async def body(session):
        return await raw_mcp.call_tool(session, "report", {"city": "Oslo"})

    for raw in with_session(body):
        types = [block["type"] for block in raw["content"]]
        assert types == ["text", "hologram", "text"]
        assert raw["content"][0]["text"] == TEXT
        assert raw["content"][2]["annotations"] == {"audience": ["auditor"]}
        result = mav.tool_result(raw, "report", "toolu_1", mav.Registry(seed=7))
        assert not result.is_error
        assert result.content[0] == {"type": "text", "text": TEXT}
        assert "hologram" in result.content[1]["text"]


def test_the_two_sessions_speak_the_oldest_and_the_newest_revision():
    """The raw path above holds under both: the legacy handshake and 2026-07-28."""

    async def body(session):
        inner = session if isinstance(session, ClientSession) else session.session
        return inner.protocol_version

    legacy, newest = with_session(body)
    assert legacy != "2026-07-28"
    assert newest == "2026-07-28"


def test_a_json_rpc_error_arrives_as_the_error_response():
    async def body(session):
        return await raw_mcp.call_tool(session, "broken", {})

    for raw in with_session(body):
        assert raw == {
            "jsonrpc": "2.0",
            "error": {"code": -32602, "message": "broken: the city is required", "data": {"field": "city"}},
        }
        result = mav.tool_result(raw, "broken", "toolu_2", mav.Registry())
        assert result.is_error
        assert result.content == [{"type": "text", "text": "Tool call broken failed: broken: the city is required"}]


def test_a_timeout_is_the_sdk_s_error_response():
    async def body(session):
        return await raw_mcp.call_tool(session, "slow", {}, timeout=0.3)

    for raw in with_session(body):
        assert raw["jsonrpc"] == "2.0"
        assert raw["error"]["code"] == -32001, raw
        assert mav.tool_result(raw, "slow", "toolu_3", mav.Registry()).is_error


def test_a_prompt_the_sdk_refuses_arrives_whole():
    async def body(session):
        return await raw_mcp.get_prompt(session, "brief"), await raw_mcp.get_prompt(session, "missing")

    for prompt, missing in with_session(body):
        assert [m["content"]["type"] for m in prompt["messages"]] == ["text", "hologram"]
        shown = mav.prompt_messages(prompt, mav.Registry(seed=7), target="anthropic")
        assert shown[0]["content"][0] == {"type": "text", "text": "Summarize the report."}
        assert "hologram" in str(shown)
        assert missing["error"]["message"] == "unknown prompt missing"


def test_a_resource_the_sdk_refuses_arrives_whole():
    async def body(session):
        found = await raw_mcp.read_resource(session, "file:///report.txt")
        return found, await raw_mcp.read_resource(session, "file:///nope")

    for found, missing in with_session(body):
        assert [c["uri"] for c in found["contents"]] == ["file:///report.txt", "file:///report.holo"]
        assert found["contents"][0]["text"] == "The report is ready."
        assert missing["error"] == {"code": -32002, "message": "Resource not found", "data": {"uri": "file:///nope"}}


def test_anything_but_a_session_is_a_type_error():
    with pytest.raises(TypeError, match="ClientSession or Client"):
        anyio.run(raw_mcp.call_tool, object(), "report")


def test_without_the_sdk_the_error_names_the_extra(monkeypatch):
    # Issue 48: mcp_agent_view.mcp without the extra was a bare ModuleNotFoundError.
    import asyncio
    import sys

    from mcp_agent_view import mcp as bridge

    monkeypatch.setitem(sys.modules, "mcp", None)
    with pytest.raises(ModuleNotFoundError, match=r"mcp-agent-view\[mcp\]"):
        asyncio.run(bridge.call_tool(object(), "t"))
