// examples/quickstart-client.mjs against a fake Messages API on loopback and the stdio MCP server
// of the Rust tool-loop test (tests/support/tool-loop-server.mjs), over the scenarios the official
// quickstart clients got wrong, then the official quickstart tool-loop script (parallel calls, a
// call to a tool the server lacks, a final answer). Every request is checked.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLIENT = join(HERE, "..", "examples", "quickstart-client.mjs");
const SERVER = join(HERE, "..", "..", "..", "tests", "support", "tool-loop-server.mjs");
const SECRET = "s3cret-t0ken";
const OFFICIAL = "What is the weather like?";

const SCENARIOS = {
  "rejected beside good": ["reject", "weather"],
  "structured only": ["structured"],
  "image only": ["image"],
  "embedded text": ["embedded_text"],
  "embedded pdf": ["embedded_pdf"],
  mixed: ["mixed"],
  audio: ["audio"],
  link: ["link"],
  "unknown beside text": ["unknown"],
  "is error": ["is_error"],
};

const ASKS = "What does the server ask?";
const ASKING_SERVER = join(HERE, "support", "asking-server.mjs");

function replyTo(request) {
  const { messages } = request;
  // The server's sampling request, through the same API.
  if (request.tools === undefined) return [{ type: "text", text: "Paris" }];
  // The query is the last user message that is text; the rounds, the model's turns since.
  const start = messages.findLastIndex((m) => typeof m.content === "string");
  const query = messages[start].content;
  const rounds = messages.slice(start).filter((m) => m.role === "assistant").length;
  if (query === OFFICIAL) {
    return [
      [
        { type: "text", text: "Checking two things." },
        { type: "tool_use", id: "tu_1", name: "weather", input: { city: "Sacramento" } },
        { type: "tool_use", id: "tu_2", name: "structured", input: {} },
      ],
      [{ type: "tool_use", id: "tu_3", name: "no_such_tool", input: {} }],
      [{ type: "text", text: "All done." }],
    ][rounds];
  }
  if (query === ASKS) {
    const uses = ["ask_user", "ask_model"].map((name, k) => ({ type: "tool_use", id: `ask_${k}`, name, input: {} }));
    return [[{ type: "text", text: "asking" }, ...uses], [{ type: "text", text: `done: ${query}` }]][rounds];
  }
  if (rounds === 0) {
    const s = Object.keys(SCENARIOS).indexOf(query);
    const uses = SCENARIOS[query].map((name, k) => ({ type: "tool_use", id: `toolu_${s}_${k}`, name, input: { city: "Paris" } }));
    return [{ type: "text", text: `calling for ${query}` }, ...uses];
  }
  return [{ type: "text", text: `done: ${query}` }];
}

async function fakeApi() {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body);
      requests.push(request);
      const content = replyTo(request);
      const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: `msg_${requests.length}`, type: "message", role: "assistant", model: request.model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, requests, close: () => server.close() };
}

function runClient(base, queries, args, key = "test-key") {
  return new Promise((resolve) => {
    const env = { ...process.env, ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: key, ANTHROPIC_MODEL: "claude-test" };
    const child = spawn(process.execPath, [CLIENT, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(queries.map((q) => `${q}\n`).join(""));
  });
}

function noEmptyText(value) {
  if (Array.isArray(value)) return value.forEach(noEmptyText);
  if (value && typeof value === "object") {
    if (value.type === "text") assert.ok(String(value.text ?? "").trim(), JSON.stringify(value));
    Object.values(value).forEach(noEmptyText);
  }
}

function checkRequest(request) {
  const text = JSON.stringify(request);
  assert.ok(!text.includes(SECRET) && !text.includes("file://") && !text.includes("files.example.com"), text);
  assert.equal(request.model, "claude-test");
  assert.equal(request.max_tokens, 10000);
  const names = request.tools.map((t) => t.name);
  assert.equal(names.length, 11, names.join());
  assert.ok(!names.includes("fetch_reference"));
  assert.equal(request.tools[0].input_schema.type, "object");
  noEmptyText(request.messages);
}

function lastTurn(request) {
  const [asked, results] = request.messages.slice(-2);
  assert.equal(asked.role, "assistant");
  assert.equal(results.role, "user");
  const uses = asked.content.filter((b) => b.type === "tool_use").map((b) => b.id);
  assert.ok(results.content.every((b) => b.type === "tool_result"));
  assert.deepEqual(results.content.map((b) => b.tool_use_id), uses, "one tool_result per tool_use, in one message");
  return results.content;
}

function checkResult(query, tool, result) {
  const kinds = result.content.map((b) => b.type);
  const texts = result.content.filter((b) => "text" in b).map((b) => b.text);
  const error = result.is_error === true;
  assert.ok(kinds.length > 0 && kinds.every((k) => ["text", "image", "document"].includes(k)), `${query}: ${kinds}`);
  const expected = {
    reject: () => error && texts.join() === "Tool call reject failed: Invalid arguments: city is required",
    weather: () => texts.join() === "22.5 C and sunny",
    structured: () => texts.join() === '{"temperature":22.5,"conditions":"Sunny"}', // as sent
    image: () => kinds.join() === "image",
    embedded_text: () => texts.join() === "the notes body",
    embedded_pdf: () => kinds.join() === "document",
    mixed: () => kinds.join() === "text,image,text" && texts.join("|") === "mixed text|mixed resource text",
    audio: () => texts[0].startsWith("[audio: audio/wav"),
    link: () => texts[0].startsWith("[ref_") && texts[0].includes("report.pdf"),
    unknown: () => texts.join("|") === "[unsupported result type: hologram]|kept sibling",
    is_error: () => error && texts.join() === "it broke",
  }[tool];
  assert.ok(expected(), `${query}: ${tool}: ${JSON.stringify(result)}`);
  if (!["reject", "is_error"].includes(tool)) assert.ok(!error, `${query}: ${tool}`);
}

for (const [form, args] of [
  ["a command", () => ["node", SERVER]],
  ["a lone script path", () => {
    const script = join(mkdtempSync(join(tmpdir(), "mav-")), "tool-loop-server.js");
    copyFileSync(SERVER, script);
    return [script];
  }],
]) {
  test(`every call of every scenario is answered (the server as ${form})`, async () => {
    const api = await fakeApi();
    try {
      const out = await runClient(api.base, [...Object.keys(SCENARIOS), "quit"], args());
      assert.equal(out.code, 0, out.stderr + out.stdout);
      for (const query of Object.keys(SCENARIOS)) assert.ok(out.stdout.includes(`done: ${query}`), out.stdout);
      assert.equal(api.requests.length, 2 * Object.keys(SCENARIOS).length);
      api.requests.forEach(checkRequest);
      Object.entries(SCENARIOS).forEach(([query, tools], s) => {
        const results = lastTurn(api.requests[2 * s + 1]);
        assert.equal(results.length, tools.length);
        results.forEach((result, k) => checkResult(query, tools[k], result));
      });
    } finally {
      api.close();
    }
  });
}

test("the official tool-loop script", async () => {
  const api = await fakeApi();
  try {
    const out = await runClient(api.base, [OFFICIAL, "quit"], ["node", SERVER]);
    assert.equal(out.code, 0, out.stderr + out.stdout);
    assert.ok(out.stdout.includes("All done."));
    assert.equal(api.requests.length, 3);
    api.requests.forEach(checkRequest);
    assert.deepEqual(api.requests[0].messages.map((m) => m.role), ["user"]);
    assert.equal(api.requests[1].messages.length, 3);
    const first = lastTurn(api.requests[1]);
    assert.deepEqual(first.map((r) => r.is_error), [false, false]);
    assert.ok(first.every((r) => r.content[0].text));
    assert.equal(api.requests[2].messages.length, 5);
    const [missing] = lastTurn(api.requests[2]);
    assert.equal(missing.tool_use_id, "tu_3");
    assert.equal(missing.is_error, true);
  } finally {
    api.close();
  }
});

test("a 2026-07-28 server that asks before it answers", async () => {
  // An elicitation declined, no roots, and the sampling request through the same Messages API,
  // one level deep, its system prompt as the server's words.
  const api = await fakeApi();
  try {
    const out = await runClient(api.base, [ASKS, "quit"], ["node", ASKING_SERVER]);
    assert.equal(out.code, 0, out.stderr + out.stdout);
    assert.ok(out.stdout.includes(`done: ${ASKS}`), out.stdout);
    const sampling = api.requests.filter((r) => r.tools === undefined);
    assert.equal(sampling.length, 1);
    assert.equal(sampling[0].max_tokens, 20);
    assert.equal(sampling[0].system, undefined);
    assert.deepEqual(sampling[0].messages, [
      { role: "user", content: [{ type: "text", text: "[the requesting server's instructions] Answer in one word." }] },
      { role: "user", content: [{ type: "text", text: "What is the capital of France?" }] },
    ]);
    const results = lastTurn(api.requests.filter((r) => r.tools !== undefined).at(-1));
    assert.deepEqual(
      results.map((r) => [r.is_error, r.content[0].text]),
      [
        [false, "login: decline; roots: 0; state: state-1"],
        [false, "The model said: Paris"],
      ],
    );
  } finally {
    api.close();
  }
});

test("without a key it lists the tools and stops", async () => {
  const api = await fakeApi();
  try {
    const out = await runClient(api.base, ["hello"], ["node", SERVER], "");
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /No ANTHROPIC_API_KEY/);
    assert.match(out.stdout, /'weather'/);
    assert.equal(api.requests.length, 0);
  } finally {
    api.close();
  }
});

test("bad arguments are one line and a non-zero exit", async () => {
  const usage = await runClient("http://127.0.0.1:9", [], []);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^usage: .*\n$/);
  const missing = await runClient("http://127.0.0.1:9", [], ["/no/such/server-binary"]);
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr.trim().split("\n").length, 1, missing.stderr);
});
