import type { Registry } from "./index";

type Client = { initializeConnections(...args: any[]): Promise<unknown>; getClient(...args: any[]): Promise<unknown> };

/**
 * The same `@langchain/mcp-adapters` `MultiServerMCPClient`, whose tools' results are shown by
 * this package (`getTools()` and `initializeConnections()` give the viewed tools).
 */
export function view<C extends Client>(client: C, options?: { registry?: Registry }): C;
