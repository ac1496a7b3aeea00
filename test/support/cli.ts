// Runs the built `yuj` binary as a user would, in an isolated HOME.

import { spawn } from "node:child_process";
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

/** Session trace files written under the env's state dir. */
export function traceFiles(env: Record<string, string>): string[] {
  const dir = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((id) => join(dir, id, "trace.jsonl")).filter((f) => existsSync(f));
}
