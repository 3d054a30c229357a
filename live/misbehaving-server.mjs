#!/usr/bin/env node
// A misbehaving MCP server for mcp-agent-view's live tests: newline-delimited JSON-RPC on
// stdio, with results that strict clients cannot type. Tools:
//   mixed        good blocks beside unknown types, malformed blocks, an unknown audience role,
//                a resource_link, an embedded blob, an embedded text resource
//   fails        a JSON-RPC error
//   huge         a 20 MiB embedded blob between two text blocks
//   only-unknown one block of a type nobody knows
//   silent       never answers
//   slow         answers after one second, other calls meanwhile
//   unended      answers without the newline and leaves its output open
//   where        the PROBE and HOME variables and the working directory
// Prompt: odd   a message with an unknown block beside an embedded resource.
import { createInterface } from "node:readline";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const tools = {
  mixed: () => ({
    content: [
      { type: "text", text: "good text before" },
      { type: "hologram", frames: 3, data: "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB" },
      { type: "image", data: 42, mimeType: "image/png" },
      { type: "text", text: "for an unknown role", annotations: { audience: ["assistant", "auditor"] } },
      { type: "text", text: "for the user only", annotations: { audience: ["user"] } },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource_link", uri: "https://files.example.com/report.pdf?token=s3cr3t-t0ken", name: "report.pdf", mimeType: "application/pdf", size: 2411724 },
      { type: "resource", resource: { uri: "file:///srv/secret/notes.txt", mimeType: "text/plain", blob: Buffer.from("notes from a blob").toString("base64") } },
      { type: "resource", resource: { uri: "file:///srv/secret/embedded.txt", mimeType: "text/plain", text: "embedded text survives" } },
      { type: "resource", resource: { uri: "file:///srv/secret/broken" } },
      { type: "text", text: "good text after" },
    ],
  }),
  huge: () => ({
    content: [
      { type: "text", text: "before the blob" },
      { type: "resource", resource: { uri: "file:///srv/big.bin", mimeType: "application/octet-stream", blob: Buffer.alloc(20 * 1024 * 1024, 7).toString("base64") } },
      { type: "text", text: "after the blob" },
    ],
  }),
  "only-unknown": () => ({ content: [{ type: "hologram", frames: 1 }] }),
  where: () => ({ content: [{ type: "text", text: `${process.env.PROBE ?? "unset"} ${process.env.HOME ?? "no home"} ${process.cwd()}` }] }),
};

const prompts = {
  odd: () => ({
    messages: [
      { role: "user", content: { type: "hologram", frames: 2 } },
      { role: "user", content: { type: "resource", resource: { uri: "file:///srv/secret/p.txt", mimeType: "text/plain", text: "prompt resource text" } } },
    ],
  }),
};

function answer(request) {
  const { id, method, params } = request;
  const reply = (result) => ({ jsonrpc: "2.0", id, result });
  const error = (code, message) => ({ jsonrpc: "2.0", id, error: { code, message } });
  switch (method) {
    case "initialize":
      return reply({
        protocolVersion: params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: {}, prompts: {} },
        serverInfo: { name: "misbehaving", version: "0.0.0" },
      });
    case "ping":
      return reply({});
    case "tools/list":
      return reply({ tools: [...Object.keys(tools), "fails", "silent", "slow", "unended"].map((name) => ({ name, inputSchema: { type: "object" } })) });
    case "tools/call":
      if (params?.name === "fails") return error(-32000, "backend exploded");
      if (params?.name === "silent") return null;
      if (params?.name === "slow") {
        setTimeout(() => process.stdout.write(JSON.stringify(reply({ content: [{ type: "text", text: "slow done" }] })) + "\n"), 1000);
        return null;
      }
      if (params?.name === "unended") {
        // Node never closes its standard output: the reader sees no end after this.
        process.stdout.write(JSON.stringify(reply({ content: [{ type: "text", text: "unended done" }] })));
        return null;
      }
      if (tools[params?.name]) return reply(tools[params.name]());
      return error(-32602, `Unknown tool: ${params?.name}`);
    case "prompts/get":
      if (prompts[params?.name]) return reply(prompts[params.name]());
      return error(-32602, `Unknown prompt: ${params?.name}`);
    default:
      return id === undefined ? null : error(-32601, `Method not found: ${method}`);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  const response = answer(request);
  if (response) process.stdout.write(JSON.stringify(response) + "\n");
});
