"""Captures the vectors `py-sdk-*.2026-07-28.json` in tests/vectors/mcp: the official Python SDK's
client (mcp 2.x) calls bindings/python/tests/asking_server.py (a server written with the same SDK)
over stdio, and every line on the wire is recorded as it went.

    target/venv-python/bin/python tools/capture-asking-server.py

Round by round, as the TypeScript captures are laid out: each call's first request and answer,
then the params the client sent again (the answers and the echoed state) and the last answer.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile
from typing import Any, Dict, List, Optional

import anyio
from mcp import Client, StdioServerParameters, types

from mcp_agent_view import mcp as raw_mcp

ROOT = pathlib.Path(__file__).resolve().parents[1]
SERVER = ROOT / "bindings" / "python" / "tests" / "asking_server.py"
OUT = ROOT / "tests" / "vectors" / "mcp"

# Copies each line between the client and the server into a log, marked with its direction.
TEE = r"""
import subprocess, sys, threading
log = open(sys.argv[1], "a", encoding="utf-8")
lock = threading.Lock()
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def pump(source, sink, mark):
    for line in source:
        with lock:
            log.write(mark + line.decode("utf-8"))
            log.flush()
        sink.write(line)
        sink.flush()
    if mark == ">":
        sink.close()
threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin, ">"), daemon=True).start()
pump(child.stdout, sys.stdout.buffer, "<")
child.wait()
"""


def answer(method: str, params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """What the host answers: an elicitation declined, no roots, and a sampling request with
    tools answered by a call of its first tool (as a model would), one without by a word."""
    if method == "sampling/createMessage":
        tools = params.get("tools") or []
        if tools:
            return {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "call_1", "name": tools[0]["name"], "input": {"city": "Paris"}}],
                "model": "m",
                "stopReason": "toolUse",
            }
        return {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}
    return raw_mcp.answer_plainly(method, params)


# Each vector's name and the asking server's tool it calls.
CASES = {
    "py-sdk-input-required-elicitation-roots": "ask_user",
    "py-sdk-input-required-sampling-tools": "ask_model_with_tools",
    "py-sdk-link-icons-structured-array": "show_link",
}


def lines(log: pathlib.Path) -> List[tuple[str, Dict[str, Any]]]:
    return [(line[0], json.loads(line[1:])) for line in log.read_text(encoding="utf-8").splitlines() if line]


async def capture(name: str, tool: str, log: pathlib.Path) -> Dict[str, Any]:
    log.write_text("")
    server = StdioServerParameters(command=sys.executable, args=["-c", TEE, str(log), sys.executable, str(SERVER)])
    # The callbacks declare the capabilities; under 2026-07-28 the requests come in results,
    # answered by `answer` through call_tool, and these are never called.
    async def unused(*_: Any) -> Any:
        raise AssertionError("a request outside a result")

    async with Client(
        server,
        sampling_callback=unused,
        sampling_capabilities=types.SamplingCapability(tools=types.SamplingToolsCapability()),
        elicitation_callback=unused,
        list_roots_callback=unused,
    ) as client:
        await raw_mcp.call_tool(client, tool, {}, on_input=answer)
    sent = lines(log)
    calls = [m for d, m in sent if d == ">" and m.get("method") == "tools/call"]
    answers = {m["id"]: m for d, m in sent if d == "<" and "id" in m and "method" not in m}
    vector: Dict[str, Any] = {
        "scenario": name,
        "spec_version": "2026-07-28",
        "observed": True,
        "source": (
            "bindings/python/tests/asking_server.py (mcp " + _version() + ", Server with on_call_tool), run over "
            "stdio; client mcp.Client of the same SDK through mcp_agent_view.mcp.call_tool; captured on the wire "
            "by tools/capture-asking-server.py"
        ),
    }
    if len(calls) == 1:
        vector["request"] = calls[0]
        vector["response"] = answers[calls[0]["id"]]
        return vector
    vector["round1_request"] = calls[0]
    vector["round1_response"] = answers[calls[0]["id"]]
    vector["round2_request_params"] = calls[-1]["params"]
    vector["round2_response"] = answers[calls[-1]["id"]]
    return vector


def _version() -> str:
    from importlib.metadata import version

    return version("mcp")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = pathlib.Path(tmp) / "wire.log"
        for name, tool in CASES.items():
            vector = await capture(name, tool, log)
            path = OUT / f"{name}.2026-07-28.json"
            path.write_text(json.dumps(vector, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            print(path.relative_to(ROOT))


if __name__ == "__main__":
    anyio.run(main)
