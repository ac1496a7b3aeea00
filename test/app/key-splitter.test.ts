import { describe, expect, it } from "vitest";
import { createKeySplitter } from "../../app/tui/key-stdin.js";

describe("one key per read", () => {
  it("cuts text into keys and keeps escape sequences and a bracketed paste whole, in order", () => {
    const s = createKeySplitter();
    expect(s.push("clean\rh\x7f\x7f\x1b[A\x1b[200~a\rb\x1b[201~x")).toEqual([
      ..."clean\rh".split(""),
      "\x7f",
      "\x7f",
      "\x1b[A",
      "\x1b[200~",
      "a\rb",
      "\x1b[201~",
      "x",
    ]);
  });

  it("keeps a paste whole across reads, and an emoji as one key", () => {
    const s = createKeySplitter();
    expect(s.push("\x1b[200~line 1\n")).toEqual(["\x1b[200~", "line 1\n"]);
    expect(s.push("line 2\x1b[201~😀")).toEqual(["line 2", "\x1b[201~", "😀"]);
  });
});
