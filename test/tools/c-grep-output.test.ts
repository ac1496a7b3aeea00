// Chord's grep and glob output as Chord's grep tests pin it, on real files
// through the real dispatcher and `chord` profile: a matched line keeps tabs
// and CJK text while invalid UTF-8 becomes U+FFFD; a capped glob saves every
// match, one per line, in the file its footer names; and write reports zero
// lines for empty content.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

describe("chord grep matched lines", () => {
  it("keeps a tab and CJK text, and shows invalid UTF-8 as U+FFFD", async () => {
    writeFileSync(join(t.cwd, "u.txt"), Buffer.concat([Buffer.from("ok"), Buffer.from([0xff]), Buffer.from("end needle\n过滤不需要转发的请求头 needle\na\tb needle\n")]));
    expect((await chordCall(t, "grep", { pattern: "needle" })).text).toBe("u.txt:1:ok\ufffdend needle\nu.txt:2:过滤不需要转发的请求头 needle\nu.txt:3:a\tb needle");
  });
});

describe("chord glob over its cap", () => {
  it("lists 250 results with the footer and saves all of them where the footer says", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 255; i++) files[`f${i}.txt`] = "x";
    await t.put(files);
    const r = await chordCall(t, "glob", { patterns: ["*.txt"] });
    const [body, footer] = r.text.split("\n\n");
    expect(body!.split("\n")).toHaveLength(250);
    const saved = /full results saved to (\S+); refine pattern\/path to narrow results\)$/.exec(footer!)?.[1];
    expect(footer).toBe(`(showing first 250 results within 16 KiB; full results saved to ${saved}; refine pattern/path to narrow results)`);
    const all = readFileSync(saved!, "utf8").trimEnd().split("\n");
    expect(all).toHaveLength(255);
    expect(all).toContain("f254.txt");
  });
});

describe("chord write counts", () => {
  it("empty content is zero lines and zero bytes", async () => {
    expect((await chordCall(t, "write", { path: "empty.txt", content: "" })).text).toBe("Successfully wrote 0 lines, 0 bytes");
    expect(readFileSync(join(t.cwd, "empty.txt"), "utf8")).toBe("");
  });
});
