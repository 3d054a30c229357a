// The ESM entry point: the CommonJS module's exports, by name.
import cjs from "./index.js";

export const {
  MAX_INPUT_ROUNDS,
  McpAgentViewError,
  Registry,
  TARGETS,
  ToolResult,
  classify,
  convert,
  elicitation,
  fetch,
  history,
  mcp,
  promptMessages,
  samplingRequest,
  script,
  toolCallFailed,
  toolDefinitions,
  toolResult,
  toolResultMessages,
} = cjs;
export default cjs;
