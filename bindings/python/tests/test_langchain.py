"""LangChain's MCP adapters with and without ``view``: each case of ``framework_server.py`` called
by a tool loop on LangChain's own fake chat model, then a second call in the same run, and what
the model was given checked. The adapters pin the ``mcp`` SDK below 2, so this runs in a venv of
its own (``bindings/python/run-tests``); the server runs under the SDK 2.x of the package's venv
(``FRAMEWORK_SERVER_PYTHON``)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import anyio
import pytest

pytest.importorskip("langchain_mcp_adapters")

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_mcp_adapters.client import MultiServerMCPClient  # noqa: E402

from mcp_agent_view.integrations.langchain import view  # noqa: E402

SERVER = str(Path(__file__).with_name("framework_server.py"))
PYTHON = os.environ.get("FRAMEWORK_SERVER_PYTHON", sys.executable)


def client() -> MultiServerMCPClient:
    return MultiServerMCPClient({"cases": {"command": PYTHON, "args": [SERVER], "transport": "stdio"}})


def call(name: str, id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": {}, "id": id, "type": "tool_call"}])


Outcome = Tuple[Optional[BaseException], Optional[ToolMessage]]


async def loop(viewed: bool) -> Dict[str, Outcome]:
    """One tool loop through every case: the fake model calls each case in turn, then
    ``plain``, then answers; each tool message goes back into the history it is given. A tool
    that raises ends a loop; here it is recorded as the end of that case's run and the next
    case goes on, as a run of its own would."""
    tools = {tool.name: tool for tool in await (view(client()) if viewed else client()).get_tools()}
    calls = [call(case, case) for case in [*CASES, "plain"]]
    model = FakeMessagesListChatModel(responses=[*calls, AIMessage(content="done")])
    history: List[BaseMessage] = [HumanMessage(content="go")]
    outcomes: Dict[str, Outcome] = {}
    while True:
        answer = await model.ainvoke(history)
        history.append(answer)
        if not isinstance(answer, AIMessage) or not answer.tool_calls:
            assert answer.content == "done"
            return outcomes
        for tool_call in answer.tool_calls:
            try:
                message = await tools[tool_call["name"]].ainvoke({**tool_call, "type": "tool_call"})
            except Exception as e:  # noqa: BLE001 - what the tool raised is what is checked
                outcomes[tool_call["name"]] = (e, None)
                history.append(ToolMessage(content="(the run ended here)", tool_call_id=tool_call["id"]))
                continue
            assert isinstance(message, ToolMessage)
            outcomes[tool_call["name"]] = (None, message)
            history.append(message)


@pytest.fixture(scope="module")
def viewed() -> Dict[str, Outcome]:
    return anyio.run(loop, True)


@pytest.fixture(scope="module")
def as_shipped() -> Dict[str, Outcome]:
    return anyio.run(loop, False)


def blocks(message: ToolMessage) -> List[Dict[str, Any]]:
    content = message.content
    return [{"type": "text", "text": content}] if isinstance(content, str) else [
        b if isinstance(b, dict) else {"type": "text", "text": b} for b in content
    ]


def text_of(message: ToolMessage) -> str:
    """What the model reads of the message, base64 left out."""
    return repr([{k: v for k, v in b.items() if k not in ("base64", "data")} for b in blocks(message)])


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
CASES = list(EXPECTED)


def faults(case: str, error: Optional[BaseException], message: Optional[ToolMessage]) -> List[str]:
    """What goes wrong in one case: the run ends, a uri reaches the model, a text is lost."""
    if error is not None or message is None:
        return ["run ends"]
    shown = text_of(message)
    found = ["uri shown"] if "SECRET" in shown else []
    return found + (["text lost"] if EXPECTED[case][0][0] not in shown else [])


@pytest.mark.parametrize("case", CASES)
def test_viewed_the_model_reads_every_case_right_and_the_run_goes_on(case: str, viewed: Dict[str, Outcome]) -> None:
    error, message = viewed[case]
    assert faults(case, error, message) == [], f"{case}: {error!r} {message!r}"
    assert message is not None
    shown = text_of(message)
    assert "://" not in shown, shown
    for words in EXPECTED[case][0]:
        assert words in shown, f"{case}: {words!r} not in {shown}"
    media = [b.get("mime_type") for b in blocks(message) if b["type"] in ("image", "file", "audio")]
    assert media == EXPECTED[case][1], (case, media)
    assert (message.status == "error") == (case in ("is_error", "rpc_error")), message.status
    if case == "structured":
        assert message.artifact == {"structured_content": {"temperature": 21, "unit": "C"}}


def test_a_second_call_in_the_same_run_is_read(viewed: Dict[str, Outcome]) -> None:
    error, message = viewed["plain"]
    assert error is None and message is not None and "Plain answer." in text_of(message)


def test_without_view_the_adapters_show_what_their_converter_makes(as_shipped: Dict[str, Outcome]) -> None:
    """What the adapters do today, case by case (the table in docs/integrations.md); a release
    that fixes a case fails here and the table is updated."""
    today = {case: faults(case, *as_shipped[case]) for case in CASES}
    assert {case: found for case, found in today.items() if found} == {
        "audio": ["run ends"],
        "link": ["uri shown"],
        "unknown": ["run ends"],
        "structured": ["text lost"],
        "rpc_error": ["run ends"],
    }


def test_with_a_fetcher_the_model_opens_a_link_through_the_fetch_tool() -> None:
    from mcp_agent_view.fetch import Fetcher, Policy

    async def go() -> List[ToolMessage]:
        viewed = view(client(), fetcher=Fetcher(Policy(allow_schemes=["data"])))
        tools = {tool.name: tool for tool in await viewed.get_tools()}
        assert len(await viewed.get_tools()) == len(tools)

        async def call(name: str, id: str, args: Dict[str, Any]) -> ToolMessage:
            message = await tools[name].ainvoke({"name": name, "args": args, "id": id, "type": "tool_call"})
            assert isinstance(message, ToolMessage)
            return message

        stub = await call("data_link", "c0", {})
        ref_id = re.search(r"ref_[a-z0-9]{13}", text_of(stub))
        assert ref_id is not None, text_of(stub)
        fetched = await call("fetch_reference", "c1", {"ref_id": ref_id.group(0)})
        refused = await call("fetch_reference", "c2", {"ref_id": "ref_0000000000000"})
        return [stub, fetched, refused]

    stub, fetched, refused = anyio.run(go)
    assert re.search(r"words\.txt .*fetch with fetch_reference", text_of(stub)), text_of(stub)
    assert "The linked words." in text_of(fetched) and fetched.status == "success", fetched
    assert "fetch_reference failed: unknown reference" in text_of(refused) and refused.status == "error", refused
    for message in (stub, fetched, refused):
        assert "data:text" not in text_of(message), text_of(message)
