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

describe("chord apply_patch: the line where a hunk parts from the file", () => {
  it("says what was expected and what was found, and the first differing character counted from 1", async () => {
    await t.put({ "n.txt": "head\nline2\ntail\n" });
    const r = await chordCall(t, "apply_patch", { patch: "*** Begin Patch\n*** Update File: n.txt\n@@\n head\n-line2x\n+q\n tail\n*** End Patch" });
    expect(r.text).toContain(
      'the first 1 line(s) of the hunk match at line 1, but the next expected line differs from the file: expected "line2x", found "line2"; ' +
        "first mismatch at rune 6 (1-based): your line has U+0078, file has no characters (line ends here); the file may have changed — re-read the current target range and rebuild this hunk from current complete lines; do not retry the same hunk unchanged\n",
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
        "Replaced 1 occurrence, cleaned 2 invisible character(s) from your arguments: U+200B×2 " +
        "(invisible formatting characters that carry no content; do not include them in tool arguments) (36 bytes -> 35 bytes)",
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

const INVISIBLE = "(invisible formatting characters that carry no content; do not include them in tool arguments)";

describe("chord write, edit and apply_patch: characters with no content, and control characters", () => {
  it("write cleans them off the content and names them by code point, in code-point order", async () => {
    const r = await chordCall(t, "write", { path: "note.txt", content: "count is \ufe0f42\u200b done\u00ad\n" });
    expect(r).toEqual({
      ok: true,
      text: `Successfully wrote 2 lines, 17 bytes\nNote: cleaned 3 invisible character(s) from your content: U+00AD×1, U+200B×1, U+FE0F×1 ${INVISIBLE}`,
    });
    expect(await read("note.txt")).toBe("count is 42 done\n");
  });

  it("write keeps what carries meaning: an emoji's selector and joiner, a keycap, a symbol's selector, a leading byte-order mark", async () => {
    const content = "\ufeffwarn \u26a0\ufe0f \u{1f468}\u200d\u{1f469} 1\ufe0f\u20e3 \u2190\ufe0f a\u00a0b\n";
    expect(await chordCall(t, "write", { path: "keep.txt", content })).toEqual({ ok: true, text: "Successfully wrote 2 lines, 47 bytes" });
    expect(await read("keep.txt")).toBe(content);
  });

  it("write refuses content made only of them, and leaves the file alone", async () => {
    await t.put({ "keep.txt": "seed\n" });
    expect(await chordCall(t, "write", { path: "keep.txt", content: "\ufe0f\ufe0e" })).toEqual({
      ok: false,
      text:
        `content contains only invisible characters: U+FE0E×1, U+FE0F×1 ${INVISIBLE}; writing it would truncate keep.txt to nothing. ` +
        "Send the visible text the file should hold, or an empty content to truncate it on purpose",
    });
    expect(await read("keep.txt")).toBe("seed\n");
  });

  it("write, edit and apply_patch refuse a control character, pointing at a shell command, and change nothing", async () => {
    await t.put({ "ctrl.txt": "seed\n" });
    for (const [content, code] of [["a\x00b", "U+0000"], ["ring \x07 bell", "U+0007"], ["\x1b[31mred\x1b[0m", "U+001B"]] as const) {
      expect(await chordCall(t, "write", { path: "ctrl.txt", content })).toEqual({
        ok: false,
        text: `content contains control character ${code} at line 1; the file tools write text only: write such bytes with a shell command (printf, or a script) instead`,
      });
    }
    expect(await read("ctrl.txt")).toBe("seed\n");
    expect((await chordCall(t, "edit", { path: "ctrl.txt", old_string: "seed", new_string: "se\x00ed" })).text).toBe(
      "new_string contains control character U+0000 at line 1; the file tools write text only: write such bytes with a shell command (printf, or a script) instead",
    );
    expect(await read("ctrl.txt")).toBe("seed\n");
    const patch = await chordCall(t, "apply_patch", { patch: "*** Begin Patch\n*** Add File: bad.txt\n+ok\n+a \x00 b\n*** End Patch" });
    expect(patch.text).toBe(
      "apply_patch failed: the added file bad.txt contains control character U+0000 at line 2; the file tools write text only: " +
        "write such bytes with a shell command (printf, or a script) instead\nNo file changed: fix the failed operations and resend the patch.",
    );
    await expect(fsp.stat(join(t.cwd, "bad.txt"))).rejects.toThrow();
  });

  it("an edit of a line that already holds a control character may keep it", async () => {
    await t.put({ "esc.txt": "say \x1b[1mhi\n" });
    expect((await chordCall(t, "edit", { path: "esc.txt", old_string: "say \x1b[1mhi", new_string: "say \x1b[1mhello" })).ok).toBe(true);
    expect(await read("esc.txt")).toBe("say \x1b[1mhello\n");
  });

  it("apply_patch refuses a patch made only of them", async () => {
    expect(await chordCall(t, "apply_patch", { patch: "\ufe0f\ufe0f" })).toEqual({
      ok: false,
      text: `apply_patch failed: the patch contains only invisible characters: U+FE0F×2 ${INVISIBLE}\nNo file changed: fix the failed operations and resend the patch.`,
    });
  });

  it("apply_patch names what it cleaned off the added lines", async () => {
    const r = await chordCall(t, "apply_patch", { patch: "*** Begin Patch\n*** Add File: n.txt\n+count is \ufe0f7\n*** End Patch" });
    expect(r).toEqual({ ok: true, text: `Applied patch:\nA n.txt\nNote: cleaned 1 invisible character(s) from the patch text: U+FE0F×1 ${INVISIBLE}` });
    expect(await read("n.txt")).toBe("count is 7\n");
  });
});

describe("chord edit: several replacements at once (edits)", () => {
  const batch = async (file: string, edits: unknown, extra: object = {}) => {
    await t.put({ "s.txt": file });
    return chordCall(t, "edit", { path: "s.txt", edits, ...extra });
  };
  const NOT_WRITTEN = "No changes were written (batch edits are atomic).";
  const RESUBMIT = "Fix the failing entries above and resubmit the complete batch.";

  it("matches every entry against the original text and applies them together", async () => {
    const r = await batch("alpha middle alpha omega\n", [
      { old_string: "alpha", new_string: "omega", replace_all: true },
      { old_string: "omega", new_string: "last" },
      { old_string: "middle ", new_string: "" },
    ]);
    expect(r).toEqual({ ok: true, text: "Applied 3 edits (4 replacements) (25 bytes -> 17 bytes)" });
    expect(await read("s.txt")).toBe("omega omega last\n");
  });

  it("reports every failing entry at once, writes nothing, and asks for the whole batch again", async () => {
    const file = "alpha beta beta\nomega\n";
    const r = await batch(file, [
      { old_string: "alpha", new_string: "ALPHA" },
      { old_string: "gamma delta", new_string: "text" },
      { old_string: "beta", new_string: "BETA" },
      { old_string: "omega", new_string: "omega" },
      { old_string: "", new_string: "text" },
      { old_string: "gamma" },
    ]);
    expect(r).toEqual({
      ok: false,
      text: [
        NOT_WRITTEN,
        "edits[1]: old_string not found in the original file",
        "edits[2]: old_string found 2 times at lines 1, 1 in the original file; provide unique context or set replace_all",
        "edits[4]: old_string is required",
        "edits[5]: new_string is required; use an empty string for deletion",
        "Skipped edits[3]: old_string and new_string are identical, so no change was requested.",
        "Remaining entries (edits[0]) passed per-entry matching but were not applied.",
        RESUBMIT,
      ].join("\n"),
    });
    expect(await read("s.txt")).toBe(file);
  });

  it("an entry that only matches another entry's result is not found; overlapping entries each name the first one they overlap", async () => {
    const file = "alpha beta beta\n";
    expect((await batch(file, [{ old_string: "alpha", new_string: "changed" }, { old_string: "changed", new_string: "text" }])).text).toContain(
      "edits[1]: old_string not found in the original file",
    );
    expect((await batch(file, [{ old_string: "beta beta", new_string: "one" }, { old_string: "alpha beta", new_string: "two" }])).text).toBe(
      `${NOT_WRITTEN}\nedits[0]: overlaps edits[1] in the original file\nedits[1]: overlaps edits[0] in the original file\n${RESUBMIT}`,
    );
    expect((await batch(file, [{ old_string: "alpha beta", new_string: "one" }, { old_string: "alpha", new_string: "two" }])).text).toContain(
      "edits[0]: overlaps edits[1] in the original file",
    );
    expect(await read("s.txt")).toBe(file);
  });

  it("a missing entry shows its closest span in three lines", async () => {
    const r = await batch("header\nresult = transform(value, enabled=True)\nfooter\n", [
      { old_string: "result = transform(values, enabled=True)", new_string: "result = transform(value)" },
    ]);
    expect(r.text).toBe(
      [
        NOT_WRITTEN,
        "edits[0]: old_string not found in the original file",
        "  Closest match is at line 2 (98% similar, 1 character difference):",
        '  file line 2: "result = transform(value, enabled=True)"',
        '  your line 1: "result = transform(values, enabled=True)"',
        RESUBMIT,
      ].join("\n"),
    );
  });

  it("skips an entry whose old and new text are the same; a batch of only those writes nothing", async () => {
    expect(await batch("alpha beta\n", [{ old_string: "alpha", new_string: "alpha" }, { old_string: "beta", new_string: "gamma" }])).toEqual({
      ok: true,
      text: "Applied 1 edits (1 replacement) (11 bytes -> 12 bytes)\nSkipped edits[0]: old_string and new_string are identical, so no change was requested.",
    });
    expect(await read("s.txt")).toBe("alpha gamma\n");
    expect(await batch("alpha beta\n", [{ old_string: "alpha", new_string: "alpha" }])).toEqual({
      ok: true,
      text: "No changes: every entry has identical old_string and new_string, so nothing was written.",
    });
  });

  it("refuses edits beside a single replacement's fields, but not beside their empty values", async () => {
    for (const extra of [{ old_string: "alpha" }, { new_string: "beta" }, { replace_all: true }]) {
      expect((await batch("alpha", [{ old_string: "alpha", new_string: "beta" }], extra)).text).toBe(
        "edits cannot be combined with old_string, new_string or replace_all; put every replacement in edits",
      );
    }
    expect(await read("s.txt")).toBe("alpha");
    expect((await batch("alpha", [{ old_string: "alpha", new_string: "beta" }], { old_string: "", new_string: "", replace_all: false })).ok).toBe(true);
    expect(await read("s.txt")).toBe("beta");
  });

  it("nested overlaps fail every entry involved and no other", async () => {
    const r = await batch("abcdefghij\ndisjoint\n", [
      { old_string: "abcdefghij", new_string: "whole" },
      { old_string: "abc", new_string: "left" },
      { old_string: "hij", new_string: "right" },
      { old_string: "disjoint", new_string: "changed" },
    ]);
    expect(r.text).toBe(
      [
        NOT_WRITTEN,
        "edits[0]: overlaps edits[1] in the original file",
        "edits[1]: overlaps edits[0] in the original file",
        "edits[2]: overlaps edits[0] in the original file",
        "Remaining entries (edits[3]) passed per-entry matching but were not applied.",
        RESUBMIT,
      ].join("\n"),
    );
  });

  it("a batch failing in many entries keeps one line for each and leaves the closest spans out", async () => {
    const edits = Array.from({ length: 50 }, (_, i) => ({ old_string: `item alpha stale-${String(i).padStart(2, "0")}`, new_string: "replacement" }));
    const r = await batch("item alpha stable\n", edits);
    const lines = r.text.split("\n");
    expect(lines).toHaveLength(53);
    expect(lines.filter((l) => l.startsWith("edits[")).map((l) => l.slice(0, l.indexOf(":")))).toEqual(edits.map((_, i) => `edits[${i}]`));
    expect(r.text).not.toContain("Closest match");
    expect(lines.at(-2)).toBe("(the closest spans of 50 entries are not shown, to keep this report short; read the file around them)");
    expect(lines.at(-1)).toBe(RESUBMIT);
  });
});
