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

type Server = { callTool(...args: any[]): Promise<unknown>; connect(): Promise<void> };

/**
 * The same @openai/agents MCP server (`MCPServerStdio`, `MCPServerStreamableHttp`,
 * `MCPServerSSE`), its `callTool` and `callToolResult` answered by this package.
 */
export function view<S extends Server>(server: S, options?: ViewOptions): S;
