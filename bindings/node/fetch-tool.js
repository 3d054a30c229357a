"use strict";
// The options every framework integration takes, and the fetch tool they add with a `fetcher`.
//
// `registry`: the references of the tools' results (one of its own per `view` by default, which
// names the fetch tool in its stubs when there is one). `fetcher`: a `fetch.Fetcher`; with it the
// framework gets one more tool, the registry's fetch tool (`fetch_reference` unless the registry
// names another), which opens a stub's reference under the fetcher's policy and answers as the
// MCP tools do. `onInput`: answers what a server asks before it answers (revision 2026-07-28),
// as `mcp.callTool` takes it (`mcp.answerPlainly` by default).

const mav = require("./index.js");

/** `{ registry, fetcher, tool, onInput }` from `view`'s options; `tool` is the neutral definition or undefined. */
function options(given) {
  if (given !== undefined && (given === null || typeof given !== "object")) {
    throw new TypeError("options is an object, or missing");
  }
  const fetcher = given?.fetcher;
  if (fetcher !== undefined && !(fetcher instanceof mav.fetch.Fetcher)) {
    throw new TypeError("options.fetcher is a fetch.Fetcher");
  }
  const registry = given?.registry ?? new mav.Registry(fetcher ? { fetchTool: "fetch_reference" } : undefined);
  if (!(registry instanceof mav.Registry)) throw new TypeError("options.registry is a Registry");
  const tool = fetcher ? mav.fetch.toolDefinition("neutral", registry.fetchTool ?? "fetch_reference") : undefined;
  const onInput = given?.onInput;
  if (onInput !== undefined && typeof onInput !== "function") {
    throw new TypeError("options.onInput is a function (method, params) => result");
  }
  return { registry, fetcher, tool, onInput };
}

/** The fetch tool's answer to `input`, a neutral `ToolResult`. */
function fetchReference(fetcher, input, toolUseId, registry) {
  return fetcher.fetchReference(input ?? {}, String(toolUseId), registry, { target: "neutral" });
}

module.exports = { options, fetchReference };
