#!/usr/bin/env node
// The stdio MCP server of tests/tool_loop.rs: one tool a scenario the official quickstart
// clients got wrong. Newline-delimited JSON-RPC; an older server (no server/discover).
import { createInterface } from "node:readline";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n").toString("base64");
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WAVEfmt "), Buffer.alloc(24)]).toString("base64");
const SECRET = "s3cret-t0ken";

const tools = {
  weather: () => ({ content: [{ type: "text", text: "22.5 C and sunny" }] }),
  reject: null,
  structured: () => ({ content: [], structuredContent: { temperature: 22.5, conditions: "Sunny" } }),
  image: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
  embedded_text: () => ({ content: [{ type: "resource", resource: { uri: `file:///srv/notes.txt?token=${SECRET}`, mimeType: "text/plain", text: "the notes body" } }] }),
  embedded_pdf: () => ({ content: [{ type: "resource", resource: { uri: `file:///srv/q3.pdf?token=${SECRET}`, mimeType: "application/pdf", blob: PDF } }] }),
  mixed: () => ({
    content: [
      { type: "text", text: "mixed text" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: `https://files.example.com/m.txt?sig=${SECRET}`, mimeType: "text/plain", text: "mixed resource text" } },
    ],
  }),
  audio: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
  link: () => ({ content: [{ type: "resource_link", uri: `https://files.example.com/report.pdf?token=${SECRET}`, name: "report.pdf", mimeType: "application/pdf" }] }),
  unknown: () => ({ content: [{ type: "hologram", frames: 3, uri: `https://x.example/${SECRET}` }, { type: "text", text: "kept sibling" }] }),
  is_error: () => ({ content: [{ type: "text", text: "it broke" }], isError: true }),
};

function answer({ id, method, params }) {
  const reply = (result) => ({ jsonrpc: "2.0", id, result });
  switch (method) {
    case "initialize":
      return reply({ protocolVersion: params?.protocolVersion ?? "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "tool-loop", version: "0.0.0" } });
    case "ping":
      return reply({});
    case "tools/list":
      return reply({ tools: Object.keys(tools).map((name) => ({ name, description: `the ${name} scenario`, inputSchema: { type: "object", properties: { city: { type: "string" } } } })) });
    case "tools/call":
      if (params?.name === "reject") return { jsonrpc: "2.0", id, error: { code: -32602, message: "Invalid arguments: city is required" } };
      if (tools[params?.name]) return reply(tools[params.name]());
      return { jsonrpc: "2.0", id, error: { code: -32602, message: `Unknown tool: ${params?.name}` } };
    default:
      return id === undefined ? null : { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const response = answer(JSON.parse(line));
  if (response) process.stdout.write(JSON.stringify(response) + "\n");
});
