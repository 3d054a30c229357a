"use strict";
// mcp-agent-view for Node: what an AI agent reads when content arrives from an MCP server.
// The native module (napi-rs, ./mcp-agent-view.node) does the work; this file writes a plain
// JS message out as JSON, parses what comes back, and gives errors their `kind`, `line` and
// `column`.

const native = require("./mcp-agent-view.node");

/** The targets and the provenances, from the crate's tables. */
const TARGETS = Object.freeze(native.targets());
const PROVENANCES = Object.freeze(native.provenances());

/** An error of this package: `kind` names the Rust `ErrorKind` ("Json", "UnknownReference", …). */
class McpAgentViewError extends Error {
  constructor(message, kind, line, column) {
    super(message);
    this.name = "McpAgentViewError";
    this.kind = kind;
    this.line = line;
    this.column = column;
  }
}

/** Runs a native call, its errors as `McpAgentViewError` (a bad argument as a `TypeError`). */
function call(f) {
  try {
    return f();
  } catch (e) {
    throw translated(e);
  }
}

/** napi-rs's own codes for a JS value of the wrong type: a TypeError, as the docs promise. */
const WRONG_TYPE = new Set([
  "InvalidArg", "ObjectExpected", "StringExpected", "NameExpected", "FunctionExpected", "NumberExpected",
  "BooleanExpected", "ArrayExpected", "BigintExpected", "DateExpected", "ArrayBufferExpected", "DetachableArraybufferExpected",
]);

function translated(e) {
  const code = typeof e?.code === "string" ? e.code : "";
  if (WRONG_TYPE.has(code)) return new TypeError(e.message);
  if (!code.startsWith("MCP_AGENT_VIEW:")) return e;
  const [, kind, line, column] = code.split(":");
  if (kind === "InvalidArg") return new TypeError(e.message);
  if (kind === "UnknownName") return new RangeError(e.message);
  const place = (n) => (n === "" ? undefined : Number(n));
  return new McpAgentViewError(e.message, kind, place(line), place(column));
}

/**
 * The JSON text or bytes of a message: a string, a Buffer or any other view of bytes (a typed
 * array or DataView, of this realm or another), an ArrayBuffer, or a plain JS value.
 */
function bytesOf(message, what = "message") {
  if (typeof message === "string" || message instanceof Uint8Array) return message;
  if (ArrayBuffer.isView(message)) return new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
  const tag = Object.prototype.toString.call(message);
  if (tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]") return new Uint8Array(message);
  const text = jsonOf(message, what);
  if (text === undefined) throw new TypeError(`${what} is a string, bytes, or a JSON value`);
  return text;
}

/** `value` as JSON text; a value JSON cannot hold (a bigint, a cycle) is a TypeError naming where. */
function jsonOf(value, what) {
  try {
    return JSON.stringify(value, function (key, v) {
      if (typeof v === "bigint") throw new TypeError(`${key === "" ? what : `${what}.${key}`} is a bigint, which JSON cannot hold`);
      return v;
    });
  } catch (e) {
    if (e instanceof TypeError && e.message.startsWith(what)) throw e;
    throw new TypeError(`${what} is no JSON value: ${e.message}`);
  }
}

/** An optional string argument: `fallback` where it is missing. */
function nameOf(value, what, fallback) {
  if (value === undefined || value === null) {
    if (fallback === REQUIRED) throw new TypeError(`${what} is a string, and required`);
    return fallback;
  }
  if (typeof value !== "string") throw new TypeError(`${what} is a string`);
  return value;
}

/** The `fallback` of an argument that has none. */
const REQUIRED = Symbol("required");

/** An options argument: an object, or missing. */
function optionsOf(options, what = "options") {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${what} is an object`);
  return options;
}

function targetOf(options, fallback) {
  return nameOf(options?.target, "target", fallback);
}

function registryOf(registry) {
  if (!(registry instanceof Registry)) throw new TypeError("registry is a Registry");
  return registry._native;
}

/** The references of one conversation: each stub's id maps back to its uri here. */
class Registry {
  /** `seed` (a non-negative integer or bigint) makes ids repeatable; `fetchTool` names the tool stubs point to. */
  constructor(options) {
    const { seed, fetchTool } = optionsOf(options);
    let text;
    if (seed !== undefined && seed !== null) {
      const ok = typeof seed === "bigint" || (Number.isSafeInteger(seed) && seed >= 0);
      if (!ok) throw new TypeError("seed is a non-negative integer");
      text = String(seed);
    }
    this._native = call(() => new native.Registry(text, nameOf(fetchTool, "fetchTool", undefined)));
  }

  /** The record behind a stub's id (`uri`, `name`, `mimeType`, …); an unknown id throws `UnknownReference`. */
  lookup(id) {
    return JSON.parse(call(() => this._native.lookup(nameOf(id, "id", REQUIRED))));
  }

  /** The registry as a JSON-serializable object, for `Registry.restore`. */
  snapshot() {
    return JSON.parse(call(() => this._native.snapshot()));
  }

  /** The registry a snapshot (the object, or its JSON) was taken of. */
  static restore(snapshot) {
    const registry = Object.create(Registry.prototype);
    registry._native = call(() => native.Registry.restore(bytesOf(snapshot, "snapshot")));
    return registry;
  }

  /** How many references it holds. */
  get size() {
    return this._native.size;
  }

  get fetchTool() {
    return this._native.fetchTool ?? undefined;
  }
}

/** One string for the conversation history, at most `budget` characters. */
function history(message, registry, options) {
  const { budget, provenance } = optionsOf(options);
  if (budget !== undefined && budget !== null && !(Number.isSafeInteger(budget) && budget >= 0)) {
    throw new TypeError("budget is a non-negative integer");
  }
  if (budget > 0xffffffff) throw new RangeError("budget is at most 4294967295 characters");
  return call(() =>
    native.historyText(bytesOf(message), registryOf(registry), budget ?? undefined, nameOf(provenance, "provenance", "tool-result")),
  );
}

/** Every block in the target's shape: `{ content, heldForUser }`. */
function convert(message, registry, options) {
  options = optionsOf(options);
  const provenance = nameOf(options.provenance, "provenance", "push-event");
  return JSON.parse(call(() => native.convertBlocks(bytesOf(message), registryOf(registry), targetOf(options, "neutral"), provenance)));
}

/** A script's JSON result with every block replaced. */
function script(message, registry, options) {
  options = optionsOf(options);
  return JSON.parse(call(() => native.scriptValue(bytesOf(message), registryOf(registry), targetOf(options, "neutral"))));
}

/**
 * The tool result the model reads for one call, a plain JS object that keeps no native value:
 * the JSON text of its part of a turn, which `toolResultMessages` puts together with no native
 * call, and its source (the server's answer), read again for its view (`content` in the
 * target's shape, `heldForUser` neutral, `pending`) the first time that is asked for, for
 * another target, or for its retry params.
 */
class ToolResult {
  #target;
  #parts;
  #view;
  #source;

  /** `source.shown(target, view)` gives the native JSON of its parts, or of its view. */
  constructor(target, source, toolUseId, name) {
    this.#target = target;
    this.#source = source;
    this.#parts = call(() => source.shown(target, false));
    /** The id of the `tool_use` this result answers. */
    this.toolUseId = toolUseId;
    /** The tool's name. */
    this.name = name ?? this.#viewed().name;
  }

  /** Whether the call failed. */
  get isError() {
    return this.#viewed().isError;
  }

  /** What the model reads, as blocks in the target's shape. */
  get content() {
    return this.#viewed().content;
  }

  /** The blocks held back for the user, in the neutral shape. */
  get heldForUser() {
    return this.#viewed().heldForUser;
  }

  /**
   * What the server asked instead of a result (revision 2026-07-28), or `undefined`:
   * `{ kind: "input_required", requests: [{ key, method, params }], requestState }` or
   * `{ kind: "task", taskId, status, pollIntervalMs }`.
   */
  get pending() {
    return this.#viewed().pending ?? undefined;
  }

  /**
   * The `tools/call` params that call the tool again: `arguments`, each request's answer under
   * its key (`responses`), and the server's `requestState`. Throws `InputResponses` where the
   * answers do not match the requests one to one, or the result asked for no input.
   */
  retryParams(args, responses) {
    if (responses === null || typeof responses !== "object" || Array.isArray(responses)) {
      throw new TypeError("responses is an object of each request's result by its key");
    }
    if (this.pending?.kind !== "input_required" || this.#source.retryParams === undefined) {
      throw new McpAgentViewError("this result asks for no input", "InputResponses", undefined, undefined);
    }
    return JSON.parse(call(() => this.#source.retryParams(jsonOf(args ?? {}, "arguments"), jsonOf(responses, "responses"))));
  }

  #viewed() {
    return (this.#view ??= JSON.parse(call(() => this.#source.shown(this.#target, true))));
  }

  toJSON() {
    const out = { toolUseId: this.toolUseId, name: this.name, content: this.content, isError: this.isError, heldForUser: this.heldForUser };
    if (this.pending !== undefined) out.pending = this.pending;
    return out;
  }

  [Symbol.for("nodejs.util.inspect.custom")](depth, options, inspect) {
    return `ToolResult ${inspect(this.toJSON(), options)}`;
  }

  /** A result's part of a turn for `target` (JSON text), or undefined for what is no `ToolResult`. */
  static partsOf(result, target) {
    if (!(result instanceof ToolResult)) return undefined;
    return target === result.#target ? result.#parts : call(() => result.#source.shown(target, false));
  }
}

/**
 * The tool result the model reads for one call: `{ toolUseId, name, content, isError, heldForUser }`.
 * Never throws on the message: an answer that is no JSON or no MCP message is a failed call.
 */
function toolResult(message, options) {
  const { name, toolUseId, registry, target } = optionsOf(options);
  const tool = nameOf(name, "name", REQUIRED);
  const id = nameOf(toolUseId, "toolUseId", REQUIRED);
  const reg = registryOf(registry);
  // Bytes are copied (a Buffer's own `slice` would not copy): the caller may fill the same
  // buffer again before this result is read again.
  const bytes = bytesOf(message);
  const input = typeof bytes === "string" ? bytes : Uint8Array.prototype.slice.call(bytes);
  const source = {
    shown: (t, view) => native.toolResult(input, tool, id, reg, t, view),
    retryParams: (args, responses) => native.toolResultRetryParams(input, tool, id, reg, args, responses),
  };
  return new ToolResult(nameOf(target, "target", "anthropic"), source, id, tool);
}

/** The tool result of a call that failed before any answer arrived. */
function toolCallFailed(name, toolUseId, error, options) {
  const { target } = optionsOf(options);
  const why = error instanceof Error ? error.message : String(error);
  const tool = nameOf(name, "name", REQUIRED);
  const id = nameOf(toolUseId, "toolUseId", REQUIRED);
  const source = { shown: (t, view) => native.toolCallFailed(tool, id, why, t, view) };
  return new ToolResult(nameOf(target, "target", "anthropic"), source, id, tool);
}

/**
 * Everything one turn's tool results add to the conversation, in the target's shape. Put
 * together here from each result's part (`Target::tool_result_parts` in the crate): the items,
 * in one `user` message where the target says so (Anthropic), else one after another; then,
 * where any result has attachments (OpenAI's media), one `user` message with them all.
 */
function toolResultMessages(results, options) {
  const { target } = optionsOf(options);
  const t = nameOf(target, "target", "anthropic");
  // The crate's own check (and its words), where no result's part would make it.
  if (!TARGETS.includes(t)) call(() => native.checkTarget(t));
  if (!Array.isArray(results)) throw new TypeError("results is an array of toolResult()s");
  const parts = results.map((r) => {
    const text = ToolResult.partsOf(r, t);
    if (text === undefined) throw new TypeError("each result comes from toolResult, toolCallFailed or fetchReference");
    return JSON.parse(text);
  });
  if (parts.length === 0) return [];
  const items = parts.map((p) => p.item);
  const messages = parts[0].oneUserMessage ? [{ content: items, role: "user" }] : items;
  const attachments = parts.flatMap((p) => p.attachments);
  if (attachments.length > 0) messages.push({ content: attachments, role: "user" });
  return messages;
}

/** MCP tools (as `tools/list` gives them) as the target's tool definitions. */
function toolDefinitions(tools, options) {
  const { target } = optionsOf(options);
  const list = Array.isArray(tools) ? tools : tools?.tools;
  if (!Array.isArray(list)) throw new TypeError("tools is an array of MCP tools (or a tools/list result)");
  return JSON.parse(call(() => native.toolDefinitions(jsonOf(list, "tools"), nameOf(target, "target", "anthropic"))));
}

/** A prompt's messages in the target's shape. */
function promptMessages(message, registry, options) {
  options = optionsOf(options);
  return JSON.parse(call(() => native.promptMessages(bytesOf(message), registryOf(registry), targetOf(options, "neutral"))));
}

/**
 * A `sampling/createMessage` request (its params, the request or the JSON-RPC request) as the
 * host's own model reads it: `{ messages (the target's shape), systemPrompt, maxTokens, … }`.
 */
function samplingRequest(message, registry, options) {
  options = optionsOf(options);
  return JSON.parse(call(() => native.samplingRequest(bytesOf(message), registryOf(registry), targetOf(options, "neutral"))));
}

/** An `elicitation/create` request's words, cleaned for the person it asks. */
function elicitation(message) {
  return JSON.parse(call(() => native.elicitation(bytesOf(message))));
}

/** How many input rounds `mcp.callTool` answers before it gives up. */
const MAX_INPUT_ROUNDS = native.maxInputRounds();

/** Raw MCP requests; what a server asks (an input-required answer) read as every lane reads an answer. */
const mcp = require("./mcp.js")({
  pendingOf: (raw) => toolResult(raw, { name: "call", toolUseId: "call", registry: new Registry() }).pending,
  maxInputRounds: MAX_INPUT_ROUNDS,
});

/** Every block's class and the fields that decided it, an object a block. */
function classify(message) {
  return JSON.parse(call(() => native.classify(bytesOf(message))));
}

/** Fetching what a reference stub names, when the model calls the fetch tool. */
const fetch = {
  /** The fetch tool's definition in the target's shape; its input is `{ ref_id }`. */
  toolDefinition(target, name) {
    return JSON.parse(
      call(() => native.fetchToolDefinition(nameOf(target, "target", "anthropic"), nameOf(name, "name", "fetch_reference"))),
    );
  },

  /**
   * A fetcher under a policy: `{ maxBytes, allowSchemes, origin, bearer, allowOrigins, timeoutMs,
   * maxRedirects, crossOriginRedirects, allowFilesUnder, allowHardLinks, saveDir }` (https and public addresses
   * only, 16 MiB, 30 s, 3 redirects unless told).
   */
  Fetcher: class Fetcher {
    constructor(policy) {
      if (policy !== undefined && (typeof policy !== "object" || policy === null || Array.isArray(policy))) {
        throw new TypeError("policy is an object of settings");
      }
      this._native = call(() => new native.Fetcher(jsonOf(policy ?? {}, "policy")));
    }

    get maxBytes() {
      return this._native.maxBytes;
    }

    /**
     * Answers one fetch-tool call off the main thread: `input` is the call's arguments
     * (`{ ref_id }`, or its JSON text). Resolves to a tool result; a refusal is a failed call
     * naming the reason, never the uri.
     */
    async fetchReference(input, toolUseId, registry, options) {
      const { target } = optionsOf(options);
      const t = nameOf(target, "target", "anthropic");
      const text = typeof input === "string" ? input : jsonOf(input ?? null, "input");
      const pending = call(() => this._native.fetchReference(text, nameOf(toolUseId, "toolUseId", REQUIRED), registryOf(registry), t));
      let output;
      try {
        output = await pending;
      } catch (e) {
        // The native task rejects with napi's GenericFailure only where the fetch panicked.
        if (e?.code === "GenericFailure") throw new McpAgentViewError(e.message, "Panic", undefined, undefined);
        throw translated(e);
      }
      return new ToolResult(t, { shown: (target, view) => native.fetchedShown(output, target, view) }, toolUseId);
    }
  },
};

module.exports = {
  MAX_INPUT_ROUNDS,
  McpAgentViewError,
  PROVENANCES,
  Registry,
  TARGETS,
  ToolResult,
  classify,
  convert,
  elicitation,
  fetch,
  history,
  mcp,
  promptMessages,
  samplingRequest,
  script,
  toolCallFailed,
  toolDefinitions,
  toolResult,
  toolResultMessages,
};
