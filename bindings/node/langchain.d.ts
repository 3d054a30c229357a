import type { Registry, fetch, mcp } from "./index";

/**
 * `registry`: the references of the tools' results (one of its own by default). `fetcher`: with
 * it the framework gets one more tool, the registry's fetch tool (`fetch_reference` unless the
 * registry names another), which opens a stub's reference under the fetcher's policy.
 * `onInput`: answers what a server asks before it answers (revision 2026-07-28), as
 * `mcp.callTool` takes it (`mcp.answerPlainly` by default).
 */
export interface ViewOptions {
  registry?: Registry;
  fetcher?: fetch.Fetcher;
  onInput?: mcp.OnInput;
}

type Client = { initializeConnections(...args: any[]): Promise<unknown>; getClient(...args: any[]): Promise<unknown> };

/**
 * The same `@langchain/mcp-adapters` `MultiServerMCPClient`, whose tools' results are shown by
 * this package (`getTools()` and `initializeConnections()` give the viewed tools).
 */
export function view<C extends Client>(client: C, options?: ViewOptions): C;
