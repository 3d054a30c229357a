// A tool result is a plain JS object that keeps no native value: its part of a turn is made
// when it is made, its view when first read, and its source is read again for another target
// or for retry params. These tests hold that nothing a user sees depends on that.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as mav from "../index.mjs";
import { ROOT, cli } from "./support/cli.mjs";

const SEED = 7;

const answer = (name) => JSON.stringify(JSON.parse(readFileSync(join(ROOT, "tests", "vectors", "mcp", `everything.${name}.json`), "utf8")).response);
const IMAGE = answer("get-tiny-image");
const LINKS = answer("get-resource-links");
const ERROR = answer("tool-error.unknown-tool");

/** The crate's own messages for one answer (the CLI, same seed). */
function cliMessages(input, id, target) {
  const out = cli(["tool-result", "--name", "t", "--id", id, "--target", target], input, SEED);
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout).messages;
}

test("a turn of several results is put together as the crate puts it, on every target", () => {
  const answers = [IMAGE, LINKS, ERROR, IMAGE];
  for (const target of mav.TARGETS) {
    const registry = new mav.Registry({ seed: SEED });
    const results = answers.map((a, i) => mav.toolResult(a, { name: "t", toolUseId: `call_${i}`, registry, target }));
    // Each answer alone, from the CLI with a registry of its own seed: the links' ids differ
    // from a shared registry's, so the links' result is compared apart below.
    const alone = answers.map((a, i) => cliMessages(a, `call_${i}`, target));
    const turn = mav.toolResultMessages(results, { target });
    if (target === "anthropic") {
      assert.equal(turn.length, 1);
      assert.equal(turn[0].role, "user");
      assert.deepEqual(turn[0].content.map((b) => b.tool_use_id), ["call_0", "call_1", "call_2", "call_3"]);
      assert.deepEqual(turn[0].content[0], alone[0][0].content[0]);
      assert.deepEqual(turn[0].content[2], alone[2][0].content[0]);
    } else if (target === "neutral") {
      assert.deepEqual(turn.map((r) => r.toolUseId), ["call_0", "call_1", "call_2", "call_3"]);
      assert.deepEqual(turn[0], alone[0][0]);
    } else {
      // One output a result, then one user message with the media of both images, in order.
      assert.equal(turn.length, answers.length + 1);
      assert.deepEqual(turn[0], alone[0][0]);
      assert.deepEqual(turn[2], alone[2][0]);
      const last = turn.at(-1);
      assert.equal(last.role, "user");
      const media = alone[0].at(-1).content;
      assert.deepEqual(last.content, [...media, ...alone[3].at(-1).content]);
    }
    assert.deepEqual(mav.toolResultMessages([results[1]], { target }), mav.toolResultMessages([results[1]], { target }));
  }
});

test("each call gives fresh messages: changing one changes no later call", () => {
  const result = mav.toolResult(IMAGE, { name: "t", toolUseId: "toolu_1", registry: new mav.Registry() });
  const first = mav.toolResultMessages([result]);
  first[0].content[0].cache_control = { type: "ephemeral" };
  assert.equal(mav.toolResultMessages([result])[0].content[0].cache_control, undefined);
});

test("a result made for one target gives another target's messages as one made for it", () => {
  for (const made of mav.TARGETS) {
    for (const asked of mav.TARGETS) {
      const registry = new mav.Registry({ seed: SEED });
      const result = mav.toolResult(LINKS, { name: "t", toolUseId: "toolu_1", registry, target: made });
      const direct = mav.toolResult(LINKS, { name: "t", toolUseId: "toolu_1", registry, target: asked });
      assert.deepEqual(mav.toolResultMessages([result], { target: asked }), mav.toolResultMessages([direct], { target: asked }), `${made} → ${asked}`);
    }
  }
  const failed = mav.toolCallFailed("t", "toolu_2", new Error("the server went away"), { target: "openai-responses" });
  assert.deepEqual(mav.toolResultMessages([failed], { target: "openai-chat" }), [
    { content: "[tool returned an error]\nTool call t failed: the server went away", role: "tool", tool_call_id: "toolu_2" },
  ]);
});

test("the view, read later, shows the ids the messages show", () => {
  const registry = new mav.Registry({ seed: SEED });
  const result = mav.toolResult(LINKS, { name: "t", toolUseId: "toolu_1", registry, target: "neutral" });
  const [item] = mav.toolResultMessages([result], { target: "neutral" });
  assert.deepEqual(result.content, item.content);
  assert.match(JSON.stringify(result.content), /ref_[0-9a-z]{13}/);
});

test("bytes are read as they were when the result was made", () => {
  const bytes = Buffer.from(IMAGE);
  const result = mav.toolResult(bytes, { name: "t", toolUseId: "toolu_1", registry: new mav.Registry(), target: "neutral" });
  bytes.fill(0x20);
  assert.equal(result.isError, false);
  assert.equal(result.content.find((b) => b.type === "image")?.mimeType, "image/png");
});

test("retry params need a result that asked for input; an unknown target is a RangeError", () => {
  const failed = mav.toolCallFailed("t", "toolu_1", "gone");
  assert.throws(() => failed.retryParams({}, {}), (e) => e instanceof mav.McpAgentViewError && e.kind === "InputResponses");
  const answered = mav.toolResult(ERROR, { name: "t", toolUseId: "toolu_1", registry: new mav.Registry() });
  assert.throws(() => answered.retryParams({}, {}), (e) => e instanceof mav.McpAgentViewError && e.kind === "InputResponses");
  assert.throws(() => mav.toolResultMessages([], { target: "gemini" }), RangeError);
  assert.throws(() => mav.toolResultMessages([answered], { target: "gemini" }), RangeError);
  assert.deepEqual(mav.toolResultMessages([]), []);
});
