// index.d.ts against what a host writes (types-check.ts), with tsc --strict, as ESM (nodenext).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test("index.d.ts types what hosts write, under tsc --strict", () => {
  const out = spawnSync(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", join(HERE, "types-check.ts")],
    { encoding: "utf8" },
  );
  assert.equal(out.status, 0, out.stdout + out.stderr);
});

test("the README's snippets compile under tsc --strict against the SDKs they name", () => {
  const readme = readFileSync(join(HERE, "..", "README.md"), "utf8");
  const snippets = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(snippets.length > 0);
  // What a snippet takes as given: a connected client, the model's reply, the conversation.
  const given = [
    'import type Anthropic from "@anthropic-ai/sdk";',
    'import type { Client } from "@modelcontextprotocol/client";',
    "declare const client: Client;",
    "declare const reply: Anthropic.Message;",
    "declare const messages: Anthropic.MessageParam[];",
    "export {};",
  ].join("\n");
  const file = join(HERE, `.readme-${process.pid}.mts`);
  writeFileSync(file, `${given}\n${snippets.map((s) => `{\n${s}}\n`).join("")}`.replace(/^\{\n(import [^\n]*\n)/gm, "$1{\n"));
  try {
    const out = spawnSync(
      process.execPath,
      [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", file],
      { encoding: "utf8" },
    );
    assert.equal(out.status, 0, out.stdout + out.stderr);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the names index.d.ts spells are the crate's tables", () => {
  const mav = createRequire(import.meta.url)("../index.js");
  const dts = readFileSync(join(HERE, "..", "index.d.ts"), "utf8");
  const union = (name) => {
    const body = dts.match(new RegExp(`export type ${name} =([^;]*);`))[1];
    return [...body.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  };
  assert.deepEqual(union("Target"), [...mav.TARGETS]);
  assert.deepEqual(union("Provenance"), [...mav.PROVENANCES]);
  assert.equal(mav.TARGETS.length, 4);
  // Each works, and a name out of the tables is refused.
  for (const target of mav.TARGETS) mav.convert("[]", new mav.Registry(), { target });
  for (const provenance of mav.PROVENANCES) mav.history("[]", new mav.Registry(), { provenance });
  assert.throws(() => mav.convert("[]", new mav.Registry(), { target: "gemini" }), RangeError);
});
