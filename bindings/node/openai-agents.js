"use strict";
// The OpenAI Agents SDK (`@openai/agents`): `view(new MCPServerStdio(…))` (or any of its MCP
// servers) for `new Agent({ mcpServers: […] })`.
//
//   const { view } = require("mcp-agent-view/openai-agents");
//   const server = view(new MCPServerStdio({ command: "node", args: ["server.mjs"] }));
//   await server.connect();
//   const agent = new Agent({ name: "assistant", mcpServers: [server] });
//
// `view` returns the same server, its `callTool` and `callToolResult` answered by this package:
// the call goes through the server's own MCP client and its result is taken as sent (the SDK's
// check would refuse a whole result for one block it does not know), then shown as this package
// shows it for OpenAI's Responses API, in the SDK's own tool output items: `text`, `image`, and
// `file` for PDFs; audio, which that API does not take in a tool output, as its marker; a
// reference as its stub; no uri. The SDK turns a whole list into one JSON string when one item
// is anything else: every item here is one of those three. A failed call (`isError` or a
// JSON-RPC error) is one text saying so (`[tool returned an error]` and the server's words, as
// the package writes a failed call for OpenAI's APIs) and the run goes on; it does not throw,
// which the SDK's default error function would answer with words of its own.
// `structuredContent` is read where nothing else came. Blocks for the user only are kept from
// the model; the SDK has nowhere to carry them.

const mav = require("./index.js");
const { mcp } = mav;
const fetchTool = require("./fetch-tool.js");

/**
 * @param {object} server an `MCPServerStdio`, `MCPServerStreamableHttp` or `MCPServerSSE`
 * @param {{ registry?: import("./index.js").Registry, fetcher?: import("./index.js").fetch.Fetcher, onInput?: Function }} [options]
 */
function view(server, options) {
  if (server === null || typeof server !== "object" || typeof server.callTool !== "function" || typeof server.connect !== "function") {
    throw new TypeError("view takes an MCP server of @openai/agents (MCPServerStdio, MCPServerStreamableHttp, MCPServerSSE)");
  }
  const { registry, fetcher, tool, onInput } = fetchTool.options(options);
  const unviewed = server.callToolResult?.bind(server) ?? server.callTool.bind(server);

  async function callToolResult(toolName, args, meta, callOptions) {
    let shown;
    if (tool !== undefined && toolName === tool.name) {
      shown = await fetcher.fetchReference(args ?? {}, toolName, registry, { target: "openai-responses" });
    } else {
      const client = server.underlying?.session ?? server.session;
      if (!client) return unviewed(toolName, args, meta, callOptions); // the SDK's own "not connected"
      const raw = await mcp.callTool(client, toolName, args ?? {}, { signal: callOptions?.signal, onInput });
      shown = mav.toolResult(raw, { name: toolName, toolUseId: toolName, registry, target: "openai-responses" });
    }
    if (shown.isError) {
      const [message] = mav.toolResultMessages([shown], { target: "openai-chat" });
      return { content: [{ type: "text", text: message.content }], isError: true };
    }
    return { content: shown.content.map(item) };
  }

  if (tool !== undefined) {
    const listTools = server.listTools.bind(server);
    server.listTools = async (...args) => [...(await listTools(...args)).filter((t) => t.name !== tool.name), tool];
  }
  server.callToolResult = callToolResult;
  server.callTool = async (...args) => (await callToolResult(...args)).content;
  return server;
}

/** A Responses API input part as the SDK's tool output item. */
function item(part) {
  switch (part.type) {
    case "input_image":
      return { type: "image", image: part.image_url, ...(part.detail ? { detail: part.detail } : {}) };
    case "input_file": {
      const [, mediaType, data] = /^data:([^;,]+);base64,(.*)$/s.exec(part.file_data) ?? [];
      return { type: "file", file: { data, mediaType, filename: part.filename } };
    }
    default:
      return { type: "text", text: part.text ?? "" };
  }
}

module.exports = { view };
