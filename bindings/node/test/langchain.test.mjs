// @langchain/mcp-adapters with and without `view`: one LangGraph `createReactAgent` run on
// LangChain's fake chat model (taught to call tools) that calls every case of
// test/support/framework-server.mjs in turn, then a second, plain call, then answers; what the
// model was given back for each call is checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { AIMessage, ToolMessage } from "@langchain/core/messages";

const require = createRequire(import.meta.url);
const { view } = require("../langchain.js");
const { Registry, fetch: fetching } = require("../index.js");
const SERVER = fileURLToPath(new URL("./support/framework-server.mjs", import.meta.url));

const EXPECTED = {
  embedded_text: [["The notes say 42."], []],
  embedded_pdf: [["The PDF:"], ["application/pdf"]],
  image: [["The chart:"], ["image/png"]],
  big_image: [["The scan:"], ["image/png"]],
  audio: [["The clip:"], ["audio/wav"]],
  link: [["The report is linked.", "report.pdf"], []],
  unknown: [["Kept beside the hologram.", "unsupported result type: hologram"], []],
  is_error: [["The city is unknown.", "Error:"], []],
  structured: [["temperature", "21"], []],
  rpc_error: [["rpc_error: the argument is missing", "Error:"], []],
};
const CASES = Object.keys(EXPECTED);

/** Calls each case in turn, then `plain`, then answers; keeps every tool message it was given. */
class ScriptedModel extends FakeListChatModel {
  turn = 0;
  seen = {};
  constructor() {
    super({ responses: ["done"] });
  }
  bindTools() {
    return this;
  }
  async _generate(messages) {
    for (const message of messages) if (ToolMessage.isInstance(message)) this.seen[message.tool_call_id] = message;
    const name = [...CASES, "plain"][this.turn++];
    const message = name
      ? new AIMessage({ content: "", tool_calls: [{ id: name, name, args: {}, type: "tool_call" }] })
      : new AIMessage("done");
    return { generations: [{ text: name ? "" : "done", message }] };
  }
}

async function run(viewed) {
  const model = new ScriptedModel();
  const client = new MultiServerMCPClient({ cases: { transport: "stdio", command: process.execPath, args: [SERVER] } });
  if (viewed) assert.equal(view(client), client);
  try {
    const agent = createReactAgent({ llm: model, tools: await client.getTools() });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { recursionLimit: 2 * CASES.length + 10 });
    assert.equal(result.messages.at(-1).content, "done");
  } finally {
    await client.close();
  }
  return model.seen;
}

/** What the model reads of one tool message, base64 left out. */
function textOf(message) {
  const content = typeof message.content === "string" ? message.content : message.content;
  return JSON.stringify(content, (key, value) => (typeof value === "string" && value.startsWith("data:") ? value.split(",")[0] : key === "data" ? undefined : value));
}

function media(message) {
  if (typeof message.content === "string") return [];
  return message.content.flatMap((part) => {
    if (part.type === "image_url") return [part.image_url.url.slice(5).split(";")[0]];
    if (["image", "audio", "file"].includes(part.type) && part.source_type === "base64") return [part.mime_type];
    return [];
  });
}

/** What goes wrong in one case: a uri reaches the model, base64 is in its text, a text is lost. */
function faults(name, message) {
  if (message === undefined) return ["run ended"];
  const shown = JSON.stringify(message.content, (key, value) => (key === "data" || key === "image_url" ? undefined : value));
  const found = shown.includes("SECRET") ? ["uri shown"] : [];
  if (shown.includes("UklGR") || shown.includes("JVBERi") || shown.includes("iVBORw")) found.push("base64 as text");
  if (!shown.includes(EXPECTED[name][0][0])) found.push("text lost");
  if (media(message).length < EXPECTED[name][1].length) found.push("media lost");
  return found;
}

const viewed = run(true);

for (const name of CASES) {
  test(`viewed, the model reads ${name} right and the run goes on`, async () => {
    const message = (await viewed)[name];
    assert.deepEqual(faults(name, message), [], textOf(message ?? {}).slice(0, 500));
    const shown = textOf(message);
    assert.ok(!shown.includes("://"), shown);
    for (const words of EXPECTED[name][0]) assert.ok(shown.includes(words), `${name}: ${words} not in ${shown}`);
    assert.deepEqual(media(message), EXPECTED[name][1]);
    assert.equal(message.status, name === "is_error" || name === "rpc_error" ? "error" : "success");
  });
}

test("viewed, structuredContent is in the artifact as the adapter puts it, never in the content", async () => {
  const message = (await viewed).structured;
  assert.deepEqual(message.artifact, [{ type: "mcp_structured_content", data: { temperature: 21, unit: "C" } }]);
  assert.ok(!JSON.stringify(message.content).includes("structuredContent"));
});

test("viewed, a second call in the same run is read", async () => {
  assert.ok(textOf((await viewed).plain).includes("Plain answer."));
});

test("without view, @langchain/mcp-adapters shows what its converter makes", async () => {
  // What the adapter does today, case by case (the table in docs/integrations.md); a release
  // that fixes a case fails here and the table is updated.
  const seen = await run(false);
  const today = Object.fromEntries(CASES.map((name) => [name, faults(name, seen[name])]).filter(([, found]) => found.length));
  assert.deepEqual(today, {
    embedded_text: ["text lost"],
    embedded_pdf: ["media lost"],
    link: ["uri shown"],
    unknown: ["text lost"],
    structured: ["text lost"],
  });
});

test("viewed, standard content blocks and prefixed names, calls at once, each read right", async () => {
  const client = view(
    new MultiServerMCPClient({
      mcpServers: { cases: { transport: "stdio", command: process.execPath, args: [SERVER] } },
      useStandardContentBlocks: true,
      prefixToolNameWithServerName: true,
    }),
  );
  try {
    const tools = Object.fromEntries((await client.getTools()).map((tool) => [tool.name, tool]));
    const call = (name) => tools[`cases__${name}`].invoke({ type: "tool_call", id: name, name: `cases__${name}`, args: {} });
    const [pdf, text, link, image] = await Promise.all(["embedded_pdf", "embedded_text", "link", "image"].map(call));
    assert.deepEqual(pdf.content.map((part) => [part.type, part.text ?? part.mime_type]), [["text", "The PDF:"], ["file", "application/pdf"]]);
    assert.deepEqual(pdf.artifact, []);
    assert.equal(text.content, "The notes say 42.");
    assert.match(textOf(link), /report\.pdf/);
    assert.deepEqual(media(image), ["image/png"]);
    for (const message of [pdf, text, link, image]) assert.ok(!textOf(message).includes("://"), textOf(message));
  } finally {
    await client.close();
  }
});

test("with a fetcher, the model opens a link through the fetch tool, and reads no uri", async () => {
  const seen = {};
  let turn = 0;
  class Model extends ScriptedModel {
    async _generate(messages) {
      for (const message of messages) if (ToolMessage.isInstance(message)) seen[message.tool_call_id] = message;
      const [refId] = JSON.stringify(Object.values(seen).map((m) => m.content)).match(/ref_[a-z0-9]{13}/) ?? [];
      const calls = [["data_link", {}], ["fetch_reference", { ref_id: refId }], ["fetch_reference", { ref_id: "ref_0000000000000" }]];
      const next = calls[turn++];
      const message = next ? new AIMessage({ content: "", tool_calls: [{ id: `c${turn - 1}`, name: next[0], args: next[1], type: "tool_call" }] }) : new AIMessage("done");
      return { generations: [{ text: next ? "" : "done", message }] };
    }
  }
  const client = view(new MultiServerMCPClient({ cases: { transport: "stdio", command: process.execPath, args: [SERVER] } }), {
    fetcher: new fetching.Fetcher({ allowSchemes: ["data"] }),
  });
  try {
    const tools = await client.getTools();
    assert.equal(tools.filter((tool) => tool.name === "fetch_reference").length, 1);
    assert.equal((await client.getTools()).length, tools.length);
    const agent = createReactAgent({ llm: new Model(), tools });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { recursionLimit: 20 });
    assert.equal(result.messages.at(-1).content, "done");
  } finally {
    await client.close();
  }
  assert.match(textOf(seen.c0), /words\.txt .*fetch with fetch_reference/);
  assert.match(textOf(seen.c1), /The linked words\./);
  assert.equal(seen.c1.status, "success");
  assert.equal(seen.c2.status, "error");
  assert.match(textOf(seen.c2), /fetch_reference failed: unknown reference/);
  for (const message of Object.values(seen)) assert.ok(!textOf(message).includes("data:text"), textOf(message));
});

test("the SDK client's callTool is its own outside a viewed tool's call", async () => {
  const client = view(new MultiServerMCPClient({ cases: { transport: "stdio", command: process.execPath, args: [SERVER] } }));
  try {
    await client.getTools();
    const sdk = await client.getClient("cases");
    await assert.rejects(sdk.callTool({ name: "unknown", arguments: {} }));
    const plain = await sdk.callTool({ name: "embedded_text", arguments: {} });
    assert.equal(plain.content[0].resource.uri, "file:///vault/notes.txt?token=SECRET-TEXT");
  } finally {
    await client.close();
  }
});

test("view takes a MultiServerMCPClient, and names what else it was given", () => {
  const client = new MultiServerMCPClient({ cases: { transport: "stdio", command: process.execPath, args: [SERVER] } });
  for (const bad of [null, undefined, {}, "client"]) {
    assert.throws(() => view(bad), { name: "TypeError", message: /MultiServerMCPClient/ });
  }
  assert.throws(() => view(client, null), { name: "TypeError", message: /options is an object/ });
  assert.throws(() => view(client, { registry: 5 }), { name: "TypeError", message: /options.registry is a Registry/ });
  assert.throws(() => view(client, { fetcher: {} }), { name: "TypeError", message: /options.fetcher is a fetch.Fetcher/ });
  assert.equal(view(client, { registry: new Registry() }), client);
});
