#!/usr/bin/env node
// A stdio MCP server written with the official TypeScript SDK 2.x that asks before it answers
// (protocol revision 2026-07-28): its tools return input-required results, answered by the
// client and called again with the answers and the echoed state. (Under an older revision the
// SDK's own shim sends the same requests to the client over the session.)
import { Server, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const LOGIN = inputRequired.elicit({
  message: "Your GitHub \u001b[2Jusername?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
});
const ROOTS = inputRequired.listRoots();
const QUESTION = inputRequired.createMessage({
  messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
  systemPrompt: "Answer in one word.",
  maxTokens: 20,
});
const TOOLS = { ask_user: "Asks for a login and the roots.", ask_model: "Asks the client's model.", ask_forever: "Asks again." };

function call({ name, inputResponses: answers, requestState }) {
  if (name === "ask_forever") return inputRequired({ requestState: `round-${(requestState ?? "").length}` });
  if (name === "ask_user") {
    if (!answers) return inputRequired({ inputRequests: { login: LOGIN, roots: ROOTS }, requestState: "state-1" });
    const text = `login: ${answers.login.action}; roots: ${answers.roots.roots.length}; state: ${requestState}`;
    return { content: [{ type: "text", text }] };
  }
  if (!answers) return inputRequired({ inputRequests: { question: QUESTION } });
  return { content: [{ type: "text", text: `The model said: ${answers.question.content.text}` }] };
}

serveStdio(() => {
  const server = new Server({ name: "asking-server", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", async () => ({
    tools: Object.entries(TOOLS).map(([name, description]) => ({ name, description, inputSchema: { type: "object", properties: {} } })),
  }));
  // The SDK lifts a retry's answers and state off the params into the handler's context.
  server.setRequestHandler("tools/call", async (request, ctx) =>
    call({ name: request.params.name, inputResponses: ctx.mcpReq.inputResponses, requestState: ctx.mcpReq.requestState() }),
  );
  return server;
});
process.stdin.on("end", () => process.exit(0));
