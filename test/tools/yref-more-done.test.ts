// The finish rule with changes made only by commands, in the cases the
// reference pins: outside a git repository, a change then committed, and a
// change then restored to the starting text.

import { afterEach, describe, expect, it } from "vitest";
import { doneText } from "../../tools/guards/done-guard.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { testGit } from "../support/git.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const git = testGit;

const session = async (repo: boolean, files: Record<string, string> = {}) => {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = true;
    c.loop.done_require_verify = false;
  });
  await s.put({ "source.txt": "initial", "changed.src": "changed", "initial.src": "initial", ...files });
  if (repo) {
    git(s.cwd, "init", "-q");
    git(s.cwd, "add", ".");
    git(s.cwd, "commit", "-qm", "start");
  }
  return s;
};

// A command that changes the file (cp, which no shell rule routes to a file tool).
const copy = (from: string) => `cp ${from}.src source.txt`;
const run = async (s: GuardedSession, cmd: string) => {
  const r = await s.call("bash", { cmd });
  expect(r.ok, r.modelText).toBe(true);
};

describe("done guard: a command's change in the reference's cases", () => {
  it("outside a git repository a command's change is seen; before it, done is refused", async () => {
    const s = await session(false);
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    await run(s, "cat source.txt");
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
    await run(s, copy("changed"));
    expect((await s.call("done")).ok).toBe(true);
  });

  it("outside a git repository, caches a test run leaves (a dot-directory, __pycache__) are no change", async () => {
    const s = await session(false);
    await run(s, "mkdir -p .pytest_cache/v __pycache__ && touch .pytest_cache/v/lastfailed __pycache__/m.pyc");
    expect((await s.call("done")).modelText).toBe(doneText.noChange("done"));
  });

  it("a change then committed still counts", async () => {
    const s = await session(true);
    await run(s, copy("changed"));
    await run(s, "git add source.txt && git -c user.name=t -c user.email=t@t commit -qm changed");
    expect((await s.call("done")).ok).toBe(true);
  });

  it("a change then restored to the starting text still counts", async () => {
    const s = await session(true);
    await run(s, copy("changed"));
    await run(s, copy("initial"));
    expect((await s.call("done")).ok).toBe(true);
  });
});

describe("the file listing outside git", () => {
  it("lists files with size and time, and gives up past its bound", async () => {
    const { fileInventory, MAX_INVENTORY_FILES } = await import("../../tools/guards/file-inventory.js");
    const fs = await import("node:fs");
    const os = await import("node:os");
    const dir = fs.mkdtempSync(`${os.tmpdir()}/yuj-inventory-`);
    try {
      fs.mkdirSync(`${dir}/src`);
      fs.writeFileSync(`${dir}/src/a.txt`, "abc");
      const listed = await fileInventory(dir);
      expect([...listed!.keys()]).toEqual(["src/a.txt"]);
      expect(listed!.get("src/a.txt")).toMatch(/^3 \d/);
      for (let i = 0; i < MAX_INVENTORY_FILES; i++) fs.writeFileSync(`${dir}/f${i}`, "");
      expect(await fileInventory(dir)).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
