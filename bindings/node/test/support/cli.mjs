// The crate's CLI, the oracle the package's tests compare with: built once, where it is not
// built yet (by `cargo test` it is), never while a test spawns it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

function cliBinary() {
  const binary = join(ROOT, "target", "debug", process.platform === "win32" ? "mcp-agent-view.exe" : "mcp-agent-view");
  if (!existsSync(binary)) {
    const built = spawnSync("cargo", ["build", "-q"], { cwd: ROOT, stdio: "inherit" });
    assert.equal(built.status, 0, "cargo build");
  }
  return binary;
}
const CLI = cliBinary();

/** The CLI's run on `input`, with `args` and the ids of `seed`. */
export function cli(args, input, seed) {
  return spawnSync(CLI, [...args, "--seed", String(seed)], { input, encoding: "utf8", maxBuffer: 256 << 20 });
}
