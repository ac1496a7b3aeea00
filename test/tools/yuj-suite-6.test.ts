// The Yuj reference's background verification, as its own tests pin it
// ("Background checks retain process facts and cannot verify later edits"):
// a background check counts as the check after a change when it started
// after the last change, was seen to pass (bash_poll showing exit 0), and
// nothing changed since — neither a later change through a tool or a
// command, nor an edit of a changed file by anything else. A run that
// started before the change, failed, still runs or was killed does not.
// Real processes, real files, the real dispatcher and guards.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
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

/** A project with a source and a test of it; the guard asks for a change and a check after it. */
async function project(opts: { repo?: boolean } = {}): Promise<GuardedSession> {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = true;
    c.loop.done_require_verify = true;
    c.tools.background_enabled = true;
  });
  await s.put({
    "source.js": "module.exports = 1;\n",
    // Passes while the source's value is 2; waits for a `release` file first when asked to.
    "check.js":
      "const fs = require('fs');\n" +
      "if (process.argv[2] === 'wait') while (!fs.existsSync('release')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);\n" +
      "process.exit(require('./source.js') === 2 ? 0 : 1);\n",
  });
  if (opts.repo) {
    git(s.cwd, "init", "-q");
    await fsp.writeFile(path.join(s.cwd, ".gitignore"), "release\n");
    git(s.cwd, "add", ".");
    git(s.cwd, "commit", "-qm", "start");
  }
  return s;
}

const change = (s: GuardedSession, value: number) => s.call("write", { path: "source.js", content: `module.exports = ${value};\n` });

async function startCheck(s: GuardedSession, cmd = "node check.js wait"): Promise<string> {
  const started = await s.call("bash", { cmd, background: true });
  expect(started.ok).toBe(true);
  return /proc_id='(\w+)'/.exec(started.modelText)![1]!;
}

/** Lets the waiting check finish and polls until its end is shown. */
async function finish(s: GuardedSession, id: string): Promise<string> {
  await fsp.writeFile(path.join(s.cwd, "release"), "");
  for (let i = 0; i < 50; i++) {
    const polled = await s.call("bash_poll", { proc_id: id, timeout_s: 5 });
    if (!polled.modelText.includes(": running]")) return polled.modelText;
  }
  throw new Error("the background check did not end");
}

const unchecked = doneText.unchecked(["source.js"], "done");

describe("done guard: a background check after the last change", () => {
  it("counts a background run that started after the change and was seen to pass", async () => {
    const s = await project();
    expect((await change(s, 2)).ok).toBe(true);
    const id = await startCheck(s);
    expect((await s.call("done")).modelText).toBe(unchecked);
    expect(await finish(s, id)).toBe(`[background process ${id}: exited (0)]`);
    const done = await s.call("done", { message: "value is 2" });
    expect(done.ok).toBe(true);
  });

  it("does not count a run that failed", async () => {
    const s = await project();
    expect((await change(s, 3)).ok).toBe(true);
    const id = await startCheck(s);
    expect(await finish(s, id)).toBe(`[background process ${id}: exited (1)]`);
    expect((await s.call("done")).modelText).toBe(unchecked);
  });

  it("does not count a run followed by another change through a tool", async () => {
    const s = await project();
    expect((await change(s, 2)).ok).toBe(true);
    const id = await startCheck(s);
    expect((await s.call("write", { path: "source.js", content: "module.exports = 2; // same value\n" })).ok).toBe(true);
    expect(await finish(s, id)).toContain(": exited (0)]");
    expect((await s.call("done")).modelText).toBe(unchecked);
  });

  it("does not count a run when a changed file was edited outside any tool while it ran", async () => {
    const s = await project();
    expect((await change(s, 2)).ok).toBe(true);
    const id = await startCheck(s);
    await fsp.writeFile(path.join(s.cwd, "source.js"), "module.exports = 2; // edited by hand\n");
    expect(await finish(s, id)).toContain(": exited (0)]");
    expect((await s.call("done")).modelText).toBe(unchecked);
  });

  it("does not count a run that started before the change", async () => {
    const s = await project();
    const id = await startCheck(s);
    expect((await change(s, 2)).ok).toBe(true);
    expect(await finish(s, id)).toContain(": exited (0)]");
    expect((await s.call("done")).modelText).toBe(unchecked);
    // A new run, started after the change, does.
    await fsp.rm(path.join(s.cwd, "release"));
    const again = await startCheck(s);
    expect(await finish(s, again)).toContain(": exited (0)]");
    expect((await s.call("done")).ok).toBe(true);
  });

  it("does not count a run that is still running, nor one that was killed", async () => {
    const s = await project();
    expect((await change(s, 2)).ok).toBe(true);
    const id = await startCheck(s);
    expect((await s.call("bash_poll", { proc_id: id, timeout_s: 0 })).modelText).toBe(`[background process ${id}: running]`);
    expect((await s.call("done")).modelText).toBe(unchecked);
    expect((await s.call("bash_kill", { proc_id: id })).modelText).toMatch(/^Killed background process /);
    expect((await s.call("bash_poll", { proc_id: id, timeout_s: 0 })).modelText).toContain(": killed");
    expect((await s.call("done")).modelText).toBe(unchecked);
  });

  it("does not count a run that only looks (a background listing)", async () => {
    const s = await project();
    expect((await change(s, 2)).ok).toBe(true);
    const id = await startCheck(s, "ls");
    for (let i = 0; i < 50; i++) if (!(await s.call("bash_poll", { proc_id: id, timeout_s: 5 })).modelText.includes(": running]")) break;
    expect((await s.call("done")).modelText).toBe(unchecked);
  });

  describe("in a git repository", () => {
    it("does not count a run followed by a change a command made", async () => {
      const s = await project({ repo: true });
      expect((await change(s, 2)).ok).toBe(true);
      const id = await startCheck(s);
      // A command that changed a file and failed: a change, and no check of it.
      expect((await s.call("bash", { cmd: "cp check.js check-copy.js; exit 1" })).ok).toBe(false);
      expect(await finish(s, id)).toContain(": exited (0)]");
      expect((await s.call("done")).modelText).toBe(doneText.unchecked(["check-copy.js"], "done"));
    });

    it("counts a passing run whose own writes (a report it leaves) were seen while it was polled", async () => {
      const s = await project({ repo: true });
      expect((await change(s, 2)).ok).toBe(true);
      const id = await startCheck(s, "sleep 0.3; node -e \"require('fs').writeFileSync('report.txt', 'ok')\"; sleep 0.3; node -e \"require('fs').appendFileSync('report.txt', 'more')\"; node check.js");
      let text = "";
      for (let i = 0; i < 50 && !/: exited/.test(text); i++) text = (await s.call("bash_poll", { proc_id: id, timeout_s: 0.4 })).modelText;
      expect(text).toContain(": exited (0)]");
      expect(git(s.cwd, "status", "--porcelain")).toContain("?? report.txt");
      expect((await s.call("done")).ok).toBe(true);
    });
  });
});

describe("a missing path with a stray leading dot: the one file meant, in the reference's words", () => {
  it("read of `.pkg/mod.py` suggests only `pkg/mod.py`, though `pkg/mods.py` is close too", async () => {
    const s = await project();
    await s.put({ "pkg/mod.py": "x = 1\n", "pkg/mods.py": "y = 2\n", ".pk/mod.py": "z = 3\n" });
    expect((await s.call("read", { path: ".pkg/mod.py" })).modelText).toBe("ERROR: file not found: .pkg/mod.py (did you mean 'pkg/mod.py'?)");
    expect((await s.call("edit", { path: ".pkg/mod.py", old_str: "x", new_str: "y" })).modelText).toBe(
      "ERROR: file not found: .pkg/mod.py (did you mean 'pkg/mod.py'?)",
    );
  });
});

describe("background process words, as the reference's process manager renders them", () => {
  it("a start names the poll call; a poll with nothing new is the footer alone; a kill after the end says 'already exited'; an unknown id names the background process", async () => {
    const s = await project();
    await s.put({
      "late.js":
        "const fs = require('fs');\n" +
        "while (!fs.existsSync('go')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);\n" +
        "console.log('late');\n" +
        "while (!fs.existsSync('release')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);\n" +
        "process.exit(3);\n",
    });
    const started = await s.call("bash", { cmd: "node late.js", background: true });
    expect(started.modelText).toBe("Started background process j1. Poll it with bash_poll(proc_id='j1').");
    expect((await s.call("bash_poll", { proc_id: "j1", timeout_s: 0 })).modelText).toBe("[background process j1: running]");
    await fsp.writeFile(path.join(s.cwd, "go"), "");
    expect((await s.call("bash_poll", { proc_id: "j1", timeout_s: 5 })).modelText).toBe("late\n[background process j1: running]");
    await fsp.writeFile(path.join(s.cwd, "release"), "");
    expect((await s.call("bash_poll", { proc_id: "j1", timeout_s: 5 })).modelText).toBe("[background process j1: exited (3)]");
    expect((await s.call("bash_kill", { proc_id: "j1" })).modelText).toBe("Background process j1 already exited (3)");
    expect((await s.call("bash_poll", { proc_id: "p0009" })).modelText).toBe("ERROR: unknown background process 'p0009'. No background command is running.");
    expect((await s.call("bash_kill", { proc_id: "p0009" })).modelText).toBe("ERROR: unknown background process 'p0009'. No background command is running.");
  });
});
