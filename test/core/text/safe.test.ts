// The rules of the one text-safety layer, character by character. The test
// that pushes hostile text through every renderer is test/e2e/text-safety.test.ts.

import { describe, expect, it } from "vitest";
import { jsonForTerminal, modelText } from "../../../core/text/escapes.js";
import { dropControls, oneLine, safeOutput, safeText, screenText } from "../../../core/text/safe.js";
import { createSafeStream } from "../../../core/text/stream.js";

describe("safeText", () => {
  it("shows C0 controls as control pictures, DEL as ␡: an escape sequence reads as text", () => {
    expect(safeText("a\x1b[2Jb")).toBe("a␛[2Jb");
    expect(safeText("\x1b]0;title\x07")).toBe("␛]0;title␇");
    expect(safeText("x\x00y\x7fz\x08")).toBe("x␀y␡z␈");
  });

  it("keeps \\n and \\t, folds \\r\\n, and shows a lone \\r (it would overwrite the line)", () => {
    expect(safeText("a\r\nb\tc")).toBe("a\nb\tc");
    expect(safeText("rm -rf ~\rls    ")).toBe("rm -rf ~␍ls    ");
  });

  it("shows C1, bidirectional, zero-width and other format characters as ⟨U+XXXX⟩", () => {
    expect(safeText("\x9b31m")).toBe("⟨U+009B⟩31m");
    expect(safeText("x\u202ey")).toBe("x⟨U+202E⟩y");
    for (const c of ["\u202a", "\u202d", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"]) expect(safeText(c)).toMatch(/^⟨U\+[0-9A-F]{4}⟩$/);
    expect(safeText("ad\u200bmin r\u200dm \ufeff\u2060\u00ad")).toBe("ad⟨U+200B⟩min r⟨U+200D⟩m ⟨U+FEFF⟩⟨U+2060⟩⟨U+00AD⟩");
    expect(safeText("a\u2028b\u3164c")).toBe("a⟨U+2028⟩b⟨U+3164⟩c");
    // Tag characters smuggle invisible text; outside a flag they are shown.
    expect(safeText("hi\u{e0041}\u{e0042}")).toBe("hi⟨U+E0041⟩⟨U+E0042⟩");
  });

  it("keeps a joiner between emoji and a flag's tags", () => {
    const family = "👨\u200d👩\u200d👧";
    const tone = "👍🏽\u200d🔥";
    const england = "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}";
    expect(safeText(family)).toBe(family);
    expect(safeText(tone)).toBe(tone);
    expect(safeText(england)).toBe(england);
    expect(safeText("🏴\u{e0067}x")).toBe("🏴⟨U+E0067⟩x");
    expect(safeText("a\u200d👩")).toBe("a⟨U+200D⟩👩");
  });

  it("returns ordinary text as the same string", () => {
    const s = "plain text, ünïcode 日本 ⚠️ 👍🏽";
    expect(safeText(s)).toBe(s);
  });

  it("is idempotent: made safe twice reads the same", () => {
    const s = "\x1b]0;x\x07\u202e\r\x9b";
    expect(safeText(safeText(s))).toBe(safeText(s));
  });
});

describe("the variants", () => {
  it("safeOutput keeps a redrawn line's last state, as a terminal shows it", () => {
    expect(safeOutput("10%\r50%\r100%\nnext\r\n")).toBe("100%\nnext\n");
    expect(safeOutput("a\x1b[2J")).toBe("a␛[2J");
  });

  it("screenText expands tabs to 4-column stops by display width", () => {
    expect(screenText("a\tb\n\tc")).toBe("a   b\n    c");
    expect(screenText("日\tx")).toBe("日  x");
  });

  it("oneLine shows line breaks as ↵", () => {
    expect(oneLine(" git push\n\nrm -rf ~ ")).toBe("git push ↵ rm -rf ~");
  });

  it("dropControls removes; modelText keeps a redraw's last state and shows the rest", () => {
    expect(dropControls("a\x07b\x9bc\n\td")).toBe("abc\n\td");
    expect(modelText("\x1b[1;32mok\x1b[0m\r\n10%\r20%\x07\n")).toBe("ok\n20%␇\n");
  });
});

describe("jsonForTerminal", () => {
  it("escapes what JSON.stringify leaves raw, and parses to the same value", () => {
    const value = { s: "a\x7f\x9b\u202e\u200b\u2028\u{e0041}b\x1b" };
    const json = jsonForTerminal(JSON.stringify(value));
    expect(json).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e\u200b\u2028]|[\u{e0000}-\u{e007f}]/u);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("createSafeStream", () => {
  const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));
  const samples = ["one\r\ntwo\rthree", "👨\u200d👩\u200d👧 and r\u200dm", "👍🏽\u200d🔥 ☝\ufe0f\u200d🔥", "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}!", "\x1b]0;t\x07\u202e\r"];

  it.each(samples)("gives the same text in pieces as whole: %j", (text) => {
    for (let size = 1; size <= 5; size++) {
      const s = createSafeStream();
      const out = pieces(text, size).map((p) => s.push(p)).join("") + s.flush();
      expect(out, `pieces of ${size}`).toBe(safeText(text));
    }
  });
});
