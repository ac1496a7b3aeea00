// What the Chord surface's readers return, checked on real files: the text
// exactly as stored, a prefix of a first line too long for one read, and the
// full text of a cut read saved where read and grep can open it.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordGrepTool } from "../../tools/chord/grep.js";
import { readArtifactTool } from "../../tools/chord/read_artifact.js";
import { readTool } from "../../tools/yuj/read.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

/** What the model is sent (the view's display is checked on its own below). */
const read = async (args: { path: string; offset?: number; limit?: number }) => {
  const { ok, modelText } = await chordReadTool.run(args, t.ctx);
  return { ok, modelText };
};

describe("chord read returns the text exactly", () => {
  it("keeps the final newline when the file has one, and only then", async () => {
    await t.put({ "a.txt": "d\ne\n", "b.txt": "d\ne", "c.txt": "a\nb\nc\nd\ne\n", "one.txt": "line\n" });
    expect(await read({ path: "a.txt" })).toEqual({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\nd\ne\n" });
    expect(await read({ path: "b.txt" })).toEqual({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\nd\ne" });
    // A page that stops before the end ends with its last line's newline.
    expect(await read({ path: "c.txt", offset: 2, limit: 2 })).toEqual({ ok: true, modelText: "READ_RESULT lines=2-3 total=5\nb\nc\n" });
    // Reaching the end through a large limit is no truncation.
    expect(await read({ path: "c.txt", offset: 4, limit: 50 })).toEqual({ ok: true, modelText: "READ_RESULT lines=4-5 total=5\nd\ne\n" });
    // An empty range is the header line and an empty body.
    expect(await read({ path: "one.txt", offset: 2, limit: 10 })).toEqual({ ok: true, modelText: "READ_RESULT lines=none total=1\n" });
  });

  it("normalises CRLF and lone CR line ends to LF, keeping the last one", async () => {
    await t.put({ "s.csv": 'col1,col2\r\n"a","b"\r\n', "cr.txt": "a\rb\r" });
    expect(await read({ path: "s.csv" })).toEqual({ ok: true, modelText: 'READ_RESULT lines=1-2 total=2\ncol1,col2\n"a","b"\n' });
    expect(await read({ path: "cr.txt" })).toEqual({ ok: true, modelText: "READ_RESULT lines=1-2 total=2\na\nb\n" });
  });

  it("shows the prefix of a first line longer than the budget, and saves the whole range", async () => {
    const long = "x".repeat(60000);
    await t.put({ "wide.txt": `${long}\nshort\n` });
    const res = await read({ path: "wide.txt" });
    const saved = path.join(t.ctx.sessionDir, "tool-output", `read-result-${t.ctx.callId}.log`);
    expect(res).toEqual({
      ok: true,
      modelText:
        `READ_RESULT lines=1-1 total=2 truncated=budget requested_lines=1-2\n${"x".repeat(51200)}\n` +
        `Full output saved to ${saved}. Read it with offset/limit or grep it for the rest.`,
    });
    expect(await fsp.readFile(saved, "utf8")).toBe(`READ_RESULT lines=1-2 total=2\n${long}\nshort\n`);
  });

  it("saves a budget-truncated read in full, and read and grep open the saved file", async () => {
    const line = "abcdefghij".repeat(8);
    await t.put({ "large.txt": `${line}\n`.repeat(1200) });
    const res = await read({ path: "large.txt" });
    const [header] = res.modelText.split("\n");
    expect(header).toBe("READ_RESULT lines=1-632 total=1200 truncated=budget requested_lines=1-1200");
    const saved = path.join(t.ctx.sessionDir, "tool-output", `read-result-${t.ctx.callId}.log`);
    expect(res.modelText.endsWith(`\nFull output saved to ${saved}. Read it with offset/limit or grep it for the rest.`)).toBe(true);
    expect(await fsp.readFile(saved, "utf8")).toBe(`READ_RESULT lines=1-1200 total=1200\n${`${line}\n`.repeat(1200)}`);

    // The path the result names opens: it is the session's, not the project's.
    expect(await read({ path: saved, offset: 1201, limit: 2 })).toEqual({ ok: true, modelText: `READ_RESULT lines=1201-1201 total=1201\n${line}\n` });
    await fsp.appendFile(saved, "needle at the end\n");
    expect(await chordGrepTool.run({ pattern: "needle", paths: [saved] }, t.ctx)).toMatchObject({ ok: true, modelText: `${saved}:1202:needle at the end` });
    // Yuj's read opens nothing else outside the project.
    await fsp.writeFile(path.join(t.ctx.sessionDir, "other.txt"), "x");
    expect(await readTool.run({ path: path.join(t.ctx.sessionDir, "other.txt") }, t.ctx)).toEqual({
      ok: false,
      modelText: `ERROR: path escapes cwd: ${path.join(t.ctx.sessionDir, "other.txt")}`,
    });
  });
});

describe("chord read_artifact returns the text exactly", () => {
  const put = async (name: string, text: string) => {
    await fsp.mkdir(path.join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.writeFile(path.join(t.ctx.sessionDir, "artifacts", name), text);
  };
  const digestOf = async (name: string) =>
    (await import("node:crypto")).createHash("sha256").update(await fsp.readFile(path.join(t.ctx.sessionDir, "artifacts", name))).digest("hex");

  it("keeps the final newline, and its absence", async () => {
    await put("r.md", "# Report\nall good\n");
    await put("n.md", "no newline");
    expect((await readArtifactTool.run({ path: "artifacts/r.md" }, t.ctx)).modelText).toBe(
      `ARTIFACT_RESULT lines=1-2 total=2 sha256=${await digestOf("r.md")}\n# Report\nall good\n`,
    );
    expect((await readArtifactTool.run({ path: "artifacts/n.md" }, t.ctx)).modelText).toBe(
      `ARTIFACT_RESULT lines=1-1 total=1 sha256=${await digestOf("n.md")}\nno newline`,
    );
  });

  it("shows the prefix of a first line longer than the budget instead of nothing", async () => {
    await put("wide.json", `${"y".repeat(60000)}\nz\n`);
    expect((await readArtifactTool.run({ path: "artifacts/wide.json" }, t.ctx)).modelText).toBe(
      `ARTIFACT_RESULT lines=1-1 total=2 sha256=${await digestOf("wide.json")} truncated=budget requested_lines=1-2\n` +
        "y".repeat(51200),
    );
  });
});

describe("what the card shows of a Chord read", () => {
  it("the lines read with their first line number and the file's length, never the READ_RESULT header", async () => {
    await fsp.writeFile(path.join(t.ctx.cwd, "five.txt"), "a\nb\nc\nd\ne\n");
    const res = await chordReadTool.run({ path: "five.txt", offset: 2, limit: 2 }, t.ctx);
    expect(res.modelText.startsWith("READ_RESULT lines=2-3 total=5")).toBe(true);
    expect(res.display).toEqual({ kind: "file", path: "five.txt", startLine: 2, lines: ["b", "c"], totalLines: 5 });
  });

  it("an artifact's lines the same way, named by the path asked for", async () => {
    await fsp.mkdir(path.join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.writeFile(path.join(t.ctx.sessionDir, "artifacts", "r.md"), "# Report\nall good\n");
    const res = await readArtifactTool.run({ path: "artifacts/r.md" }, t.ctx);
    expect(res.display).toEqual({ kind: "file", path: "artifacts/r.md", startLine: 1, lines: ["# Report", "all good"], totalLines: 2 });
  });
});

describe("chord read past the end", () => {
  it("suggests the offset that reads the last lines, with the limit the call used", async () => {
    await t.put({ "s.txt": "a\nb\nc\n" });
    expect(await read({ path: "s.txt", offset: 10, limit: 5 })).toEqual({
      ok: false,
      modelText: "offset 10 exceeds this file length (3 lines); suggested_offset=1 reads the last 3 lines with limit=5; eof_offset=4 is valid but returns no lines",
    });
  });

  it("refuses a named pipe and a device", async () => {
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [path.join(t.cwd, "input.pipe")]);
    expect(await read({ path: "input.pipe" })).toEqual({ ok: false, modelText: "input.pipe is not a regular file" });
    expect((await read({ path: "/dev/stdin" })).modelText).toMatch(/^cannot read blocked device path: \/dev\/stdin/);
  });
});
