// Chord delete as the reference's delete tests pin it, on real files: a
// file, a symlink (its target stays), a missing path (already absent), a
// directory (refused before anything is removed), several files at once.

import * as fsp from "node:fs/promises";
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

/** The result with each backup's session path replaced by BACKUP. */
const shown = (text: string) => text.replace(/ — \/\S+/g, " — BACKUP");

describe("chord delete, as the reference's delete tests expect", () => {
  it("a file, a symlink, a missing path, a directory and two files", async () => {
    await t.put({ "remove.txt": "hello\nworld\n", "target.txt": "hello", "a.txt": "a", "b.txt": "b", "d/x.txt": "x" });
    await fsp.symlink(join(t.cwd, "target.txt"), join(t.cwd, "link.txt"));

    const file = await chordCall(t, "delete", { paths: ["remove.txt"], reason: "remove test file" });
    expect([file.ok, shown(file.text)]).toEqual([true, "Delete completed.\n\nDeleted (1):\n- remove.txt\n\nBackups (1):\n- remove.txt — BACKUP"]);
    expect(existsSync(join(t.cwd, "remove.txt"))).toBe(false);

    const link = await chordCall(t, "delete", { paths: ["link.txt"], reason: "remove symlink" });
    expect([link.ok, shown(link.text)]).toEqual([true, "Delete completed.\n\nDeleted (1):\n- link.txt (symlink; its target is untouched)\n\nBackups (1):\n- link.txt — BACKUP"]);
    expect(() => lstatSync(join(t.cwd, "link.txt"))).toThrow();
    expect(await fsp.readFile(join(t.cwd, "target.txt"), "utf8")).toBe("hello");

    const absent = await chordCall(t, "delete", { paths: [join(t.cwd, "absent.txt")], reason: "cleanup" });
    expect([absent.ok, absent.text]).toEqual([true, "Delete completed.\n\nAlready absent (1):\n- absent.txt"]);

    const dir = await chordCall(t, "delete", { paths: ["d"], reason: "cleanup" });
    expect([dir.ok, dir.text]).toEqual([
      false,
      "Delete failed before execution; no files were removed.\n\nBlocked (1):\n- d — path is a directory, not a file; delete removes files and symlinks only",
    ]);
    expect(existsSync(join(t.cwd, "d/x.txt"))).toBe(true);

    const two = await chordCall(t, "delete", { paths: ["b.txt", "a.txt"], reason: "remove temp files" });
    expect([two.ok, shown(two.text)]).toEqual([true, "Delete completed.\n\nDeleted (2):\n- a.txt\n- b.txt\n\nBackups (2):\n- a.txt — BACKUP\n- b.txt — BACKUP"]);
    expect(existsSync(join(t.cwd, "a.txt")) || existsSync(join(t.cwd, "b.txt"))).toBe(false);
  });
});
