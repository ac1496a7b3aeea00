// Chord grep on a file the model names that is not text: Chord's grep skips
// it (a binary extension, or a NUL byte near its start), as a walk would;
// yuj says so on a `grep: skipped path:` line, so "No matches found" is not
// read as "the file does not contain it". Real files, the real dispatcher.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const NO_MATCH =
  "No matches found. If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "x.pyc": "needle text\n", "blob.dat": Buffer.from("needle\u0000tail\n"), "src/notes.txt": "needle here\n", "src/logo.png": "needle\n" });
});
afterEach(() => t.cleanup());

describe("chord grep: a named file that is not text", () => {
  it("a binary extension given in paths is skipped with a note", async () => {
    const r = await chordCall(t, "grep", { pattern: "needle", paths: ["x.pyc"] });
    expect(r.text).toBe(`grep: skipped path: x.pyc is a binary file; grep searches text files only\n${NO_MATCH}`);
  });

  it("a file with a NUL byte is skipped with a note, and the other paths are still searched", async () => {
    const r = await chordCall(t, "grep", { pattern: "needle", paths: ["blob.dat", "src/notes.txt"] });
    expect(r.text).toBe("grep: skipped path: blob.dat is a binary file; grep searches text files only\nsrc/notes.txt:1:needle here");
  });

  it("an exact include naming a binary file says so; the text file it names is searched", async () => {
    const r = await chordCall(t, "grep", { pattern: "needle", includes: ["src/logo.png", "src/notes.txt"] });
    expect(r.text).toBe("grep: skipped path: src/logo.png is a binary file; grep searches text files only\nsrc/notes.txt:1:needle here");
  });

  it("a walk still skips binary files without a note", async () => {
    const r = await chordCall(t, "grep", { pattern: "needle" });
    expect(r.text).toBe("src/notes.txt:1:needle here");
  });
});
