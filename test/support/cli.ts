// Runs the built `yuj` binary as a user would, in an isolated HOME.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./loop-harness.js";

export const yujBin = join(repoRoot, "bin", "yuj.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh HOME with XDG dirs inside it; no keys unless a test adds them. */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "yuj-home-"));
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    ...extra,
  };
}

export function runCli(args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [yujBin, ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the CLI without waiting: for tests that kill it at a chosen moment. */
export function startCli(args: string[], opts: { cwd: string; env: Record<string, string> }): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [yujBin, ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? -1 : null), stdout, stderr }));
  });
  return { child, done };
}

/** Polls `check` until it holds; fails naming `what` if it never does. Not a timing assertion: only a bound on waiting. */
export async function waitUntil(check: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Session trace files written under the env's state dir. */
export function traceFiles(env: Record<string, string>): string[] {
  const dir = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((id) => join(dir, id, "trace.jsonl")).filter((f) => existsSync(f));
}
