"""The package against the crate's CLI: every vector through every function and target gives
what the Rust library gives for the same seed; every input form alike; errors; threads."""

from __future__ import annotations

import json
import pathlib
import pickle
import re
import subprocess
import sys
import threading

import pytest

import mcp_agent_view as mav

ROOT = pathlib.Path(__file__).resolve().parents[3]
FILES = sorted((ROOT / "tests" / "vectors" / "mcp").glob("*.json"))
KEYS = ["response", "value", "final_tool_result", "round1_response", "round2_response", "client_stub_response"]


def messages_of(path: pathlib.Path):
    """The MCP messages a vector file holds, as tests/vectors.rs reads them."""
    file = json.loads(path.read_bytes())
    if not isinstance(file, dict):
        return
    for key in KEYS:
        if key in file:
            yield f"{path.stem}:{key}", json.dumps(file[key], ensure_ascii=False).encode()
    for i, case in enumerate(file.get("cases") or []):
        if isinstance(case, dict) and "value" in case:
            yield f"{path.stem}:cases[{i}]", json.dumps(case["value"], ensure_ascii=False).encode()


VECTORS = [message for path in FILES for message in messages_of(path)]
TARGETS = ["neutral", "anthropic", "openai-chat", "openai-responses"]
SEED = 7


def cli_binary() -> pathlib.Path:
    binary = ROOT / "target" / "debug" / "mcp-agent-view"
    if not binary.exists():
        subprocess.run(["cargo", "build", "-q"], cwd=ROOT, check=True)
    return binary


CLI = cli_binary()


def cli(*args: str, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([str(CLI), *args, "--seed", str(SEED)], input=stdin, capture_output=True, check=False)


def test_there_are_vectors():
    assert len(FILES) > 50
    assert len(VECTORS) > len(FILES)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v[0])
def test_every_vector_reads_as_the_crate_reads_it(vector):
    data = vector[1]
    shown = cli("history", stdin=data)
    if shown.returncode != 0:
        with pytest.raises(mav.Error):
            mav.history(data, mav.Registry(seed=SEED))
        return
    assert mav.history(data, mav.Registry(seed=SEED)) == shown.stdout.decode().removesuffix("\n")
    classified = [json.loads(line) for line in cli("classify", stdin=data).stdout.decode().splitlines()]
    assert mav.classify(data) == classified
    for target in TARGETS:
        blocks = json.loads(cli("blocks", "--target", target, stdin=data).stdout)
        assert mav.convert(data, mav.Registry(seed=SEED), target=target).content == blocks, target
        script = json.loads(cli("script", "--target", target, stdin=data).stdout)
        assert mav.script(data, mav.Registry(seed=SEED), target=target) == script, target
        out = json.loads(cli("tool-result", "--name", "t", "--id", "toolu_1", "--target", target, stdin=data).stdout)
        result = mav.tool_result(data, "t", "toolu_1", mav.Registry(seed=SEED), target=target)
        assert mav.tool_result_messages([result], target=target) == out["messages"], target
        assert result.held_for_user == out["heldForUser"], target
        prompt = json.loads(cli("prompt", "--target", target, stdin=data).stdout)
        assert mav.prompt_messages(data, mav.Registry(seed=SEED), target=target) == prompt, target


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v[0])
def test_every_input_form_reads_alike(vector):
    data = vector[1]
    try:
        value = json.loads(data)
    except ValueError:
        return
    forms = [data, data.decode(), value, bytearray(data), memoryview(data)]
    readings = []
    for form in forms:
        try:
            readings.append(mav.tool_result_messages([mav.tool_result(form, "t", "toolu_1", mav.Registry(seed=SEED))]))
        except mav.Error as e:  # pragma: no cover - tool_result never fails on the message
            readings.append(e.kind)
    assert all(reading == readings[0] for reading in readings[1:])
    # And the history lane, which fails where the message is none.
    histories = []
    for form in forms:
        try:
            histories.append(mav.history(form, mav.Registry(seed=SEED)))
        except mav.Error as e:
            histories.append(e.kind)
    assert all(history == histories[0] for history in histories[1:])


def test_errors_name_their_kind_and_place():
    with pytest.raises(mav.Error) as caught:
        mav.history('{"content": [}', mav.Registry())
    assert caught.value.kind == "Json"
    assert caught.value.line == 1 and caught.value.column is not None
    assert isinstance(caught.value, ValueError)
    with pytest.raises(mav.Error) as caught:
        mav.history("42", mav.Registry())
    assert caught.value.kind == "UnrecognizedMessage"
    with pytest.raises(mav.Error, match="openai-chat") as caught:
        mav.convert("[]", mav.Registry(), target="gemini")
    assert caught.value.kind == "UnknownProvider"
    with pytest.raises(mav.Error, match="push-event") as caught:
        mav.history("[]", mav.Registry(), provenance="push")
    assert caught.value.kind == "UnknownProvenance"
    with pytest.raises(mav.Error, match="unknown reference") as caught:
        mav.Registry().lookup("ref_0000000000000")
    assert caught.value.kind == "UnknownReference"


def test_an_error_pickles_with_its_kind_and_place():
    # A process pool's worker sends its exceptions back pickled.
    with pytest.raises(mav.Error) as caught:
        mav.history('{"content": [}', mav.Registry())
    error = caught.value
    assert type(error).__module__ == "mcp_agent_view"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is mav.Error
    assert (str(again), again.kind, again.line, again.column) == (str(error), "Json", 1, error.column)


def test_a_bad_answer_is_a_failed_call_not_an_exception():
    result = mav.tool_result("not json", "search", "toolu_9", mav.Registry())
    assert result.is_error and result.name == "search" and result.tool_use_id == "toolu_9"
    assert result.content[0]["text"].startswith("Tool call search failed: its answer could not be read")


def test_links_are_stubs_and_the_registry_maps_them_back_across_threads():
    registry = mav.Registry()
    errors = []

    def work(n: int) -> None:
        try:
            for k in range(50):
                uri = f"https://files.example.com/{n}/{k}?token=s3cret"
                message = {"content": [{"type": "resource_link", "uri": uri, "name": f"f{k}"}]}
                text = mav.history(message, registry)
                assert "s3cret" not in text
                assert registry.lookup(text[1:18])["uri"] == uri
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(registry) == 400
    restored = mav.Registry.restore(json.loads(json.dumps(registry.snapshot())))
    assert len(restored) == 400


def test_tool_definitions_take_the_targets_shape():
    tools = [{"name": "search", "description": "Searches", "inputSchema": {"type": "object"}}]
    assert mav.tool_definitions(tools) == [{"name": "search", "description": "Searches", "input_schema": {"type": "object"}}]
    assert mav.tool_definitions(tools, target="openai-chat") == [
        {"type": "function", "function": {"name": "search", "description": "Searches", "parameters": {"type": "object"}}}
    ]


def sdk_models(value):
    """The official SDK's models of a message's result, where that SDK reads it."""
    from mcp import types

    result = value.get("result", value) if isinstance(value, dict) else None
    if not isinstance(result, dict):
        return
    for model in (types.CallToolResult, types.GetPromptResult, types.ReadResourceResult):
        try:
            yield result, model.model_validate(result, by_name=False)
        except Exception:
            continue


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v[0])
def test_a_pydantic_model_of_the_sdk_reads_as_its_json(vector):
    try:
        value = json.loads(vector[1])
    except ValueError:
        return
    for result, model in sdk_models(value):
        # The SDK coerces some messages as it reads them (`"isError": "true"` to true, a
        # resource with both text and blob to text only): such a model is another message,
        # and reads as its own JSON does.
        dumped = json.loads(model.model_dump_json(by_alias=True, exclude_none=True))
        kept = {key: item for key, item in dumped.items() if key in result} == result
        expected = result if kept else dumped
        for lane in (
            lambda m: mav.tool_result_messages([mav.tool_result(m, "t", "toolu_1", mav.Registry(seed=SEED))]),
            lambda m: mav.history(m, mav.Registry(seed=SEED)),
            lambda m: mav.convert(m, mav.Registry(seed=SEED), target="anthropic"),
        ):
            assert lane(model) == lane(expected), type(model).__name__


def test_a_lone_surrogate_is_read_as_a_replacement_character_never_raised():
    # Issue 48: a str or dict holding a lone surrogate raised UnicodeEncodeError.
    block = {"type": "text", "text": "before \ud800 after"}
    for message in ({"content": [block]}, json.dumps({"content": [block]}, ensure_ascii=False)):
        shown = mav.tool_result(message, "t", "toolu_1", mav.Registry(seed=1))
        assert shown.content == [{"type": "text", "text": "before \ufffd after"}]
        assert "\ufffd" in mav.history(message, mav.Registry(seed=1))


_PEAK = r"""
import json, resource, sys
import mcp_agent_view as mav
n = int(sys.argv[2])
import io
buf = io.StringIO()
buf.write('{"content": [{"type": "text", "text": "x"}], "structuredContent": {"rows": [')
for i in range(n):
    buf.write('{"id": %d, "v": "ab"}, ' % i)
buf.write('{"id": -1, "v": "ab"}]}}')
text = buf.getvalue()
del buf
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.argv[1] == "script":
    out = mav.script(text, mav.Registry(seed=1))
else:
    out = json.loads(text)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base, len(text))
"""


def test_the_script_lane_peaks_near_json_loads():
    # Issue 48: script peaked at 56x its input on small objects (json.loads alone: 13x). The
    # lane's text now becomes Python objects directly, with no serde Value between.
    def peak(how):
        out = subprocess.run([sys.executable, "-c", _PEAK, how, "400000"], capture_output=True, text=True, check=True)
        grown, size = map(int, out.stdout.split())
        return grown * 1024 / size

    loads, script = peak("loads"), peak("script")
    assert script <= loads + 5, (script, loads)


PDF_RESULT = {
    "content": [
        {"type": "resource", "resource": {"uri": "file:///r.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjQK"}}
    ]
}


def test_a_target_dict_starts_from_its_provider_and_changes_what_goes_as_media():
    registry = mav.Registry()
    as_named = mav.tool_result(PDF_RESULT, "t", "i", registry, target="openai-responses").content
    assert as_named[0]["type"] == "input_file"
    same = mav.tool_result(PDF_RESULT, "t", "i", registry, target={"provider": "openai-responses"}).content
    assert same == as_named
    marked = mav.tool_result(PDF_RESULT, "t", "i", registry, target={"provider": "openai-responses", "pdf": False})
    assert marked.content == [{"type": "input_text", "text": "[file: application/pdf, 9B]"}]
    small = {"max_pdf_bytes": 4}  # neutral, with a limit below the PDF's 9 bytes
    [block] = mav.tool_result(PDF_RESULT, "t", "i", registry, target=small).content
    assert block["type"] == "text" and block["text"].startswith("[file: application/pdf, 9B")
    # Every function that takes a target takes the dict.
    assert mav.convert(PDF_RESULT, registry, target={"pdf": False}).content == [
        {"type": "text", "text": "[file: application/pdf, 9B]"}
    ]


@pytest.mark.parametrize(
    "target, error, words",
    [
        ({"pdf": 1}, TypeError, 'target["pdf"] is a bool'),
        ({"colour": True}, ValueError, 'no key "colour"'),
        ({"audio": ["audio/x"]}, ValueError, '"audio/x" is none of'),
        ({"images": "image/png"}, TypeError, 'target["images"] is a list'),
        ({"max_image_bytes": -1}, ValueError, 'target["max_image_bytes"]'),
        ({"provider": "nope"}, ValueError, "openai-chat"),
        ({"provider": 3}, TypeError, 'target["provider"] is a str'),
        (5, TypeError, "provider's name or a dict"),
    ],
)
def test_a_bad_target_is_one_error_naming_what_is_wrong(target, error, words):
    with pytest.raises(error, match=re.escape(words)):
        mav.tool_result(PDF_RESULT, "t", "i", mav.Registry(), target=target)


def test_the_names_the_docs_spell_are_the_crates_tables():
    """``TARGETS`` and ``PROVENANCES`` come from the crate's tables; the stub's and the
    ``TargetLike`` docstring's names, and the README's, are those."""
    import inspect

    from mcp_agent_view import _types

    assert len(mav.TARGETS) == 4 and "anthropic" in mav.TARGETS
    assert "tool-result" in mav.PROVENANCES and "sampling" in mav.PROVENANCES
    for target in mav.TARGETS:
        mav.convert("[]", mav.Registry(), target=target)
        assert f'``"{target}"``' in inspect.getsource(_types)
    readme = (ROOT / "bindings" / "python" / "README.md").read_text()
    for provenance in mav.PROVENANCES:
        mav.history("[]", mav.Registry(), provenance=provenance)
        assert f"`{provenance}`" in readme, provenance
    with pytest.raises(mav.Error) as caught:
        mav.convert("[]", mav.Registry(), target="gemini")
    assert all(target in str(caught.value) for target in mav.TARGETS)
