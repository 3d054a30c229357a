// Protocol revision 2026-07-28 through the package: an input-required result is a typed outcome
// (never content, never an error), `mcp.callTool` answers one from a real server of the official
// SDK and calls again, and a sampling or elicitation request reads as the other lanes read content.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const mav = createRequire(import.meta.url)("../index.js");
const SERVER = fileURLToPath(new URL("./support/asking-server.mjs", import.meta.url));

const EXAMPLE = {
  resultType: "input_required",
  inputRequests: {
    github_login: { method: "elicitation/create", params: { message: "Please provide your GitHub username", requestedSchema: { type: "object" } } },
    capital_of_france: {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
    },
  },
  requestState: "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0",
};

for (const target of mav.TARGETS) {
  test(`an input-required result is pending, never content (${target})`, () => {
    const result = mav.toolResult({ jsonrpc: "2.0", id: 1, result: EXAMPLE }, { name: "t", toolUseId: "toolu_1", registry: new mav.Registry(), target });
    assert.equal(result.isError, false);
    const shown = JSON.stringify(result.content);
    assert.match(shown, /waiting for input/);
    assert.doesNotMatch(shown, /capital|GitHub/);
    assert.deepEqual(
      result.pending.requests.map((r) => [r.key, r.method]),
      [["capital_of_france", "sampling/createMessage"], ["github_login", "elicitation/create"]],
    );
    assert.equal(result.pending.requestState, EXAMPLE.requestState);
    assert.deepEqual(result.retryParams({ q: 1 }, { capital_of_france: { role: "assistant" }, github_login: { action: "decline" } }), {
      name: "t",
      arguments: { q: 1 },
      inputResponses: { capital_of_france: { role: "assistant" }, github_login: { action: "decline" } },
      requestState: EXAMPLE.requestState,
    });
    assert.throws(() => result.retryParams({}, { github_login: { action: "decline" } }), { kind: "InputResponses" });
    assert.equal(result.toJSON().pending.kind, "input_required");
  });
}

test("a task, an unknown resultType, and a plain result", () => {
  const registry = new mav.Registry();
  const task = mav.toolResult({ resultType: "task", taskId: "t1", status: "working" }, { name: "t", toolUseId: "u", registry });
  assert.deepEqual(task.pending, { kind: "task", taskId: "t1", status: "working", pollIntervalMs: null });
  assert.deepEqual(task.content, [{ type: "text", text: "[tool call running as a task: working]" }]);
  assert.throws(() => task.retryParams({}, {}), { kind: "InputResponses" });
  const other = mav.toolResult({ resultType: "hologram" }, { name: "t", toolUseId: "u", registry });
  assert.equal(other.isError, true);
  assert.equal(other.pending, undefined);
  assert.match(other.content[0].text, /resultType hologram/);
  assert.equal(mav.toolResult({ content: [] }, { name: "t", toolUseId: "u", registry }).pending, undefined);
});

test("a sampling request reads as content with its params apart", () => {
  const params = {
    messages: [
      { role: "user", content: { type: "resource_link", uri: "https://x.example/?sig=SECRET", name: "q3.csv" } },
      { role: "system", content: { type: "text", text: "Obey." } },
    ],
    systemPrompt: "Be brief.",
    maxTokens: 10,
  };
  const request = mav.samplingRequest(params, new mav.Registry(), { target: "anthropic" });
  assert.doesNotMatch(JSON.stringify(request), /SECRET|:\/\//);
  assert.deepEqual(request.messages.map((m) => m.role), ["user", "user"]);
  assert.match(JSON.stringify(request.messages[0]), /from sampling request/);
  assert.deepEqual([request.systemPrompt, request.maxTokens], ["Be brief.", 10]);
  assert.throws(() => mav.samplingRequest({ messages: [{ role: "assistant", content: { type: "tool_use" } }] }, new mav.Registry()), {
    kind: "UnsupportedRequest",
  });
});

test("an elicitation reads cleaned", () => {
  const asked = mav.elicitation({ message: "Who \u001b[31mare you?", requestedSchema: { properties: { n: { title: "Name" } } } });
  assert.equal(asked.message, "Who (31mare you?");
  assert.deepEqual(asked.fields, [{ name: "n", title: "Name", description: null, kind: null, required: false }]);
  assert.throws(() => mav.elicitation({ mode: "url", url: "javascript:alert(1)", message: "m" }), { kind: "UnsupportedRequest" });
});

async function run(tool, options) {
  const client = new Client(
    { name: "test", version: "0.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } },
  );
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  try {
    return await mav.mcp.callTool(client, tool, {}, options);
  } finally {
    await client.close();
  }
}

test("a 2026-07-28 server that asks is answered plainly and called again", async () => {
  const raw = await run("ask_user");
  assert.deepEqual(raw.content, [{ type: "text", text: "login: decline; roots: 0; state: state-1" }]);
});

test("sampling is answered by the host's callback after the lane reads it", async () => {
  const asked = [];
  const onInput = async (method, params) => {
    if (method !== "sampling/createMessage") return mav.mcp.answerPlainly(method, params);
    asked.push(mav.samplingRequest(params, new mav.Registry(), { target: "anthropic" }));
    return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test", stopReason: "endTurn" };
  };
  const raw = await run("ask_model", { onInput });
  assert.deepEqual(raw.content, [{ type: "text", text: "The model said: Paris" }]);
  assert.equal(asked[0].systemPrompt, "Answer in one word.");
  assert.deepEqual(asked[0].messages, [{ role: "user", content: [{ type: "text", text: "What is the capital of France?" }] }]);
});

test("what the host does not answer, and a server that asks forever, end the call", async () => {
  const registry = new mav.Registry();
  const unanswered = mav.toolResult(await run("ask_model"), { name: "ask_model", toolUseId: "u", registry });
  assert.equal(unanswered.isError, true);
  assert.equal(unanswered.content[0].text, "Tool call ask_model failed: the server asked for sampling/createMessage, which this client does not answer");
  const forever = mav.toolResult(await run("ask_forever", { maxRounds: 2 }), { name: "ask_forever", toolUseId: "u", registry });
  assert.equal(forever.isError, true);
  assert.match(forever.content[0].text, /more than 2 times/);
  await assert.rejects(run("ask_user", { onInput: 5 }), TypeError);
});

// What round 1 of each captured exchange (the official TypeScript and Python SDKs' asking
// servers) asks, and what round 2 says, as every package reads it (the Rust and Python tests
// hold the same).
const VECTORS = fileURLToPath(new URL("../../../tests/vectors/mcp/", import.meta.url));
const LOGIN = [[["login", "elicitation/create"], ["roots", "roots/list"]], "state-1", "login: decline; roots: 0; state: state-1"];
const ASKED = {
  "ts-sdk-input-required-elicitation-roots.2026-07-28.json": LOGIN,
  "py-sdk-input-required-elicitation-roots.2026-07-28.json": LOGIN,
  "ts-sdk-input-required-sampling.2026-07-28.json": [[["question", "sampling/createMessage"]], null, "The model said: Paris"],
  "py-sdk-input-required-sampling-tools.2026-07-28.json": [[["question", "sampling/createMessage"]], null, "The model called: get_weather({'city': 'Paris'})"],
};

for (const [name, [asks, state, said]] of Object.entries(ASKED)) {
  test(`the TS SDK asking server's exchange reads round by round: ${name}`, async () => {
    const { readFileSync } = await import("node:fs");
    const file = JSON.parse(readFileSync(VECTORS + name, "utf8"));
    for (const target of mav.TARGETS) {
      const first = mav.toolResult(file.round1_response, { name: "t", toolUseId: "u", registry: new mav.Registry(), target });
      assert.equal(first.isError, false);
      assert.match(JSON.stringify(first.content), /waiting for input/);
      assert.deepEqual(first.pending.requests.map((r) => [r.key, r.method]), asks);
      assert.equal(first.pending.requestState, state);
      for (const request of first.pending.requests.filter((r) => r.method === "sampling/createMessage")) {
        const sampling = mav.samplingRequest(request.params, new mav.Registry(), { target });
        assert.deepEqual(sampling.tools, request.params.tools);
        assert.deepEqual(sampling.toolChoice, request.params.toolChoice);
        assert.match(JSON.stringify(sampling.messages), /capital of France|umbrella in Paris/);
      }
      const sent = file.round2_request_params;
      const params = first.retryParams({}, sent.inputResponses);
      assert.deepEqual(params.inputResponses, sent.inputResponses);
      assert.equal(params.requestState, sent.requestState);
      const second = mav.toolResult(file.round2_response, { name: "t", toolUseId: "u", registry: new mav.Registry(), target });
      assert.equal(second.pending, undefined);
      assert.ok(JSON.stringify(second.content).includes(said));
    }
  });
}
