import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { keepSgrOnly } from "../../../core/text/escapes.js";
import { truncate, truncateStart, widthOf } from "../../../core/text/width.js";
import { fitLines, wrapLine } from "../../../core/text/wrap.js";

describe("width", () => {
  it("wrapLine keeps a hanging indent for indented and bulleted lines", () => {
    const rows = wrapLine("  * alpha beta gamma delta epsilon", 16);
    expect(rows[0]).toBe("  * alpha beta");
    for (const r of rows.slice(1)) expect(r.startsWith("    ")).toBe(true);
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(16);
  });

  it("wrapLine hard-wraps words longer than the width, coloured or not", () => {
    for (const s of ["x".repeat(50), `\x1b[31m${"y".repeat(50)}\x1b[39m`]) {
      const rows = wrapLine(s, 7);
      expect(rows.length).toBeGreaterThanOrEqual(8);
      for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(7);
    }
  });

  it("fitLines returns the same array when everything fits", () => {
    const lines = ["a", "bb"];
    expect(fitLines(lines, 5)).toBe(lines);
    expect(fitLines(["abcdef"], 3)).toEqual(["abc", "def"]);
  });

  it("truncate cuts with an ellipsis by display width", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(stringWidth(truncate("日本語日本語", 5))).toBeLessThanOrEqual(5);
  });

  it("truncateStart keeps the end, by display width", () => {
    expect(truncateStart("/a/b/file.ts", 8)).toBe("…file.ts");
    expect(truncateStart("short", 8)).toBe("short");
    for (let w = 1; w < 12; w++) expect(stringWidth(truncateStart("日本/語日本/語.ts", w)), `${w}`).toBeLessThanOrEqual(w);
  });

  it("keepSgrOnly drops every escape but colour and shows what else a renderer produced", () => {
    expect(keepSgrOnly("\x1b[31mred\x1b[39m\x1b]8;;http://x\x07link\x1b]8;;\x07\x1b[2J")).toBe("\x1b[31mred\x1b[39mlink");
    expect(keepSgrOnly("\x1b[1ma\u202eb\x1b[22m")).toBe("\x1b[1ma⟨U+202E⟩b\x1b[22m");
  });
});

describe("widthOf against string-width", () => {
  const tricky = [
    "plain", "日本語", "⚠️ warning", "✔️ ok", "1️⃣ keycap", "1⃣", "👍🏽 thumbs", "👨‍👩‍👧 family", "🇺🇸 flag",
    "e\u0301 combining", "ｶﾞ halfwidth", "한국어", "\u200bzero width", "\x1b[31mred\x1b[39m ☺️", "─│┌ box",
  ];

  it.each(tricky)("never narrower than string-width: %s", (s) => {
    expect(widthOf(s)).toBeGreaterThanOrEqual(stringWidth(s));
  });

  it("wrapped rows of tricky text fit by string-width's measure", () => {
    const line = tricky.join(" ").repeat(3);
    for (const width of [1, 2, 3, 7, 13, 40]) {
      for (const r of wrapLine(line, width)) expect(stringWidth(r), JSON.stringify(r)).toBeLessThanOrEqual(width);
    }
  });

  it("a row cut inside a colour closes it and the next row reopens it", () => {
    const rows = wrapLine(`\x1b[31m${"abc ".repeat(10)}\x1b[39m`, 12);
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[0]!.endsWith("\x1b[0m")).toBe(true);
    expect(rows[1]!.startsWith("\x1b[31m")).toBe(true);
  });
});

describe("truncate with emoji", () => {
  it("keeps string-width's measure within the limit", () => {
    const s = "⚠️⚠️⚠️ careful ✔️✔️ 1️⃣2️⃣ 👍🏽👍🏽";
    for (let w = 1; w < 30; w++) expect(stringWidth(truncate(s, w)), `${w}`).toBeLessThanOrEqual(w);
  });
});

describe("widths known without string-width", () => {
  it("match string-width's for every code point below U+2C00", () => {
    const differ: string[] = [];
    for (let cp = 0; cp < 0x2c00; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const ch = String.fromCodePoint(cp);
      if (widthOf(ch) !== stringWidth(ch)) differ.push(`U+${cp.toString(16)}: ${widthOf(ch)} vs ${stringWidth(ch)}`);
    }
    expect(differ).toEqual([]);
  });
});
