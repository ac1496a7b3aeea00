// The finish rule's "a check after the last change", against the reference's
// shell-verification tests: a successful command is a check only when its
// exit status is that of everything it ran (plain commands joined by &&,
// nothing expanded, no output sent to a file); a runner asked to describe or
// list itself checks nothing; a compile-only test build does. Run through
// the real dispatcher and done guard, on real files, with a stand-in test
// runner on PATH.

import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doneText } from "../../tools/guards/index.js";
import { commandMayCheck } from "../../tools/lib/shell-verification.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession | undefined;
const PATH = process.env.PATH;
afterEach(async () => {
  process.env.PATH = PATH;
  await s?.cleanup();
  s = undefined;
});

/** A session that requires a check after a change, one changed file, and `pytest`/`cargo`/`go` stand-ins that record their call and exit `code`. */
async function changedProject(code: number): Promise<GuardedSession> {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = true;
    c.loop.done_require_verify = true;
  });
  const bin = join(s.cwd, ".bin");
  mkdirSync(bin);
  for (const name of ["pytest", "cargo", "go", "ctest"]) {
    // The log lives in .bin, outside what the finish rule counts as the project's files.
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${join(bin, "invocation")}"\nexit ${code}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  process.env.PATH = `${bin}:${PATH}`;
  await s.put({ "notes.txt": Array.from({ length: 20 }, (_, i) => `Documentation item ${i}: a permitted task fact`).join("\n"), "src/a.py": "x = 1\n" });
  expect((await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" })).ok).toBe(true);
  return s;
}

const UNCHECKED = doneText.unchecked(["src/a.py"], "done");

describe("a successful command is a check only when its status is the work's", () => {
  it("the reference's four shell cases: a long read, a skipped runner, a masked failure, a quiet custom check", async () => {
    const s = await changedProject(1);
    // [command, counts as a check, the runner was reached by then]
    const cases: Array<[string, boolean, boolean]> = [
      ["cat notes.txt", false, false],
      ["true || pytest", false, false],
      ["pytest || true", false, true],
      ["! pytest", false, true],
      [`python3 -c "assert 2 + 2 == 4"`, true, true],
    ];
    for (const [cmd, checks, reached] of cases) {
      const ran = await s.call("bash", { cmd });
      expect(ran.ok, `${cmd}: ${ran.modelText}`).toBe(true);
      expect([cmd, existsSync(join(s.cwd, ".bin", "invocation"))]).toEqual([cmd, reached]);
      const done = await s.call("done", { message: "finished" });
      expect([cmd, done.ok, done.ok ? "" : done.modelText]).toEqual([cmd, checks, checks ? "" : UNCHECKED]);
    }
  });

  it("exit 0 that another command could have produced, or of commands unknown until run time, checks nothing", async () => {
    const s = await changedProject(0);
    for (const cmd of [
      "pytest; true", "pytest &", "if true; then pytest; fi", "echo $(pytest)", "pytest $(true)",
      "CHOICE=$(true) pytest", "pytest > .bin/output", "pytest | tail", "pytest # skipped comment",
      "pytest --h*", "pytest tests/[ab].py", "pytest ~/tests", "pytest\ntrue", "pytest; echo ok", "true && false || pytest",
    ]) {
      expect(commandMayCheck(cmd), cmd).toBe(false);
      expect((await s.call("bash", { cmd })).ok, cmd).toBe(true);
      expect([cmd, (await s.call("done")).modelText]).toEqual([cmd, UNCHECKED]);
    }
  });

  it("a runner asked to describe or list itself checks nothing; a compile-only test build does", async () => {
    const s = await changedProject(0);
    for (const cmd of ["pytest --help", "pytest --collect-only", "cargo test --help", "ctest -N", "go test -list=."]) {
      expect((await s.call("bash", { cmd })).ok, cmd).toBe(true);
      expect([cmd, (await s.call("done")).modelText]).toEqual([cmd, UNCHECKED]);
    }
    expect(commandMayCheck("npx jest --listTests")).toBe(false);
    expect(commandMayCheck("python3 -m pytest --co -q")).toBe(false);
    expect(commandMayCheck("! pytest")).toBe(false);
    expect(commandMayCheck("npx --yes jest --listTests")).toBe(false);
    expect((await s.call("bash", { cmd: "cargo test --no-run" })).ok).toBe(true);
    expect((await s.call("done", { message: "built" })).ok).toBe(true);
  });

  it("plain commands joined by &&, descriptor duplication and /dev/null keep the status the work's", async () => {
    const s = await changedProject(0);
    for (const cmd of ["cd . && pytest -q -p no:cacheprovider", "pytest 2>&1", "pytest > /dev/null 2>&1", "CI=1 go test -c", "sleep 0.1; pytest", "make || true; pytest -q"]) {
      expect(commandMayCheck(cmd), cmd).toBe(true);
    }
    expect((await s.call("bash", { cmd: "cd . && pytest -q" })).ok).toBe(true);
    expect((await s.call("done", { message: "tested" })).ok).toBe(true);
  });

  it("a failing runner is no check, however it is written", async () => {
    const s = await changedProject(1);
    const ran = await s.call("bash", { cmd: "pytest -q" });
    expect(ran.ok).toBe(false);
    expect((await s.call("done")).modelText).toBe(UNCHECKED);
  });
});
