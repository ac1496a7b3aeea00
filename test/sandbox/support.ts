// Shared setup for the sandbox tests: a real project directory, a real job
// manager behind a real sandbox, and a way to run one command to its end.
// Whether bwrap can start here is probed once; tests that need it are
// skipped where it cannot (a dev machine without bubblewrap), except when
// YUJ_REQUIRE_BWRAP_TESTS=1 (CI), where that is a failure instead.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import { createJobManager } from "../../core/jobs/manager.js";
import type { JobManager, JobSnapshot } from "../../core/jobs/types.js";
import { detectBwrap } from "../../core/sandbox/detect.js";
import { createSandbox, type Sandbox } from "../../core/sandbox/index.js";

export const bwrapStatus = detectBwrap({}, process.env);
export const bwrapRequired = process.env.YUJ_REQUIRE_BWRAP_TESTS === "1";
/** Skip a real-bwrap suite when bwrap cannot start here (never in CI). */
export const noBwrap = !bwrapStatus.usable && !bwrapRequired;
if (noBwrap) console.warn(`sandbox tests skipped: ${(bwrapStatus as { reason: string }).reason}`);

const cleanups: Array<() => void | Promise<void>> = [];

/** For afterEach: removes what every harness and temp dir of the test made. */
export async function cleanupAll(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) await fn();
}

/** A temp directory removed after the test; under /tmp unless `parent` says otherwise. */
export function tempDir(prefix: string, parent = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface SandboxHarness {
  project: string;
  sandbox: Sandbox;
  manager: JobManager;
  events: CoreEvent[];
  /** Runs one foreground command in `cwd` (default the project) to its end. */
  run(command: string, cwd?: string): Promise<{ text: string; snap: JobSnapshot }>;
}

export interface HarnessOptions {
  adjust?: (config: Config) => void;
  env?: NodeJS.ProcessEnv;
  project?: string;
}

export function makeHarness(opts: HarnessOptions = {}): SandboxHarness {
  const config = defaultConfig();
  config.sandbox.mode = "on";
  opts.adjust?.(config);
  const project = opts.project ?? tempDir("yuj-sbx-project-");
  const sessionDir = tempDir("yuj-sbx-session-");
  const env = opts.env ?? process.env;
  const sandbox = createSandbox(config, env, { projectDir: project });
  const events: CoreEvent[] = [];
  const { emit } = createEmitter("test", (e) => events.push(e));
  const manager = createJobManager({ sessionDir, emit, env, killGraceMs: 500, sandbox });
  cleanups.push(async () => {
    manager.killAllSync();
    await manager.shutdown();
  });
  return {
    project,
    sandbox,
    manager,
    events,
    async run(command, cwd = project) {
      const job = manager.start({ command, cwd, background: false, deadlineMs: 20_000 });
      await manager.wait(job.id, "exit", 25_000);
      const read = await manager.readNew(job.id);
      return { text: read.text, snap: read.snapshot };
    },
  };
}

/**
 * Live (non-zombie) processes whose command line contains `marker`: the
 * processes named by `exec -a marker`, and the bwrap and bash around them.
 */
export function alive(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l));
}

/** Only the live processes started as `exec -a marker ...`. */
export function named(marker: string): string[] {
  return alive(marker).filter((l) => l.replace(/^\s*\d+\s+\S+\s+/, "").startsWith(`${marker} `));
}

export async function until(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** A unique marker for `exec -a` process names and file names. */
export function marker(what: string): string {
  return `yuj-sbx-${what}-${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

/** Runs one background job to its end and returns its output. */
export async function runInBackground(h: SandboxHarness, command: string): Promise<string> {
  const job = h.manager.start({ command, cwd: h.project, background: true });
  await h.manager.wait(job.id, "exit", 25_000);
  return (await h.manager.readNew(job.id)).text;
}

/** git's identity for commits made by tests, on the host and inside the sandbox alike. */
export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "yuj test",
  GIT_AUTHOR_EMAIL: "test@yuj.invalid",
  GIT_COMMITTER_NAME: "yuj test",
  GIT_COMMITTER_EMAIL: "test@yuj.invalid",
} as const;

/** Runs git on the host in `cwd` (as the user would), with the test identity. */
export function hostGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_IDENTITY }, stdio: ["ignore", "pipe", "pipe"] });
}

/** A real repository with one commit. */
export function gitRepo(dir = tempDir("yuj-sbx-repo-")): string {
  fs.mkdirSync(dir, { recursive: true });
  hostGit(dir, "init", "-q");
  fs.writeFileSync(path.join(dir, "README"), "hello\n");
  hostGit(dir, "add", "README");
  hostGit(dir, "commit", "-q", "-m", "first");
  return dir;
}
