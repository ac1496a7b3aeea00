// The composer's edits as pure functions: text and cursor in, text and cursor out.

import { describe, expect, it } from "vitest";
import {
  bufferOf,
  completeMention,
  killBigWordBack,
  killToLineEnd,
  killToLineStart,
  killWordBack,
  mentionAt,
  readlineEditFor,
  textOf,
  toLineEnd,
  toLineStart,
  tokensOf,
  wordBack,
  wordForward,
  type Buffer,
} from "../../components/composer-buffer.js";

/** A buffer from text with `|` marking the cursor, and back. */
function at(marked: string): Buffer {
  const i = marked.indexOf("|");
  const tokens = tokensOf(marked.replace("|", ""), false);
  return { tokens, cursor: Array.from(marked.slice(0, i)).length };
}
function show(b: Buffer): string {
  const t = b.tokens.map((x) => (typeof x === "string" ? x : `[${x.lines}]`));
  t.splice(b.cursor, 0, "|");
  return t.join("");
}

const noKey = { ctrl: false, meta: false, backspace: false, delete: false };

describe("composer edits", () => {
  it("Ctrl+A and Ctrl+E move to the start and end of the current line only", () => {
    expect(show(toLineStart(at("one\ntw|o\nthree")))).toBe("one\n|two\nthree");
    expect(show(toLineEnd(at("one\nt|wo\nthree")))).toBe("one\ntwo|\nthree");
  });

  it("Ctrl+K and Ctrl+U delete to the end and to the start of the line", () => {
    expect(show(killToLineEnd(at("keep th|is\nnext")))).toBe("keep th|\nnext");
    expect(show(killToLineStart(at("prev\ndrop th|is")))).toBe("prev\n|is");
  });

  it("Ctrl+W deletes back to a blank, punctuation included", () => {
    expect(show(killBigWordBack(at("git commit -m foo.bar|")))).toBe("git commit -m |");
    expect(show(killBigWordBack(at("two words   |")))).toBe("two |");
    expect(show(killBigWordBack(at("|start")))).toBe("|start");
  });

  it("Alt+Backspace deletes back to punctuation, as readline does", () => {
    expect(show(killWordBack(at("open src/app.ts|")))).toBe("open src/app.|");
    expect(show(killWordBack(at("hello, |")))).toBe("|");
  });

  it("Alt+B and Alt+F move by words", () => {
    expect(show(wordBack(at("alpha beta gam|ma")))).toBe("alpha beta |gamma");
    expect(show(wordBack(at("alpha beta |gamma")))).toBe("alpha |beta gamma");
    expect(show(wordForward(at("al|pha beta")))).toBe("alpha| beta");
    expect(show(wordForward(at("alpha| beta")))).toBe("alpha beta|");
  });

  it("a paste chip counts as one word and one character", () => {
    const chip = bufferOf(Array.from({ length: 12 }, () => "x").join("\n"));
    const b: Buffer = { tokens: [..."see ", ...chip.tokens, ..." ok"], cursor: 5 };
    expect(show(wordBack(b))).toBe("see |[12] ok");
    expect(textOf(killWordBack(b).tokens)).toBe("see  ok");
  });

  it("maps Ctrl and Alt keys (Alt arrives as ESC + key) to the edits", () => {
    expect(readlineEditFor("a", { ...noKey, ctrl: true }, "\x01")).toBe("lineStart");
    expect(readlineEditFor("w", { ...noKey, ctrl: true }, "\x17")).toBe("killBigWordBack");
    expect(readlineEditFor("b", { ...noKey, meta: true }, "\x1bb")).toBe("wordBack");
    expect(readlineEditFor("f", { ...noKey, meta: true }, "\x1bf")).toBe("wordForward");
    expect(readlineEditFor("", { ...noKey, meta: true, delete: true }, "\x1b\x7f")).toBe("killWordBack");
    expect(readlineEditFor("b", noKey, "b")).toBeUndefined();
  });

  it("finds the @mention at the cursor and completes it", () => {
    expect(mentionAt(at("look at @src/a|"))).toEqual({ start: 8, query: "src/a" });
    expect(mentionAt(at("mail me@host|"))).toBeUndefined();
    expect(mentionAt(at("@|"))).toEqual({ start: 0, query: "" });
    expect(show(completeMention(at("see @ap| now"), "src/app.ts"))).toBe("see @src/app.ts | now");
  });

  it("collapses a paste of more than 10 lines or 1000 characters", () => {
    expect(tokensOf("a\nb\nc", true)).toHaveLength(5);
    expect(tokensOf(Array(11).fill("l").join("\n"), true)).toEqual([{ text: Array(11).fill("l").join("\n"), lines: 11 }]);
    expect(tokensOf("y".repeat(1001), true)).toHaveLength(1);
  });
});
