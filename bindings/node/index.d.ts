// Types of mcp-agent-view for Node (checked by test/types.test.mjs with tsc --strict).

/** A JSON value, as `JSON.parse` gives it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A message: its JSON text, its bytes (any view of them, or the buffer), or a plain JS value
 * (what `JSON.stringify` writes). */
export type Message = string | ArrayBufferView | ArrayBuffer | SharedArrayBuffer | unknown;

/** `"neutral"`, `"anthropic"`, `"openai-chat"`, `"openai-responses"`. */
export type Target = "neutral" | "anthropic" | "openai-chat" | "openai-responses";

/** Where content arrived. */
export type Provenance =
  | "tool-result"
  | "push-event"
  | "channel-message"
  | "context-injection"
  | "script-result"
  | "prompt";

/** The targets, in order. */
export const TARGETS: readonly Target[];

/**
 * An error of this package. `kind` names the Rust `ErrorKind` (`"Json"`, `"UnrecognizedMessage"`,
 * `"UnknownReference"`, `"ToolName"`, `"Policy"`, …); `line` and `column` are set for `"Json"`.
 * A bad argument is a `TypeError`, an unknown target or provenance a `RangeError`.
 */
export class McpAgentViewError extends Error {
  readonly kind: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
}

/** A reference's record, as the CLI's `fetch` prints it. */
export interface ReferenceRecord {
  id: string;
  uri: string;
  source: string;
  name?: string | null;
  mimeType?: string | null;
  sizeBytes?: number | null;
  disposition?: string | null;
  expiresAt?: string | null;
  digest?: string | null;
  verified?: Json;
  connection?: string | null;
  [key: string]: Json | undefined;
}

/** The references of one conversation: each stub's id maps back to its uri here. */
export class Registry {
  constructor(options?: { seed?: number | bigint; fetchTool?: string });
  /** The record behind a stub's id; an id never issued, or evicted, throws `UnknownReference`. */
  lookup(id: string): ReferenceRecord;
  /** The registry as a JSON-serializable object. */
  snapshot(): Json;
  /** The registry a snapshot (the object or its JSON) was taken of. */
  static restore(snapshot: Message): Registry;
  readonly size: number;
  readonly fetchTool: string | undefined;
}

/**
 * The tool result the model reads for one call (made by `toolResult`, `toolCallFailed` and
 * `fetch.Fetcher.fetchReference`; `toolResultMessages` takes no other). `content` and
 * `heldForUser` are read from the native result when first asked for.
 */
export class ToolResult {
  private constructor();
  /** The id of the `tool_use` this result answers. */
  readonly toolUseId: string;
  /** The tool's name. */
  readonly name: string;
  /** What the model reads, as blocks in the target's shape. */
  readonly content: Json[];
  /** Whether the call failed. */
  readonly isError: boolean;
  /** The blocks held back for the user, in the neutral shape. */
  readonly heldForUser: Json[];
  toJSON(): { toolUseId: string; name: string; content: Json[]; isError: boolean; heldForUser: Json[] };
}

/** One string for the conversation history, at most `budget` characters. */
export function history(message: Message, registry: Registry, options?: { budget?: number; provenance?: Provenance }): string;

/** Every block in the target's shape (what the CLI's `blocks --target` prints). */
export function convert(
  message: Message,
  registry: Registry,
  options?: { target?: Target; provenance?: Provenance },
): { content: Json[]; heldForUser: Json[] };

/** A script's JSON result with every block replaced. */
export function script(message: Message, registry: Registry, options?: { target?: Target }): Json;

/** The tool result for one call's answer; never throws on the message (an unreadable answer is a failed call). */
export function toolResult(
  message: Message,
  options: { name: string; toolUseId: string; registry: Registry; target?: Target },
): ToolResult;

/** The tool result of a call that failed before any answer arrived. */
export function toolCallFailed(name: string, toolUseId: string, error: unknown, options?: { target?: Target }): ToolResult;

/** Everything one turn's tool results add to the conversation, in the target's shape. */
export function toolResultMessages(results: readonly ToolResult[], options?: { target?: Target }): Json[];

/** MCP tools (or a `tools/list` result) as the target's tool definitions. */
export function toolDefinitions(
  tools: readonly { name: string; description?: string; inputSchema?: unknown }[] | { tools: readonly unknown[] },
  options?: { target?: Target },
): any[];

/** A prompt's messages in the target's shape. */
export function promptMessages(message: Message, registry: Registry, options?: { target?: Target }): Json[];

/** Every block's class and the fields that decided it. */
export function classify(message: Message): { [key: string]: Json }[];

/** A JSON-RPC error response, as `mcp.*` returns a failed request. */
export interface ErrorResponse {
  jsonrpc: "2.0";
  error: { code: number; message: string; data?: unknown };
}

/** Requests whose answers arrive as the server sent them (no SDK schema check). */
export namespace mcp {
  /** The official SDK's `Client` (`@modelcontextprotocol/sdk` or `@modelcontextprotocol/client`), connected. */
  type Client = { request(...args: any[]): Promise<unknown> };
  type Options = { timeout?: number; signal?: AbortSignal };
  function callTool(client: Client, name: string, args?: { [key: string]: unknown }, options?: Options): Promise<{ [key: string]: any }>;
  function getPrompt(client: Client, name: string, args?: { [key: string]: string }, options?: Options): Promise<{ [key: string]: any }>;
  function readResource(client: Client, uri: string, options?: Options): Promise<{ [key: string]: any }>;
}

/** Fetching what a reference stub names, when the model calls the fetch tool. */
export namespace fetch {
  /** The fetch tool's definition in the target's shape; its input is `{ ref_id }`. */
  function toolDefinition(target?: Target, name?: string): any;

  interface Policy {
    /** The ceiling on one fetch's decoded bytes (16 MiB). */
    maxBytes?: number;
    /** Schemes besides `https` (`http`, `data`); `file` only through `allowFilesUnder`. */
    allowSchemes?: string[];
    /** The origin the connection was dialed to: the one that gets `bearer`. */
    origin?: string;
    bearer?: string;
    /** Origins allowed although their addresses are not public. */
    allowOrigins?: string[];
    /** One whole fetch (30000). */
    timeoutMs?: number;
    maxRedirects?: number;
    crossOriginRedirects?: boolean;
    /** `file:` references to regular files beneath this directory, through no symlink or `..`. */
    allowFilesUnder?: string;
    /** Allow a file with more than one link there (refused by default). */
    allowHardLinks?: boolean;
    /** Where verified bytes are saved, as `<ref id>.<extension>`. */
    saveDir?: string;
  }

  class Fetcher {
    constructor(policy?: Policy);
    readonly maxBytes: number;
    /** Answers one fetch-tool call off the main thread; a refusal is a failed call naming the reason, never the uri. */
    fetchReference(input: unknown, toolUseId: string, registry: Registry, options?: { target?: Target }): Promise<ToolResult>;
  }
}
