// fetch over the crate's HTTP transport against a server on loopback: what the policy allows
// arrives verified and shown as content; what it refuses is a failed call naming the reason and
// never the uri; the main thread runs on while a fetch waits.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";

import * as mav from "../index.mjs";

const REPORT = "Quarterly figures: all green.";
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082", "hex");
let origin;
let server;

before(async () => {
  server = http.createServer((req, res) => {
    const send = (body, type) => res.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
    if (req.url === "/report.txt") return send(Buffer.from(REPORT), "text/plain");
    if (req.url === "/dot.png") return send(PNG, "image/png");
    if (req.url === "/slow.txt") return setTimeout(() => send(Buffer.from(REPORT), "text/plain"), 1000);
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

function stub(registry, uri, mimeType = "text/plain") {
  const shown = mav.toolResult({ content: [{ type: "resource_link", uri, name: uri.split("/").pop(), mimeType }] }, { name: "links", toolUseId: "toolu_0", registry });
  assert.ok(!JSON.stringify(shown.content).includes(uri));
  return shown.content[0].text.match(/ref_[0-9a-z]{13}/)[0];
}

const loopback = (settings = {}) => new mav.fetch.Fetcher({ allowSchemes: ["http"], allowOrigins: [origin], ...settings });

test("text arrives as text, verified", async () => {
  const registry = new mav.Registry({ seed: 7, fetchTool: "fetch_reference" });
  const ref = stub(registry, `${origin}/report.txt`);
  const result = await loopback().fetchReference({ ref_id: ref }, "toolu_1", registry);
  assert.equal(result.toolUseId, "toolu_1");
  assert.equal(result.name, "fetch_reference");
  assert.equal(result.isError, false);
  assert.deepEqual(result.content.filter((b) => b.text === REPORT), [{ type: "text", text: REPORT }]);
  assert.notEqual(registry.lookup(ref).verified, null);
  const again = await loopback().fetchReference(`{"ref_id": "[${ref}]"}`, "toolu_2", registry);
  assert.ok(again.content.some((b) => b.text === REPORT));
  assert.equal(mav.toolResultMessages([result])[0].content[0].tool_use_id, "toolu_1");
});

test("an image arrives as media in the target's shape", async () => {
  const registry = new mav.Registry({ seed: 7 });
  const ref = stub(registry, `${origin}/dot.png`, "image/png");
  const anthropic = await loopback().fetchReference({ ref_id: ref }, "toolu_1", registry);
  assert.equal(anthropic.content[0].type, "image");
  assert.equal(anthropic.content[0].source.media_type, "image/png");
  const responses = await loopback().fetchReference({ ref_id: ref }, "toolu_1", registry, { target: "openai-responses" });
  assert.equal(responses.content[0].type, "input_image");
  // A bad argument rejects as what it is, never as a panic.
  await assert.rejects(loopback().fetchReference({ ref_id: ref }, "toolu_1", registry, { target: "gemini" }), RangeError);
  await assert.rejects(loopback().fetchReference({ ref_id: ref }, 5, registry), TypeError);
});

for (const [name, fetcher, reason] of [
  ["https only", () => new mav.fetch.Fetcher(), "scheme is not allowed (allowed: https)"],
  ["public only", () => new mav.fetch.Fetcher({ allowSchemes: ["http"] }), "address is not public"],
  ["the ceiling", () => loopback({ maxBytes: 4 }), "over the ceiling: more than 4 bytes"],
]) {
  test(`a refusal names the reason and never the uri: ${name}`, async () => {
    const registry = new mav.Registry({ seed: 7 });
    const ref = stub(registry, `${origin}/report.txt`);
    const result = await fetcher().fetchReference({ ref_id: ref }, "toolu_1", registry);
    assert.equal(result.isError, true);
    const text = result.content[0].text;
    assert.ok(text.includes(reason) && text.includes(ref), text);
    assert.ok(!text.includes("127.0.0.1") && !text.includes("report.txt"), text);
  });
}

test("a missing page, an unknown id and no id are failed calls", async () => {
  const registry = new mav.Registry({ seed: 7 });
  const ref = stub(registry, `${origin}/gone.txt`);
  const gone = await loopback().fetchReference({ ref_id: ref }, "toolu_1", registry);
  assert.ok(gone.isError && gone.content[0].text.includes("404"));
  const unknown = await loopback().fetchReference({ ref_id: "ref_0000000000000" }, "toolu_2", registry);
  assert.ok(unknown.isError && unknown.content[0].text.includes("unknown reference"));
  const none = await loopback().fetchReference({}, "toolu_3", registry);
  assert.ok(none.isError && none.content[0].text.includes("needs a ref_id"));
});

test("the main thread runs on while a fetch waits", async () => {
  const registry = new mav.Registry({ seed: 7 });
  const ref = stub(registry, `${origin}/slow.txt`);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const result = await loopback().fetchReference({ ref_id: ref }, "toolu_1", registry);
  clearInterval(timer);
  assert.equal(result.isError, false);
  // A second of waiting on the main thread would leave the timer no turn at all.
  assert.ok(ticks > 20, `ticks: ${ticks}`);
});

test("policy settings are checked; the tool definition takes every shape", () => {
  assert.throws(() => new mav.fetch.Fetcher({ origin: "not a url" }), { kind: "Policy" });
  // The crate's own check, one for the CLI and both packages: files only under allowFilesUnder.
  assert.throws(() => new mav.fetch.Fetcher({ allowSchemes: ["file"] }), { kind: "Policy", message: /allow_files_under/ });
  assert.throws(() => new mav.fetch.Fetcher({ allowSchemes: ["ht tp"] }), { kind: "Policy", message: /not a scheme/ });
  assert.throws(() => new mav.fetch.Fetcher({ timeoutMs: -1 }), TypeError);
  assert.throws(() => new mav.fetch.Fetcher({ maxBytes: 1.5 }), TypeError);
  assert.equal(new mav.fetch.Fetcher({ maxBytes: 10 }).maxBytes, 10);
  assert.deepEqual(mav.fetch.toolDefinition("anthropic").input_schema.required, ["ref_id"]);
  assert.equal(mav.fetch.toolDefinition("openai-chat", "get_ref").function.name, "get_ref");
  assert.equal(mav.fetch.toolDefinition("openai-responses").name, "fetch_reference");
  assert.throws(() => mav.fetch.toolDefinition("gemini"), RangeError);
});

test("a hard link under the directory is read only when allowed", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mav-node-links-"));
  const shared = path.join(dir, "shared");
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(dir, "secret.txt"), "outside");
  fs.writeFileSync(path.join(shared, "notes.txt"), "under");
  fs.linkSync(path.join(dir, "secret.txt"), path.join(shared, "linked.txt"));
  const registry = new mav.Registry({ seed: 7 });
  const notes = stub(registry, pathToFileURL(path.join(shared, "notes.txt")).href);
  const linked = stub(registry, pathToFileURL(path.join(shared, "linked.txt")).href);
  const under = new mav.fetch.Fetcher({ allowFilesUnder: shared });
  assert.ok((await under.fetchReference({ ref_id: notes }, "t", registry)).content.some((b) => b.text === "under"));
  const refused = await under.fetchReference({ ref_id: linked }, "t", registry);
  assert.ok(refused.isError && refused.content[0].text.includes("more than one link"), refused.content[0].text);
  const allowed = new mav.fetch.Fetcher({ allowFilesUnder: shared, allowHardLinks: true });
  assert.ok((await allowed.fetchReference({ ref_id: linked }, "t", registry)).content.some((b) => b.text === "outside"));
  fs.rmSync(dir, { recursive: true });
});
