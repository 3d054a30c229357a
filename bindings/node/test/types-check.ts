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

const registry = new Registry({ seed: 7, fetchTool: "fetch_reference" });
const target: Target = TARGETS[1];
const text: string = history('{"content":[]}', registry, { budget: 100, provenance: "push-event" });
const converted: { content: Json[]; heldForUser: Json[] } = convert({ content: [] }, registry, { target });
const value: Json = script(new Uint8Array(), registry);
const result: ToolResult = toolResult({ content: [] }, { name: "t", toolUseId: "toolu_1", registry, target });
const failed: ToolResult = toolCallFailed("t", "toolu_2", new Error("boom"));
const appended: Json[] = toolResultMessages([result, failed], { target });
const flag: boolean = result.isError && failed.content.length > 0;
const tools = toolDefinitions([{ name: "search", inputSchema: { type: "object" } }], { target: "openai-chat" });
const prompt: Json[] = promptMessages("{}", registry);
const classes = classify("{}").map((c) => c["class"]);
const restored: Registry = Registry.restore(registry.snapshot());
const size: number = restored.size + registry.lookup("ref_x").uri.length;

async function loop(client: { request(...args: any[]): Promise<unknown> }): Promise<ToolResult[]> {
  const raw = await mcp.callTool(client, "search", { q: "x" }, { timeout: 1000 });
  const prompted = await mcp.getPrompt(client, "brief");
  const read = await mcp.readResource(client, "file:///x");
  const fetcher = new fetch.Fetcher({ maxBytes: 1 << 20, allowSchemes: ["http"], timeoutMs: 5000 });
  const definition = fetch.toolDefinition("anthropic", "fetch_reference");
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

void [text, converted, value, appended, flag, tools, prompt, classes, size, loop];
