// Chord's grep as its own tests pin what a model sees for files opened by
// name, on real files through the real dispatcher and `chord` profile:
// includes that are all plain relative paths read exactly those files under
// each searched directory (a missing one skipped, an ignored one still read,
// a same-named file elsewhere not), a file given in paths is searched
// whatever includes say, and a named file that is not text (a binary
// extension, a NUL byte) is skipped as a walk would skip it, with a note naming it.

import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const NO_MATCHES =
  "No matches found. If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";

describe("chord grep exact includes", () => {
  it("a nested relative path reads that file only, not a same-named file elsewhere", async () => {
    await t.put({ "src/deep/target.go": "needle here\n", "other/target.go": "needle decoy\n" });
    const r = await chordCall(t, "grep", { pattern: "needle", includes: ["src/deep/target.go"] });
    expect(r.text).toBe("src/deep/target.go:1:needle here");
  });

  it("a bare file name names the file directly under the searched directory; a missing one is skipped", async () => {
    await t.put({ "there.txt": "hit\n", "sub/there.txt": "hit nested\n" });
    const r = await chordCall(t, "grep", { pattern: "hit", includes: ["there.txt", "missing.txt"] });
    expect(r).toMatchObject({ ok: true, text: "there.txt:1:hit" });
    expect((await chordCall(t, "grep", { pattern: "hit", paths: ["sub"], includes: ["there.txt"] })).text).toBe("sub/there.txt:1:hit nested");
  });

  it("every named file missing is no match, not an error", async () => {
    await t.put({ "a.txt": "hit\n" });
    expect(await chordCall(t, "grep", { pattern: "hit", includes: ["gone.txt"] })).toMatchObject({ ok: true, text: NO_MATCHES });
  });

  it("a file named exactly is read even when the ignore rules hide it from a walk", async () => {
    execFileSync("git", ["init", "-q"], { cwd: t.cwd });
    await t.put({ ".gitignore": "gen/\n", "gen/out.txt": "needle generated\n", "src/a.txt": "needle\n" });
    expect((await chordCall(t, "grep", { pattern: "needle" })).text).toBe("src/a.txt:1:needle");
    expect((await chordCall(t, "grep", { pattern: "needle", includes: ["gen/out.txt"] })).text).toBe("gen/out.txt:1:needle generated");
  });

  it("one glob among the includes makes them all filters of a walk again", async () => {
    await t.put({ "there.txt": "hit\n", "sub/there.txt": "hit nested\n", "sub/b.go": "hit go\n" });
    expect((await chordCall(t, "grep", { pattern: "hit", includes: ["there.txt", "*.go"] })).text).toBe("sub/b.go:1:hit go\nsub/there.txt:1:hit nested\nthere.txt:1:hit");
  });

  it("a named path that leaves the directory, or a symlink out of the project, is not read", async () => {
    const outside = join(tmpdir(), `c-grep-outside-${process.pid}.txt`);
    writeFileSync(outside, "needle outside\n");
    await t.put({ "sub/a.txt": "x\n", "top.txt": "needle top\n" });
    symlinkSync(outside, join(t.cwd, "sub", "link.txt"));
    expect((await chordCall(t, "grep", { pattern: "needle", paths: ["sub"], includes: ["../top.txt"] })).text).toBe(NO_MATCHES);
    expect((await chordCall(t, "grep", { pattern: "needle", paths: ["sub"], includes: ["link.txt"] })).text).toBe(NO_MATCHES);
  });
});

describe("chord grep files given by name", () => {
  it("a file in paths is searched whatever includes say", async () => {
    await t.put({ "notes.md": "needle\n" });
    expect((await chordCall(t, "grep", { pattern: "needle", paths: ["notes.md"], includes: ["**/*.go"] })).text).toBe("notes.md:1:needle");
  });

  it("a file with a NUL byte or a binary extension is skipped, named directly or through includes", async () => {
    await t.put({ "bin.dat": "\x00header needle\x00tail", "cache.pyc": "needle as text\n", "ok.txt": "needle\n" });
    // Each skipped file is named on a note line, so the no-match answer is not read as "not in that file".
    const skipped = (names: string[]) => names.map((n) => `grep: skipped path: ${n} is a binary file; grep searches text files only\n`).join("");
    for (const [args, names] of [[{ paths: ["bin.dat"] }, ["bin.dat"]], [{ paths: ["cache.pyc"] }, ["cache.pyc"]], [{ includes: ["bin.dat", "cache.pyc"] }, ["bin.dat", "cache.pyc"]]] as const) {
      expect(await chordCall(t, "grep", { pattern: "needle", ...args })).toMatchObject({ ok: true, text: skipped([...names]) + NO_MATCHES });
    }
    expect((await chordCall(t, "grep", { pattern: "needle", paths: ["bin.dat", "ok.txt"] })).text).toBe(`${skipped(["bin.dat"])}ok.txt:1:needle`);
  });
});
