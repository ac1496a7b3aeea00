import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseNumstat, readGitStatus } from "../../components/git-status.js";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "yuj-git-"));
  dirs.push(d);
  return d;
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "pipe" });

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("readGitStatus", () => {
  it("reads the branch, changed files with counts and untracked files", async () => {
    const d = tempDir();
    git(d, "init", "-q", "-b", "work");
    writeFileSync(join(d, "a.txt"), "one\ntwo\nthree\n");
    git(d, "add", ".");
    git(d, "commit", "-q", "-m", "init");
    writeFileSync(join(d, "a.txt"), "one\nTWO\nthree\nfour\n");
    mkdirSync(join(d, "sub"));
    writeFileSync(join(d, "sub", "new.txt"), "x\ny");
    writeFileSync(join(d, ".gitignore"), "ignored.txt\n");
    writeFileSync(join(d, "ignored.txt"), "no\n");
    const s = await readGitStatus(d);
    expect(s?.branch).toBe("work");
    expect(s?.files).toEqual(
      expect.arrayContaining([
        { path: "a.txt", added: 2, removed: 1 },
        { path: "sub/new.txt", added: 2, removed: 0 },
        { path: ".gitignore", added: 1, removed: 0 },
      ]),
    );
    expect(s?.files.map((f) => f.path)).not.toContain("ignored.txt");
  });

  it("gives the branch of a repository without commits", async () => {
    const d = tempDir();
    git(d, "init", "-q", "-b", "fresh");
    writeFileSync(join(d, "x"), "1\n");
    expect(await readGitStatus(d)).toEqual({ branch: "fresh", files: [{ path: "x", added: 1, removed: 0 }] });
  });

  it("is undefined outside a repository", async () => {
    expect(await readGitStatus(tempDir())).toBeUndefined();
  });
});

describe("parseNumstat", () => {
  it("reads plain, binary and renamed entries", () => {
    expect(parseNumstat("3\t1\ta.ts\0-\t-\timg.png\0" + "2\t0\t\0old.ts\0new.ts\0")).toEqual([
      { path: "a.ts", added: 3, removed: 1 },
      { path: "img.png", added: 0, removed: 0 },
      { path: "new.ts", added: 2, removed: 0 },
    ]);
  });
});
