// The walk that finds `.git` entries after every sandboxed command: real
// directories, breadth-first, node_modules last, bounded, and a listing
// reused only while the directory's ctime says nothing changed.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitEntryWalker, gitlinkPaths } from "../../core/sandbox/git-entries.js";
import { isDangerousGitKey } from "../../core/sandbox/git-danger.js";
import { cleanupAll, tempDir } from "./support.js";

afterEach(cleanupAll);

const mk = (root: string, ...dirs: string[]) => dirs.forEach((d) => fs.mkdirSync(path.join(root, d), { recursive: true }));

describe("GitEntryWalker", () => {
  it("finds .git entries of every kind, never inside .git or through links, and sees a new one at once", () => {
    const root = tempDir("yuj-walk-");
    mk(root, ".git/modules/x/.git", "a/b/c/.git", "d", "e");
    fs.writeFileSync(path.join(root, "d", ".git"), "gitdir: ../elsewhere\n");
    fs.symlinkSync(path.join(root, "a"), path.join(root, "link-to-a"));
    const walker = new GitEntryWalker(root);
    expect(walker.walk().roots.map((r) => path.relative(root, r) || ".").sort()).toEqual([".", "a/b/c", "d"]);
    mk(root, "e/f/.git");
    expect(walker.walk().roots.map((r) => path.relative(root, r) || ".").sort()).toEqual([".", "a/b/c", "d", "e/f"]);
  });

  it("stops at its bound, shallowest first, with node_modules last", () => {
    const root = tempDir("yuj-walk-");
    mk(root, "node_modules/pkg/.git", "src/deep/.git");
    // root, node_modules deferred, src, src/deep: the bound of 3 reaches src/deep first.
    const walker = new GitEntryWalker(root, 3);
    const result = walker.walk();
    expect(result.roots.map((r) => path.relative(root, r))).toEqual(["src/deep"]);
    expect(result.truncated).toBe(true);
    expect(new GitEntryWalker(root).walk().roots.map((r) => path.relative(root, r))).toEqual(["src/deep", "node_modules/pkg"]);
  });
});

describe("gitlinks and dangerous keys", () => {
  it("reads gitlinks from ls-files -s -z and tells program-running keys from harmless ones", () => {
    expect(gitlinkPaths(["100644 abc 0\tREADME", "160000 def 0\tsub/mod", "160000 aaa 0\twith space", ""].join("\u0000"))).toEqual(["sub/mod", "with space"]);
    for (const key of ["core.fsmonitor", "core.hookspath", "filter.lfs.process", "diff.x.textconv", "remote.origin.uploadpack", "includeif.gitdir:~/.path", "pager.log", "url.ext::sh.insteadof", "hook.pre-commit.command"]) {
      expect(isDangerousGitKey(key, "x"), key).toBe(true);
    }
    expect(isDangerousGitKey("alias.st", "!sh -c evil")).toBe(true);
    expect(isDangerousGitKey("alias.st", "status -s")).toBe(false);
    expect(isDangerousGitKey("submodule.m.update", "!evil")).toBe(true);
    expect(isDangerousGitKey("submodule.m.update", "rebase")).toBe(false);
    for (const key of ["core.bare", "remote.origin.url", "branch.main.merge", "user.name", "core.filemode"]) expect(isDangerousGitKey(key, "x"), key).toBe(false);
  });
});
