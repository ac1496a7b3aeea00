// Chord's file tools as the reference's later tests pin them, on real files
// through the real dispatcher and `chord` profile (fourth set): how an edit
// that matched nowhere reports its closest span (the differing file and
// model lines, the first differing character counted from 1, whole-line
// drift, and a bounded read once the message cannot rebuild the block),
// spaces just inside a parenthesis, zero-width runes leaked beside a space,
// and an old parameter name sent together with the current one.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(join(t.cwd, rel), "utf8");
const edit = async (file: string, old_string: string, new_string: string) => {
  await t.put({ "f.md": file });
  return chordCall(t, "edit", { path: "f.md", old_string, new_string });
};
const HEAD = "old_string not found in file, even after punctuation/whitespace tolerance. ";
const COPY = "Rebuild old_string from the file lines above (copy them exactly), then retry";

describe("chord edit: the closest span of an old_string that is not in the file", () => {
  it("names the file line and the model's line that differ, and the first differing character", async () => {
    const file = "const s = new DailyScheduler(async (day) => {\n    await stats.rebuildDay(day);\n  });\n";
    const r = await edit(file, "const s = new DailyScheduler(async (day) => {\n    await stats.rebuildDay(day;\n  });\n", "x\n");
    expect(r).toEqual({
      ok: false,
      text:
        HEAD +
        "Closest match is at line 1 (99% similar, 1 character difference):\n" +
        '  file line 2: "    await stats.rebuildDay(day);"\n' +
        '  your line 2: "    await stats.rebuildDay(day;"\n' +
        "  first mismatch at rune 31 (1-based): your line has U+003B, file has U+0029\n" +
        COPY,
    });
    expect(await read("f.md")).toBe(file);
  });

  it("counts the model's line within its block and the file's line in the file", async () => {
    const file = Array.from({ length: 10 }, (_, i) => `padding line ${i + 1}\n`).join("") + "alpha beta\ngamma delta\n";
    const r = await edit(file, "alpha beta\ngammax delta\n", "alpha beta\ngamma epsilon\n");
    expect(r.text).toBe(
      HEAD +
        "Closest match is at line 11 (96% similar, 1 character difference):\n" +
        '  file line 12: "gamma delta"\n' +
        '  your line 2: "gammax delta"\n' +
        "  first mismatch at rune 6 (1-based): your line has U+0078, file has U+0020\n" +
        COPY,
    );
  });

  it("shows a doubled space by its code point", async () => {
    const r = await edit("var x = 1\n", "var  x = 1", "var y = 1");
    expect(r.text).toBe(
      HEAD +
        "Closest match is at line 1 (90% similar, 1 character difference):\n" +
        '  file line 1: "var x = 1"\n' +
        '  your line 1: "var  x = 1"\n' +
        "  first mismatch at rune 5 (1-based): your line has U+0020, file has U+0078\n" +
        COPY,
    );
  });

  it("says when whole lines differ, an empty file line as empty, and lists the other differing lines", async () => {
    const r = await edit("line1\n\nline2\n", "line1\nline2\nline3\n", "line1\nline2\n");
    expect(r.text).toBe(
      HEAD +
        "Closest match is at line 1 (65% similar, 6 character difference):\n" +
        '  file line 2: ""\n' +
        '  your line 2: "line2"\n' +
        "  first mismatch at rune 1 (1-based): your line has U+006C, file has no characters (line is empty)\n" +
        "  line-count difference: your old_string has 1 extra line(s), the file has 1 extra line(s)\n" +
        '  differing line 3 (file 3): expected "line3"\n' +
        '    actual "line2"\n' +
        COPY,
    );
  });

  it("sends the model to a bounded read once more lines differ than the message shows", async () => {
    const file = Array.from({ length: 10 }, (_, i) => `value ${i + 1}\n`).join("");
    const old = Array.from({ length: 10 }, (_, i) => `value ${i + 1}${[2, 4, 6, 8].includes(i + 1) ? "x" : ""}\n`).join("");
    const r = await edit(file, old, "rewritten\n");
    expect(r.text).toBe(
      HEAD +
        "Closest match is at line 1 (95% similar, 4 character difference):\n" +
        '  file line 2: "value 2"\n' +
        '  your line 2: "value 2x"\n' +
        "  first mismatch at rune 8 (1-based): your line has U+0078, file has no characters (line ends here)\n" +
        '  differing line 4 (file 4): expected "value 4x"\n' +
        '    actual "value 4"\n' +
        '  differing line 6 (file 6): expected "value 6x"\n' +
        '    actual "value 6"\n' +
        "More than 3 lines differ in place, so the lines above are not enough to rebuild old_string: read the file with offset=1 limit=10 " +
        "(the closest match range), rebuild old_string from that fresh output, or use a smaller 2-4 line anchor; do not retype the block from memory",
    );
    expect(await read("f.md")).toBe(file);
  });

  it("a block placed deeper in the file gets that block's read coordinates", async () => {
    const file = Array.from({ length: 20 }, (_, i) => `context line ${i + 1}\n`).join("");
    const old = Array.from({ length: 8 }, (_, i) => `context line ${i + 3}${(i + 3) % 2 === 0 ? " typox" : ""}\n`).join("");
    const r = await edit(file, old, "replaced block\n");
    expect(r.text).toContain("read the file with offset=3 limit=8 (the closest match range)");
    expect(r.text).not.toContain("copy them exactly");
  });
});

describe("chord apply_patch: the first differing character, counted from 1", () => {
  it("names the character, or says the file's line ends earlier", async () => {
    await t.put({ "n.txt": "head\nline2\ntail\n" });
    const r = await chordCall(t, "apply_patch", { patch: "*** Begin Patch\n*** Update File: n.txt\n@@\n head\n-line2x\n+q\n tail\n*** End Patch" });
    expect(r.text).toContain(
      'but expected line 2 "line2x" differs from file line 2 "line2"; ' +
        "first mismatch at rune 6 (1-based): your line has U+0078, file has no characters (line ends here)\n",
    );
    expect(await read("n.txt")).toBe("head\nline2\ntail\n");
  });
});

describe("chord edit: spaces the tolerant match forgives, and the ones it does not", () => {
  it("a space just inside a parenthesis is optional, and the file's parentheses stay", async () => {
    const r = await edit("（内容）\n", "( 内容 )\n", "( 新内容 )\n");
    expect(r).toEqual({ ok: true, text: "Replaced 1 occurrence via punctuation/whitespace-tolerant match at line 1 (13 bytes -> 16 bytes)" });
    expect(await read("f.md")).toBe("（新内容）\n");
    expect((await edit("(内容)\n", "( 内容 )\n", "( 新内容 )\n")).ok).toBe(true);
    expect(await read("f.md")).toBe("(新内容)\n");
  });

  it("a space outside a parenthesis stays significant", async () => {
    for (const [file, old, replacement] of [
      ["(x\n", " (x\n", " (y\n"],
      ["x)\n", "x) \n", "y) \n"],
    ] as const) {
      const r = await edit(file, old, replacement);
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(/^old_string not found in file/);
      expect(await read("f.md")).toBe(file);
    }
  });

  it("a zero-width space leaked beside a space is taken out before matching, and named by code point", async () => {
    const file = "func foo() int {\n\treturn 0, false\n}\n";
    const r = await edit(file, "return\u200b \u200b0, false\n}\n", "return 1, true\n}\n");
    expect(r).toEqual({
      ok: true,
      text:
        "Replaced 1 occurrence, cleaned 2 invisible character(s) from your arguments (U+200B×2: zero-width marks, orphaned variation selectors " +
        "or combining marks with no letter; they carry no content, leave them out of tool arguments) (36 bytes -> 35 bytes)",
    });
    expect(await read("f.md")).toBe("func foo() int {\n\treturn 1, true\n}\n");
    // It does not make a doubled space foldable.
    expect((await edit("alpha  beta\n", "alpha\u200b beta\n", "alpha gamma\n")).ok).toBe(false);
    expect(await read("f.md")).toBe("alpha  beta\n");
  });
});

describe("chord edit: an old parameter name beside the current one", () => {
  it("path wins over filePath, which is ignored with a note", async () => {
    await t.put({ "real.txt": "hello\n", "other.txt": "hello\n" });
    const r = await chordCall(t, "edit", { path: "real.txt", filePath: "other.txt", old_string: "hello", new_string: "world" });
    expect(r).toEqual({
      ok: true,
      text: 'Note: edit has no parameter "filePath"; "path" was given too, so "filePath" was ignored.\nReplaced 1 occurrence (6 bytes -> 6 bytes)',
    });
    expect(await read("real.txt")).toBe("world\n");
    expect(await read("other.txt")).toBe("hello\n");
  });
});

describe("chord read: an offset past the end of the file", () => {
  it("says it exceeds this file's length and names the offsets that work", async () => {
    await t.put({ "c.txt": "a\nb\nc\n" });
    expect(await chordCall(t, "read", { path: "c.txt", offset: 10, limit: 5 })).toEqual({
      ok: false,
      text: "offset 10 exceeds this file length (3 lines); suggested_offset=1 reads the last 3 lines with limit=5; eof_offset=4 is valid but returns no lines",
    });
    await t.put({ "big.txt": Array.from({ length: 2003 }, (_, i) => `line ${i + 1}\n`).join("") });
    expect((await chordCall(t, "read", { path: "big.txt", offset: 99999 })).text).toBe(
      "offset 99999 exceeds this file length (2003 lines); suggested_offset=4 reads the last 2000 lines with limit=2000; eof_offset=2004 is valid but returns no lines",
    );
  });
});

describe("chord grep: a context_lines that is not a whole number", () => {
  it("is refused in plain words, naming the type it takes", async () => {
    await t.put({ "ctx.txt": "l1\nneedle\nl3\n" });
    expect(await chordCall(t, "grep", { pattern: "needle", paths: ["ctx.txt"], context_lines: 1.5 })).toEqual({
      ok: false,
      text: "ERROR: bad arguments for grep: context_lines: expected integer, got number",
    });
  });
});
