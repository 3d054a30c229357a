#!/usr/bin/env node
// A stdio MCP server written with the official TypeScript SDK 2.x (@modelcontextprotocol/server)
// for the framework tests: one tool per case a framework's own converter gets wrong (the same
// cases as the Python package's tests/framework_server.py). Every uri carries a secret the
// model must never read (SECRET-…).
import { deflateSync } from "node:zlib";
import { Server, ProtocolError } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(kind, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(kind, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid greyscale PNG, width × height, stored uncompressed (so that it is as big as asked). */
function png(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = (x * 7 + y) & 0xff;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 0 })), chunk("IEND", Buffer.alloc(0))]);
}

/** A valid WAV of 100 silent samples. */
function wav() {
  const data = Buffer.alloc(200);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(1, 2);
  fmt.writeUInt32LE(8000, 4);
  fmt.writeUInt32LE(16000, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const body = Buffer.concat([Buffer.from("WAVEfmt "), Buffer.from([16, 0, 0, 0]), fmt, Buffer.from("data"), Buffer.from([200, 0, 0, 0]), data]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length, 0);
  return Buffer.concat([Buffer.from("RIFF"), size, body]);
}

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const SMALL_PNG = png(4, 4).toString("base64");
const BIG_PNG = png(2000, 1870).toString("base64"); // about 5 MB once base64-encoded
const WAV = wav().toString("base64");
const text = (t) => ({ type: "text", text: t });

const CASES = {
  embedded_text: () => ({
    content: [{ type: "resource", resource: { uri: "file:///vault/notes.txt?token=SECRET-TEXT", mimeType: "text/plain", text: "The notes say 42." } }],
  }),
  embedded_pdf: () => ({
    content: [
      text("The PDF:"),
      { type: "resource", resource: { uri: "https://files.example/q3.pdf?sig=SECRET-PDF", mimeType: "application/pdf", blob: PDF.toString("base64") } },
    ],
  }),
  image: () => ({ content: [text("The chart:"), { type: "image", data: SMALL_PNG, mimeType: "image/png" }] }),
  big_image: () => ({ content: [text("The scan:"), { type: "image", data: BIG_PNG, mimeType: "image/png" }] }),
  audio: () => ({ content: [text("The clip:"), { type: "audio", data: WAV, mimeType: "audio/wav" }] }),
  link: () => ({
    content: [
      text("The report is linked."),
      { type: "resource_link", uri: "https://api.example/r/7?token=SECRET-LINK", name: "report.pdf", mimeType: "application/pdf" },
    ],
  }),
  // A link the fetch tool can open under a policy that allows `data:` (the `fetcher` tests).
  data_link: () => ({
    content: [
      text("The words are linked."),
      { type: "resource_link", uri: `data:text/plain;base64,${Buffer.from("The linked words.").toString("base64")}`, name: "words.txt", mimeType: "text/plain" },
    ],
  }),
  // The SDK checks what its handlers return: the block of no revision's type is added on the way
  // out (NewerBlockTransport), as a newer revision's server would send it.
  unknown: () => ({ content: [text("Kept beside the hologram.")], _meta: { newer: "hologram" } }),
  is_error: () => ({ content: [text("The city is unknown.")], isError: true }),
  structured: () => ({ content: [], structuredContent: { temperature: 21, unit: "C" } }),
  rpc_error: () => {
    throw new ProtocolError(-32602, "rpc_error: the argument is missing");
  },
  plain: () => ({ content: [text("Plain answer.")] }),
};

class NewerBlockTransport extends StdioServerTransport {
  send(message, options) {
    if (message.result?._meta?.newer === "hologram") {
      delete message.result._meta;
      message.result.content.push({ type: "hologram", frames: 3, uri: "holo://x?token=SECRET-HOLO" });
    }
    return super.send(message, options);
  }
}

serveStdio(() => {
  const server = new Server({ name: "framework-server", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", async () => ({
    tools: Object.keys(CASES).map((name) => ({ name, description: `The ${name} case.`, inputSchema: { type: "object", properties: {} } })),
  }));
  server.setRequestHandler("tools/call", async (request) => CASES[request.params.name]());
  return server;
}, { transport: new NewerBlockTransport() });
process.stdin.on("end", () => process.exit(0));
