import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyIndexKeepingTime } from "../../core/git.js";

// A scratch index that is newer than the real one makes git trust stat data
// for entries the real index would re-check (a file rewritten in the index's
// own clock tick, same size): such an edit would be missed by a checkpoint,
// a task snapshot or a change set. The copy must keep the real index's time.
describe("a scratch index copied from the real one", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const repo = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-scratch-index-"));
    made.push(d);
    execFileSync("git", ["init", "-q"], { cwd: d });
    fs.writeFileSync(path.join(d, "a.txt"), "value = 1\n");
    execFileSync("git", ["add", "a.txt"], { cwd: d });
    return d;
  };

  it("keeps the real index's modification time, so git's racy-entry check sees what it would see in the real index", () => {
    const d = repo();
    const real = path.join(d, ".git", "index");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(real, past, past);
    const scratch = path.join(d, "scratch-index");
    copyIndexKeepingTime(real, scratch);
    expect(fs.readFileSync(scratch)).toEqual(fs.readFileSync(real));
    expect(Math.abs(fs.statSync(scratch).mtimeMs - fs.statSync(real).mtimeMs)).toBeLessThan(1);
  });

  it("records a same-size rewrite through the scratch index", () => {
    const d = repo();
    fs.writeFileSync(path.join(d, "a.txt"), "value = 2\n");
    const scratch = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "yuj-scratch-")), "index");
    made.push(path.dirname(scratch));
    copyIndexKeepingTime(path.join(d, ".git", "index"), scratch);
    const env = { ...process.env, GIT_INDEX_FILE: scratch };
    execFileSync("git", ["add", "-A"], { cwd: d, env });
    const staged = execFileSync("git", ["ls-files", "-s", "a.txt"], { cwd: d, env, encoding: "utf8" }).split(/\s+/)[1];
    const rewritten = execFileSync("git", ["hash-object", "a.txt"], { cwd: d, encoding: "utf8" }).trim();
    expect(staged).toBe(rewritten);
  });

  it("starts empty when the repository has no index yet", () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-scratch-index-"));
    made.push(d);
    copyIndexKeepingTime(path.join(d, "missing-index"), path.join(d, "scratch"));
    expect(fs.existsSync(path.join(d, "scratch"))).toBe(false);
  });
});
