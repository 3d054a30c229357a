import type { Registry } from "./index";

type Server = { callTool(...args: any[]): Promise<unknown>; connect(): Promise<void> };

/**
 * The same @openai/agents MCP server (`MCPServerStdio`, `MCPServerStreamableHttp`,
 * `MCPServerSSE`), its `callTool` and `callToolResult` answered by this package.
 */
export function view<S extends Server>(server: S, options?: { registry?: Registry }): S;
