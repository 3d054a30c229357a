#!/usr/bin/env node
// A stdio MCP server of revision 2026-07-28 that asks before it answers (tests/tool_loop.rs):
// `server/discover`, then tools whose calls return input-required results until they come back
// with the answers and the state. Newline-delimited JSON-RPC, no dependencies. Under the older
// handshake (`initialize`) it sends the same requests over the session instead, as the SDKs'
// shims do, and answers once the client has answered them.
import { createInterface } from "node:readline";

const LOGIN = { method: "elicitation/create", params: { message: "Your GitHub \u001b[2Jusername?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } };
const ROOTS = { method: "roots/list", params: {} };
const QUESTION = {
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], systemPrompt: "Answer in one word.", maxTokens: 20 },
};
const TOOLS = { ask_user: { login: LOGIN, roots: ROOTS }, ask_model: { question: QUESTION } };
let legacy = false;
let next = 0;
const waiting = new Map();

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function done(name, answers, state) {
  if (name === "ask_user") return { content: [{ type: "text", text: `login: ${answers.login.action}; roots: ${answers.roots.roots.length}; state: ${state}` }], resultType: "complete" };
  return { content: [{ type: "text", text: `The model said: ${answers.question.content.text}` }], resultType: "complete" };
}

async function call(params) {
  const asks = TOOLS[params?.name];
  if (!asks) return { error: { code: -32602, message: `Unknown tool: ${params?.name}` } };
  if (!legacy) {
    if (!params.inputResponses) return { result: { resultType: "input_required", inputRequests: asks, requestState: "state-1" } };
    return { result: done(params.name, params.inputResponses, params.requestState) };
  }
  const answers = {};
  for (const [key, request] of Object.entries(asks)) {
    const id = `s${next++}`;
    answers[key] = await new Promise((resolve) => {
      waiting.set(id, resolve);
      send({ jsonrpc: "2.0", id, ...request });
    });
  }
  return { result: done(params.name, answers, "session") };
}

createInterface({ input: process.stdin }).on("line", async (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (method === undefined) {
    waiting.get(id)?.(message.result ?? { action: "error", roots: [], content: { text: message.error?.message } });
    waiting.delete(id);
    return;
  }
  const reply = (result) => send({ jsonrpc: "2.0", id, result });
  switch (method) {
    case "server/discover":
      // ASKING_SERVER_LEGACY: a server of an older revision, which knows no server/discover.
      if (process.env.ASKING_SERVER_LEGACY) return send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
      return reply({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private", resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "asking", version: "0.0.0" } } });
    case "initialize":
      legacy = true;
      return reply({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "asking", version: "0.0.0" } });
    case "ping":
      return reply({});
    case "tools/list":
      return reply({ tools: Object.keys(TOOLS).map((name) => ({ name, description: name, inputSchema: { type: "object", properties: {} } })), resultType: "complete" });
    case "tools/call": {
      const { result, error } = await call(params);
      return send(error ? { jsonrpc: "2.0", id, error } : { jsonrpc: "2.0", id, result });
    }
    default:
      if (id !== undefined) send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
