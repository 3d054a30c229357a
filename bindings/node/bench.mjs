// Per result: this package's whole conversion (toolResult + toolResultMessages, from the JSON
// text to the message to append) against the official SDK's decode alone (JSON.parse +
// CallToolResultSchema.parse of the same text), on the everything server's real results
// (tests/vectors/mcp/everything.*.json). Medians of repeated runs, in one process; the ratio is
// ours over the SDK's, under 1.0 where the whole conversion is faster.
//
//   node bindings/node/bench.mjs [--rounds N] [--batch N]
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

import { Registry, toolResult, toolResultMessages } from "./index.mjs";

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "tests", "vectors", "mcp");
const { values } = parseArgs({ options: { rounds: { type: "string", default: "31" }, batch: { type: "string", default: "200" } } });
const rounds = Number(values.rounds);
const batch = Number(values.batch);
if (!(rounds > 0 && batch > 0)) {
  console.error("bench: --rounds and --batch are positive numbers");
  process.exit(2);
}

const cases = readdirSync(VECTORS)
  .filter((f) => f.startsWith("everything.") && f.endsWith(".json"))
  .sort()
  .map((f) => [f.slice("everything.".length, -".json".length), JSON.parse(readFileSync(join(VECTORS, f), "utf8")).response?.result])
  .filter(([, result]) => result && Array.isArray(result.content))
  .map(([name, result]) => [name, JSON.stringify(result)]);
if (cases.length === 0) {
  console.error(`bench: no everything-server results under ${VECTORS}`);
  process.exit(2);
}

const registry = new Registry({ seed: 7 });
const ours = (text) => toolResultMessages([toolResult(text, { name: "tool", toolUseId: "toolu_1", registry })]);
const sdk = (text) => CallToolResultSchema.parse(JSON.parse(text));

/** The median time of one call, in microseconds. */
function perCall(fn, text) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn(text);
    samples.push(Number(process.hrtime.bigint() - start) / batch / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

for (const [, text] of cases) ours(text), sdk(text); // both decode every case before any is timed
console.log(`${"result".padEnd(40)} ${"bytes".padStart(7)} ${"ours µs".padStart(9)} ${"sdk µs".padStart(9)} ${"ratio".padStart(6)}`);
let totalOurs = 0;
let totalSdk = 0;
for (const [name, text] of cases) {
  const a = perCall(ours, text);
  const b = perCall(sdk, text);
  totalOurs += a;
  totalSdk += b;
  console.log(`${name.padEnd(40)} ${String(text.length).padStart(7)} ${a.toFixed(2).padStart(9)} ${b.toFixed(2).padStart(9)} ${(a / b).toFixed(2).padStart(6)}`);
}
console.log(`${"all results".padEnd(40)} ${"".padStart(7)} ${totalOurs.toFixed(2).padStart(9)} ${totalSdk.toFixed(2).padStart(9)} ${(totalOurs / totalSdk).toFixed(2).padStart(6)}`);
console.log(`ratio ${(totalOurs / totalSdk).toFixed(2)} (ours, the whole conversion, over the SDK's decode alone)`);
