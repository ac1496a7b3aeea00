// The finish rule counts the file changes commands make, as git status
// shows them, in a real git repository through the real dispatcher: a
// command that copies, removes or generates files is a change; a file that
// was already modified when the run started is not, until it changes again.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { doneText } from "../../tools/guards/index.js";
import { guardedSession, type GuardedSession } from "./session.js";
import { testGit } from "../support/git.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const git = testGit;

const inRepo = async (mutation: boolean, verify: boolean) => {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = mutation;
    c.loop.done_require_verify = verify;
    c.tools.background_enabled = true;
  });
  await s.put({ "src/a.js": "console.log(1);\n", "notes.md": "draft\n" });
  git(s.cwd, "init", "-q");
  git(s.cwd, "add", ".");
  git(s.cwd, "commit", "-qm", "start");
  return s;
};

describe("done guard: changes made by commands", () => {
  it("counts a file a command created", async () => {
    const s = await inRepo(true, false);
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    expect((await s.call("bash", { cmd: "ls src" })).ok).toBe(true);
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    expect((await s.call("bash", { cmd: "cp src/a.js src/b.js" })).ok).toBe(true);
    expect((await s.call("done")).ok).toBe(true);
  });

  it("does not count a file that was already modified when the run started, until a command changes it again", async () => {
    const s = await inRepo(true, false);
    await fsp.writeFile(path.join(s.cwd, "notes.md"), "edited before the run\n");
    expect(git(s.cwd, "status", "--porcelain")).toBe(" M notes.md\n");
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    expect((await s.call("bash", { cmd: "cp src/a.js notes.md" })).ok).toBe(true);
    expect((await s.call("done")).ok).toBe(true);
  });

  it("counts what a background command changed by the time of done", async () => {
    const s = await inRepo(true, false);
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    const started = await s.call("bash", { cmd: "sleep 0.3; rm src/a.js", background: true });
    const id = /proc_id='(\w+)'/.exec(started.modelText)![1]!;
    expect((await s.call("bash_poll", { proc_id: id, timeout_s: 10 })).modelText).not.toContain("running");
    expect((await s.call("done")).ok).toBe(true);
  });

  it("asks for a check after a failing command changed files, naming them", async () => {
    const s = await inRepo(false, true);
    expect((await s.call("bash", { cmd: "rm src/a.js; exit 1" })).ok).toBe(false);
    expect((await s.call("done")).modelText).toBe(doneText.unchecked(["src/a.js"], "done"));
    expect((await s.call("bash", { cmd: "node -e 'process.exit(0)'" })).ok).toBe(true);
    expect((await s.call("done")).ok).toBe(true);
  });
});
