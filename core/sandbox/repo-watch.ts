// What a sandboxed command leaves in the project's git repositories that
// would make the user's own git, on the host, run a program: found after
// every sandboxed command and undone at once.
//
// The mounts (git-guard.ts) keep the config and hooks of the repositories
// that exist when a command starts read-only, but cannot stop a command from
// creating new ones: `git init sub` and a `core.fsmonitor` in its config, a
// `.git` file pointing at a git directory it wrote, a submodule's git
// directory under `.git/modules`, or a `commondir` file redirecting a git
// directory to another config. The user's `git status` in the project
// recurses into submodules (and runs their fsmonitor), and git run inside
// such a directory reads its config. So after each command:
//
//   - every `.git` entry found (the project root, the directories the walk
//     of git-entries.ts sees, and the gitlinks of the project's index) leads
//     to its git directory; submodule git directories under `modules/` too;
//   - a `commondir` that git itself would not have written (anywhere but in
//     `<git dir>/worktrees/<name>/`) is removed;
//   - in each config file (config, config.worktree) written during the
//     session, every key through which git runs a program (git-danger.ts) is
//     put back as it was before the session: unset when it was not there;
//   - each hook written during the session loses its execute bits (git runs
//     only executable hooks); a symbolic link put in place of a config file,
//     the hooks directory or a hook is removed.
//
// Every change is made through a descriptor of the directory it is in
// (pinned-dir.ts), and git edits config text only in a private copy, so a
// command still running cannot redirect a change out of the project.
//
// "Written during the session" is judged by ctime, which a command cannot set
// back (mtime it can): what changed less than OLD_MARGIN_MS before the first
// sandboxed command counts as the command's too. Config files seen before the
// first command keep their text, so a command's change to a repository the
// user already had is undone to the user's values, never further. The common
// case, no repository but the guarded one, costs the walk's stats and a
// stat of each file named above.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runGit } from "../git.js";
import { isWithin } from "./bwrap.js";
import { GitEntryWalker, gitlinkPaths } from "./git-entries.js";
import { isDangerousGitKey } from "./git-danger.js";
import { clearExecuteAt, readFileAt, removeEntry, replaceFileAt } from "./pinned-dir.js";

const OLD_MARGIN_MS = 1_000;
const MODULES_MAX_DEPTH = 8;
const MODULES_MAX_DIRS = 500;

interface KnownConfig {
  /** ino, ctime and size when last seen. */
  stamp: string;
  /** Its text before the session (undefined for a file the session created). */
  before?: Buffer;
}

type Stats = fs.BigIntStats;

function lstat(p: string): Stats | undefined {
  try {
    return fs.lstatSync(p, { bigint: true });
  } catch {
    return undefined;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function readText(p: string): string {
  try {
    return fs.readFileSync(p, "utf8");
  } catch {
    return "";
  }
}

const stampOf = (st: Stats) => `${st.ino}:${st.ctimeNs}:${st.size}`;

/** `git config --list --null` output as key → values (null for a bare key), keys in order. */
function parseConfigList(out: string): Map<string, Array<string | null>> {
  const entries = new Map<string, Array<string | null>>();
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const nl = record.indexOf("\n");
    const key = nl < 0 ? record : record.slice(0, nl);
    const value = nl < 0 ? null : record.slice(nl + 1);
    entries.set(key, [...(entries.get(key) ?? []), value]);
  }
  return entries;
}

/** A config file's entries, parsed by git itself from its bytes (nothing in it is run). */
async function listConfig(text: Buffer): Promise<Map<string, Array<string | null>>> {
  return parseConfigList(await runGit(["config", "--file", "-", "--null", "--list"], { cwd: "/", input: text }));
}

/**
 * The config text with each key unset and its `restore` values added back,
 * edited by git in a private copy (so git never writes a path in the project).
 */
async function withoutChanges(text: Buffer, changes: ReadonlyArray<{ key: string; restore: ReadonlyArray<string | null> }>): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-gitconfig-"));
  try {
    const copy = path.join(dir, "config");
    fs.writeFileSync(copy, text, { mode: 0o600 });
    for (const { key, restore } of changes) {
      await runGit(["config", "--file", copy, "--unset-all", key], { cwd: dir });
      for (const v of restore) await runGit(["config", "--file", copy, "--add", key, v ?? "true"], { cwd: dir });
    }
    return fs.readFileSync(copy);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const sameValues = (a: ReadonlyArray<string | null> = [], b: ReadonlyArray<string | null> = []) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export class RepoWatch {
  private readonly walker: GitEntryWalker;
  /** ctime (ns) before which a file predates the session; set by the first command. */
  private startedNs: bigint | undefined;
  private readonly configs = new Map<string, KnownConfig>();
  private index: { stamp: string; gitlinks: string[] } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Sandboxed commands started, and for each path the mounts kept read-only, for how many of them. */
  private started = 0;
  private readonly keptFor = new Map<string, number>();

  constructor(private readonly project: string) {
    this.walker = new GitEntryWalker(project);
  }

  /** Before each sandboxed command; the first one records what the project's repositories hold. */
  beforeCommand(): void {
    if (this.startedNs !== undefined) return;
    this.startedNs = BigInt(Date.now() - OLD_MARGIN_MS) * 1_000_000n;
    const visited = new Set<string>();
    for (const root of this.walker.walk().roots) {
      for (const gitDir of this.gitDirsAt(root, visited)) {
        for (const file of this.configFiles(gitDir)) this.remember(file);
      }
    }
  }

  /**
   * A sandboxed command starts with these paths read-only (git-guard.ts).
   * What stayed read-only for every command was not written by one: a change
   * there is the user's own (their `git config` in the project meanwhile).
   */
  keptReadOnly(paths: readonly string[]): void {
    this.started++;
    for (const p of paths) this.keptFor.set(p, (this.keptFor.get(p) ?? 0) + 1);
  }

  private neverWritable(p: string): boolean {
    for (const [kept, n] of this.keptFor) if (n === this.started && isWithin(p, kept)) return true;
    return false;
  }

  /**
   * After a sandboxed command: undoes what it planted; one line per thing
   * undone, paths relative to the project. Calls run one after another.
   */
  afterCommand(): Promise<string[]> {
    const run = this.queue.then(() => this.check());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async check(): Promise<string[]> {
    if (this.startedNs === undefined) return [];
    const found: string[] = [];
    const visited = new Set<string>();
    // The root first: its planted commondir must go before git runs there.
    await this.checkRoot(this.project, visited, found);
    const roots = new Set(this.walker.walk().roots);
    for (const link of await this.gitlinks()) roots.add(path.join(this.project, link));
    roots.delete(this.project);
    for (const root of roots) await this.checkRoot(root, visited, found);
    return found;
  }

  private rel(p: string): string {
    return path.relative(this.project, p) || ".";
  }

  private isNew(st: Stats): boolean {
    return st.ctimeNs >= (this.startedNs ?? 0n);
  }

  /** Removes a planted file or link (`st` is what was judged). */
  private remove(p: string, st: Stats, why: string, found: string[]): void {
    let removed = false;
    let reason = "it changed meanwhile";
    try {
      removed = removeEntry(this.project, p, st);
    } catch (err) {
      reason = (err as Error).message;
    }
    found.push(removed ? `removed ${this.rel(p)} (${why})` : `could not remove ${this.rel(p)} (${why}): ${reason}; remove it before running git there`);
  }

  /** The git directories the `.git` entry at `root` leads to (inside the project), its submodules' too. */
  private gitDirsAt(root: string, visited: Set<string>, found?: string[]): string[] {
    const dotGit = path.join(root, ".git");
    const st = lstat(dotGit);
    if (!st) return [];
    let gitDir: string | undefined;
    if (st.isSymbolicLink() || st.isDirectory()) gitDir = realOrUndefined(dotGit);
    else if (st.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit));
      if (m) gitDir = realOrUndefined(path.resolve(root, m[1]!));
    }
    if (!gitDir || !isWithin(gitDir, this.project) || !lstat(gitDir)?.isDirectory()) return [];
    if (st.isDirectory()) {
      // Git never writes a commondir into a work tree's own .git directory.
      const commondir = path.join(gitDir, "commondir");
      const planted = lstat(commondir);
      if (planted && found && this.isNew(planted)) this.remove(commondir, planted, "git never writes one there; it pointed git at another directory's config", found);
    }
    return this.withModules(gitDir, visited, found);
  }

  /** `gitDir` and, through its common directory, the submodule git directories under `modules/`. */
  private withModules(gitDir: string, visited: Set<string>, found?: string[]): string[] {
    if (visited.has(gitDir)) return [];
    visited.add(gitDir);
    const out = [gitDir];
    const common = this.commonDir(gitDir, found);
    if (common !== gitDir) {
      if (isWithin(common, this.project) && !visited.has(common)) out.push(...this.withModules(common, visited, found));
      return out;
    }
    let budget = MODULES_MAX_DIRS;
    const walk = (dir: string, depth: number) => {
      if (depth > MODULES_MAX_DEPTH) return;
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names) {
        if (--budget < 0) return;
        const sub = path.join(dir, name);
        if (!lstat(sub)?.isDirectory()) continue;
        if (lstat(path.join(sub, "HEAD"))) out.push(...this.withModules(sub, visited, found));
        else walk(sub, depth + 1);
      }
    };
    walk(path.join(gitDir, "modules"), 0);
    return out;
  }

  /**
   * Where `gitDir` reads its config from. A commondir is git's own only in a
   * linked worktree's git directory (`<common>/worktrees/<name>`, pointing two
   * levels up); one written anywhere else during the session is removed.
   */
  private commonDir(gitDir: string, found?: string[]): string {
    const file = path.join(gitDir, "commondir");
    const st = lstat(file);
    if (!st) return gitDir;
    const target = realOrUndefined(path.resolve(gitDir, readText(file).trim()));
    const own = path.basename(path.dirname(gitDir)) === "worktrees" && target === path.dirname(path.dirname(gitDir));
    if (own || !target) return own ? target! : gitDir;
    if (found && this.isNew(st)) {
      this.remove(file, st, "it pointed git at another directory's config", found);
      return gitDir;
    }
    return target;
  }

  private configFiles(gitDir: string): string[] {
    return [path.join(this.commonDir(gitDir), "config"), path.join(gitDir, "config.worktree")];
  }

  private remember(file: string): void {
    const st = lstat(file);
    if (!st?.isFile()) return;
    try {
      this.configs.set(file, { stamp: stampOf(st), before: fs.readFileSync(file) });
    } catch {
      // unreadable: treated as created during the session if it changes
    }
  }

  private async checkRoot(root: string, visited: Set<string>, found: string[]): Promise<void> {
    for (const gitDir of this.gitDirsAt(root, visited, found)) {
      for (const file of this.configFiles(gitDir)) await this.checkConfig(file, found);
      if (this.commonDir(gitDir) === gitDir) this.checkHooks(path.join(gitDir, "hooks"), found);
    }
  }

  private async checkConfig(file: string, found: string[]): Promise<void> {
    const st = lstat(file);
    if (!st) return;
    if (st.isSymbolicLink()) {
      if (this.isNew(st)) this.remove(file, st, "a symbolic link in place of a git config file", found);
      return;
    }
    if (!st.isFile()) return;
    const known = this.configs.get(file);
    if (known?.stamp === stampOf(st)) return;
    if ((!known && !this.isNew(st)) || this.neverWritable(file)) return this.remember(file);
    const before = known?.before;
    const text = readFileAt(this.project, file, st);
    if (!text) return;
    let now: Map<string, Array<string | null>>;
    let was: Map<string, Array<string | null>>;
    try {
      now = await listConfig(text);
      was = before ? await listConfig(before) : new Map();
    } catch {
      // A config git cannot read stops git in that repository: nothing runs.
      return;
    }
    const changes = [...now]
      .filter(([key, values]) => values.some((v) => isDangerousGitKey(key, v)) && !sameValues(values, was.get(key)))
      .map(([key]) => ({ key, restore: was.get(key) ?? [] }));
    if (changes.length > 0) {
      let replaced = false;
      try {
        replaced = replaceFileAt(this.project, file, st, await withoutChanges(text, changes));
      } catch {
        replaced = false;
      }
      for (const { key, restore } of changes) {
        if (!replaced) found.push(`could not unset ${key} in ${this.rel(file)}; unset it before running git there`);
        else found.push(restore.length ? `put ${key} in ${this.rel(file)} back as it was` : `unset ${key} in ${this.rel(file)}`);
      }
    }
    const after = lstat(file);
    if (after) this.configs.set(file, { stamp: stampOf(after), ...(before ? { before } : {}) });
  }

  private checkHooks(dir: string, found: string[]): void {
    const st = lstat(dir);
    if (!st) return;
    if (st.isSymbolicLink()) {
      if (this.isNew(st)) this.remove(dir, st, "a symbolic link in place of the hooks directory", found);
      return;
    }
    if (!st.isDirectory() || this.neverWritable(dir)) return;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.endsWith(".sample")) continue;
      const hook = path.join(dir, name);
      const h = lstat(hook);
      if (!h || !this.isNew(h)) continue;
      if (h.isSymbolicLink()) this.remove(hook, h, "a hook linked by a sandboxed command", found);
      else if (h.isFile() && (Number(h.mode) & 0o111) !== 0) {
        let done = false;
        try {
          done = clearExecuteAt(this.project, hook, h);
        } catch {
          done = false;
        }
        found.push(done ? `made the hook ${this.rel(hook)} non-executable` : `could not disable the hook ${this.rel(hook)}; remove it before running git there`);
      }
    }
  }

  /** The project index's gitlinks, read again only when the index changed. */
  private async gitlinks(): Promise<string[]> {
    const [gitDir] = this.gitDirsAt(this.project, new Set());
    const st = gitDir ? lstat(path.join(gitDir, "index")) : undefined;
    if (!st) return [];
    const stamp = stampOf(st);
    if (this.index?.stamp === stamp) return this.index.gitlinks;
    let gitlinks: string[] = [];
    try {
      gitlinks = gitlinkPaths(await runGit(["ls-files", "-s", "-z"], { cwd: this.project, maxBuffer: 256 * 1024 * 1024 }));
    } catch {
      // not readable now: the walk still covers what it reaches
    }
    this.index = { stamp, gitlinks };
    return gitlinks;
  }
}
