// Compiled by test/types.test.mjs with tsc --strict: index.d.ts describes what hosts write.
import {
  McpAgentViewError,
  Registry,
  TARGETS,
  ToolResult,
  classify,
  convert,
  fetch,
  history,
  mcp,
  promptMessages,
  script,
  toolCallFailed,
  toolDefinitions,
  toolResult,
  toolResultMessages,
  type Json,
  type Target,
} from "mcp-agent-view";
import type Anthropic from "@anthropic-ai/sdk";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";

const registry = new Registry({ seed: 7, fetchTool: "fetch_reference" });
const target: Target = TARGETS[1];
const text: string = history('{"content":[]}', registry, { budget: 100, provenance: "push-event" });
const converted = convert({ content: [] }, registry, { target });
const value: Json = script(new Uint8Array(), registry);
const result: ToolResult = toolResult({ content: [] }, { name: "t", toolUseId: "toolu_1", registry, target });
const failed: ToolResult = toolCallFailed("t", "toolu_2", new Error("boom"));
const appended = toolResultMessages([result, failed], { target });
// Each target's output goes into its SDK's own request types as it is.
const forClaude: Anthropic.MessageParam[] = toolResultMessages([result, failed]);
const forChat: ChatCompletionMessageParam[] = toolResultMessages([result], { target: "openai-chat" });
const forResponses: ResponseInputItem[] = toolResultMessages([result], { target: "openai-responses" });
const promptForClaude: Anthropic.MessageParam[] = promptMessages("{}", registry, { target: "anthropic" });
const promptForChat: ChatCompletionMessageParam[] = promptMessages("{}", registry, { target: "openai-chat" });
const promptForResponses: ResponseInputItem[] = promptMessages("{}", registry, { target: "openai-responses" });
const blocks: Anthropic.ToolResultBlockParam["content"] = toolResult({}, { name: "t", toolUseId: "u", registry }).content;
const flag: boolean = result.isError && failed.content.length > 0;
const tools: ChatCompletionTool[] = toolDefinitions([{ name: "search", inputSchema: { type: "object" } }], { target: "openai-chat" });
const toolsForClaude: Anthropic.Tool[] = toolDefinitions([{ name: "search" }]);
const toolsForResponses: FunctionTool[] = toolDefinitions({ tools: [] }, { target: "openai-responses" });
const fetchForResponses: FunctionTool = fetch.toolDefinition("openai-responses");
// A message is text, bytes or an object: a number or undefined is no message.
// @ts-expect-error
history(42, registry);
// @ts-expect-error
classify(undefined);
const prompt = promptMessages("{}", registry);
const classes = classify("{}").map((c) => c["class"]);
const restored: Registry = Registry.restore(registry.snapshot());
const size: number = restored.size + registry.lookup("ref_x").uri.length;

async function loop(client: { request(...args: any[]): Promise<unknown> }): Promise<ToolResult[]> {
  const raw = await mcp.callTool(client, "search", { q: "x" }, { timeout: 1000 });
  const prompted = await mcp.getPrompt(client, "brief");
  const read = await mcp.readResource(client, "file:///x");
  const fetcher = new fetch.Fetcher({ maxBytes: 1 << 20, allowSchemes: ["http"], timeoutMs: 5000 });
  const definition: Anthropic.Tool = fetch.toolDefinition("anthropic", "fetch_reference");
  const fetched: ToolResult = await fetcher.fetchReference({ ref_id: "ref_x" }, "toolu_3", registry);
  void [raw, prompted, read, definition];
  return [toolResult(raw, { name: "search", toolUseId: "toolu_1", registry }), fetched];
}

try {
  history("{", registry);
} catch (e) {
  if (e instanceof McpAgentViewError) {
    const where: number | undefined = e.line;
    const kind: string = e.kind;
    void [where, kind];
  }
}

void [text, converted, value, appended, flag, tools, toolsForClaude, toolsForResponses, fetchForResponses, prompt, classes, size, loop];
void [forClaude, forChat, forResponses, promptForClaude, promptForChat, promptForResponses, blocks];

// The AI SDK integration: the client comes back as its own type, its tools as the SDK takes them.
import { view as viewAiSdk, type ViewedOutput } from "mcp-agent-view/ai-sdk";
import { createMCPClient } from "@ai-sdk/mcp";

export async function aiSdk(): Promise<void> {
  const client = viewAiSdk(await createMCPClient({ transport: { type: "sse", url: "http://localhost/sse" } }), {
    registry: new Registry(),
  });
  // The tools are the client's own type (passing them to generateText is the SDK's own typing:
  // ai 6.0.333 and @ai-sdk/mcp 1.0.102 disagree there with or without view).
  const tools = await client.tools();
  const output: ViewedOutput | undefined = await tools["weather"]?.execute({}, { toolCallId: "c" });
  if (output?.isError) console.log(output.content.length, output.heldForUser.length);
  await client.close();
}

// The @openai/agents integration: the server comes back as its own type.
import { view as viewOpenAiAgents } from "mcp-agent-view/openai-agents";
import { Agent, MCPServerStdio } from "@openai/agents";

export async function openAiAgents(): Promise<Agent> {
  const server: MCPServerStdio = viewOpenAiAgents(new MCPServerStdio({ command: "node", args: ["server.mjs"] }), {
    onInput: (method) => (method === "roots/list" ? { roots: [] } : undefined),
  });
  await server.connect();
  return new Agent({ name: "assistant", mcpServers: [server] });
}

// The @langchain/mcp-adapters integration: the client comes back as its own type.
import { view as viewLangChain } from "mcp-agent-view/langchain";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { StructuredToolInterface } from "@langchain/core/tools";

export async function langChain(): Promise<StructuredToolInterface[]> {
  const client: MultiServerMCPClient = viewLangChain(new MultiServerMCPClient({ files: { command: "node", args: ["server.mjs"] } }), {
    fetcher: new fetch.Fetcher({ allowSchemes: ["data"] }),
  });
  return client.getTools();
}

// Revision 2026-07-28: what a server asks, typed.
import { mcp as mcpCalls, samplingRequest, elicitation, type Pending } from "mcp-agent-view";

export async function answered(client: Parameters<typeof mcpCalls.callTool>[0], registry: Registry): Promise<string | undefined> {
  const raw = await mcpCalls.callTool(client, "ask", {}, { onInput: (method, params) => mcpCalls.answerPlainly(method, params), maxRounds: 3 });
  const result = toolResult(raw, { name: "ask", toolUseId: "u", registry });
  const pending: Pending | undefined = result.pending;
  if (pending?.kind === "input_required") {
    const first = pending.requests[0];
    if (first?.method === "sampling/createMessage") return samplingRequest(first.params, registry, { target: "anthropic" }).systemPrompt;
    if (first?.method === "elicitation/create") return elicitation(first.params).message;
    return result.retryParams({}, {}).requestState;
  }
  return pending?.kind === "task" ? pending.taskId : undefined;
}
