// Which composer edits are painted at once, and in which bytes: the row as
// Ink paints it before and after, the first cell that changed and the rest.

import { describe, expect, it } from "vitest";
import { bufferOf, insert, remove, type Buffer } from "../../components/composer-buffer.js";
import { composerEcho } from "../../components/composer-echo.js";

const GLYPH = "\x1b[36m› \x1b[39m";
const cursor = (ch = " ") => `\x1b[7m${ch}\x1b[27m`;
const at = (b: Buffer, i: number): Buffer => ({ ...b, cursor: i });

describe("the composer's echo", () => {
  it("paints a character typed at the end, in the middle, and Backspace", () => {
    const ab = bufferOf("ab");
    expect(composerEcho(ab, insert(ab, ["c"]), 40)).toEqual({
      before: `${GLYPH}ab${cursor()}`,
      after: `${GLYPH}abc${cursor()}`,
      column: 4,
      tail: `c${cursor()}`,
      shrinks: false,
      textBefore: "ab",
      textAfter: "abc",
    });
    const middle = at(bufferOf("ac"), 1);
    expect(composerEcho(middle, insert(middle, ["b"]), 40)).toMatchObject({ after: `${GLYPH}ab${cursor("c")}`, column: 3, tail: `b${cursor("c")}`, shrinks: false });
    const abc = bufferOf("abc");
    expect(composerEcho(abc, remove(abc, 2, 3), 40)).toMatchObject({ after: `${GLYPH}ab${cursor()}`, column: 4, tail: cursor(), shrinks: true });
  });

  it("paints cursor moves, wide characters by their cells, and a row under the first", () => {
    const ab = bufferOf("ab");
    expect(composerEcho(ab, at(ab, 1), 40)).toMatchObject({ after: `${GLYPH}a${cursor("b")}`, column: 3, shrinks: true });
    const wide = bufferOf("中文");
    expect(composerEcho(wide, insert(wide, ["字"]), 40)).toMatchObject({ column: 6, tail: `字${cursor()}` });
    const two = bufferOf("first\nse");
    expect(composerEcho(two, insert(two, ["c"]), 40)).toMatchObject({ after: `\x1b[36m  \x1b[39msec${cursor()}`, column: 4 });
  });

  it("leaves to the render what changes more than the row or is painted otherwise", () => {
    const ab = bufferOf("ab");
    expect(composerEcho(ab, insert(ab, ["\n"]), 40), "a new line").toBeUndefined();
    expect(composerEcho(ab, insert(ab, ["\u0301"]), 40), "a combining mark").toBeUndefined();
    expect(composerEcho(ab, insert(ab, ["🎉"]), 40), "an emoji").toBeUndefined();
    expect(composerEcho(ab, insert(ab, ["\t"]), 40), "a tab").toBeUndefined();
    const chip = bufferOf(Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n"));
    expect(composerEcho(chip, insert(chip, ["x"]), 40), "a paste chip").toBeUndefined();
    const full = bufferOf("x".repeat(39));
    expect(composerEcho(full, insert(full, ["y"]), 40), "a row that would wrap").toBeUndefined();
    const lines = at(bufferOf("one\ntwo"), 3);
    expect(composerEcho(lines, at(lines, 4), 40), "the cursor to the next line").toBeUndefined();
    expect(composerEcho(ab, ab, 40), "nothing changed").toBeUndefined();
  });
});
