// Keeping git's executable configuration out of reach of sandboxed commands.
// Git runs programs named in its config (core.fsmonitor, core.hooksPath,
// filter and diff drivers, pagers) and the hooks in its hooks directory; a
// command that could write those would have them run outside the sandbox at
// the user's next `git status` or `git commit`. So, in every repository
// whose git directory lies inside the project:
//
//   - the git directory is bound onto itself: a mount point cannot be
//     renamed or removed, so `mv .git elsewhere && mkdir .git` is refused;
//   - config, config.worktree, hooks (created empty when absent), info and
//     worktrees are read-only; objects, refs, the index and logs stay
//     writable, so commits, branches and checkouts work;
//   - a `.git` file (a linked worktree or a submodule) is read-only, so it
//     cannot be pointed at a git directory the command wrote;
//   - the directory core.hooksPath names, when it lies inside the project,
//     is read-only (created empty when absent);
//   - submodules' git directories under `<gitdir>/modules` get the same, and
//     so do their work trees' `.git` files.
//
// A git directory outside the project is read-only already, as the whole
// host is. Repositories are looked for at the project root and at every
// directory from there down to the command's working directory.
//
// What mounts cannot do: forbid a name that does not exist yet in a
// directory that must stay writable. So a command can still create a
// repository of its own inside the project (and register it in the index as
// a submodule), whose config git would read when run on the host, or a
// `commondir` file in a .git directory. repo-watch.ts undoes those as soon
// as the command ends; a commondir found here (one that was there before)
// stops the command.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Env } from "../paths.js";
import { isWithin } from "./bwrap.js";
import { gitConfigValue } from "./git-config-text.js";

interface Guard {
  /** Writable paths bound onto themselves (outermost first). */
  pinned: string[];
  /** Paths bound read-only onto themselves. */
  readOnly: string[];
}

export type GuardResult = Guard | { error: string };

const MODULES_MAX_DEPTH = 8;
const MODULES_MAX_DIRS = 500;

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function readText(p: string): string | undefined {
  try {
    return fs.readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

class GitGuard {
  private readonly pinned = new Set<string>();
  private readonly readOnly = new Set<string>();
  private readonly seen = new Set<string>();
  private modulesVisited = 0;
  error: string | undefined;

  constructor(
    private readonly project: string,
    private readonly env: Env,
  ) {}

  result(): Guard {
    const byDepth = (a: string, b: string) => a.length - b.length;
    return { pinned: [...this.pinned].sort(byDepth), readOnly: [...this.readOnly].sort(byDepth) };
  }

  private inside(p: string): boolean {
    return isWithin(p, this.project);
  }

  // A mount lands on a link's target and leaves the link itself in a
  // writable directory, where a command could point it elsewhere; so a
  // link on the way to anything kept read-only is refused instead.
  private throughLink(p: string): boolean {
    if (real(p) === p) return false;
    this.error ??=
      `${p} is or goes through a symbolic link; the sandbox cannot keep it read-only, since a command could point ` +
      "the link elsewhere (replace the link with what it points to; for hooks, core.hooksPath can name that directory)";
    return true;
  }

  /** Makes `p` read-only, creating it as an empty directory first when it is absent. */
  private keepDir(p: string, createIfAbsent: boolean): void {
    if (!lstat(p) && createIfAbsent) {
      try {
        fs.mkdirSync(p, { recursive: true });
      } catch {
        return; // not writable for yuj, so not for a command either
      }
    }
    if (lstat(p) && !this.throughLink(p)) this.readOnly.add(p);
  }

  private keepFile(p: string, createIfAbsent = false): void {
    if (!lstat(p) && createIfAbsent) {
      try {
        fs.writeFileSync(p, "", { flag: "wx" });
      } catch {
        return;
      }
    }
    if (lstat(p) && !this.throughLink(p)) this.readOnly.add(p);
  }

  /** The `.git` entry of a work tree at `root`. */
  workTree(root: string): void {
    const dotgit = path.join(root, ".git");
    const st = lstat(dotgit);
    if (!st) return;
    if (st.isSymbolicLink()) {
      this.error ??=
        `${dotgit} is a symbolic link; the sandbox cannot keep git's config and hooks read-only behind one ` +
        `(replace it with the directory it points to, or with a "gitdir:" file)`;
      return;
    }
    if (st.isDirectory()) {
      // Git never puts a commondir file in a work tree's own .git directory;
      // one there points git at another directory's config (and hooks). It
      // cannot be kept from being created, so finding one stops the sandbox.
      if (lstat(path.join(dotgit, "commondir"))) {
        this.error ??=
          `${dotgit}/commondir exists: it makes git read its config from another directory, which a command could have ` +
          "written; check it and remove it (a repository's own .git directory has none), then run the command again";
        return;
      }
      return this.gitDir(dotgit, root);
    }
    if (!st.isFile()) return;
    this.readOnly.add(dotgit);
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotgit) ?? "");
    if (!m) return;
    const gitDir = path.resolve(root, m[1]!);
    if (this.inside(gitDir) && this.throughLink(gitDir)) return;
    this.gitDir(real(gitDir), root);
  }

  private gitDir(gitDir: string, workRoot: string | undefined): void {
    if (!this.inside(gitDir) || this.seen.has(gitDir) || !lstat(gitDir)?.isDirectory()) return;
    this.seen.add(gitDir);
    this.pinned.add(gitDir);
    const common = readText(path.join(gitDir, "commondir"))?.trim();
    // A linked worktree's git directory holds only its own state; config,
    // hooks and info are in the common directory.
    const commonDir = common ? real(path.resolve(gitDir, common)) : gitDir;
    if (commonDir !== gitDir) {
      this.keepFile(path.join(gitDir, "commondir"));
      this.gitDir(commonDir, undefined);
    } else {
      this.keepFile(path.join(gitDir, "config"), true);
      this.keepDir(path.join(gitDir, "hooks"), true);
      this.keepDir(path.join(gitDir, "info"), false);
      this.keepDir(path.join(gitDir, "worktrees"), false);
    }
    const configText = readText(path.join(commonDir, "config")) ?? "";
    // config.worktree counts only where extensions.worktreeConfig is on; an
    // absent one is created (empty) then, so it cannot be written later.
    this.keepFile(path.join(gitDir, "config.worktree"), /worktreeconfig/i.test(configText));
    if (workRoot) this.hooksPath(gitDir, commonDir, workRoot);
    if (commonDir === gitDir) this.modules(path.join(gitDir, "modules"), 0);
  }

  /** core.hooksPath as git resolves it for this work tree, when it lies inside the project. */
  private hooksPath(gitDir: string, commonDir: string, workRoot: string): void {
    const home = this.env.HOME || os.homedir();
    const xdg = this.env.XDG_CONFIG_HOME && path.isAbsolute(this.env.XDG_CONFIG_HOME) ? this.env.XDG_CONFIG_HOME : path.join(home, ".config");
    const globals = this.env.GIT_CONFIG_GLOBAL ? [this.env.GIT_CONFIG_GLOBAL] : [path.join(xdg, "git", "config"), path.join(home, ".gitconfig")];
    const files = ["/etc/gitconfig", ...globals, path.join(commonDir, "config"), path.join(gitDir, "config.worktree")];
    let value: string | undefined;
    for (const f of files) value = gitConfigValue(readText(f) ?? "", "core", "hookspath") ?? value;
    if (!value) return;
    const expanded = value === "~" || value.startsWith("~/") ? path.join(home, value.slice(1)) : value;
    const named = path.resolve(workRoot, expanded);
    if (this.inside(named) && this.throughLink(named)) return;
    const dir = real(named);
    if (!this.inside(dir)) return;
    if (isWithin(this.project, dir) || isWithin(gitDir, dir)) {
      this.error ??=
        `core.hooksPath (${value}) points at ${dir}, which holds the project or its git directory; the sandbox ` +
        "cannot keep hooks read-only there (point core.hooksPath at a directory of its own)";
      return;
    }
    this.keepDir(dir, true);
  }

  /** Submodule git directories: `<gitdir>/modules/<name>`, names may contain slashes. */
  private modules(dir: string, depth: number): void {
    if (depth > MODULES_MAX_DEPTH || !lstat(dir)?.isDirectory()) return;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (++this.modulesVisited > MODULES_MAX_DIRS) return;
      const sub = path.join(dir, name);
      if (!lstat(sub)?.isDirectory()) continue;
      if (!lstat(path.join(sub, "HEAD"))) {
        this.modules(sub, depth + 1);
        continue;
      }
      // The submodule's work tree is recorded in its own (now read-only)
      // config; its `.git` file there must not be re-pointed either.
      const wt = gitConfigValue(readText(path.join(sub, "config")) ?? "", "core", "worktree");
      const workRoot = wt ? real(path.resolve(sub, wt)) : undefined;
      if (workRoot && this.inside(workRoot) && lstat(path.join(workRoot, ".git"))?.isFile()) {
        this.readOnly.add(path.join(workRoot, ".git"));
      }
      this.gitDir(sub, workRoot && this.inside(workRoot) ? workRoot : undefined);
    }
  }
}

/** The mounts that keep git's config and hooks read-only for repositories from `project` down to `cwd`. */
export function guardGit(project: string, cwd: string, env: Env): GuardResult {
  const guard = new GitGuard(project, env);
  const roots = [project];
  if (isWithin(cwd, project)) {
    const rel = path.relative(project, cwd);
    let cur = project;
    for (const part of rel ? rel.split(path.sep) : []) roots.push((cur = path.join(cur, part)));
  }
  for (const root of roots) guard.workTree(root);
  return guard.error ? { error: guard.error } : guard.result();
}
