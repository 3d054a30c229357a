// @openai/agents with and without `view`: one run on a fake `Model` that calls every case of
// test/support/framework-server.mjs in turn, then a second, plain call, then answers; what the
// model was given back for each call is checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Agent, MCPServerStdio, Usage, run as runAgent, setTracingDisabled } from "@openai/agents";

const { view } = createRequire(import.meta.url)("../openai-agents.js");
const { fetch: fetching } = createRequire(import.meta.url)("../index.js");
const SERVER = fileURLToPath(new URL("./support/framework-server.mjs", import.meta.url));
// A server that asks in its results whatever revision the client speaks (the SDK 1.x client of
// @openai/agents declares no sampling, which the official SDK 2.x server would hold against it).
const ASKING = fileURLToPath(new URL("../../../tests/support/asking-server.mjs", import.meta.url));
setTracingDisabled(true);

const EXPECTED = {
  embedded_text: [["The notes say 42."], []],
  embedded_pdf: [["The PDF:"], ["application/pdf"]],
  image: [["The chart:"], ["image/png"]],
  big_image: [["The scan:"], ["image/png"]],
  audio: [["The clip:", "[audio: audio/wav, "], []],
  link: [["The report is linked.", "report.pdf"], []],
  unknown: [["Kept beside the hologram.", "unsupported result type: hologram"], []],
  is_error: [["The city is unknown.", "[tool returned an error]"], []],
  structured: [["temperature", "21"], []],
  rpc_error: [["rpc_error: the argument is missing", "[tool returned an error]"], []],
};
const CASES = Object.keys(EXPECTED);

/** Calls each case in turn, then `plain`, then answers; keeps every output it was given. */
class FakeModel {
  turn = 0;
  outputs = {};
  async getResponse(request) {
    for (const entry of Array.isArray(request.input) ? request.input : []) {
      if (entry.type === "function_call_result") this.outputs[entry.callId] = entry.output;
    }
    const names = [...CASES, "plain"];
    const name = names[this.turn++];
    const output = name
      ? [{ type: "function_call", id: `fc_${name}`, callId: name, name, arguments: "{}", status: "completed" }]
      : [{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
    return { usage: new Usage(), output, responseId: undefined };
  }
  async *getStreamedResponse() {
    throw new Error("not streamed");
  }
}

async function run(viewed) {
  const model = new FakeModel();
  const server = new MCPServerStdio({ command: process.execPath, args: [SERVER], name: "cases" });
  if (viewed) view(server);
  await server.connect();
  try {
    const agent = new Agent({ name: "a", model, mcpServers: [server] });
    const result = await runAgent(agent, "go", { maxTurns: CASES.length + 5 });
    assert.equal(result.finalOutput, "done");
  } finally {
    await server.close();
  }
  return model.outputs;
}

/** What the model reads of one output, base64 left out. */
function textOf(output) {
  return JSON.stringify(output, (key, value) => (typeof value === "string" && value.startsWith("data:") ? value.split(",")[0] : key === "data" ? undefined : value));
}

function media(output) {
  const items = Array.isArray(output) ? output : [output];
  return items.flatMap((i) => {
    const value = i.type === "input_image" || i.type === "image" ? i.image ?? i.imageUrl : i.type === "input_file" || i.type === "file" ? i.file : undefined;
    if (typeof value === "string") return [value.slice(5).split(";")[0]];
    if (value && typeof value === "object") return [value.mediaType ?? value.data?.slice(5).split(";")[0]];
    return [];
  });
}

/** What goes wrong in one case: a uri reaches the model, base64 is in its text, a text is lost. */
function faults(name, output) {
  const shown = JSON.stringify(output ?? null, (key, value) => (key === "image" || key === "file" || key === "data" ? undefined : value));
  const found = shown.includes("SECRET") ? ["uri shown"] : [];
  if (shown.includes("UklGR") || shown.includes("JVBERi") || shown.includes("iVBORw")) found.push("base64 as text");
  if (!shown.includes(EXPECTED[name][0][0])) found.push("text lost");
  return found;
}

const viewed = run(true);

for (const name of CASES) {
  test(`viewed, the model reads ${name} right and the run goes on`, async () => {
    const output = (await viewed)[name];
    assert.deepEqual(faults(name, output), [], JSON.stringify(output)?.slice(0, 500));
    const shown = textOf(output);
    assert.ok(!shown.includes("://"), shown);
    for (const words of EXPECTED[name][0]) assert.ok(shown.includes(words), `${name}: ${words} not in ${shown}`);
    assert.deepEqual(media(output), EXPECTED[name][1]);
  });
}

test("viewed, a second call in the same run is read", async () => {
  assert.ok(textOf((await viewed).plain).includes("Plain answer."));
});

test("without view, @openai/agents shows what its converter makes", async () => {
  // What the SDK does today, case by case (the table in docs/integrations.md); a release that
  // fixes a case fails here and the table is updated.
  const outputs = await run(false);
  const today = Object.fromEntries(CASES.map((name) => [name, faults(name, outputs[name])]).filter(([, found]) => found.length));
  assert.deepEqual(today, {
    embedded_text: ["uri shown"],
    embedded_pdf: ["uri shown", "base64 as text"],
    audio: ["base64 as text"],
    link: ["uri shown"],
    unknown: ["text lost"],
    structured: ["text lost"],
    rpc_error: ["text lost"],
  });
});

test("with a fetcher, the model opens a link through the fetch tool, and reads no uri", async () => {
  const outputs = {};
  let turn = 0;
  const model = {
    async getResponse(request) {
      for (const entry of Array.isArray(request.input) ? request.input : []) {
        if (entry.type === "function_call_result") outputs[entry.callId] = entry.output;
      }
      const [refId] = JSON.stringify(outputs).match(/ref_[a-z0-9]{13}/) ?? [];
      const calls = [["data_link", {}], ["fetch_reference", { ref_id: refId }], ["fetch_reference", { ref_id: "ref_0000000000000" }]];
      const next = calls[turn++];
      const output = next
        ? [{ type: "function_call", id: `fc${turn}`, callId: `c${turn - 1}`, name: next[0], arguments: JSON.stringify(next[1]), status: "completed" }]
        : [{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
      return { usage: new Usage(), output, responseId: undefined };
    },
    async *getStreamedResponse() {
      throw new Error("not streamed");
    },
  };
  const server = view(new MCPServerStdio({ command: process.execPath, args: [SERVER], name: "cases" }), {
    fetcher: new fetching.Fetcher({ allowSchemes: ["data"] }),
  });
  await server.connect();
  try {
    assert.ok((await server.listTools()).some((tool) => tool.name === "fetch_reference"));
    const result = await runAgent(new Agent({ name: "a", model, mcpServers: [server] }), "go", { maxTurns: 8 });
    assert.equal(result.finalOutput, "done");
  } finally {
    await server.close();
  }
  assert.match(textOf(outputs.c0), /words\.txt .*fetch with fetch_reference/);
  assert.match(textOf(outputs.c1), /The linked words\./);
  assert.match(textOf(outputs.c2), /tool returned an error.*fetch_reference failed: unknown reference/s);
  for (const output of Object.values(outputs)) assert.ok(!textOf(output).includes("data:text"), textOf(output));
});

test("view takes an MCP server of @openai/agents, and names what else it was given", () => {
  const server = new MCPServerStdio({ command: process.execPath, args: [SERVER] });
  for (const bad of [null, undefined, {}, "server"]) {
    assert.throws(() => view(bad), { name: "TypeError", message: /MCPServerStdio/ });
  }
  assert.throws(() => view(server, null), { name: "TypeError", message: /options is an object/ });
  assert.throws(() => view(server, { registry: 5 }), { name: "TypeError", message: /options.registry is a Registry/ });
  assert.throws(() => view(server, { fetcher: {} }), { name: "TypeError", message: /options.fetcher is a fetch.Fetcher/ });
});

test("a server that asks first is answered by onInput, and plainly without it", async () => {
  const asked = [];
  const onInput = (method) => {
    asked.push(method);
    return method === "sampling/createMessage"
      ? { role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" }
      : undefined;
  };
  const run = async (options) => {
    const server = view(new MCPServerStdio({ command: process.execPath, args: [ASKING], name: "asking" }), options);
    await server.connect();
    try {
      return await server.callTool("ask_model", {});
    } finally {
      await server.close();
    }
  };
  const answered = await run({ onInput });
  assert.deepEqual(asked, ["sampling/createMessage"]);
  assert.deepEqual(answered.map((block) => block.text), ["The model said: Paris"]);
  const plain = await run();
  assert.match(plain[0].text, /sampling\/createMessage.*does not answer/);
  assert.throws(() => view(new MCPServerStdio({ command: process.execPath, args: [ASKING] }), { onInput: 5 }), TypeError);
});
