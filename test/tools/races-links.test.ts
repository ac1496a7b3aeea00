// What the race fix keeps: links inside the project that lead inside it work
// as before on both surfaces (a linked folder, a linked file), and what it
// changes on the Chord surface: a path named inside the project that leads
// outside through a link is refused, naming where it leads, while the
// outside path named itself still reaches the tool (the permission rules
// judge it).

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
let outside: string;
beforeEach(async () => {
  t = await makeToolContext();
  outside = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-races-links-")));
  await t.put({ "dir/f.txt": "inside\n" });
  await fsp.symlink("dir", path.join(t.cwd, "linked"));
  await fsp.symlink("dir/f.txt", path.join(t.cwd, "l.txt"));
});
afterEach(async () => {
  await t.cleanup();
  await fsp.rm(outside, { recursive: true, force: true });
});

const inside = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");

describe("links inside the project keep working", () => {
  it("Yuj: read, write and edit through a linked folder and a linked file", async () => {
    expect(await yujCall(t, "read", { path: "linked/f.txt" })).toEqual({ ok: true, text: "1: inside" });
    expect(await yujCall(t, "read", { path: "l.txt" })).toEqual({ ok: true, text: "1: inside" });
    expect(await yujCall(t, "write", { path: "linked/new/g.txt", content: "g\n" })).toEqual({ ok: true, text: "OK: wrote 2 bytes to linked/new/g.txt" });
    expect(await inside("dir/new/g.txt")).toBe("g\n");
    expect((await yujCall(t, "edit", { path: "l.txt", old_str: "inside", new_str: "edited" })).ok).toBe(true);
    expect(await inside("dir/f.txt")).toBe("edited\n");
    expect((await fsp.lstat(path.join(t.cwd, "l.txt"))).isSymbolicLink()).toBe(true);
  });

  it("Chord: read through both, write and edit through the linked folder", async () => {
    expect(await chordCall(t, "read", { path: "linked/f.txt" })).toMatchObject({ ok: true, text: "READ_RESULT lines=1-1 total=1\ninside\n" });
    expect(await chordCall(t, "read", { path: "l.txt" })).toMatchObject({ ok: true, text: "READ_RESULT lines=1-1 total=1\ninside\n" });
    expect(await chordCall(t, "write", { path: "linked/new/g.txt", content: "g\n" })).toMatchObject({ ok: true, text: "Successfully wrote 2 lines, 2 bytes" });
    expect(await inside("dir/new/g.txt")).toBe("g\n");
    expect(await chordCall(t, "edit", { path: "linked/f.txt", old_string: "inside", new_string: "edited" })).toMatchObject({ ok: true });
    expect(await inside("dir/f.txt")).toBe("edited\n");
  });
});

describe("Chord: a project path leading outside through a link", () => {
  it("is refused, naming where it leads; the outside path itself still reaches the tool", async () => {
    await fsp.writeFile(path.join(outside, "o.txt"), "outside\n");
    await fsp.symlink(outside, path.join(t.cwd, "out"));
    expect(await chordCall(t, "read", { path: "out/o.txt" })).toEqual({
      ok: false,
      text: `out/o.txt leads outside the project through a symbolic link (to ${path.join(outside, "o.txt")}); name that path itself to use it`,
    });
    expect(await chordCall(t, "write", { path: "out/o.txt", content: "x\n" })).toMatchObject({ ok: false });
    expect(await fsp.readFile(path.join(outside, "o.txt"), "utf8")).toBe("outside\n");
    // chordCall has no permission gate: an outside path named itself is the rules' to judge.
    expect(await chordCall(t, "read", { path: path.join(outside, "o.txt") })).toMatchObject({ ok: true, text: "READ_RESULT lines=1-1 total=1\noutside\n" });
  });
});
