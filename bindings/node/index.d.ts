// Types of mcp-agent-view for Node (checked by test/types.test.mjs with tsc --strict).

/** A JSON value, as `JSON.parse` gives it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A message: its JSON text, its bytes (any view of them, or the buffer), or a plain JS object
 * or array (what `JSON.stringify` writes: an SDK's result object as it came). */
export type Message = string | ArrayBufferView | ArrayBuffer | SharedArrayBuffer | object;

/** `"neutral"`, `"anthropic"`, `"openai-chat"`, `"openai-responses"`. */
export type Target = "neutral" | "anthropic" | "openai-chat" | "openai-responses";

/**
 * What each target writes, as its API takes it: structurally the provider SDKs' own types
 * (`@anthropic-ai/sdk`'s `MessageParam`, `openai`'s `ChatCompletionMessageParam` and
 * `ResponseInputItem`), so the outputs go into their requests unconverted.
 */
export namespace Shapes {
  /** The neutral shape: the crate's own, a block as MCP names its kinds. */
  type NeutralBlock =
    | { type: "text"; text: string }
    | { type: "image" | "audio" | "document"; data: string; mimeType: string };
  interface NeutralMessage {
    role: "user" | "assistant";
    content: NeutralBlock[];
  }
  interface NeutralToolResult {
    type: "tool_result";
    toolUseId: string;
    name: string;
    content: NeutralBlock[];
    isError: boolean;
  }

  /** Anthropic Messages: text, images (the four types it takes) and PDF documents. */
  type AnthropicBlock =
    | { type: "text"; text: string }
    | { type: "image"; source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string } }
    | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } };
  interface AnthropicToolResultBlock {
    type: "tool_result";
    tool_use_id: string;
    content: AnthropicBlock[];
    is_error: boolean;
  }
  interface AnthropicMessage {
    role: "user" | "assistant";
    content: AnthropicBlock[];
  }
  /** One turn's tool results: one user message. */
  interface AnthropicToolResultMessage {
    role: "user";
    content: AnthropicToolResultBlock[];
  }

  /** OpenAI Chat Completions: a user message's parts. */
  type OpenAIChatPart =
    | { type: "text"; text: string }
    | { type: "image_url"; image_url: { url: string } }
    | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } }
    | { type: "file"; file: { file_data: string; filename: string } };
  interface OpenAIChatUserMessage {
    role: "user";
    content: OpenAIChatPart[];
  }
  interface OpenAIChatAssistantMessage {
    role: "assistant";
    content: string;
  }
  /** A tool call's answer as text; its media follow in one user message after the turn's. */
  interface OpenAIChatToolMessage {
    role: "tool";
    tool_call_id: string;
    content: string;
  }

  /** OpenAI Responses: a user message's parts. */
  type OpenAIResponsesPart =
    | { type: "input_text"; text: string }
    | { type: "input_image"; image_url: string; detail: "low" | "high" | "auto" }
    | { type: "input_file"; file_data: string; filename: string };
  interface OpenAIResponsesUserMessage {
    role: "user";
    content: OpenAIResponsesPart[];
  }
  interface OpenAIResponsesAssistantMessage {
    role: "assistant";
    content: string;
  }
  interface OpenAIResponsesFunctionCallOutput {
    type: "function_call_output";
    call_id: string;
    output: string;
  }
}

/** A block of content, in each target's shape. */
export interface BlockOf {
  neutral: Shapes.NeutralBlock;
  anthropic: Shapes.AnthropicBlock;
  "openai-chat": Shapes.OpenAIChatPart;
  "openai-responses": Shapes.OpenAIResponsesPart;
}

/** A prompt's message, in each target's shape. */
export interface PromptMessageOf {
  neutral: Shapes.NeutralMessage;
  anthropic: Shapes.AnthropicMessage;
  "openai-chat": Shapes.OpenAIChatUserMessage | Shapes.OpenAIChatAssistantMessage;
  "openai-responses": Shapes.OpenAIResponsesUserMessage | Shapes.OpenAIResponsesAssistantMessage;
}

/** What one turn's tool results add to the conversation, an item at a time, in each target's shape. */
export interface ToolTurnItemOf {
  neutral: Shapes.NeutralToolResult;
  anthropic: Shapes.AnthropicToolResultMessage;
  "openai-chat": Shapes.OpenAIChatToolMessage | Shapes.OpenAIChatUserMessage;
  "openai-responses": Shapes.OpenAIResponsesFunctionCallOutput | Shapes.OpenAIResponsesUserMessage;
}

/** Where content arrived. */
export type Provenance =
  | "tool-result"
  | "push-event"
  | "channel-message"
  | "context-injection"
  | "script-result"
  | "prompt"
  | "sampling";

/** The targets, in order: the crate's table (`test/types.test.mjs` holds `Target` to it). */
export const TARGETS: readonly Target[];

/** The provenances, in order: the crate's table (`test/types.test.mjs` holds `Provenance` to it). */
export const PROVENANCES: readonly Provenance[];

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
  snapshot(): { [key: string]: Json };
  /** The registry a snapshot (the object or its JSON) was taken of. */
  static restore(snapshot: Message): Registry;
  readonly size: number;
  readonly fetchTool: string | undefined;
}

/**
 * The tool result the model reads for one call (made by `toolResult`, `toolCallFailed` and
 * `fetch.Fetcher.fetchReference`; `toolResultMessages` takes no other). A plain JS object that
 * keeps no native value: its part of a turn is made with it; `content`, `heldForUser`,
 * `pending` and `isError` are read from the server's answer again when first asked for (the
 * registry gives each uri the id it gave before).
 */
export class ToolResult<T extends Target = Target> {
  private constructor();
  /** The id of the `tool_use` this result answers. */
  readonly toolUseId: string;
  /** The tool's name. */
  readonly name: string;
  /** What the model reads, as blocks in the target's shape. */
  readonly content: BlockOf[T][];
  /** Whether the call failed. */
  readonly isError: boolean;
  /** The blocks held back for the user, in the neutral shape. */
  readonly heldForUser: Shapes.NeutralBlock[];
  /** What the server asked instead of a result (revision 2026-07-28), or `undefined`. */
  readonly pending: Pending | undefined;
  /**
   * The `tools/call` params that call the tool again: `args`, each request's answer under its
   * key, and the server's `requestState`. Throws `InputResponses` where the answers do not
   * match the requests one to one, or the result asked for no input.
   */
  retryParams(args: unknown, responses: { [key: string]: Json }): { name: string; arguments: Json; inputResponses: { [key: string]: Json }; requestState?: string };
  toJSON(): { toolUseId: string; name: string; content: BlockOf[T][]; isError: boolean; heldForUser: Shapes.NeutralBlock[]; pending?: Pending };
}

/** One request of an input-required result: its key, its method, its params as sent. */
export interface InputRequest {
  key: string;
  /** `elicitation/create`, `sampling/createMessage`, `roots/list`, or another. */
  method: string;
  params: { [key: string]: Json };
}

/** What a server asked instead of a result: input to gather and a state to echo, or a task. */
export type Pending =
  | { kind: "input_required"; requests: InputRequest[]; requestState: string | null }
  | { kind: "task"; taskId: string; status: string; pollIntervalMs: number | null };

/** A sampling request as the host's own model reads it. */
export interface SamplingRequest<T extends Target = "neutral"> {
  messages: PromptMessageOf[T][];
  /** The server's words, to give the model apart from the host's own system prompt. */
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
  stopSequences: string[];
  modelPreferences?: Json;
  includeContext?: string;
  /** As the server sent them. */
  tools?: Json;
  /** As the server sent it: `{ mode: "auto" | "required" | "none" }`. */
  toolChoice?: Json;
}

/** An elicitation's words, cleaned for the person it asks. */
export interface Elicitation {
  mode: string;
  message: string;
  /** URL mode: the URL the user is asked to open (https or http, a host, no credentials). */
  url: string | null;
  elicitationId: string | null;
  fields: { name: string; title: string | null; description: string | null; kind: string | null; required: boolean }[];
}

/** A sampling/createMessage request (its params, the request or the JSON-RPC request). Throws `UnsupportedRequest` for tool_use/tool_result content. */
export function samplingRequest<T extends Target = "neutral">(message: Message, registry: Registry, options?: { target?: T }): SamplingRequest<T>;

/** An elicitation/create request's words, cleaned. Throws `UnsupportedRequest` for a URL-mode request without a URL that may be opened. */
export function elicitation(message: Message): Elicitation;

/** How many input rounds `mcp.callTool` answers before it gives up. */
export const MAX_INPUT_ROUNDS: number;

/** One string for the conversation history, at most `budget` characters. */
export function history(message: Message, registry: Registry, options?: { budget?: number; provenance?: Provenance }): string;

/** Every block in the target's shape (what the CLI's `blocks --target` prints). */
export function convert<T extends Target = "neutral">(
  message: Message,
  registry: Registry,
  options?: { target?: T; provenance?: Provenance },
): { content: BlockOf[T][]; heldForUser: Shapes.NeutralBlock[] };

/** A script's JSON result with every block replaced. */
export function script(message: Message, registry: Registry, options?: { target?: Target }): Json;

/** The tool result for one call's answer; never throws on the message (an unreadable answer is a failed call). */
export function toolResult<T extends Target = "anthropic">(
  message: Message,
  options: { name: string; toolUseId: string; registry: Registry; target?: T },
): ToolResult<T>;

/** The tool result of a call that failed before any answer arrived. */
export function toolCallFailed<T extends Target = "anthropic">(
  name: string,
  toolUseId: string,
  error: unknown,
  options?: { target?: T },
): ToolResult<T>;

/** Everything one turn's tool results add to the conversation, in the target's shape. */
export function toolResultMessages<T extends Target = "anthropic">(
  results: readonly ToolResult<Target>[],
  options?: { target?: T },
): ToolTurnItemOf[T][];

/**
 * A tool's definition in each target's shape: what `@anthropic-ai/sdk` takes as a `Tool`,
 * `openai` as a `ChatCompletionTool` and a Responses `FunctionTool` (`strict: false`: the
 * Responses API holds a function to strict mode unless told otherwise), MCP's own for neutral.
 */
export interface ToolDefinitionOf {
  neutral: { name: string; description?: string; inputSchema: { [key: string]: Json } };
  anthropic: { name: string; description?: string; input_schema: { type: "object"; [key: string]: Json } };
  "openai-chat": { type: "function"; function: { name: string; description?: string; parameters: { [key: string]: Json } } };
  "openai-responses": { type: "function"; name: string; description?: string; parameters: { [key: string]: Json }; strict: false };
}

/** MCP tools (or a `tools/list` result) as the target's tool definitions. */
export function toolDefinitions<T extends Target = "anthropic">(
  tools: readonly { name: string; description?: string; inputSchema?: unknown }[] | { tools: readonly unknown[] },
  options?: { target?: T },
): ToolDefinitionOf[T][];

/** A prompt's messages in the target's shape. */
export function promptMessages<T extends Target = "neutral">(
  message: Message,
  registry: Registry,
  options?: { target?: T },
): PromptMessageOf[T][];

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
  /** Answers one input request: its result, or `undefined` where the host does not answer that kind. */
  type OnInput = (method: string, params: { [key: string]: Json }) => Json | undefined | Promise<Json | undefined>;
  type Options = { timeout?: number; signal?: AbortSignal; onInput?: OnInput; maxRounds?: number };
  /** An elicitation declined, no roots, no sampling. */
  function answerPlainly(method: string, params?: unknown): Json | undefined;
  /** `args`: the tool's arguments, an object (a model's `tool_use` input as it came). */
  function callTool(client: Client, name: string, args?: unknown, options?: Options): Promise<{ [key: string]: any }>;
  function getPrompt(client: Client, name: string, args?: { [key: string]: string }, options?: Options): Promise<{ [key: string]: any }>;
  function readResource(client: Client, uri: string, options?: Options): Promise<{ [key: string]: any }>;
}

/** Fetching what a reference stub names, when the model calls the fetch tool. */
export namespace fetch {
  /** The fetch tool's definition in the target's shape; its input is `{ ref_id }`. */
  function toolDefinition<T extends Target = "anthropic">(target?: T, name?: string): ToolDefinitionOf[T];

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
    fetchReference<T extends Target = "anthropic">(
      input: unknown,
      toolUseId: string,
      registry: Registry,
      options?: { target?: T },
    ): Promise<ToolResult<T>>;
  }
}
