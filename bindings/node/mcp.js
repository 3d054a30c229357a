"use strict";
// MCP requests through the official TypeScript SDK's `Client`, their answers raw.
//
// The SDK checks every result against its schema before a caller sees it, so a result it does
// not know (a block type from a newer revision, an unknown annotation role) is an exception and
// the whole answer is lost, its good blocks with it. These send the same request through the
// same client (its transport, session, headers, timeouts) with a result schema that takes any
// result, and return the answer as the server sent it, for `toolResult` to read block by block.
// A JSON-RPC error is returned as the error response `{ jsonrpc: "2.0", error: { code, message,
// data } }`, which `toolResult` shows as a failed call; so is the SDK's own for a timeout or a
// closed connection (-32001, -32000).
//
// A server of revision 2026-07-28 may answer with an input-required result: requests for the
// client (`elicitation/create`, `sampling/createMessage`, `roots/list`) and a state to echo.
// Each function answers them with `options.onInput` and asks again, at most `MAX_INPUT_ROUNDS`
// times; a request left unanswered, or rounds past the bound, end the call as an error response
// naming why. A task (`resultType: "task"`) is returned as it came, for `toolResult(…).pending`.
//
// Works with `@modelcontextprotocol/sdk` (1.x) and `@modelcontextprotocol/client` (2.x): the
// one schema below is a Standard Schema (what 2.x takes) and has a `safeParse` (what 1.x calls).
// Under protocol revision 2026-07-28 (2.x's `versionNegotiation: { mode: "auto" }`) the SDK also
// checks a spec method's result against its own schema; where it refuses one, the result the
// server sent is returned all the same, kept on its way in (`keepAsSent`).

const AS_SENT = {
  "~standard": { version: 1, vendor: "mcp-agent-view", validate: (value) => ({ value }) },
  safeParse: (data) => ({ success: true, data }),
};

const LOCAL_CODES = { REQUEST_TIMEOUT: -32001, CONNECTION_CLOSED: -32000 };

function errorResponse(e) {
  let code = e?.code;
  if (typeof code === "string" && code in LOCAL_CODES) code = LOCAL_CODES[code];
  if (!Number.isInteger(code) || typeof e?.message !== "string") return undefined;
  // SDK 1.x's McpError writes "MCP error <code>: " before the server's message.
  const message = e.name === "McpError" ? e.message.replace(/^MCP error -?\d+: /, "") : e.message;
  const error = { code, message };
  if (e.data !== undefined) error.data = e.data;
  return { jsonrpc: "2.0", error };
}

async function send(client, method, params, options) {
  if (!client || typeof client.request !== "function") {
    throw new TypeError("client is the MCP SDK's Client (connected)");
  }
  // Under 2026-07-28 the 2.x SDK would answer an input-required result itself, with the
  // client's own handlers: it is handed back instead, for `onInput` to answer.
  const requestOptions = { allowInputRequired: true };
  if (options?.timeout !== undefined) requestOptions.timeout = options.timeout;
  if (options?.signal !== undefined) requestOptions.signal = options.signal;
  const pending = client.request({ method, params }, AS_SENT, requestOptions);
  const asSent = keepAsSent(client);
  try {
    return await pending;
  } catch (e) {
    // Under protocol revision 2026-07-28 the 2.x SDK checks a spec method's result against its
    // own schema whatever schema the caller gives: the answer as the server sent it stands.
    const raw = asSent();
    if (raw !== undefined && e?.code === "INVALID_RESULT") return raw;
    const response = errorResponse(e);
    if (response === undefined) throw e;
    return response;
  }
}

/**
 * The result of the request `client.request` has just sent, as the server sent it (once it
 * arrives), kept by wrapping the SDK's own handler for the answer: `request` registers it, under
 * the newest id, before it returns. Where the SDK keeps no such handler, nothing is kept.
 */
function keepAsSent(client) {
  const handlers = client._responseHandlers;
  const id = client._requestMessageId - 1;
  const handler = handlers instanceof Map ? handlers.get(id) : undefined;
  if (typeof handler !== "function") return () => undefined;
  let raw;
  handlers.set(id, (response) => {
    if (!(response instanceof Error) && typeof response?.result === "object" && response.result !== null) {
      raw = response.result;
    }
    return handler(response);
  });
  return () => raw;
}

/**
 * What a host with no form, no model of its own and no roots answers an input request: an
 * elicitation declined, no roots, no sampling (`undefined`).
 */
function answerPlainly(method) {
  if (method === "elicitation/create") return { action: "decline" };
  if (method === "roots/list") return { roots: [] };
  return undefined;
}

/** An error response the lanes show as a failed request, in the client's own words. */
function failed(message) {
  return { jsonrpc: "2.0", error: { code: -32603, message } };
}

/**
 * The request, its input-required results (revision 2026-07-28) answered by `onInput` and the
 * request made again, at most `maxRounds` times. What the server asks is read by the package
 * (`pendingOf(raw)`: `toolResult(…).pending`), as every lane reads the answer.
 */
async function answered(reading, client, method, params, options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new TypeError("options is an object, or missing");
  }
  const onInput = options?.onInput ?? answerPlainly;
  if (typeof onInput !== "function") throw new TypeError("options.onInput is a function (method, params) => result");
  const maxRounds = options?.maxRounds ?? reading.maxInputRounds;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 0) throw new TypeError("options.maxRounds is a non-negative integer");
  let raw = await send(client, method, params, options);
  for (let round = 0; ; round++) {
    const result = raw?.jsonrpc !== undefined && raw?.result !== undefined ? raw.result : raw;
    if (result?.resultType !== "input_required") return raw;
    const pending = reading.pendingOf(raw);
    if (pending?.kind !== "input_required") return raw; // a failed call, as toolResult shows it
    if (round >= maxRounds) return failed(`the server asked for input more than ${maxRounds} times`);
    const inputResponses = {};
    for (const request of pending.requests) {
      const answer = await onInput(request.method, request.params);
      if (answer === undefined || answer === null) {
        return failed(`the server asked for ${request.method}, which this client does not answer`);
      }
      inputResponses[request.key] = answer;
    }
    const again = { ...params, inputResponses };
    delete again.requestState;
    if (pending.requestState !== undefined && pending.requestState !== null) again.requestState = pending.requestState;
    raw = await send(client, method, again, options);
  }
}

/** `{ name, arguments }`, without `arguments` where none are given. */
function named(name, args) {
  const params = { name };
  if (args !== undefined && args !== null) params.arguments = args;
  return params;
}

/**
 * The `mcp` namespace, reading what a server asks as the package reads it: `pendingOf(raw)`
 * gives `toolResult(raw).pending`, `maxInputRounds` the default bound. `index.js` makes the one
 * the package exports (`mav.mcp`); this file needs nothing of it.
 */
module.exports = function mcpNamespace(reading) {
  return {
    answerPlainly,
    /**
     * `tools/call`: the raw result, or the JSON-RPC error response. `options`: `timeout` in
     * milliseconds, `signal`, and for a server that asks first, `onInput(method, params)` (each
     * input request's result, or `undefined` where the host does not answer that kind;
     * `answerPlainly` by default) and `maxRounds` (`MAX_INPUT_ROUNDS`).
     */
    callTool: (client, name, args, options) => answered(reading, client, "tools/call", named(name, args), options),
    /** `prompts/get`: the raw result, or the JSON-RPC error response. */
    getPrompt: (client, name, args, options) => answered(reading, client, "prompts/get", named(name, args), options),
    /** `resources/read`: the raw result, or the JSON-RPC error response. */
    readResource: (client, uri, options) => answered(reading, client, "resources/read", { uri: String(uri) }, options),
  };
};
