"use strict";
// LangChain's MCP adapters (`@langchain/mcp-adapters` 1.x): `view(new MultiServerMCPClient(…))`,
// whose `getTools()` gives tools the model reads right.
//
//   const { view } = require("mcp-agent-view/langchain");
//   const client = view(new MultiServerMCPClient({ files: { command: "node", args: ["server.mjs"] } }));
//   const agent = createReactAgent({ llm, tools: await client.getTools() });
//
// `view` returns the same client. Its tools are the adapter's own (names, schemas, hooks,
// timeouts, header forks, progress all as configured) with one thing changed: the call their
// `func` makes is made raw, through the same MCP client's `request` (the SDK's `callTool`
// checks the result first and refuses a whole result for one block it does not know), and the
// result is shown as this package shows it before the adapter converts it: text, images as the
// adapter's image blocks, audio as its audio block, PDFs as a file block in the tool's content
// (the adapter would put an embedded resource in the artifact, where the model never reads it);
// a reference as its stub; no uri. A failed call (`isError` or a JSON-RPC error) is the adapter's
// `ToolException` with the server's words, which LangGraph's `ToolNode` (and so
// `createReactAgent`) gives the model as an error `ToolMessage`, and the run goes on.
// `structuredContent` is read as text where nothing else came, and is in the artifact as the
// adapter puts it there (`{ type: "mcp_structured_content", data }`), never in the content; the
// blocks for the user only are in the artifact as `{ type: "held_for_user", content }`.
//
// How: each tool's `func` runs in an AsyncLocalStorage scope naming the tool; the MCP SDK
// client's `callTool` (patched once on its class) answers a call of that tool, in that scope
// only, this way. Anywhere else `callTool` is the SDK's own.

const { AsyncLocalStorage } = require("node:async_hooks");
const mav = require("./index.js");
const { mcp } = mav;
const fetchTool = require("./fetch-tool.js");

const scope = new AsyncLocalStorage();
const VIEWED = Symbol.for("mcp-agent-view.langchain.viewed");

/**
 * @param {object} client a `MultiServerMCPClient` of `@langchain/mcp-adapters`
 * @param {{ registry?: import("./index.js").Registry, fetcher?: import("./index.js").fetch.Fetcher, onInput?: Function }} [options]
 */
function view(client, options) {
  if (client === null || typeof client !== "object" || typeof client.initializeConnections !== "function" || typeof client.getClient !== "function") {
    throw new TypeError("view takes a MultiServerMCPClient of @langchain/mcp-adapters");
  }
  const { registry, fetcher, tool, onInput } = fetchTool.options(options);
  if (client[VIEWED]) return client;

  // `getTools` and `getClient` open the connections through `initializeConnections`: every tool
  // the client hands out has been through here first.
  const initialize = client.initializeConnections.bind(client);
  let opening = false;
  client.initializeConnections = async (...args) => {
    const byServer = await initialize(...args);
    if (opening) return byServer;
    opening = true;
    try {
      for (const server of Object.keys(byServer)) {
        patchClass(await client.getClient(server));
        for (const tool of byServer[server]) viewTool(tool, registry, onInput);
      }
    } finally {
      opening = false;
    }
    return byServer;
  };
  if (tool !== undefined) {
    // The fetch tool is one more tool of the adapter's own class (its first tool's), made once.
    const getTools = client.getTools.bind(client);
    let made;
    client.getTools = async (...args) => {
      const tools = (await getTools(...args)).filter((t) => t.name !== tool.name);
      if (tools.length === 0) return tools;
      made ??= fetchToolOf(tools[0].constructor, tool, fetcher, registry, client.config?.useStandardContentBlocks === true);
      return [...tools, made];
    };
  }
  Object.defineProperty(client, VIEWED, { value: true });
  return client;
}

/** The fetch tool as a LangChain `DynamicStructuredTool` (`Tool`, the adapter's own class). */
function fetchToolOf(Tool, tool, fetcher, registry, standard) {
  return new Tool({
    name: tool.name,
    description: tool.description,
    schema: tool.inputSchema,
    responseFormat: "content_and_artifact",
    func: async (args, _runManager, config) => {
      const shown = await fetchTool.fetchReference(fetcher, args, config?.toolCall?.id ?? tool.name, registry);
      const words = shown.content.filter((block) => block.type === "text").map((block) => block.text);
      if (shown.isError) throw new Error(words.join("\n") || "The fetch failed.");
      const held = shown.heldForUser.length > 0 ? [{ type: "held_for_user", content: shown.heldForUser }] : [];
      return [shown.content.map((block) => part(block, standard)), held];
    },
  });
}

/** A neutral block as the adapter's content block. */
function part(block, standard) {
  if (block.type === "text") return standard ? { type: "text", source_type: "text", text: block.text } : { type: "text", text: block.text };
  if (block.type === "image" && !standard) return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
  const type = block.type === "document" ? "file" : block.type;
  return { type, source_type: "base64", data: block.data, mime_type: block.mimeType };
}

/** `callTool` of the MCP SDK's `Client` class, answered by `answer` inside a viewed tool's call. */
function patchClass(sdkClient) {
  const proto = sdkClient && Object.getPrototypeOf(sdkClient);
  if (!proto || typeof proto.callTool !== "function" || Object.prototype.hasOwnProperty.call(proto, VIEWED)) return;
  const callTool = proto.callTool;
  proto.callTool = function (params, resultSchema, options) {
    const call = scope.getStore();
    if (call === undefined || call.shown !== undefined || typeof params?.name !== "string" || !call.tool.endsWith(params.name)) {
      return callTool.apply(this, arguments);
    }
    return answer(this, call, params, options);
  };
  Object.defineProperty(proto, VIEWED, { value: true });
}

/** The call made raw and shown, as a result of the blocks the adapter converts right. */
async function answer(sdkClient, call, params, options) {
  const raw = await mcp.callTool(sdkClient, params.name, params.arguments ?? {}, { ...options, onInput: call.onInput });
  const shown = mav.toolResult(raw, { name: params.name, toolUseId: call.tool, registry: call.registry, target: "neutral" });
  call.shown = shown;
  call.structured = raw?.structuredContent;
  const content = shown.content.map((block) => {
    if (block.type !== "document") return block.type === "text" ? { type: "text", text: block.text } : { ...block };
    // An embedded blob with no uri: the adapter puts it in the artifact, and `func` moves it.
    const document = { type: "resource", resource: { mimeType: block.mimeType, blob: block.data } };
    call.documents.add(document);
    call.documents.add(block.data);
    return document;
  });
  return { content, isError: shown.isError };
}

/** `tool`'s calls made in a scope `answer` reads; documents moved to the content. */
function viewTool(tool, registry, onInput) {
  if (tool[VIEWED] || typeof tool.func !== "function") return;
  const func = tool.func;
  tool.func = async (...args) => {
    const call = { tool: tool.name, registry, onInput, documents: new Set(), shown: undefined, structured: undefined };
    const out = await scope.run(call, () => func.apply(tool, args));
    return call.shown === undefined || !Array.isArray(out) || out.length !== 2 ? out : settle(out, call);
  };
  Object.defineProperty(tool, VIEWED, { value: true });
}

/** The adapter's `[content, artifact]`, documents in the content, the user's blocks aside. */
function settle([content, artifact], call) {
  const parts = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? [...content] : [content];
  const kept = [];
  let moved = false;
  for (const item of Array.isArray(artifact) ? artifact : []) {
    if (call.documents.has(item)) {
      parts.push({ type: "file", source_type: "base64", data: item.resource.blob, mime_type: item.resource.mimeType });
      moved = true;
    } else if (item?.type === "file" && call.documents.has(item.data)) {
      parts.push({ type: "file", source_type: "base64", data: item.data, mime_type: item.mime_type });
      moved = true;
    } else {
      kept.push(item);
    }
  }
  if (call.structured !== undefined) kept.push({ type: "mcp_structured_content", data: call.structured });
  if (call.shown.heldForUser.length > 0) kept.push({ type: "held_for_user", content: call.shown.heldForUser });
  return [moved ? parts : content, kept];
}

module.exports = { view };
