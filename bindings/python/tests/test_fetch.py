"""``mcp_agent_view.fetch`` over the crate's HTTP transport against a server on loopback: what
the policy allows arrives verified and shown as content; what it refuses is a failed call that
names the reason and never the uri; the interpreter runs on while a fetch waits."""

from __future__ import annotations

import http.server
import os
import re
import threading
import time

import pytest

import mcp_agent_view as mav
from mcp_agent_view import fetch

REPORT = b"Quarterly figures: all green."
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/slow.txt":
            time.sleep(1.0)
        body, kind = {"/report.txt": (REPORT, "text/plain"), "/slow.txt": (REPORT, "text/plain"),
                      "/dot.png": (PNG, "image/png")}.get(self.path, (b"", ""))
        if not kind:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def origin():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def stub(registry, uri, mime="text/plain", **extra):
    """The id of the stub a resource link to ``uri`` becomes."""
    link = {"type": "resource_link", "uri": uri, "name": uri.rsplit("/", 1)[-1], "mimeType": mime, **extra}
    shown = mav.tool_result({"content": [link]}, "links", "toolu_0", registry)
    assert uri not in str(shown.content)
    return re.search(r"ref_[0-9a-z]{13}", shown.content[0]["text"]).group(0)


def loopback(origin, **settings):
    return fetch.Fetcher(fetch.Policy(allow_schemes=["http"], allow_origins=[origin], **settings))


def test_text_arrives_as_text(origin):
    registry = mav.Registry(seed=7, fetch_tool="fetch_reference")
    ref = stub(registry, f"{origin}/report.txt")
    result = loopback(origin).fetch_reference({"ref_id": ref}, "toolu_1", registry)
    assert (result.tool_use_id, result.name, result.is_error) == ("toolu_1", "fetch_reference", False)
    assert {"type": "text", "text": REPORT.decode()} in result.content
    assert registry.lookup(ref)["verified"] is not None
    # The input may be the arguments' JSON text, and the id in its brackets.
    again = loopback(origin).fetch_reference(f'{{"ref_id": "[{ref}]"}}', "toolu_2", registry)
    assert {"type": "text", "text": REPORT.decode()} in again.content


def test_an_image_arrives_as_media_in_the_target_s_shape(origin):
    registry = mav.Registry(seed=7)
    ref = stub(registry, f"{origin}/dot.png", "image/png")
    anthropic = loopback(origin).fetch_reference({"ref_id": ref}, "toolu_1", registry)
    assert anthropic.content[0]["type"] == "image"
    assert anthropic.content[0]["source"]["media_type"] == "image/png"
    responses = loopback(origin).fetch_reference({"ref_id": ref}, "toolu_1", registry, target="openai-responses")
    assert responses.content[0]["type"] == "input_image"


@pytest.mark.parametrize(
    "fetcher, reason",
    [
        (lambda o: fetch.Fetcher(), "scheme is not allowed (allowed: https)"),
        (lambda o: fetch.Fetcher(fetch.Policy(allow_schemes=["http"])), "address is not public"),
        (lambda o: loopback(o, max_bytes=4), "over the ceiling: more than 4 bytes"),
    ],
)
def test_a_refusal_names_the_reason_and_never_the_uri(origin, fetcher, reason):
    registry = mav.Registry(seed=7)
    ref = stub(registry, f"{origin}/report.txt")
    result = fetcher(origin).fetch_reference({"ref_id": ref}, "toolu_1", registry)
    assert result.is_error
    text = result.content[0]["text"]
    assert reason in text and ref in text
    assert "127.0.0.1" not in text and "report.txt" not in text


def test_a_missing_page_and_an_unknown_id_are_failed_calls(origin):
    registry = mav.Registry(seed=7)
    ref = stub(registry, f"{origin}/gone.txt")
    gone = loopback(origin).fetch_reference({"ref_id": ref}, "toolu_1", registry)
    assert gone.is_error and "404" in gone.content[0]["text"]
    unknown = loopback(origin).fetch_reference({"ref_id": "ref_0000000000000"}, "toolu_2", registry)
    assert unknown.is_error and "unknown reference" in unknown.content[0]["text"]
    no_id = loopback(origin).fetch_reference({}, "toolu_3", registry)
    assert no_id.is_error and "needs a ref_id" in no_id.content[0]["text"]


def test_the_interpreter_runs_while_a_fetch_waits(origin):
    registry = mav.Registry(seed=7)
    ref = stub(registry, f"{origin}/slow.txt")
    done = []
    worker = threading.Thread(target=lambda: done.append(loopback(origin).fetch_reference({"ref_id": ref}, "t", registry)))
    worker.start()
    spins = 0
    while worker.is_alive():
        spins += 1
    worker.join()
    assert not done[0].is_error
    # A second of waiting held with the interpreter would leave this loop a handful of turns.
    assert spins > 10_000


def test_policy_arguments_are_checked():
    with pytest.raises(mav.Error) as bad:
        fetch.Policy(origin="not a url")
    assert bad.value.kind == "Policy"
    with pytest.raises(mav.Error, match="allow_files_under") as bad:
        fetch.Policy(allow_schemes=["file"])
    assert bad.value.kind == "Policy"
    with pytest.raises(mav.Error, match="not a scheme"):
        fetch.Policy(allow_schemes=["ht tp"])
    with pytest.raises(ValueError, match="seconds"):
        fetch.Policy(timeout=-1)
    assert "secret" not in repr(fetch.Policy(bearer="secret"))
    assert fetch.Policy(max_bytes=10).max_bytes == 10
    with pytest.raises(mav.Error) as tool:
        mav.Registry(fetch_tool="no spaces allowed")
    assert tool.value.kind == "ToolName"


def test_the_tool_definition_in_every_shape():
    assert fetch.tool_definition("anthropic")["input_schema"]["required"] == ["ref_id"]
    assert fetch.tool_definition("openai-chat", name="get_ref")["function"]["name"] == "get_ref"
    assert fetch.tool_definition("openai-responses")["name"] == "fetch_reference"
    with pytest.raises(ValueError, match="anthropic"):
        fetch.tool_definition("gemini")


def test_a_hard_link_under_the_directory_is_read_only_when_allowed(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (tmp_path / "secret.txt").write_text("outside")
    (shared / "notes.txt").write_text("under")
    os.link(tmp_path / "secret.txt", shared / "linked.txt")
    registry = mav.Registry(seed=7)
    notes = stub(registry, (shared / "notes.txt").as_uri())
    linked = stub(registry, (shared / "linked.txt").as_uri())
    under = fetch.Fetcher(fetch.Policy(allow_files_under=shared))
    assert {"type": "text", "text": "under"} in under.fetch_reference({"ref_id": notes}, "t", registry).content
    refused = under.fetch_reference({"ref_id": linked}, "t", registry)
    assert refused.is_error and "more than one link" in refused.content[0]["text"]
    allowed = fetch.Fetcher(fetch.Policy(allow_files_under=shared, allow_hard_links=True))
    assert {"type": "text", "text": "outside"} in allowed.fetch_reference({"ref_id": linked}, "t", registry).content
