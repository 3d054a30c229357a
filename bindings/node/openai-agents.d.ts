import type { Registry, fetch } from "./index";

/**
 * `registry`: the references of the tools' results (one of its own by default). `fetcher`: with
 * it the framework gets one more tool, the registry's fetch tool (`fetch_reference` unless the
 * registry names another), which opens a stub's reference under the fetcher's policy.
 */
export interface ViewOptions {
  registry?: Registry;
  fetcher?: fetch.Fetcher;
}

type Server = { callTool(...args: any[]): Promise<unknown>; connect(): Promise<void> };

/**
 * The same @openai/agents MCP server (`MCPServerStdio`, `MCPServerStreamableHttp`,
 * `MCPServerSSE`), its `callTool` and `callToolResult` answered by this package.
 */
export function view<S extends Server>(server: S, options?: ViewOptions): S;
