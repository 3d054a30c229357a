// The package against the crate's CLI: every vector through every function and target gives
// what the Rust library gives for the same seed; every input form alike; the framework seed's
// probe; errors; the registry.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import vm from "node:vm";

import * as mav from "../index.mjs";
import { ROOT, cli as cliOf } from "./support/cli.mjs";

const VECTORS_DIR = join(ROOT, "tests", "vectors", "mcp");
const KEYS = ["response", "value", "final_tool_result", "round1_response", "round2_response", "client_stub_response"];
const TARGETS = ["neutral", "anthropic", "openai-chat", "openai-responses"];
const SEED = 7;

/** The MCP messages a vector file holds, as tests/vectors.rs reads them. */
function* messagesOf(file) {
  const value = JSON.parse(readFileSync(join(VECTORS_DIR, file), "utf8"));
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const stem = file.replace(/\.json$/, "");
  for (const key of KEYS) if (key in value) yield [`${stem}:${key}`, JSON.stringify(value[key])];
  for (const [i, c] of (Array.isArray(value.cases) ? value.cases : []).entries()) {
    if (c && typeof c === "object" && "value" in c) yield [`${stem}:cases[${i}]`, JSON.stringify(c.value)];
  }
}

const FILES = readdirSync(VECTORS_DIR).filter((f) => f.endsWith(".json")).sort();
const VECTORS = FILES.flatMap((f) => [...messagesOf(f)]);

const cli = (args, input) => cliOf(args, input, SEED);

const registry = () => new mav.Registry({ seed: SEED });

test("there are vectors", () => {
  assert.ok(FILES.length > 50);
  assert.ok(VECTORS.length > FILES.length);
});

test("every vector reads as the crate reads it, on every lane and target", () => {
  for (const [name, data] of VECTORS) {
    const shown = cli(["history"], data);
    if (shown.status !== 0) {
      assert.throws(() => mav.history(data, registry()), mav.McpAgentViewError, name);
      continue;
    }
    assert.equal(mav.history(data, registry()), shown.stdout.replace(/\n$/, ""), name);
    const classified = cli(["classify"], data).stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(mav.classify(data), classified, name);
    for (const target of TARGETS) {
      const at = `${name} ${target}`;
      assert.deepEqual(mav.convert(data, registry(), { target }).content, JSON.parse(cli(["blocks", "--target", target], data).stdout), at);
      assert.deepEqual(mav.script(data, registry(), { target }), JSON.parse(cli(["script", "--target", target], data).stdout), at);
      const out = JSON.parse(cli(["tool-result", "--name", "t", "--id", "toolu_1", "--target", target], data).stdout);
      const result = mav.toolResult(data, { name: "t", toolUseId: "toolu_1", registry: registry(), target });
      assert.deepEqual(mav.toolResultMessages([result], { target }), out.messages, at);
      assert.deepEqual(result.heldForUser, out.heldForUser, at);
      assert.deepEqual(mav.promptMessages(data, registry(), { target }), JSON.parse(cli(["prompt", "--target", target], data).stdout), at);
    }
  }
});

test("every input form reads alike: text, bytes, a plain value", () => {
  for (const [name, data] of VECTORS) {
    const bytes = Buffer.from(data);
    // A view of part of a larger buffer, and bytes made in another realm (`instanceof` fails).
    const within = Buffer.concat([Buffer.from("xx"), bytes, Buffer.from("yy")]);
    const otherRealm = vm.runInNewContext("Uint8Array.from(b)", { b: bytes });
    const forms = [
      data,
      bytes,
      new Uint8Array(bytes),
      new DataView(within.buffer, within.byteOffset + 2, bytes.length),
      new Uint8Array(bytes).buffer,
      otherRealm,
      otherRealm.buffer,
      JSON.parse(data),
    ];
    const read = (form) => {
      try {
        return mav.history(form, registry());
      } catch (e) {
        return e.kind;
      }
    };
    const results = forms.map((form) => mav.toolResultMessages([mav.toolResult(form, { name: "t", toolUseId: "toolu_1", registry: registry() })]));
    for (const r of results.slice(1)) assert.deepEqual(r, results[0], name);
    const histories = forms.map(read);
    for (const h of histories.slice(1)) assert.equal(h, histories[0], name);
  }
});

test("the framework seed's probe: an embedded resource is its text on every lane, no uri", () => {
  const uri = "file:///srv/notes/q3.txt?token=s3cret-t0ken";
  const resource = { type: "resource", resource: { uri, mimeType: "text/plain", text: "Q3 notes: revenue up 4%." } };
  const toolResult = { content: [{ type: "text", text: "Here are the notes." }, resource] };
  for (const target of TARGETS) {
    const r = new mav.Registry();
    const lanes = [
      mav.history(toolResult, r),
      mav.toolResultMessages([mav.toolResult(toolResult, { name: "notes", toolUseId: "toolu_1", registry: r, target })], { target }),
      mav.convert({ content: [resource] }, r, { target, provenance: "push-event" }).content,
      mav.convert({ content: [resource] }, r, { target, provenance: "channel-message" }).content,
      mav.convert({ content: [resource] }, r, { target, provenance: "context-injection" }).content,
      mav.script({ summary: "done", attachments: [resource] }, r, { target }),
    ];
    for (const lane of lanes) {
      const text = JSON.stringify(lane);
      assert.ok(text.includes("Q3 notes: revenue up 4%."), `${target}: ${text}`);
      assert.ok(!text.includes("s3cret") && !text.includes("file://") && !text.includes("Reference not shown"), `${target}: ${text}`);
    }
  }
});

test("errors name their kind and place; bad names and arguments are Type/RangeErrors", () => {
  const r = new mav.Registry();
  const json = (() => { try { mav.history('{"content": [}', r); } catch (e) { return e; } })();
  assert.ok(json instanceof mav.McpAgentViewError && json instanceof Error);
  assert.equal(json.kind, "Json");
  assert.equal(json.line, 1);
  assert.equal(typeof json.column, "number");
  assert.throws(() => mav.history("42", r), { kind: "UnrecognizedMessage" });
  assert.throws(() => mav.convert("[]", r, { target: "gemini" }), (e) => e instanceof RangeError && /openai-chat/.test(e.message));
  assert.throws(() => mav.history("[]", r, { provenance: "push" }), (e) => e instanceof RangeError && /push-event/.test(e.message));
  assert.throws(() => r.lookup("ref_0000000000000"), { kind: "UnknownReference", message: /unknown reference/ });
  assert.throws(() => mav.history("[]", {}), TypeError);
  assert.throws(() => new mav.Registry({ seed: -1 }), TypeError);
  assert.throws(() => new mav.Registry({ fetchTool: "no spaces" }), { kind: "ToolName" });
  assert.throws(() => mav.toolResultMessages([{ toolUseId: "x" }]), TypeError);
  const bad = mav.toolResult("not json", { name: "search", toolUseId: "toolu_9", registry: r });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /^Tool call search failed: its answer could not be read/);
});

test("links are stubs; the registry maps them back, snapshots and restores", () => {
  const r = new mav.Registry({ seed: 11n, fetchTool: "fetch_reference" });
  assert.equal(r.fetchTool, "fetch_reference");
  for (let k = 0; k < 50; k++) {
    const uri = `https://files.example.com/${k}?token=s3cret`;
    const text = mav.history({ content: [{ type: "resource_link", uri, name: `f${k}` }] }, r);
    assert.ok(!text.includes("s3cret") && text.endsWith("— fetch with fetch_reference"), text);
    assert.equal(r.lookup(text.slice(1, 18)).uri, uri);
  }
  assert.equal(r.size, 50);
  const restored = mav.Registry.restore(JSON.parse(JSON.stringify(r.snapshot())));
  assert.equal(restored.size, 50);
  assert.deepEqual(restored.snapshot(), r.snapshot());
});

test("tool definitions take the target's shape, from tools or a tools/list result", () => {
  const tools = [{ name: "search", description: "Searches", inputSchema: { type: "object" } }];
  assert.deepEqual(mav.toolDefinitions(tools), [{ name: "search", description: "Searches", input_schema: { type: "object" } }]);
  assert.deepEqual(mav.toolDefinitions({ tools }, { target: "openai-chat" }), [
    { type: "function", function: { name: "search", description: "Searches", parameters: { type: "object" } } },
  ]);
  assert.throws(() => mav.toolDefinitions([{ description: "nameless" }]), TypeError);
});

test("a budget past its range is a RangeError, never a wrap", () => {
  const message = { content: [{ type: "text", text: "hello" }] };
  assert.throws(() => mav.history(message, new mav.Registry({ seed: 1 }), { budget: 2 ** 32 }), RangeError);
  assert.throws(() => mav.history(message, new mav.Registry({ seed: 1 }), { budget: 2 ** 40 }), RangeError);
  assert.equal(mav.history(message, new mav.Registry({ seed: 1 }), { budget: 2 ** 32 - 1 }), "hello");
  assert.throws(() => mav.history(message, new mav.Registry({ seed: 1 }), { budget: -1 }), TypeError);
});

test("every wrong-typed argument is a TypeError that names it", () => {
  const msg = { content: [{ type: "text", text: "hi" }] };
  const reg = () => new mav.Registry();
  const good = mav.toolResult(msg, { name: "t", toolUseId: "u", registry: reg() });
  // Each argument, the word its error names, and a call with the argument put in.
  const cases = [
    ["options", (v) => new mav.Registry(v)],
    ["seed", (v) => new mav.Registry({ seed: v })],
    ["fetchTool", (v) => new mav.Registry({ fetchTool: v })],
    ["id", (v) => reg().lookup(v), { missing: true }],
    ["registry", (v) => mav.history(msg, v), { missing: true }],
    ["options", (v) => mav.history(msg, reg(), v)],
    ["budget", (v) => mav.history(msg, reg(), { budget: v })],
    ["provenance", (v) => mav.history(msg, reg(), { provenance: v })],
    ["options", (v) => mav.convert(msg, reg(), v)],
    ["target", (v) => mav.convert(msg, reg(), { target: v })],
    ["options", (v) => mav.script(msg, reg(), v)],
    ["options", (v) => mav.promptMessages({ messages: [] }, reg(), v)],
    ["name", (v) => mav.toolResult(msg, { name: v, toolUseId: "u", registry: reg() }), { missing: true }],
    ["toolUseId", (v) => mav.toolResult(msg, { name: "t", toolUseId: v, registry: reg() }), { missing: true }],
    ["registry", (v) => mav.toolResult(msg, { name: "t", toolUseId: "u", registry: v }), { missing: true }],
    ["name", (v) => mav.toolCallFailed(v, "u", "why"), { missing: true }],
    ["toolUseId", (v) => mav.toolCallFailed("t", v, "why"), { missing: true }],
    ["options", (v) => mav.toolCallFailed("t", "u", "why", v)],
    ["results", (v) => mav.toolResultMessages(v), { missing: true }],
    ["result", (v) => mav.toolResultMessages([v]), { missing: true }],
    ["options", (v) => mav.toolResultMessages([good], v)],
    ["tools", (v) => mav.toolDefinitions(v), { missing: true }],
    ["options", (v) => mav.toolDefinitions([], v)],
    ["message", (v) => mav.classify(v), { json: false }],
    ["snapshot", (v) => mav.Registry.restore(v), { json: false }],
    ["target", (v) => mav.fetch.toolDefinition(v)],
    ["name", (v) => mav.fetch.toolDefinition("anthropic", v)],
    ["policy", (v) => new mav.fetch.Fetcher(v)],
    ["policy.maxBytes", (v) => new mav.fetch.Fetcher({ maxBytes: v }), { only: [10n] }],
  ];
  const wrong = [5, true, [], () => 1, Symbol("s"), 10n, {}];
  for (const [word, put, { missing = false, json = true, only } = {}] of cases) {
    const values = only ?? [...wrong, ...(missing ? [undefined, null] : [])];
    for (const value of values) {
      let thrown;
      try {
        put(value);
      } catch (e) {
        thrown = e;
      }
      const shown = typeof value === "symbol" || typeof value === "bigint" ? String(value) : JSON.stringify(value) ?? String(value);
      if (thrown === undefined || thrown instanceof mav.McpAgentViewError) {
        // Accepted, or a JSON value read as a message: neither is a wrong type (`{}` is an
        // empty options object; `5` a JSON message that is no MCP message).
        assert.ok(json || thrown === undefined || typeof value === "object" || typeof value === "number" || typeof value === "boolean", `${word} <- ${shown}`);
        continue;
      }
      assert.ok(thrown instanceof TypeError, `${word} <- ${shown}: ${thrown}`);
      assert.ok(thrown.message.includes(word.split(".").pop()), `${word} <- ${shown}: ${thrown.message}`);
    }
  }
});
