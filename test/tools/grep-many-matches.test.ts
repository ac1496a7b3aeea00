// A million matches through both grep tools: the page shown is the right
// one in (path, line) order and the total counts every match, although only
// what the page needs is kept (test/e2e/large-files-memory.test.ts measures
// the memory).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chordGrepTool } from "../../tools/chord/grep.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { matchFile, matchLine, writeMatchTree } from "../support/big-files.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const FILES = 20;
const LINES = 50_000;
const text = matchLine;
const name = matchFile;

let t: TestToolContext;
beforeAll(async () => {
  t = await makeToolContext();
  // Written in reverse, so directory order is not path order either.
  await writeMatchTree(t.cwd, FILES, LINES);
}, 60_000);
afterAll(() => t.cleanup());

describe("grep over a million matches", () => {
  it("Yuj grep shows page 1 of 1,000,000 in path order", async () => {
    const res = await grepTool.run({ pattern: "match" }, t.ctx);
    const lines = res.modelText.split("\n");
    expect(lines[0]).toBe('<search_result tool="grep" total="1000000" shown="25" page="1" next_page="2" pattern="match" scope=".">');
    expect(lines.slice(1, -1)).toEqual(Array.from({ length: 25 }, (_, i) => `./${name(0)}:${i + 1}:${text(i + 1)}`));
  });

  it("Yuj grep pages across a file boundary, and the last page ends the list", async () => {
    const across = await grepTool.run({ pattern: "match", page: LINES / 25 + 1 }, t.ctx);
    expect(across.modelText.split("\n").slice(1, 3)).toEqual([`./${name(1)}:1:${text(1)}`, `./${name(1)}:2:${text(2)}`]);
    const last = await grepTool.run({ pattern: "match", page: (FILES * LINES) / 25 }, t.ctx);
    const lines = last.modelText.split("\n");
    expect(lines[0]).toContain('shown="25" page="40000" next_page="0"');
    expect(lines.at(-2)).toBe(`./${name(FILES - 1)}:${LINES}:${text(LINES)}`);
  });

  it("Chord grep shows the first 120 matches in path order", async () => {
    const res = await chordGrepTool.run({ pattern: "match" }, t.ctx);
    const lines = res.modelText.split("\n");
    expect(lines.slice(0, 120)).toEqual(Array.from({ length: 120 }, (_, i) => `${name(0)}:${i + 1}:${text(i + 1)}`));
    expect(lines.at(-1)).toBe("(showing first 120 matches within 12 KiB; narrow paths/includes/pattern for more precise results)");
  });
});
