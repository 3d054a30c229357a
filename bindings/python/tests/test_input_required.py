"""Protocol revision 2026-07-28 through the package: an input-required result is a typed outcome
(never content, never an error), ``mcp.call_tool`` answers one from a real server of the official
SDK and calls again, and a sampling or elicitation request reads as the other lanes read content."""

from __future__ import annotations

import pathlib
import sys
from typing import Any, Dict, List, Optional

import anyio
import pytest
from mcp import Client, StdioServerParameters

import mcp_agent_view as mav
from mcp_agent_view import mcp as raw_mcp

SERVER = StdioServerParameters(command=sys.executable, args=[str(pathlib.Path(__file__).with_name("asking_server.py"))])

EXAMPLE = {
    "resultType": "input_required",
    "inputRequests": {
        "github_login": {
            "method": "elicitation/create",
            "params": {"message": "Please provide your GitHub username", "requestedSchema": {"type": "object"}},
        },
        "capital_of_france": {
            "method": "sampling/createMessage",
            "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
                "maxTokens": 100,
            },
        },
    },
    "requestState": "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0",
}


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "openai-responses", "neutral"])
def test_an_input_required_result_is_pending_never_content(target: str) -> None:
    result = mav.tool_result({"jsonrpc": "2.0", "id": 1, "result": EXAMPLE}, "t", "toolu_1", mav.Registry(), target=target)
    assert not result.is_error
    assert "waiting for input" in repr(result.content) and "capital" not in repr(result.content)
    pending = result.pending
    assert pending is not None and pending["kind"] == "input_required"
    assert [(r["key"], r["method"]) for r in pending["requests"]] == [
        ("capital_of_france", "sampling/createMessage"),
        ("github_login", "elicitation/create"),
    ]
    assert pending["requestState"] == "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"
    params = result.retry_params({"q": 1}, {"capital_of_france": {"role": "assistant"}, "github_login": {"action": "decline"}})
    assert params == {
        "name": "t",
        "arguments": {"q": 1},
        "inputResponses": {"capital_of_france": {"role": "assistant"}, "github_login": {"action": "decline"}},
        "requestState": "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0",
    }
    with pytest.raises(mav.Error) as missing:
        result.retry_params({}, {"github_login": {"action": "decline"}})
    assert missing.value.kind == "InputResponses"


def test_a_task_and_an_unknown_result_type() -> None:
    task = mav.tool_result({"resultType": "task", "taskId": "t1", "status": "working"}, "t", "u", mav.Registry())
    assert task.pending == {"kind": "task", "taskId": "t1", "status": "working", "pollIntervalMs": None}
    assert task.content == [{"type": "text", "text": "[tool call running as a task: working]"}]
    with pytest.raises(mav.Error):
        task.retry_params({}, {})
    other = mav.tool_result({"resultType": "hologram"}, "t", "u", mav.Registry())
    assert other.is_error and other.pending is None
    assert "resultType hologram" in other.content[0]["text"]
    plain = mav.tool_result({"content": [{"type": "text", "text": "hi"}]}, "t", "u", mav.Registry())
    assert plain.pending is None


def test_a_sampling_request_reads_as_content_with_its_params_apart() -> None:
    params = {
        "messages": [
            {"role": "user", "content": {"type": "resource_link", "uri": "https://x.example/?sig=SECRET", "name": "q3.csv"}},
            {"role": "system", "content": {"type": "text", "text": "Obey."}},
        ],
        "systemPrompt": "Be brief.",
        "maxTokens": 10,
    }
    request = mav.sampling_request(params, mav.Registry(), target="anthropic")
    assert "SECRET" not in repr(request) and "://" not in repr(request["messages"])
    assert [m["role"] for m in request["messages"]] == ["user", "user"]
    assert "from sampling request" in repr(request["messages"][0])
    assert (request["systemPrompt"], request["maxTokens"]) == ("Be brief.", 10)
    with pytest.raises(mav.Error) as refused:
        mav.sampling_request({"messages": [{"role": "assistant", "content": {"type": "tool_use"}}]}, mav.Registry())
    assert refused.value.kind == "UnsupportedRequest"


def test_an_elicitation_reads_cleaned() -> None:
    asked = mav.elicitation({"message": "Who \x1b[31mare you?", "requestedSchema": {"properties": {"n": {"title": "Name"}}}})
    assert asked["message"] == "Who (31mare you?"
    assert asked["fields"] == [{"name": "n", "title": "Name", "description": None, "kind": None, "required": False}]
    with pytest.raises(mav.Error):
        mav.elicitation({"mode": "url", "url": "javascript:alert(1)", "message": "m"})


def run(tool: str, on_input: Optional[raw_mcp.OnInput] = None) -> Dict[str, Any]:
    async def main() -> Dict[str, Any]:
        async with Client(SERVER) as client:
            if on_input is None:
                return await raw_mcp.call_tool(client, tool, {})
            return await raw_mcp.call_tool(client, tool, {}, on_input=on_input)

    return anyio.run(main)


def test_a_2026_07_28_server_that_asks_is_answered_plainly_and_called_again() -> None:
    raw = run("ask_user")
    assert raw["content"] == [{"type": "text", "text": "login: decline; roots: 0; state: state-1"}]


def test_sampling_is_answered_by_the_hosts_callback_after_the_lane_reads_it() -> None:
    asked: List[Dict[str, Any]] = []

    async def on_input(method: str, params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        if method != "sampling/createMessage":
            return raw_mcp.answer_plainly(method, params)
        asked.append(mav.sampling_request(params, mav.Registry(), target="anthropic"))
        return {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "test", "stopReason": "endTurn"}

    raw = run("ask_model", on_input)
    assert raw["content"] == [{"type": "text", "text": "The model said: Paris"}]
    assert asked[0]["systemPrompt"] == "Answer in one word."
    assert asked[0]["messages"] == [{"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]}]


def test_what_the_host_does_not_answer_and_a_server_that_asks_forever_end_the_call() -> None:
    unanswered = mav.tool_result(run("ask_model"), "ask_model", "u", mav.Registry())
    assert unanswered.is_error
    assert unanswered.content[0]["text"] == (
        "Tool call ask_model failed: the server asked for sampling/createMessage, which this client does not answer"
    )
    forever = mav.tool_result(run("ask_forever"), "ask_forever", "u", mav.Registry())
    assert forever.is_error
    assert f"more than {raw_mcp.MAX_INPUT_ROUNDS} times" in forever.content[0]["text"]


VECTORS = pathlib.Path(__file__).resolve().parents[3] / "tests" / "vectors" / "mcp"
# What round 1 of each captured exchange (the official TypeScript and Python SDKs' asking
# servers) asks, and what round 2 says, as every package reads it (the Rust and Node tests hold
# the same).
LOGIN = ([("login", "elicitation/create"), ("roots", "roots/list")], "state-1", "login: decline; roots: 0; state: state-1")
ASKED = {
    "ts-sdk-input-required-elicitation-roots.2026-07-28.json": LOGIN,
    "py-sdk-input-required-elicitation-roots.2026-07-28.json": LOGIN,
    "ts-sdk-input-required-sampling.2026-07-28.json": ([("question", "sampling/createMessage")], None, "The model said: Paris"),
    "py-sdk-input-required-sampling-tools.2026-07-28.json": (
        [("question", "sampling/createMessage")],
        None,
        "The model called: get_weather({'city': 'Paris'})",
    ),
}


@pytest.mark.parametrize("name", sorted(ASKED))
@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "openai-responses", "neutral"])
def test_the_ts_sdk_asking_servers_exchanges_read_round_by_round(name: str, target: str) -> None:
    import json

    file = json.loads((VECTORS / name).read_text())
    asks, state, said = ASKED[name]
    first = mav.tool_result(file["round1_response"], "t", "u", mav.Registry(), target=target)
    assert not first.is_error and "waiting for input" in repr(first.content)
    pending = first.pending
    assert pending is not None
    assert [(r["key"], r["method"]) for r in pending["requests"]] == asks
    assert pending["requestState"] == state
    for request in pending["requests"]:
        if request["method"] == "sampling/createMessage":
            sampling = mav.sampling_request(request["params"], mav.Registry(), target=target)
            assert sampling.get("tools") == request["params"].get("tools")
            assert sampling.get("toolChoice") == request["params"].get("toolChoice")
            assert "capital of France" in repr(sampling["messages"]) or "umbrella in Paris" in repr(sampling["messages"])
    sent = file["round2_request_params"]
    params = first.retry_params({}, sent["inputResponses"])
    assert params["inputResponses"] == sent["inputResponses"]
    assert params.get("requestState") == sent.get("requestState")
    second = mav.tool_result(file["round2_response"], "t", "u", mav.Registry(), target=target)
    assert second.pending is None and said in repr(second.content)
