// The pieces that decide the sandbox's extra mounts, on real files: the git
// config reader, the project guard's mount lists, and the host socket
// directories. No sandbox is started here.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitConfigValue } from "../../core/sandbox/git-config-text.js";
import { hostSocketCover } from "../../core/sandbox/host-sockets.js";
import { guardProject } from "../../core/sandbox/project-guard.js";
import { cleanupAll, gitRepo, hostGit, tempDir } from "./support.js";

afterEach(cleanupAll);

describe("gitConfigValue", () => {
  it("reads the last value of a key, as git does, in the forms people write", () => {
    const text = [
      "[core]",
      "\thooksPath = first",
      '[remote "origin"]',
      "\thookspath = not-core",
      "[Core]",
      '\tHooksPath = "quoted # not a comment" ; a comment',
      "[user] name = x",
    ].join("\n");
    expect(gitConfigValue(text, "core", "hookspath")).toBe("quoted # not a comment");
    expect(gitConfigValue("[core]\n\tbare\n", "core", "bare")).toBe("true");
    expect(gitConfigValue("[core] worktree = ../sub\n", "core", "worktree")).toBe("../sub");
    expect(gitConfigValue("[core]\n\tpath\\\n = x\n", "core", "hookspath")).toBeUndefined();
    expect(gitConfigValue(text, "user", "name")).toBe("x");
  });
});

describe("guardProject", () => {
  it("pins the git directory and lists what stays read-only, creating .yuj/ and .git/hooks when absent", () => {
    const project = fs.realpathSync(gitRepo());
    fs.rmSync(path.join(project, ".git", "hooks"), { recursive: true });
    const g = guardProject(project, project, { HOME: tempDir("yuj-sbx-home-") });
    const git = path.join(project, ".git");
    expect(g).toEqual({
      pinned: [git],
      readOnly: [path.join(project, ".yuj"), path.join(git, "info"), path.join(git, "hooks"), path.join(git, "config")].sort(
        (a, b) => a.length - b.length,
      ),
    });
    expect(fs.readdirSync(path.join(git, "hooks"))).toEqual([]);
    expect(fs.readdirSync(path.join(project, ".yuj"))).toEqual([]);
  });

  it("creates an empty config.worktree only where the repository turns worktree config on", () => {
    const project = fs.realpathSync(gitRepo());
    const home = { HOME: tempDir("yuj-sbx-home-") };
    const file = path.join(project, ".git", "config.worktree");
    guardProject(project, project, home);
    expect(fs.existsSync(file)).toBe(false);
    hostGit(project, "config", "extensions.worktreeConfig", "true");
    const g = guardProject(project, project, home);
    expect(fs.readFileSync(file, "utf8")).toBe("");
    expect("readOnly" in g && g.readOnly).toContain(file);
  });

  it("refuses a link in the way of what it keeps read-only: a command could point the link elsewhere", () => {
    const project = fs.realpathSync(gitRepo());
    fs.rmSync(path.join(project, ".git", "hooks"), { recursive: true });
    fs.mkdirSync(path.join(project, "githooks"));
    fs.symlinkSync("../githooks", path.join(project, ".git", "hooks"));
    expect(guardProject(project, project, { HOME: tempDir("yuj-sbx-home-") })).toEqual({
      error:
        `${project}/.git/hooks is or goes through a symbolic link; the sandbox cannot keep it read-only, since a command could ` +
        "point the link elsewhere (replace the link with what it points to; for hooks, core.hooksPath can name that directory)",
    });
    // The fix the message names works.
    fs.rmSync(path.join(project, ".git", "hooks"));
    fs.mkdirSync(path.join(project, ".git", "hooks"));
    hostGit(project, "config", "core.hooksPath", "githooks");
    const g = guardProject(project, project, { HOME: tempDir("yuj-sbx-home-") });
    expect("readOnly" in g && g.readOnly).toContain(path.join(project, "githooks"));
  });

  it("refuses core.hooksPath pointing at the project itself", () => {
    const project = fs.realpathSync(gitRepo());
    hostGit(project, "config", "core.hooksPath", ".");
    expect(guardProject(project, project, { HOME: tempDir("yuj-sbx-home-") })).toEqual({
      error: `core.hooksPath (.) points at ${project}, which holds the project or its git directory; the sandbox cannot keep hooks read-only there (point core.hooksPath at a directory of its own)`,
    });
  });
});

describe("hostSocketCover", () => {
  it("covers /run and a runtime dir elsewhere, not one under /tmp (fresh already) or /run (covered already)", () => {
    const elsewhere = fs.realpathSync(tempDir("yuj-sbx-xdg-", os.homedir()));
    const run = fs.realpathSync("/run");
    expect(hostSocketCover({ XDG_RUNTIME_DIR: elsewhere }).dirs).toEqual([run, elsewhere]);
    expect(hostSocketCover({ XDG_RUNTIME_DIR: tempDir("yuj-sbx-xdg-") }).dirs).toEqual([run]);
    expect(hostSocketCover({ XDG_RUNTIME_DIR: "/run/user/0" }).dirs).toEqual([run]);
    expect(hostSocketCover({ XDG_RUNTIME_DIR: "relative/dir" }).dirs).toEqual([run]);
  });

  it("recreates the links at the top of /run that do not lead to a socket", () => {
    const cover = hostSocketCover({});
    for (const name of fs.readdirSync("/run")) {
      const p = path.join("/run", name);
      if (!fs.lstatSync(p).isSymbolicLink()) continue;
      const toSocket = fs.existsSync(p) && fs.statSync(p).isSocket();
      expect(cover.links.some((l) => l.path === p), p).toBe(!toSocket);
    }
  });
});
