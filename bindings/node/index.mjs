// The ESM entry point: the CommonJS module's exports, by name.
import cjs from "./index.js";

export const {
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
} = cjs;
export default cjs;
