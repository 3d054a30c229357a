"""``examples/quickstart_client.py`` against a fake Messages API on loopback and the stdio MCP
server of the Rust tool-loop test (``tests/support/tool-loop-server.mjs``), over the scenarios the
official quickstart clients got wrong, then the official quickstart tool-loop script (parallel
calls, a call to a tool the server lacks, a final answer). Every request is checked."""

from __future__ import annotations

import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading
from typing import Any, Dict, List

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLIENT = ROOT / "bindings" / "python" / "examples" / "quickstart_client.py"
SERVER = ROOT / "tests" / "support" / "tool-loop-server.mjs"
SECRET = "s3cret-t0ken"

SCENARIOS = {
    "rejected beside good": ["reject", "weather"],
    "structured only": ["structured"],
    "image only": ["image"],
    "embedded text": ["embedded_text"],
    "embedded pdf": ["embedded_pdf"],
    "mixed": ["mixed"],
    "audio": ["audio"],
    "link": ["link"],
    "unknown beside text": ["unknown"],
    "is error": ["is_error"],
}
# The official tool-loop test's script: two calls at once, then a tool nobody has, then text.
OFFICIAL = "What is the weather like?"


ASKS = "What does the server ask?"
ASKING_SERVER = pathlib.Path(__file__).with_name("asking_server.py")


def reply_to(request: Dict[str, Any]) -> List[Dict[str, Any]]:
    messages = request["messages"]
    if "tools" not in request:  # the server's sampling request, through the same API
        return [{"type": "text", "text": "Paris"}]
    # The query is the last user message that is text; the rounds, the model's turns since.
    start = max(i for i, m in enumerate(messages) if isinstance(m["content"], str))
    query = messages[start]["content"]
    rounds = sum(1 for m in messages[start:] if m["role"] == "assistant")
    if query == OFFICIAL:
        script = [
            [{"type": "text", "text": "Checking two things."},
             {"type": "tool_use", "id": "tu_1", "name": "weather", "input": {"city": "Sacramento"}},
             {"type": "tool_use", "id": "tu_2", "name": "structured", "input": {}}],
            [{"type": "tool_use", "id": "tu_3", "name": "no_such_tool", "input": {}}],
            [{"type": "text", "text": "All done."}],
        ]
        return script[rounds]
    if query == ASKS:
        uses = [{"type": "tool_use", "id": f"ask_{k}", "name": name, "input": {}} for k, name in enumerate(["ask_user", "ask_model"])]
        return [[{"type": "text", "text": "asking"}, *uses], [{"type": "text", "text": f"done: {query}"}]][rounds]
    if rounds == 0:
        s = list(SCENARIOS).index(query)
        uses = [{"type": "tool_use", "id": f"toolu_{s}_{k}", "name": tool, "input": {"city": "Paris"}}
                for k, tool in enumerate(SCENARIOS[query])]
        return [{"type": "text", "text": f"calling for {query}"}, *uses]
    return [{"type": "text", "text": f"done: {query}"}]


@pytest.fixture()
def fake_api():
    requests: List[Dict[str, Any]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(request)
            content = reply_to(request)
            stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
            body = json.dumps({"id": f"msg_{len(requests)}", "type": "message", "role": "assistant",
                               "model": request["model"], "content": content, "stop_reason": stop,
                               "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", requests
    server.shutdown()


def run_client(base: str, queries: List[str], *server: str, key: str = "test-key") -> subprocess.CompletedProcess:
    env = {**os.environ, "ANTHROPIC_BASE_URL": base, "ANTHROPIC_API_KEY": key, "ANTHROPIC_MODEL": "claude-test"}
    stdin = "".join(f"{q}\n" for q in queries)
    return subprocess.run([sys.executable, str(CLIENT), *server], input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)


def no_empty_text(value: Any) -> None:
    if isinstance(value, dict):
        if value.get("type") == "text":
            assert str(value.get("text", "")).strip(), value
        for item in value.values():
            no_empty_text(item)
    elif isinstance(value, list):
        for item in value:
            no_empty_text(item)


def check_result(query: str, tool: str, result: Dict[str, Any]) -> None:
    content = result["content"]
    assert content, (query, tool)
    kinds = [b["type"] for b in content]
    texts = [b["text"] for b in content if "text" in b]
    error = result.get("is_error") is True
    assert set(kinds) <= {"text", "image", "document"}, (query, kinds)
    expected = {
        "reject": lambda: error and texts == ["Tool call reject failed: Invalid arguments: city is required"],
        "weather": lambda: texts == ["22.5 C and sunny"],
        "structured": lambda: texts == ['{"temperature":22.5,"conditions":"Sunny"}'],  # as sent
        "image": lambda: kinds == ["image"],
        "embedded_text": lambda: texts == ["the notes body"],
        "embedded_pdf": lambda: kinds == ["document"],
        "mixed": lambda: kinds == ["text", "image", "text"] and texts == ["mixed text", "mixed resource text"],
        "audio": lambda: texts[0].startswith("[audio: audio/wav"),
        "link": lambda: texts[0].startswith("[ref_") and "report.pdf" in texts[0],
        "unknown": lambda: texts == ["[unsupported result type: hologram]", "kept sibling"],
        "is_error": lambda: error and texts == ["it broke"],
    }[tool]
    assert expected(), (query, tool, result)
    if tool not in ("reject", "is_error"):
        assert not error, (query, tool)


def check_request(request: Dict[str, Any]) -> None:
    text = json.dumps(request)
    assert SECRET not in text and "file://" not in text and "files.example.com" not in text, text
    assert request["model"] == "claude-test"
    assert request["max_tokens"] == 10000
    names = [tool["name"] for tool in request["tools"]]
    assert len(names) == 11 and "fetch_reference" not in names, names
    assert request["tools"][0]["input_schema"]["type"] == "object"
    no_empty_text(request["messages"])


def last_turn(request: Dict[str, Any]):
    asked, results = request["messages"][-2:]
    assert asked["role"] == "assistant" and results["role"] == "user"
    uses = [b["id"] for b in asked["content"] if b["type"] == "tool_use"]
    assert all(b["type"] == "tool_result" for b in results["content"])
    assert [b["tool_use_id"] for b in results["content"]] == uses, "one tool_result per tool_use, in one message"
    return results["content"]


@pytest.mark.parametrize("server", [["node", str(SERVER)], [str(SERVER.with_suffix(".js"))]],
                         ids=["command", "script path"])
def test_every_call_of_every_scenario_is_answered(fake_api, server, tmp_path):
    base, requests = fake_api
    if server[0].endswith(".js"):  # the quickstart's form: a lone script path, run with node
        script = tmp_path / "tool-loop-server.js"
        script.write_text(SERVER.read_text())
        server = [str(script)]
    out = run_client(base, [*SCENARIOS, "quit"], *server)
    assert out.returncode == 0, out.stderr + out.stdout
    for query in SCENARIOS:
        assert f"done: {query}" in out.stdout, out.stdout
    assert len(requests) == 2 * len(SCENARIOS)
    for request in requests:
        check_request(request)
    for s, (query, tools) in enumerate(SCENARIOS.items()):
        results = last_turn(requests[2 * s + 1])
        assert len(results) == len(tools)
        for result, tool in zip(results, tools):
            check_result(query, tool, result)


def test_the_official_tool_loop_script(fake_api):
    base, requests = fake_api
    out = run_client(base, [OFFICIAL, "quit"], "node", str(SERVER))
    assert out.returncode == 0, out.stderr + out.stdout
    assert "All done." in out.stdout
    assert len(requests) == 3
    for request in requests:
        check_request(request)
    assert [m["role"] for m in requests[0]["messages"]] == ["user"]
    first = last_turn(requests[1])
    assert len(requests[1]["messages"]) == 3
    assert [r.get("is_error", False) for r in first] == [False, False]
    assert all(r["content"] and r["content"][0]["text"] for r in first)
    (missing,) = last_turn(requests[2])
    assert len(requests[2]["messages"]) == 5
    assert missing["tool_use_id"] == "tu_3" and missing["is_error"] is True


def test_a_server_that_asks_before_it_answers(fake_api):
    """Revision 2026-07-28: an elicitation declined, no roots, and the sampling request through
    the same Messages API, one level deep, its system prompt as the server's words."""
    base, requests = fake_api
    out = run_client(base, [ASKS, "quit"], sys.executable, str(ASKING_SERVER))
    assert out.returncode == 0, out.stderr + out.stdout
    assert f"done: {ASKS}" in out.stdout, out.stdout
    (sampling,) = [r for r in requests if "tools" not in r]
    assert sampling["max_tokens"] == 20
    assert sampling["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "[the requesting server's instructions] Answer in one word."}]},
        {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]},
    ]
    assert "system" not in sampling
    final = [r for r in requests if "tools" in r][-1]
    results = last_turn(final)
    assert [r["content"][0]["text"] for r in results] == [
        "login: decline; roots: 0; state: state-1",
        "The model said: Paris",
    ]
    assert not any(r.get("is_error") for r in results)


def test_without_a_key_it_lists_the_tools_and_stops(fake_api):
    base, requests = fake_api
    out = run_client(base, ["hello"], "node", str(SERVER), key="")
    assert out.returncode == 0, out.stderr
    assert "No ANTHROPIC_API_KEY" in out.stdout and "'weather'" in out.stdout
    assert requests == []


def test_bad_arguments_are_one_line_and_a_non_zero_exit(fake_api):
    base, _ = fake_api
    usage = run_client(base, [])
    assert usage.returncode == 2 and usage.stderr.strip().count("\n") == 0 and "usage" in usage.stderr
    missing = run_client(base, [], "/no/such/server-binary")
    assert missing.returncode == 1 and missing.stderr.strip().count("\n") == 0, missing.stderr
