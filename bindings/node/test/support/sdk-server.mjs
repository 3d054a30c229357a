#!/usr/bin/env node
// A stdio MCP server written with the official TypeScript SDK (@modelcontextprotocol/sdk),
// sending what that SDK's own client refuses: a block of a type no spec revision defines and an
// annotation role it does not know (as a server on a newer revision would), and JSON-RPC errors.
// The SDK's server checks its own results too, so the newer revision's additions are made on the
// way out, in the transport's `send`, as an extension's transport would.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** A JSON-RPC error as the server sends it (McpError would put "MCP error <code>: " first). */
const rpcError = (code, message, data) => Object.assign(new Error(message), { code, data });

/** What a newer revision sends beside what this SDK can: one marker a result. */
const NEWER = {
  hologram: (result) => result.content.push(
    { type: "hologram", frames: 3 },
    { type: "text", text: "For the auditor only.", annotations: { audience: ["auditor"] } },
  ),
  prompt: (result) => result.messages.push({ role: "user", content: { type: "hologram", frames: 1 } }),
  resource: (result) => result.contents.push({ uri: "file:///report.holo", mimeType: "model/hologram", frames: 2 }),
};

class NewerRevisionTransport extends StdioServerTransport {
  send(message, options) {
    const marker = message.result?._meta?.newer;
    if (marker in NEWER) {
      delete message.result._meta;
      NEWER[marker](message.result);
    }
    return super.send(message, options);
  }
}

const NOTE = "The report is ready.";
const server = new Server({ name: "sdk-server", version: "0.0.0" }, { capabilities: { tools: {}, prompts: {}, resources: {} } });
const schema = { type: "object", properties: { city: { type: "string" } } };

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "report", description: "A report with a hologram.", inputSchema: schema },
    { name: "plain", description: "Plain text.", inputSchema: schema },
    { name: "broken", description: "Always a JSON-RPC error.", inputSchema: schema },
    { name: "slow", description: "Answers after ten seconds.", inputSchema: schema },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  const city = params.arguments?.city ?? "nowhere";
  switch (params.name) {
    case "broken":
      throw rpcError(-32602, "broken: the city is required", { field: "city" });
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return { content: [{ type: "text", text: "late" }] };
    case "report":
      return { content: [{ type: "text", text: `${NOTE} (${city})` }], _meta: { newer: "hologram" } };
    default:
      return { content: [{ type: "text", text: `${NOTE} (${city})` }] };
  }
});

server.setRequestHandler(GetPromptRequestSchema, async ({ params }) => {
  if (params.name !== "brief") throw rpcError(-32602, `unknown prompt ${params.name}`);
  return { messages: [{ role: "user", content: { type: "text", text: "Summarize the report." } }], _meta: { newer: "prompt" } };
});

server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
  if (params.uri !== "file:///report.txt") throw rpcError(-32002, "Resource not found", { uri: params.uri });
  return { contents: [{ uri: params.uri, mimeType: "text/plain", text: NOTE }], _meta: { newer: "resource" } };
});

await server.connect(new NewerRevisionTransport());
// A client that closes the pipe ends the server, even with a slow call still waiting.
process.stdin.on("end", () => process.exit(0));
