// The AI SDK with and without `view`: one `generateText` run on the SDK's own mock model
// (`ai/test`) that calls every case of test/support/framework-server.mjs in turn, then a second,
// plain call, then answers; what the model was given back for each call is checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

const { view } = createRequire(import.meta.url)("../ai-sdk.js");
const { fetch: fetching } = createRequire(import.meta.url)("../index.js");
const SERVER = fileURLToPath(new URL("./support/framework-server.mjs", import.meta.url));

const EXPECTED = {
  embedded_text: [["The notes say 42."], []],
  embedded_pdf: [["The PDF:"], ["application/pdf"]],
  image: [["The chart:"], ["image/png"]],
  big_image: [["The scan:"], ["image/png"]],
  audio: [["The clip:"], ["audio/wav"]],
  link: [["The report is linked.", "report.pdf"], []],
  unknown: [["Kept beside the hologram.", "unsupported result type: hologram"], []],
  is_error: [["The city is unknown."], []],
  structured: [["temperature", "21"], []],
  rpc_error: [["rpc_error: the argument is missing"], []],
};
const CASES = Object.keys(EXPECTED);
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One run through every case; the tool-result output the model was given for each call. */
async function run(viewed) {
  const transport = new Experimental_StdioMCPTransport({ command: process.execPath, args: [SERVER] });
  const client = await createMCPClient({ transport });
  const names = [...CASES, "plain"];
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const step = model.doGenerateCalls.length - 1;
      if (step < names.length) {
        const name = names[step];
        return {
          content: [{ type: "tool-call", toolCallId: name, toolName: name, input: "{}" }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      }
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  try {
    const tools = await (viewed ? view(client) : client).tools();
    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(names.length + 2) });
    assert.equal(result.text, "done");
  } finally {
    await client.close();
  }
  const outputs = {};
  for (const message of model.doGenerateCalls.at(-1).prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") outputs[part.toolCallId] = part.output;
  }
  return outputs;
}

/** What the model reads of one output, base64 left out. */
function textOf(output) {
  return JSON.stringify(output, (key, value) => (key === "data" ? undefined : value));
}

function media(output) {
  return output.type === "content" ? output.value.filter((p) => p.type === "image-data" || p.type === "file-data").map((p) => p.mediaType) : [];
}

/** What goes wrong in one case: a uri reaches the model, base64 is in its text, a text is lost,
 * a failed call reads as a success. */
function faults(name, output) {
  const shown = textOf(output);
  const found = shown.includes("SECRET") ? ["uri shown"] : [];
  if (shown.includes("UklGR") || shown.includes("JVBERi") || shown.includes("iVBORw")) found.push("base64 as text");
  if (!shown.includes(EXPECTED[name][0][0])) found.push("text lost");
  if ((name === "is_error" || name === "rpc_error") && !output.type.startsWith("error")) found.push("error not flagged");
  return found;
}

const viewed = run(true);

for (const name of CASES) {
  test(`viewed, the model reads ${name} right and the run goes on`, async () => {
    const output = (await viewed)[name];
    assert.deepEqual(faults(name, output), [], textOf(output));
    const shown = textOf(output);
    assert.ok(!shown.includes("://"), shown);
    for (const words of EXPECTED[name][0]) assert.ok(shown.includes(words), `${name}: ${words} not in ${shown}`);
    assert.deepEqual(media(output), EXPECTED[name][1]);
    assert.equal(output.type === "error-text", name === "is_error" || name === "rpc_error", output.type);
  });
}

test("viewed, a second call in the same run is read", async () => {
  assert.ok(textOf((await viewed).plain).includes("Plain answer."));
});

test("without view, the AI SDK shows what its converter makes", async () => {
  // What the SDK does today, case by case (the table in docs/integrations.md); a release that
  // fixes a case fails here and the table is updated.
  const outputs = await run(false);
  const today = Object.fromEntries(CASES.map((name) => [name, faults(name, outputs[name])]).filter(([, found]) => found.length));
  assert.deepEqual(today, {
    embedded_text: ["uri shown"],
    embedded_pdf: ["uri shown", "base64 as text"],
    audio: ["text lost"],
    link: ["uri shown"],
    unknown: ["text lost"],
    is_error: ["error not flagged"],
    structured: ["text lost"],
  });
});

test("with a fetcher, the model opens a link through the fetch tool, and reads no uri", async () => {
  const transport = new Experimental_StdioMCPTransport({ command: process.execPath, args: [SERVER] });
  const client = await createMCPClient({ transport });
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const step = model.doGenerateCalls.length - 1;
      const call = (toolName, input) => ({
        content: [{ type: "tool-call", toolCallId: `c${step}`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      });
      if (step === 0) return call("data_link", {});
      const [refId] = JSON.stringify(prompt).match(/ref_[a-z0-9]{13}/) ?? [];
      if (step === 1) return call("fetch_reference", { ref_id: refId });
      if (step === 2) return call("fetch_reference", { ref_id: "ref_0000000000000" });
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
  try {
    const tools = await view(client, { fetcher: new fetching.Fetcher({ allowSchemes: ["data"] }) }).tools();
    assert.ok("fetch_reference" in tools);
    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(6) });
    assert.equal(result.text, "done");
  } finally {
    await client.close();
  }
  const outputs = {};
  for (const message of model.doGenerateCalls.at(-1).prompt) {
    for (const part of message.role === "tool" ? message.content : []) outputs[part.toolCallId] = part.output;
  }
  assert.match(textOf(outputs.c0), /words\.txt .*fetch with fetch_reference/);
  assert.equal(outputs.c1.type, "content");
  assert.match(textOf(outputs.c1), /The linked words\./);
  assert.equal(outputs.c2.type, "error-text");
  assert.match(textOf(outputs.c2), /fetch_reference failed: unknown reference/);
  for (const output of Object.values(outputs)) assert.ok(!textOf(output).includes("data:"), textOf(output));
});

test("view takes the client createMCPClient returns, and names what else it was given", () => {
  const client = { tools: async () => ({}), request: async () => ({}) };
  for (const bad of [null, undefined, {}, { tools: async () => ({}) }, "client"]) {
    assert.throws(() => view(bad), { name: "TypeError", message: /createMCPClient/ });
  }
  assert.throws(() => view(client, null), { name: "TypeError", message: /options is an object/ });
  assert.throws(() => view(client, { registry: 5 }), { name: "TypeError", message: /options.registry is a Registry/ });
  assert.throws(() => view(client, { fetcher: {} }), { name: "TypeError", message: /options.fetcher is a fetch.Fetcher/ });
});
