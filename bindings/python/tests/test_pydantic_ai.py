"""pydantic-ai with and without ``view``: each case of ``framework_server.py`` called by an agent
run on pydantic-ai's own test model (``FunctionModel``), then a second call in the same run, and
what the model received checked."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, List, Optional, Tuple

import anyio
import pytest

pytest.importorskip("pydantic_ai")

from fastmcp.client.transports import StdioTransport  # noqa: E402
from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.mcp import MCPToolset  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from mcp_agent_view.integrations.pydantic_ai import view  # noqa: E402

SERVER = str(Path(__file__).with_name("framework_server.py"))


def toolset() -> MCPToolset[Any]:
    return MCPToolset(StdioTransport(command=sys.executable, args=[SERVER]))


def run(case: str, viewed: bool) -> Tuple[Optional[BaseException], List[Any]]:
    """Runs an agent that calls ``case``, then ``plain``, then answers. Returns the run's error
    (None where it finished) and the parts the model received back for ``case``."""
    received: List[Any] = []

    def model(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls = sum(isinstance(m, ModelResponse) for m in messages)
        if calls == 0:
            return ModelResponse(parts=[ToolCallPart(tool_name=case, args={}, tool_call_id="c1")])
        if calls == 1:
            last = messages[-1]
            assert isinstance(last, ModelRequest)
            received.extend(last.parts)
            return ModelResponse(parts=[ToolCallPart(tool_name="plain", args={}, tool_call_id="c2")])
        return ModelResponse(parts=[TextPart("done")])

    tools = view(toolset()) if viewed else toolset()
    agent = Agent(FunctionModel(model), toolsets=[tools])
    try:
        result = anyio.run(agent.run, "go")
        assert result.output == "done"
        return None, received
    except Exception as e:  # noqa: BLE001 - what the run raised is what is checked
        return e, received


def content(parts: List[Any]) -> List[Any]:
    """The content of the tool return parts (a list, whatever pydantic-ai made of it), and the
    text of any other part."""
    out: List[Any] = []
    for part in parts:
        if isinstance(part, ToolReturnPart):
            value = part.content
            out.extend(value if isinstance(value, list) else [value])
        else:
            out.append(getattr(part, "content", part))
    return out


def text_of(parts: List[Any]) -> str:
    return repr([p for p in content(parts) if not isinstance(p, BinaryContent)]) + repr(
        [getattr(p, "media_type", "") for p in content(parts) if isinstance(p, BinaryContent)]
    )


def media(parts: List[Any]) -> List[str]:
    return [p.media_type for p in content(parts) if isinstance(p, BinaryContent)]


CASES = ["embedded_text", "embedded_pdf", "image", "audio", "link", "unknown", "is_error", "structured", "rpc_error", "big_image"]


EXPECTED = {
    "embedded_text": (["The notes say 42."], []),
    "embedded_pdf": (["The PDF:"], ["application/pdf"]),
    "image": (["The chart:"], ["image/png"]),
    "big_image": (["The scan:"], ["image/png"]),
    "audio": (["The clip:"], ["audio/wav"]),
    "link": (["The report is linked.", "report.pdf"], []),
    "unknown": (["Kept beside the hologram.", "unsupported result type: hologram"], []),
    "is_error": (["The city is unknown."], []),
    "structured": (["temperature", "21"], []),
    "rpc_error": (["rpc_error: the argument is missing"], []),
}


def faults(case: str, error: Optional[BaseException], parts: List[Any]) -> List[str]:
    """What goes wrong in one case: the run ends, a uri reaches the model, a text is lost."""
    if error is not None:
        return ["run ends"]
    shown = text_of(parts)
    found = ["uri shown"] if "SECRET" in shown else []
    return found + (["text lost"] if any(words not in shown for words in EXPECTED[case][0][:1]) else [])


@pytest.mark.parametrize("case", CASES)
def test_viewed_the_model_reads_every_case_right_and_the_run_goes_on(case: str) -> None:
    error, parts = run(case, viewed=True)
    assert faults(case, error, parts) == [], f"{case}: {error!r} {parts!r}"
    shown = text_of(parts)
    assert "SECRET" not in shown and "://" not in shown, shown
    expected = EXPECTED[case]
    for words in expected[0]:
        assert words in shown, f"{case}: {words!r} not in {shown}"
    assert media(parts) == expected[1], case
    if case in ("is_error", "rpc_error"):
        assert any(isinstance(p, ToolReturnPart) and p.outcome == "failed" for p in parts), parts


def test_without_view_pydantic_ai_shows_what_its_converter_makes() -> None:
    """What pydantic-ai does today, case by case, so that the table in docs/integrations.md
    comes from a test; a release that fixes a case fails here and the table is updated."""
    today = {case: faults(case, *run(case, viewed=False)) for case in CASES}
    assert {case: found for case, found in today.items() if found} == {
        "link": ["uri shown"],
        "unknown": ["uri shown", "text lost"],
    }


def test_with_a_fetcher_the_model_opens_a_link_through_the_fetch_tool() -> None:
    from mcp_agent_view.fetch import Fetcher, Policy

    received: List[List[Any]] = []

    def model(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls = sum(isinstance(m, ModelResponse) for m in messages)
        if calls > 0:
            last = messages[-1]
            assert isinstance(last, ModelRequest)
            received.append(list(last.parts))
        if calls == 0:
            assert "fetch_reference" in [tool.name for tool in info.function_tools]
            return ModelResponse(parts=[ToolCallPart(tool_name="data_link", args={}, tool_call_id="c0")])
        if calls == 1:
            ref_id = re.search(r"ref_[a-z0-9]{13}", text_of(received[0]))
            assert ref_id is not None, received
            return ModelResponse(parts=[ToolCallPart("fetch_reference", {"ref_id": ref_id.group(0)}, "c1")])
        if calls == 2:
            return ModelResponse(parts=[ToolCallPart("fetch_reference", {"ref_id": "ref_0000000000000"}, "c2")])
        return ModelResponse(parts=[TextPart("done")])

    tools = view(toolset(), fetcher=Fetcher(Policy(allow_schemes=["data"])))
    result = anyio.run(Agent(FunctionModel(model), toolsets=[tools]).run, "go")
    assert result.output == "done"
    stub, fetched, refused = (text_of(parts) for parts in received)
    assert re.search(r"words\.txt .*fetch with fetch_reference", stub), stub
    assert "The linked words." in fetched, fetched
    assert "fetch_reference failed: unknown reference" in refused, refused
    assert any(isinstance(p, ToolReturnPart) and p.outcome == "failed" for p in received[2]), received[2]
    for shown in (stub, fetched, refused):
        assert "data:text" not in shown, shown


def test_view_checks_its_options() -> None:
    with pytest.raises(TypeError, match="fetcher is a mcp_agent_view.fetch.Fetcher"):
        view(toolset(), fetcher="https")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="registry is a mcp_agent_view.Registry"):
        view(toolset(), registry=5)  # type: ignore[arg-type]
