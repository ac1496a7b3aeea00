import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createFrameStdout, frameDiff } from "../../app/tui/frame-writer.js";

function terminal(columns = 40, rows = 5) {
  const t = Object.assign(new EventEmitter(), { columns, rows, written: [] as string[], write: (d: string) => t.written.push(d) });
  return t;
}

describe("the frame writer", () => {
  it("rewrites only the rows that changed, and clears rows the frame no longer has", () => {
    expect(frameDiff(["a", "b", "c"], ["a", "B", "c"])).toBe("\x1b[2;1H\x1b[2KB");
    expect(frameDiff(["a", "b"], ["a"])).toBe("\x1b[2;1H\x1b[2K");
    expect(frameDiff(["a"], ["a"])).toBe("");
  });

  it("writes nothing for an unchanged frame, never clears the scrollback, and redraws whole after a resize", () => {
    const t = terminal();
    const out = createFrameStdout(t);
    out.write("one\ntwo");
    out.write("one\ntwo");
    expect(t.written).toHaveLength(1);
    t.columns = 30;
    t.emit("resize");
    expect(out.columns).toBe(30);
    out.write("one\ntwo");
    expect(t.written.join("")).not.toContain("\x1b[3J");
    expect(t.written.at(-1)).toContain("one");
    out.close();
    out.write("three");
    expect(t.written.join("")).not.toContain("three");
  });

  it("never draws past the last row (that would scroll the screen)", () => {
    const t = terminal(40, 2);
    createFrameStdout(t).write("1\n2\n3");
    expect(t.written.join("")).not.toContain("\x1b[3;1H");
  });

  it("paints a row's echo only over the row it was made from, records it, and erases what a narrower row leaves", () => {
    const t = terminal();
    const out = createFrameStdout(t);
    out.write("transcript\n› ab_\nstatus");
    const echo = { before: "› ab_", after: "› abc_", column: 4, tail: "c_", shrinks: false };
    expect(out.paintRow({ ...echo, before: "› xy_" })).toBe(false);
    expect(out.paintRow(echo)).toBe(true);
    expect(t.written.at(-1)).toBe("\x1b[2;5Hc_");
    // The frame React paints next holds the same row: nothing is written for it.
    const writes = t.written.length;
    out.write("transcript\n› abc_\nstatus");
    expect(t.written).toHaveLength(writes);
    expect(out.paintRow({ before: "› abc_", after: "› a_", column: 3, tail: "_", shrinks: true })).toBe(true);
    expect(t.written.at(-1)).toBe("\x1b[2;4H_\x1b[K");
    // While another program has the terminal, and after a resize (the screen is redrawn whole), nothing is painted.
    out.suspend();
    expect(out.paintRow({ before: "› a_", after: "› ab_", column: 3, tail: "b_", shrinks: false })).toBe(false);
    out.resume();
    t.emit("resize");
    expect(out.paintRow({ before: "› a_", after: "› ab_", column: 3, tail: "b_", shrinks: false })).toBe(false);
  });
});
