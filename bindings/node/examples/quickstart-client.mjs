#!/usr/bin/env node
// A quickstart MCP client: a stdio server's tools offered to Claude, every tool call answered,
// until the model stops asking. Copy it; this package's part is four calls.
//
//   ANTHROPIC_API_KEY=… node quickstart-client.mjs <server command> [args…]
//   ANTHROPIC_API_KEY=… node quickstart-client.mjs path/to/server.js   # or .py, as the quickstart
//
// Queries are read from standard input, one a line; `quit` or the end of input stops. The
// official @anthropic-ai/sdk calls the Messages API (at ANTHROPIC_BASE_URL where it is set) with
// the model ANTHROPIC_MODEL (default below), max_tokens 10000 and the server's tools only. Each
// turn's tool calls run at once over the official MCP SDK's Client; each tool_use is answered by
// one tool_result, all of them in one user message; at most ten rounds a query.
//
// What this package does here: mcp.callTool returns each answer as the server sent it (the SDK
// alone would refuse a result with a block it does not know, losing the whole answer);
// toolResult turns an answer, a JSON-RPC error or a failure to call into what the model reads;
// toolResultMessages makes the message to append; toolDefinitions the tools. A rejected call is
// an error result, never the end of the conversation; structuredContent is read where the
// content has no text; images go as images; an embedded resource's text as text, its uri
// never; a block nobody knows becomes a marker and costs no sibling.
//
// A server that asks before it answers (revision 2026-07-28's input-required results, or
// requests over the session under an older revision) is answered the same way either way: an
// elicitation declined (there is no form here), no roots, and a sampling request through the
// same Messages API, one level deep (its messages read by samplingRequest, the server's system
// prompt given as the server's words in the first user turn, no tools).

import { createInterface } from "node:readline";

import Anthropic from "@anthropic-ai/sdk";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Registry, mcp, samplingRequest, toolCallFailed, toolDefinitions, toolResult, toolResultMessages } from "mcp-agent-view";

const MODEL = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-5";
// Thinking and the reply share max_tokens; leave room for both.
const MAX_TOKENS = 10000;
const MAX_ROUNDS = 10;

/** A server command and its arguments; a lone .js or .py path runs with Node or Python. */
function serverCommand(argv) {
  if (argv.length === 1 && /\.(m?js|py)$/.test(argv[0])) {
    const command = argv[0].endsWith(".py") ? (process.platform === "win32" ? "python" : "python3") : process.execPath;
    return { command, args: [argv[0]] };
  }
  return { command: argv[0], args: argv.slice(1) };
}

/**
 * What the server asks the client, answered: elicitation declined, no roots, sampling through
 * the Messages API once there is a key (`asked.api`). `undefined`: not answered.
 */
function asker() {
  const registry = new Registry();
  const asked = async (method, params) => {
    if (method !== "sampling/createMessage" || !asked.api) return mcp.answerPlainly(method, params);
    let request;
    try {
      request = samplingRequest(params, registry, { target: "anthropic" });
    } catch {
      return undefined; // tool content: this client takes no part in a tool loop of the server's
    }
    const messages = [...request.messages];
    if (request.systemPrompt) {
      const said = `[the requesting server's instructions] ${request.systemPrompt}`;
      messages.unshift({ role: "user", content: [{ type: "text", text: said }] });
    }
    if (messages.length === 0) return undefined;
    const max_tokens = Math.min(request.maxTokens || MAX_TOKENS, MAX_TOKENS);
    const reply = await asked.api.messages.create({ model: MODEL, max_tokens, messages });
    const text = reply.content.filter((block) => block.type === "text").map((block) => block.text).join("");
    const stopReason = reply.stop_reason === "max_tokens" ? "maxTokens" : "endTurn";
    return { role: "assistant", content: { type: "text", text }, model: reply.model, stopReason };
  };
  asked.api = undefined;
  return asked;
}

/** One call's tool result: what the server answered, or why no answer came. */
async function answer(client, offered, use, registry, asked) {
  if (!offered.has(use.name)) return toolCallFailed(use.name, use.id, "no tool of that name is offered");
  try {
    const raw = await mcp.callTool(client, use.name, use.input, { onInput: asked });
    return toolResult(raw, { name: use.name, toolUseId: use.id, registry });
  } catch (e) {
    // The connection failed: the call failed, the conversation goes on.
    return toolCallFailed(use.name, use.id, e);
  }
}

/** Runs one query to the end: the model's text printed, every tool call answered. */
async function ask(api, client, tools, messages, registry, asked) {
  const offered = new Set(tools.map((tool) => tool.name));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const reply = await api.messages.create({ model: MODEL, max_tokens: MAX_TOKENS, messages, tools });
    messages.push({ role: "assistant", content: reply.content });
    for (const block of reply.content) if (block.type === "text") console.log(block.text);
    const uses = reply.content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) return;
    // Every call of the turn at once; each answered, in the order the model asked.
    const results = await Promise.all(uses.map((use) => answer(client, offered, use, registry, asked)));
    messages.push(...toolResultMessages(results));
  }
  console.log(`[Stopped after ${MAX_ROUNDS} tool-use rounds]`);
}

async function main(argv) {
  if (argv.length === 0) {
    console.error("usage: node quickstart-client.mjs <server command> [args…]");
    return 2;
  }
  const asked = asker();
  const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
  const client = new Client({ name: "mcp-agent-view-quickstart", version: "0.2.0" }, { versionNegotiation: { mode: "auto" }, capabilities });
  // The same answers to a server of an older revision, which asks over the session.
  client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
  client.setRequestHandler("roots/list", async () => ({ roots: [] }));
  client.setRequestHandler("sampling/createMessage", async (request) => {
    const answer = await asked("sampling/createMessage", request.params);
    if (answer === undefined) throw new Error("this client answers no such sampling request");
    return answer;
  });
  await client.connect(new StdioClientTransport(serverCommand(argv)));
  try {
    // The server's tools, as it lists them, in the Messages API's shape.
    const tools = toolDefinitions((await client.listTools()).tools);
    console.log("Connected to server with tools:", tools.map((tool) => tool.name));
    if (!process.env.ANTHROPIC_API_KEY) {
      console.log("No ANTHROPIC_API_KEY found. To query these tools with Claude, set your API key.");
      return 0;
    }
    const api = (asked.api = new Anthropic());
    const registry = new Registry();
    const messages = [];
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      const query = line.trim();
      if (query.toLowerCase() === "quit") break;
      if (query === "") continue;
      const kept = messages.length;
      messages.push({ role: "user", content: query });
      try {
        await ask(api, client, tools, messages, registry, asked);
      } catch (e) {
        // The API failed: this query is lost, the next one runs.
        messages.length = kept;
        console.log(`Error: ${e.message}`);
      }
    }
    return 0;
  } finally {
    await client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    // The server could not be started or reached.
    console.error(`quickstart-client: ${String(e?.message ?? e).split("\n")[0]}`);
    process.exit(1);
  },
);
