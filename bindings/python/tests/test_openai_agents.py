"""The OpenAI Agents SDK with and without ``view``: one run on a fake ``Model`` that calls every
case of ``framework_server.py`` in turn, then a second, plain call, then answers; what the model
was given back for each call is checked."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List

import anyio
import pytest

pytest.importorskip("agents")

from agents import Agent, Model, ModelResponse, Runner, Usage  # noqa: E402
from agents.mcp import MCPServerStdio  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402

from mcp_agent_view.integrations.openai_agents import view  # noqa: E402

SERVER = str(Path(__file__).with_name("framework_server.py"))
ASKING = str(Path(__file__).with_name("asking_server.py"))

EXPECTED = {
    "embedded_text": (["The notes say 42."], []),
    "embedded_pdf": (["The PDF:", "[file: application/pdf, "], []),
    "image": (["The chart:"], ["image/png"]),
    "big_image": (["The scan:"], ["image/png"]),
    "audio": (["The clip:", "[audio: audio/wav, "], []),
    "link": (["The report is linked.", "report.pdf"], []),
    "unknown": (["Kept beside the hologram.", "unsupported result type: hologram"], []),
    "is_error": (["The city is unknown."], []),
    "structured": (["temperature", "21"], []),
    "rpc_error": (["rpc_error: the argument is missing"], []),
}
CASES = list(EXPECTED)


class FakeModel(Model):
    """Calls each case in turn, then ``plain``, then answers; keeps every output it was given."""

    def __init__(self) -> None:
        self.turn = 0
        self.outputs: Dict[str, Any] = {}

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        for item in input if isinstance(input, list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                self.outputs[item["call_id"]] = item["output"]
        names = [*CASES, "plain"]
        self.turn += 1
        if self.turn <= len(names):
            name = names[self.turn - 1]
            call = ResponseFunctionToolCall(
                type="function_call", call_id=name, name=name, arguments="{}", id=f"fc_{name}", status="completed"
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        text = ResponseOutputText(type="output_text", text="done", annotations=[])
        message = ResponseOutputMessage(type="message", id="m", role="assistant", status="completed", content=[text])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


async def run(viewed: bool) -> Dict[str, Any]:
    model = FakeModel()
    server = MCPServerStdio(params={"command": sys.executable, "args": [SERVER]}, client_session_timeout_seconds=60)
    async with view(server) if viewed else server:
        agent = Agent(name="a", model=model, mcp_servers=[server])
        result = await Runner.run(agent, "go", max_turns=len(CASES) + 5)
    assert result.final_output == "done"
    return model.outputs


@pytest.fixture(scope="module")
def viewed() -> Dict[str, Any]:
    return anyio.run(run, True)


@pytest.fixture(scope="module")
def as_shipped() -> Dict[str, Any]:
    return anyio.run(run, False)


def text_of(output: Any) -> str:
    """What the model reads of one output, base64 left out."""
    items = output if isinstance(output, list) else [output]
    return json.dumps([{k: v for k, v in i.items() if k != "image_url"} if isinstance(i, dict) else i for i in items])


def media(output: Any) -> List[str]:
    items = output if isinstance(output, list) else [output]
    urls = [i.get("image_url", "") for i in items if isinstance(i, dict) and i.get("type") == "input_image"]
    return [url.split(";")[0].removeprefix("data:") for url in urls]


def faults(case: str, output: Any) -> List[str]:
    """What goes wrong in one case: a uri reaches the model, base64 is in its text (a WAV's
    or a PDF's first bytes), a text is lost."""
    shown = text_of(output)
    found = ["uri shown"] if "SECRET" in shown else []
    found += ["base64 as text"] if "UklGR" in shown or "JVBERi" in shown else []
    return found + (["text lost"] if EXPECTED[case][0][0] not in shown else [])


@pytest.mark.parametrize("case", CASES)
def test_viewed_the_model_reads_every_case_right_and_the_run_goes_on(case: str, viewed: Dict[str, Any]) -> None:
    output = viewed[case]
    assert faults(case, output) == [], output
    shown = text_of(output)
    assert "://" not in shown, shown
    for words in EXPECTED[case][0]:
        assert words in shown, f"{case}: {words!r} not in {shown}"
    assert media(output) == EXPECTED[case][1], case
    if case in ("is_error", "rpc_error"):
        assert "[tool returned an error]" in shown, shown


def test_a_second_call_in_the_same_run_is_read(viewed: Dict[str, Any]) -> None:
    assert "Plain answer." in text_of(viewed["plain"])


def test_without_view_the_sdk_shows_what_its_converter_makes(as_shipped: Dict[str, Any]) -> None:
    """What the SDK does today, case by case (the table in docs/integrations.md); a release that
    fixes a case fails here and the table is updated."""
    today = {case: faults(case, as_shipped[case]) for case in CASES}
    assert {case: found for case, found in today.items() if found} == {
        "embedded_text": ["uri shown"],
        "embedded_pdf": ["uri shown", "base64 as text"],
        "audio": ["base64 as text"],
        "link": ["uri shown"],
        "unknown": ["text lost"],
        "structured": ["text lost"],
        "rpc_error": ["text lost"],
    }


class FetchingModel(FakeModel):
    """Calls ``data_link``, opens the stub it got with ``fetch_reference``, then an unknown id."""

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        for item in input if isinstance(input, list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                self.outputs[item["call_id"]] = item["output"]
        ref_id = re.search(r"ref_[a-z0-9]{13}", json.dumps(self.outputs))
        calls = [("data_link", {}), ("fetch_reference", {"ref_id": ref_id and ref_id.group(0)})]
        calls.append(("fetch_reference", {"ref_id": "ref_0000000000000"}))
        self.turn += 1
        if self.turn <= len(calls):
            name, args = calls[self.turn - 1]
            call = ResponseFunctionToolCall(
                type="function_call",
                call_id=f"c{self.turn - 1}",
                name=name,
                arguments=json.dumps(args),
                id=f"fc{self.turn}",
                status="completed",
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        text = ResponseOutputText(type="output_text", text="done", annotations=[])
        message = ResponseOutputMessage(type="message", id="m", role="assistant", status="completed", content=[text])
        return ModelResponse(output=[message], usage=Usage(), response_id=None)


def test_with_a_fetcher_the_model_opens_a_link_through_the_fetch_tool() -> None:
    from mcp_agent_view.fetch import Fetcher, Policy

    async def go() -> Dict[str, Any]:
        model = FetchingModel()
        server = MCPServerStdio(params={"command": sys.executable, "args": [SERVER]}, client_session_timeout_seconds=60)
        async with view(server, fetcher=Fetcher(Policy(allow_schemes=["data"]))):
            assert "fetch_reference" in [tool.name for tool in await server.list_tools()]
            result = await Runner.run(Agent(name="a", model=model, mcp_servers=[server]), "go", max_turns=8)
        assert result.final_output == "done"
        return model.outputs

    outputs = anyio.run(go)
    stub, fetched, refused = (json.dumps(outputs[f"c{n}"]) for n in range(3))
    assert re.search(r"words\.txt .*fetch with fetch_reference", stub), stub
    assert "The linked words." in fetched, fetched
    assert "tool returned an error" in refused and "fetch_reference failed: unknown reference" in refused, refused
    for shown in (stub, fetched, refused):
        assert "data:text" not in shown, shown


def test_a_server_that_asks_first_is_answered_by_on_input() -> None:
    """A 2026-07-28 server (the official SDK's, ``asking_server.py``) asks the client's model
    before it answers: ``on_input`` answers, and the call completes; without it the package
    answers plainly (no sampling), and the model reads why the call failed."""
    asked: List[str] = []

    def on_input(method: str, params: Dict[str, Any]) -> Any:
        asked.append(method)
        if method == "sampling/createMessage":
            return {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}
        return None

    async def run(**options: Any) -> Any:
        server = view(MCPServerStdio(params={"command": sys.executable, "args": [ASKING]}), **options)
        await server.connect()
        try:
            return await server.call_tool("ask_model", {})
        finally:
            await server.cleanup()

    answered = anyio.run(lambda: run(on_input=on_input))
    assert asked == ["sampling/createMessage"]
    assert [block.text for block in answered.content] == ["The model said: Paris"]
    plain = anyio.run(lambda: run())
    assert "sampling/createMessage" in plain.content[0].text and "does not answer" in plain.content[0].text
    with pytest.raises(TypeError, match="on_input"):
        view(MCPServerStdio(params={"command": sys.executable, "args": [ASKING]}), on_input=5)  # type: ignore[arg-type]
