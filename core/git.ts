// yuj's own git calls (the workspace snapshot and replay, the side panel's
// status, the formatter's change attribution). They run on the host, outside
// the sandbox, in a repository whose files a model's commands have written;
// so git must not run anything the repository names: no hooks, no
// fsmonitor, no clean/smudge/process filters, no external diff or textconv,
// no pager, no automatic gc, no system config. Every call goes through
// here. The same holds whatever config git ends up reading: `-c` wins over
// every file, and the filter names are read from the config git will use.
//
// Filter drivers have no global off switch, so their names are read from the
// config first (reading config runs nothing) and each is blanked with `-c`:
// an empty command is no filter. Options given with `-c` reach the git
// processes git itself starts (a submodule's status), through the
// environment.

import { execFile } from "node:child_process";
import { copyFileSync, existsSync, statSync, utimesSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Who makes yuj's own commits (checkpoints, subagent snapshots): they live on private refs or none, so they never need the user's identity. */
export const YUJ_COMMIT_IDENTITY = {
  GIT_AUTHOR_NAME: "yuj",
  GIT_AUTHOR_EMAIL: "yuj@localhost",
  GIT_COMMITTER_NAME: "yuj",
  GIT_COMMITTER_EMAIL: "yuj@localhost",
};

/**
 * Starts a scratch index (for GIT_INDEX_FILE) from a copy of the real one, so
 * unchanged files are not hashed again. The copy keeps the real index's
 * modification time: git trusts an entry's cached stat only when the file is
 * older than the index, and a fresh copy's later time would make a file
 * rewritten in the same clock tick as the last index write (same size, same
 * timestamp) look unchanged, and its change be missed. No real index: the
 * scratch index starts empty.
 */
export function copyIndexKeepingTime(real: string, scratch: string): void {
  if (!existsSync(real)) return;
  copyFileSync(real, scratch);
  const { atime, mtime } = statSync(real);
  utimesSync(scratch, atime, mtime);
}

export interface GitOptions {
  cwd: string;
  /** The environment to start from; default process.env. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxBuffer?: number;
  /** Fed to git's stdin (`git config --file -`). */
  input?: string | Buffer;
}

class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

/**
 * False only when git could find no repository from `dir`: no `.git` (a
 * folder, or the file a worktree or submodule has) in it or any folder above,
 * and nothing in the environment pointing git elsewhere. Asking git costs two
 * processes (the filter names, then the question); this costs a few stats.
 */
export function mayBeInRepository(dir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.GIT_DIR || env.GIT_WORK_TREE) return true;
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return true;
    if (dirname(d) === d) return false;
  }
}

/** `-c` pairs that switch off everything git could run besides itself. */
const QUIET_GIT_CONFIG: readonly string[] = [
  "core.hooksPath=/dev/null", // not a directory: no hook is ever found
  "core.fsmonitor=false",
  "core.pager=cat",
  "diff.external=",
  "gc.auto=0",
  "maintenance.auto=false",
  "log.showSignature=false",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  "core.sshCommand=false",
  "credential.helper=",
].flatMap((c) => ["-c", c]);

// Options on the subcommand's own command line: diffs without external
// programs, and no descent into submodules (a submodule is a repository of
// its own, whose config and filters a command may have written).
const SUBCOMMAND_OFF: Readonly<Record<string, readonly string[]>> = {
  diff: ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"],
  log: ["--no-ext-diff", "--no-textconv"],
  show: ["--no-ext-diff", "--no-textconv"],
  status: ["--ignore-submodules=all"],
};

/** The environment for yuj's git: no system config, no pager, no prompt, no external diff. */
function quietGitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_CONFIG_NOSYSTEM: "1", GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };
  delete env.GIT_EXTERNAL_DIFF;
  delete env.GIT_ASKPASS;
  delete env.SSH_ASKPASS;
  return env;
}

/** Runs `git prefix... args...`; a failure names `args[0]` and git's first line of complaint. */
function run(prefix: readonly string[], args: readonly string[], opts: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...prefix, ...args],
      { cwd: opts.cwd, env: quietGitEnv(opts.env), timeout: opts.timeoutMs ?? 60_000, maxBuffer: opts.maxBuffer ?? 16 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) reject(new GitError(args, `git ${args[0]} failed: ${(stderr || err.message).trim().split("\n")[0]}`));
        else resolve(stdout);
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** `-c filter.<name>.<clean|smudge|process>= ...` for every filter driver the config at `cwd` defines. */
async function filterOverrides(opts: GitOptions): Promise<string[]> {
  let out: string;
  try {
    out = await run(QUIET_GIT_CONFIG, ["config", "--null", "--name-only", "--get-regexp", "^filter\\."], opts);
  } catch {
    return []; // exit 1: none defined (or not a repository: nothing to filter)
  }
  const names = new Set<string>();
  for (const key of out.split("\0")) {
    const m = /^filter\.(.+)\.[^.]+$/s.exec(key.trim());
    if (m) names.add(m[1]!);
  }
  return [...names].flatMap((n) => ["clean", "smudge", "process"].flatMap((what) => ["-c", `filter.${n}.${what}=`]).concat("-c", `filter.${n}.required=false`));
}

/** Runs git with everything it could start switched off; `filters` from filterOverrides(). */
export function runGit(args: readonly string[], opts: GitOptions & { filters?: readonly string[] }): Promise<string> {
  const [sub, ...rest] = args;
  const off = sub !== undefined ? SUBCOMMAND_OFF[sub] : undefined;
  return run([...QUIET_GIT_CONFIG, ...(opts.filters ?? [])], off ? [sub!, ...off, ...rest] : args, opts);
}

export type GitRunner = (args: readonly string[], opts: GitOptions) => Promise<string>;

/**
 * runGit for a sequence of calls: the filter names of each directory's
 * repository are read once, on its first call.
 */
export function gitRunner(): GitRunner {
  const filters = new Map<string, Promise<string[]>>();
  return async (args, opts) => {
    let known = filters.get(opts.cwd);
    if (!known) filters.set(opts.cwd, (known = filterOverrides(opts)));
    return runGit(args, { ...opts, filters: await known });
  };
}
