// Builds the native module (cargo, release) and puts it beside index.js as
// mcp-agent-view.node. Run by `npm install`; needs the Rust toolchain.
import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const build = spawnSync(
  "cargo",
  ["build", "--release", "--package", "mcp-agent-view-node", "--message-format=json-render-diagnostics"],
  { cwd: here, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 64 << 20 },
);
if (build.error || build.status !== 0) {
  console.error(`mcp-agent-view: cargo build failed${build.error ? `: ${build.error.message}` : ""}`);
  process.exit(1);
}
const library = build.stdout
  .split("\n")
  .filter((line) => line.startsWith("{"))
  .map((line) => JSON.parse(line))
  .filter((m) => m.reason === "compiler-artifact" && m.target?.name === "mcp_agent_view_node")
  .flatMap((m) => m.filenames)
  .find((file) => /\.(so|dylib|dll)$/.test(file));
if (!library) {
  console.error("mcp-agent-view: cargo built no native library");
  process.exit(1);
}
copyFileSync(library, join(here, "mcp-agent-view.node"));
