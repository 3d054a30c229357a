// mcp.callTool, getPrompt and readResource against a real stdio server written with the official
// TypeScript SDK (support/sdk-server.mjs), through both SDK lines' Client: what that SDK's own
// client refuses arrives whole, JSON-RPC errors arrive as error responses, the lanes read both.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";

import * as mav from "../index.mjs";

const SERVER = join(dirname(fileURLToPath(import.meta.url)), "support", "sdk-server.mjs");
const TEXT = "The report is ready. (Oslo)";

const LINES = [
  ["@modelcontextprotocol/sdk", () => [new Client1({ name: "test", version: "0.0.0" }), new Stdio1({ command: process.execPath, args: [SERVER] })]],
  ["@modelcontextprotocol/client", () => [new Client2({ name: "test", version: "0.0.0" }), new Stdio2({ command: process.execPath, args: [SERVER] })]],
];

async function withClient(body) {
  const answers = [];
  for (const [line, make] of LINES) {
    const [client, transport] = make();
    await client.connect(transport);
    try {
      answers.push([line, await body(client)]);
    } finally {
      await client.close();
    }
  }
  return answers;
}

test("the SDK itself refuses the result", async () => {
  for (const [line, refused] of await withClient(async (client) => {
    try {
      await client.callTool({ name: "report", arguments: { city: "Oslo" } });
      return false;
    } catch {
      return true;
    }
  })) {
    assert.ok(refused, line);
  }
});

test("a result the SDK refuses arrives whole", async () => {
  for (const [line, raw] of await withClient((client) => mav.mcp.callTool(client, "report", { city: "Oslo" }))) {
    assert.deepEqual(raw.content.map((b) => b.type), ["text", "hologram", "text"], line);
    assert.equal(raw.content[0].text, TEXT);
    assert.deepEqual(raw.content[2].annotations, { audience: ["auditor"] });
    const result = mav.toolResult(raw, { name: "report", toolUseId: "toolu_1", registry: new mav.Registry({ seed: 7 }) });
    assert.equal(result.isError, false);
    assert.deepEqual(result.content[0], { type: "text", text: TEXT });
    assert.match(result.content[1].text, /hologram/);
  }
});

test("a JSON-RPC error arrives as the error response", async () => {
  for (const [line, raw] of await withClient((client) => mav.mcp.callTool(client, "broken", {}))) {
    assert.deepEqual(raw, { jsonrpc: "2.0", error: { code: -32602, message: "broken: the city is required", data: { field: "city" } } }, line);
    const result = mav.toolResult(raw, { name: "broken", toolUseId: "toolu_2", registry: new mav.Registry() });
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: "text", text: "Tool call broken failed: broken: the city is required" }]);
  }
});

test("a timeout is the SDK's error response", async () => {
  for (const [line, raw] of await withClient((client) => mav.mcp.callTool(client, "slow", {}, { timeout: 300 }))) {
    assert.equal(raw.jsonrpc, "2.0", line);
    assert.equal(raw.error.code, -32001, `${line}: ${JSON.stringify(raw)}`);
    assert.equal(mav.toolResult(raw, { name: "slow", toolUseId: "toolu_3", registry: new mav.Registry() }).isError, true);
  }
});

test("a prompt and a resource the SDK refuses arrive whole", async () => {
  const answers = await withClient(async (client) => [
    await mav.mcp.getPrompt(client, "brief"),
    await mav.mcp.getPrompt(client, "missing"),
    await mav.mcp.readResource(client, "file:///report.txt"),
    await mav.mcp.readResource(client, "file:///nope"),
  ]);
  for (const [line, [prompt, missing, found, gone]] of answers) {
    assert.deepEqual(prompt.messages.map((m) => m.content.type), ["text", "hologram"], line);
    const shown = mav.promptMessages(prompt, new mav.Registry({ seed: 7 }), { target: "anthropic" });
    assert.deepEqual(shown[0].content[0], { type: "text", text: "Summarize the report." });
    assert.match(JSON.stringify(shown), /hologram/);
    assert.equal(missing.error.message, "unknown prompt missing");
    assert.deepEqual(found.contents.map((c) => c.uri), ["file:///report.txt", "file:///report.holo"]);
    // 2.x reads a resource miss as its ResourceNotFoundError, whose code is -32602 whatever the
    // wire said (the current revision's code); 1.x keeps the wire's -32002.
    const code = line === "@modelcontextprotocol/client" ? -32602 : -32002;
    assert.deepEqual(gone.error, { code, message: "Resource not found", data: { uri: "file:///nope" } }, line);
  }
});

test("anything but a client is a TypeError", async () => {
  await assert.rejects(mav.mcp.callTool({}, "report"), TypeError);
});

test("a result the SDK refuses arrives whole under the newest revision the SDK negotiates", async () => {
  const server = join(dirname(fileURLToPath(import.meta.url)), "support", "sdk2-server.mjs");
  for (const mode of ["auto", undefined]) {
    const options = mode === undefined ? {} : { versionNegotiation: { mode } };
    const client = new Client2({ name: "test", version: "0.0.0" }, options);
    await client.connect(new Stdio2({ command: process.execPath, args: [server] }));
    try {
      // The SDK's own call refuses it under this revision too.
      await assert.rejects(client.callTool({ name: "report", arguments: {} }));
      const raw = await mav.mcp.callTool(client, "report", {});
      assert.deepEqual(raw.content?.map((b) => b.type), ["text", "hologram"], `${mode}: ${JSON.stringify(raw)}`);
      const result = mav.toolResult(raw, { name: "report", toolUseId: "toolu_1", registry: new mav.Registry() });
      assert.equal(result.isError, false);
      assert.deepEqual(result.content[0], { type: "text", text: "The report is ready." });
      assert.match(result.content[1].text, /hologram/);
    } finally {
      await client.close();
    }
  }
});
