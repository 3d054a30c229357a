// A stdio MCP server that answers a tool call with a line that is not JSON (a log line with a
// uri and its token, as a server printing to stdout by mistake), for tests/tool_loop.rs.
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "stray", version: "1" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "weather", inputSchema: { type: "object" } }] } });
  } else if (m.method === "tools/call") {
    process.stdout.write("fetching https://files.example.com/r.pdf?token=s3cret-t0ken\n");
  } else if (m.id !== undefined) {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
}
