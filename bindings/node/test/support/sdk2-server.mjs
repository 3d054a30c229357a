#!/usr/bin/env node
// A stdio MCP server written with the official TypeScript SDK 2.x (@modelcontextprotocol/server),
// which speaks protocol revision 2026-07-28 to a client that negotiates it. Its `report` tool
// answers with a block of a type no revision defines beside its text, added on the way out in
// the transport's `send`, as a newer revision's server would send it.
import { Server } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";

class NewerBlockTransport extends StdioServerTransport {
  send(message, options) {
    if (message.result?._meta?.newer === "hologram") {
      delete message.result._meta;
      message.result.content.push({ type: "hologram", frames: 3 });
    }
    return super.send(message, options);
  }
}

// `serveStdio` owns the era: 2026-07-28 where the client negotiates it, the older handshake else.
serveStdio(
  () => {
    const server = new Server({ name: "sdk2-server", version: "0.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", async () => ({
      tools: [{ name: "report", description: "A report with a hologram.", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler("tools/call", async () => ({
      content: [{ type: "text", text: "The report is ready." }],
      _meta: { newer: "hologram" },
    }));
    return server;
  },
  { transport: new NewerBlockTransport() },
);
process.stdin.on("end", () => process.exit(0));
