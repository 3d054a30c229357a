"use strict";
// The AI SDK (`ai` 6, `@ai-sdk/mcp` 1): `view(await createMCPClient(…))`, whose `tools()` gives
// tools the model reads right.
//
//   const { view } = require("mcp-agent-view/ai-sdk");
//   const client = view(await createMCPClient({ transport }));
//   const result = await generateText({ model, tools: await client.tools(), prompt, stopWhen });
//
// The client returned is the same client (a Proxy: every method and property is its own) whose
// `tools()` and `toolsFromDefinitions()` give the same tools with two things changed: `execute`
// sends the call through the client's own `request` and takes the result as sent (the SDK's
// schema would refuse a whole result for one block it does not know: "Failed to parse server
// response"), and `toModelOutput` shows it as this package shows it, in the SDK's own parts:
// text, `image-data`, and `file-data` for audio and documents; a reference as its stub; no uri.
// A failed call (`isError`, or a JSON-RPC error, which no longer throws) is `error-text`: the
// model reads the server's words as a failed tool call and the run goes on. What `execute`
// returns (the step's tool result, for the application) is
// `{ content, isError, heldForUser, structuredContent }`: the blocks for the user only are there,
// never in the model's view.

const mav = require("./index.js");
const fetchTool = require("./fetch-tool.js");

/** A result "schema" that keeps the result as sent. */
const AS_SENT = { parse: (result) => result };

/**
 * @param {object} client what `createMCPClient` returns
 * @param {{ registry?: import("./index.js").Registry, fetcher?: import("./index.js").fetch.Fetcher }} [options]
 */
function view(client, options) {
  if (client === null || typeof client !== "object" || typeof client.tools !== "function" || typeof client.request !== "function") {
    throw new TypeError("view takes the client createMCPClient (@ai-sdk/mcp) returns");
  }
  const settings = fetchTool.options(options);
  return new Proxy(client, {
    get(target, property) {
      if (property === "tools") return async (...args) => viewed(client, await client.tools(...args), settings);
      if (property === "toolsFromDefinitions") {
        return (...args) => viewed(client, client.toolsFromDefinitions(...args), settings);
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `tools` with their calls made raw and shown by this package; the fetch tool with a fetcher. */
function viewed(client, tools, { registry, fetcher, tool }) {
  const out = Object.create(null);
  for (const [name, tool] of Object.entries(tools)) {
    out[name] = {
      ...tool,
      execute: async (args, options) => {
        const signal = options?.abortSignal;
        signal?.throwIfAborted();
        let raw;
        try {
          raw = await client.request({
            request: { method: "tools/call", params: { name, arguments: args } },
            resultSchema: AS_SENT,
            options: { signal },
          });
        } catch (e) {
          // The server's JSON-RPC error carries its code; anything else (an abort, a closed
          // connection) is the SDK's to report.
          if (typeof e?.code !== "number" || signal?.aborted) throw e;
          raw = { jsonrpc: "2.0", error: { code: e.code, message: String(e.message), ...(e.data === undefined ? {} : { data: e.data }) } };
        }
        const shown = mav.toolResult(raw, { name, toolUseId: options?.toolCallId ?? name, registry, target: "neutral" });
        return {
          content: shown.content,
          isError: shown.isError,
          heldForUser: shown.heldForUser,
          structuredContent: raw?.structuredContent,
        };
      },
      toModelOutput: ({ output }) => modelOutput(output),
    };
  }
  if (tool !== undefined) {
    out[tool.name] = {
      type: "dynamic",
      description: tool.description,
      inputSchema: schema(tool.inputSchema),
      execute: async (input, options) => {
        const shown = await fetchTool.fetchReference(fetcher, input, options?.toolCallId ?? tool.name, registry);
        return { content: shown.content, isError: shown.isError, heldForUser: shown.heldForUser };
      },
      toModelOutput: ({ output }) => modelOutput(output),
    };
  }
  return out;
}

/** A JSON schema as the SDK's `jsonSchema(…)` makes it (its global symbol), with no validation. */
function schema(jsonSchema) {
  return { [Symbol.for("vercel.ai.schema")]: true, _type: undefined, jsonSchema, validate: undefined };
}

/** What the model reads of one call: the SDK's `ToolResultOutput`. */
function modelOutput(output) {
  if (output.isError) {
    const words = output.content.filter((block) => block.type === "text").map((block) => block.text);
    return { type: "error-text", value: words.join("\n") || "The tool call failed." };
  }
  return { type: "content", value: output.content.map(part) };
}

function part(block) {
  switch (block.type) {
    case "image":
      return { type: "image-data", data: block.data, mediaType: block.mimeType };
    case "audio":
    case "document":
      return { type: "file-data", data: block.data, mediaType: block.mimeType };
    default:
      return { type: "text", text: block.text ?? "" };
  }
}

module.exports = { view };
