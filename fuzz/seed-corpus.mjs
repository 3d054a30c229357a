#!/usr/bin/env node
// Seeds each fuzz target's corpus with the real MCP messages in tests/vectors: every
// message inside each vector file, one file each, as the targets read them.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const vectors = join(here, "../tests/vectors/mcp");
const keys = ["response", "value", "final_tool_result", "round1_response", "round2_response", "client_stub_response"];

const messages = [];
for (const name of readdirSync(vectors).filter((n) => n.endsWith(".json")).sort()) {
  const data = JSON.parse(readFileSync(join(vectors, name), "utf8"));
  const found = Array.isArray(data) ? [data] : keys.filter((k) => k in data).map((k) => data[k]);
  for (const c of Array.isArray(data?.cases) ? data.cases : []) found.push(c.value);
  found.forEach((m, i) => messages.push([`${name.replace(/\.json$/, "")}.${i}.json`, JSON.stringify(m)]));
}
for (const target of ["decode_lanes", "script"]) {
  const dir = join(here, "corpus", target);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of messages) writeFileSync(join(dir, name), text);
  console.log(`corpus/${target}: ${messages.length} seeds`);
}
