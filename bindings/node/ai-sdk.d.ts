import type { Registry, Shapes, fetch } from "./index";

/**
 * `registry`: the references of the tools' results (one of its own by default). `fetcher`: with
 * it the framework gets one more tool, the registry's fetch tool (`fetch_reference` unless the
 * registry names another), which opens a stub's reference under the fetcher's policy.
 */
export interface ViewOptions {
  registry?: Registry;
  fetcher?: fetch.Fetcher;
}

/** What a viewed tool's `execute` returns (the step's tool result, for the application). */
export interface ViewedOutput {
  /** The blocks the model reads, neutral. */
  content: Shapes.NeutralBlock[];
  /** A failed call (`isError` or a JSON-RPC error): the model reads it as `error-text`. */
  isError: boolean;
  /** The blocks for the user only, never in the model's view. */
  heldForUser: Shapes.NeutralBlock[];
  /** The result's `structuredContent` as sent. */
  structuredContent?: unknown;
}

type Client = { tools(...args: any[]): Promise<Record<string, any>> };
type ToolsOf<C extends Client> = Awaited<ReturnType<C["tools"]>>;

/** A tool of a viewed client: the client's own, but for what `execute` resolves to. */
export type ViewedTool<T> = Omit<T, "execute"> & {
  execute(input: any, options: { toolCallId: string; abortSignal?: AbortSignal; [key: string]: unknown }): Promise<ViewedOutput>;
};

/** A viewed client: the client's own type, but for what its tools' `execute` resolves to. */
export type Viewed<C extends Client> = Omit<C, "tools"> & {
  tools(...args: Parameters<C["tools"]>): Promise<{ [K in keyof ToolsOf<C>]: ViewedTool<ToolsOf<C>[K]> }>;
};

/**
 * The client `createMCPClient` (@ai-sdk/mcp 1.x) returns, whose `tools()` give tools that call
 * raw and whose `toModelOutput` is this package's. The same client otherwise.
 */
export function view<C extends Client>(client: C, options?: ViewOptions): Viewed<C>;
