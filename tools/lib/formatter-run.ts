// The mechanics behind the formatter guard: running the configured formatter
// as a real child process with a deadline, and taking the snapshots that say
// which files it changed.
//
// The formatter leads its own process group, so a timeout ends whatever it
// started too (a formatter daemon, a shell pipeline), not just the leader.
//
// Attribution: a formatter may touch more than the file it was given (an
// import sorter, a tool that formats the whole package). In a git repository
// the repository-visible files are the ones `git status` lists (tracked and
// changed, or untracked and not ignored); they are fingerprinted before and
// after the run, and a file whose fingerprint or status changed was changed
// by the formatter. Files that were clean and stay clean are unchanged by
// definition. Outside a repository only the target is watched.

import { createHash } from "node:crypto";
import * as path from "node:path";
import { gitRunner } from "../../core/git.js";
import type { FileSystem, Services } from "../../core/services.js";
import { commandEnv } from "../../core/jobs/shell-env.js";
import { jobEnv, killGroup } from "./process-group.js";

export type FormatterStatus =
  | { kind: "ok" }
  | { kind: "failed"; exitCode: number | null; signal: string | null; outputTail: string }
  | { kind: "not_started"; error: string }
  | { kind: "timeout"; seconds: number; outputTail: string };

/** Grace between SIGTERM and SIGKILL for a formatter past its deadline. */
const KILL_GRACE_MS = 500;
/** Kept from the output (stdout and stderr as they arrive); only the end is reported. */
const OUTPUT_KEEP_BYTES = 8192;
const OUTPUT_TAIL_LINES = 5;
const OUTPUT_TAIL_CHARS = 400;
const OUTPUT_DRAIN_MS = 500;

export async function runFormatter(
  argv: readonly string[],
  cwd: string,
  timeoutS: number,
  services: Pick<Services, "spawn" | "clock" | "env">,
): Promise<FormatterStatus> {
  let child: ReturnType<Services["spawn"]>;
  try {
    child = services.spawn(argv[0]!, argv.slice(1), {
      cwd,
      detached: true,
      // Both streams: many formatters (ruff, gofmt -l, prettier --check)
      // say what failed on stdout, and the model needs that line.
      stdio: ["ignore", "pipe", "pipe"],
      env: jobEnv(services.env),
    });
  } catch (err) {
    return { kind: "not_started", error: (err as Error).message };
  }
  let output = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    output = Buffer.concat([output, chunk]);
    if (output.length > OUTPUT_KEEP_BYTES) output = output.subarray(output.length - OUTPUT_KEEP_BYTES);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  let timedOut = false;
  // "exit", not "close": a process the formatter left behind may hold its output
  // open indefinitely, and the result must not wait for it.
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let killed: Promise<void> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    // Still unreaped (no exit seen): the group number is provably ours.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      killed = killGroup(child.pid, KILL_GRACE_MS, services.clock);
    }
  }, timeoutS * 1000);
  const end = await exited;
  clearTimeout(timer);
  // The whole group is gone (or SIGKILLed) before the files are looked at.
  await killed;
  // Let the last output bytes arrive, briefly.
  await Promise.race([closed, services.clock.sleep(OUTPUT_DRAIN_MS)]);
  child.stdout?.destroy();
  child.stderr?.destroy();

  const tail = outputTail(output.toString("utf8"));
  if (end.error) return { kind: "not_started", error: end.error.message };
  if (timedOut) return { kind: "timeout", seconds: timeoutS, outputTail: tail };
  if (end.code === 0) return { kind: "ok" };
  return { kind: "failed", exitCode: end.code, signal: end.signal, outputTail: tail };
}

function outputTail(text: string): string {
  const lines = text.trimEnd().split("\n").slice(-OUTPUT_TAIL_LINES).join("\n");
  return lines.length > OUTPUT_TAIL_CHARS ? `…${lines.slice(-OUTPUT_TAIL_CHARS)}` : lines;
}

export async function sha256File(fs: FileSystem, abs: string): Promise<string | undefined> {
  try {
    return createHash("sha256").update(await fs.readFile(abs)).digest("hex");
  } catch {
    return undefined; // gone (a formatter may delete or rename)
  }
}

// ---------------------------------------------------------------------------
// Repository snapshots

/** Hashing stops being worth it past this size; a stat signature stands in. */
const HASH_MAX_BYTES = 8 * 1024 * 1024;
/** More changed files than this and attribution is limited to the target. */
export const SNAPSHOT_MAX_PATHS = 5000;
const GIT_TIMEOUT_MS = 10_000;

export interface RepoSnapshot {
  /** Absolute repository root. */
  top: string;
  /** Absolute path → fingerprint of every path `git status` lists. */
  files: Map<string, string>;
  /** Absolute path → its two-letter status. */
  status: Map<string, string>;
  /** Too many entries to fingerprint: only the target is attributed. */
  overflow: boolean;
}

/** The environment of yuj's own git calls: the one commands get (the repository's config may run programs). */
type GitEnv = Record<string, string>;

// Through core/git: nothing the repository names (hooks, fsmonitor, filters) runs.
function git(cwd: string, args: string[], env: GitEnv): Promise<string | undefined> {
  const opts = { cwd, env: { ...env, GIT_OPTIONAL_LOCKS: "0" }, timeoutMs: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 };
  return gitRunner()(args, opts).catch(() => undefined);
}

/** The repository root containing `dir`, or undefined outside a repository (or without git). */
export async function gitTop(dir: string, env: GitEnv = commandEnv(process.env)): Promise<string | undefined> {
  const out = await git(dir, ["rev-parse", "--show-toplevel"], env);
  return out === undefined ? undefined : out.trim() || undefined;
}

export async function snapshotRepo(
  fs: FileSystem,
  top: string,
  env: GitEnv = commandEnv(process.env),
): Promise<RepoSnapshot | undefined> {
  const out = await git(top, ["status", "--porcelain=v1", "-z", "--untracked-files=all"], env);
  if (out === undefined) return undefined;
  const status = new Map<string, string>();
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    const xy = f.slice(0, 2);
    status.set(path.join(top, f.slice(3)), xy);
    // A rename or copy is followed by its source path.
    if (xy.includes("R") || xy.includes("C")) i++;
  }
  const overflow = status.size > SNAPSHOT_MAX_PATHS;
  const files = new Map<string, string>();
  if (!overflow) for (const abs of status.keys()) files.set(abs, await fingerprint(fs, abs));
  return { top, files, status, overflow };
}

/** Absolute paths whose fingerprint or status differs between two snapshots. */
export async function changedBetween(fs: FileSystem, before: RepoSnapshot, after: RepoSnapshot): Promise<string[]> {
  const changed = new Set<string>();
  for (const abs of new Set([...before.status.keys(), ...after.status.keys()])) {
    if (before.status.get(abs) !== after.status.get(abs)) changed.add(abs);
    else if (before.files.get(abs) !== (after.files.get(abs) ?? (await fingerprint(fs, abs)))) changed.add(abs);
  }
  return [...changed];
}

async function fingerprint(fs: FileSystem, abs: string): Promise<string> {
  try {
    const st = await fs.lstat(abs);
    // Links and special files are never hashed: their stat says enough.
    if (!st.isFile()) return `other:${st.mode}:${st.size}:${st.mtimeMs}`;
    if (st.size > HASH_MAX_BYTES) return `stat:${st.size}:${st.mtimeMs}`;
    return (await sha256File(fs, abs)) ?? "missing";
  } catch {
    return "missing";
  }
}
