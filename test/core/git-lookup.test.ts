// Whether a folder may be inside a git repository, answered without running
// git: only "no" skips git (the workspace snapshot and the checkpoints then
// say the folder is not in a work tree), so every way git could find a
// repository must answer "maybe".

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mayBeInRepository } from "../../core/git.js";
import { openRepo } from "../../core/checkpoints/git-tree.js";

const scratch = () => mkdtempSync(join(tmpdir(), "yuj-git-lookup-"));

describe("mayBeInRepository", () => {
  it("is false for a folder with no .git above it, and git agrees", async () => {
    const dir = join(scratch(), "a", "b");
    mkdirSync(dir, { recursive: true });
    expect(mayBeInRepository(dir, {})).toBe(false);
    expect(await openRepo(dir)).toEqual({ none: `${dir} is not inside a git work tree` });
  });

  it("is true in a repository's subfolder, where git finds the work tree", async () => {
    const root = scratch();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = join(root, "src", "deep");
    mkdirSync(dir, { recursive: true });
    expect(mayBeInRepository(dir, {})).toBe(true);
    expect(await openRepo(dir)).toHaveProperty("root");
  });

  it("is true beside a .git file (a worktree's or a submodule's)", () => {
    const dir = scratch();
    writeFileSync(join(dir, ".git"), "gitdir: /somewhere/else\n");
    expect(mayBeInRepository(dir, {})).toBe(true);
  });

  it("is true when the environment points git at a repository", () => {
    const dir = scratch();
    expect(mayBeInRepository(dir, { GIT_DIR: "/elsewhere/.git" })).toBe(true);
    expect(mayBeInRepository(dir, { GIT_WORK_TREE: "/elsewhere" })).toBe(true);
  });
});
