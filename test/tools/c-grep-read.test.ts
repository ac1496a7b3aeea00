// Chord's read as its newest read tests pin what a model sees, on real files
// through the real dispatcher and `chord` profile: an offset past the end of
// an empty file says the file is empty and how to read it, in Chord's words;
// the 1-based offset (0 read as the first line), the end-of-file position and
// the past-the-end advice with the limit the call used or the default 2000.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

describe("chord read offsets, as Chord's read tests pin them", () => {
  it("an offset past an empty file says the file is empty", async () => {
    await t.put({ "e.txt": "" });
    expect(await chordCall(t, "read", { path: "e.txt", offset: 5 })).toMatchObject({
      ok: false,
      text: "offset 5 exceeds this file length (0 lines); the file is empty, so read from offset 1 (or omit it) to get an empty result",
    });
    expect((await chordCall(t, "read", { path: "e.txt", offset: 1 })).text).toBe("READ_RESULT lines=none total=0\n");
  });

  it("offset is 1-based, and 0 is read as the first line", async () => {
    await t.put({ "s.txt": "a\nb\nc\nd\ne\n" });
    for (const offset of [undefined, 0, 1]) {
      expect((await chordCall(t, "read", { path: "s.txt", limit: 2, ...(offset === undefined ? {} : { offset }) })).text).toBe("READ_RESULT lines=1-2 total=5\na\nb\n");
    }
    expect((await chordCall(t, "read", { path: "s.txt", offset: 2, limit: 2 })).text).toBe("READ_RESULT lines=2-3 total=5\nb\nc\n");
    expect((await chordCall(t, "read", { path: "s.txt", offset: 6, limit: 10 })).text).toBe("READ_RESULT lines=none total=5\n");
  });

  it("an offset past the end names the offset that reads the last lines and the end position", async () => {
    await t.put({ "s.txt": "a\nb\nc\n", "big.txt": numbered(2003) });
    expect((await chordCall(t, "read", { path: "s.txt", offset: 10, limit: 5 })).text).toBe(
      "offset 10 exceeds this file length (3 lines); suggested_offset=1 reads the last 3 lines with limit=5; eof_offset=4 is valid but returns no lines",
    );
    expect((await chordCall(t, "read", { path: "big.txt", offset: 99999 })).text).toBe(
      "offset 99999 exceeds this file length (2003 lines); suggested_offset=4 reads the last 2000 lines with limit=2000; eof_offset=2004 is valid but returns no lines",
    );
  });
});
