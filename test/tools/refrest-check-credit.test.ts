// When a passing check counts, against the reference's custom-check tests,
// in a real git repository through the real dispatcher and done guard: a
// check that fails when run again takes back its earlier pass; a check that
// rewrites a file the model changed does not check it; a check that writes
// a report of its own still counts, until the model edits that report and
// the check rewrites it.

import { afterEach, describe, expect, it } from "vitest";
import { doneText } from "../../tools/guards/index.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { testGit } from "../support/git.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const git = testGit;

async function repo(): Promise<GuardedSession> {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = true;
    c.loop.done_require_verify = true;
  });
  await s.put({ "core.txt": "1\n" });
  git(s.cwd, "init", "-q");
  git(s.cwd, "add", ".");
  git(s.cwd, "commit", "-qm", "start");
  expect((await s.call("write", { path: "core.txt", content: "2\n" })).ok).toBe(true);
  return s;
}

/** A check of core.txt; with `report`, it also appends a dot to run-note.txt; with `rewrite`, it also rewrites core.txt. */
const check = (opts: { report?: boolean; rewrite?: boolean } = {}) => {
  const steps = ["const fs = require('fs')", "if (fs.readFileSync('core.txt', 'utf8') !== '2\\n') process.exit(1)"];
  if (opts.report) steps.push("fs.appendFileSync('run-note.txt', '.')");
  if (opts.rewrite) steps.push("fs.writeFileSync('core.txt', '2\\n\\n')");
  return `node -e "${steps.join("; ")}"`;
};

describe("a passing check counts for what it was given", () => {
  it("pass, then the same kind of check fails: done is refused again", async () => {
    const s = await repo();
    expect((await s.call("bash", { cmd: check() })).ok).toBe(true);
    expect((await s.call("bash", { cmd: `node -e "process.exit(1)"` })).ok).toBe(false);
    expect((await s.call("done")).modelText).toBe(doneText.unchecked(["core.txt"], "done"));
    expect((await s.call("bash", { cmd: check() })).ok).toBe(true);
    expect((await s.call("done", { message: "checked" })).ok).toBe(true);
  });

  it("a check that rewrites the changed file does not check it; the next check does", async () => {
    const s = await repo();
    expect((await s.call("bash", { cmd: check({ rewrite: true }) })).ok).toBe(true);
    expect((await s.call("done")).modelText).toBe(doneText.unchecked(["core.txt"], "done"));
    expect((await s.call("bash", { cmd: `node -e "process.exit(require('fs').readFileSync('core.txt','utf8').startsWith('2') ? 0 : 1)"` })).ok).toBe(true);
    expect((await s.call("done", { message: "checked" })).ok).toBe(true);
  });

  it("a check's own report keeps its credit, run after run; once the model edits the report, a check that rewrites it does not count", async () => {
    const s = await repo();
    expect((await s.call("bash", { cmd: check({ report: true }) })).ok).toBe(true);
    expect((await s.call("bash", { cmd: check({ report: true }) })).ok).toBe(true);
    expect((await s.call("done", { message: "checked" })).ok).toBe(true);

    expect((await s.call("write", { path: "run-note.txt", content: "edited" })).ok).toBe(true);
    expect((await s.call("bash", { cmd: check({ report: true }) })).ok).toBe(true);
    expect((await s.call("done")).modelText).toBe(doneText.unchecked(["run-note.txt"], "done"));
  });
});
