// What the session-durability tests share: a scripted task in a temporary
// project run by the built yuj, the session's files as the test reads them,
// and a real tmpfs of a chosen size to fill up (the tests run as root, as CI
// does).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readState, type SessionState } from "../../core/session-state.js";
import { isolatedEnv, runCli, type CliResult } from "./cli.js";

export type Turn = { text?: string; tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }> };

export interface ScriptedProject {
  /** The project the session works in (on the ordinary disk). */
  cwd: string;
  env: Record<string, string>;
  /** Flags that give `yuj code` the scripted model and the unsandboxed shell. */
  flags: string[];
}

/** A project and an isolated HOME with a scripted model playing `turns`; `stateHome` moves the sessions. */
export function scriptedProject(
  turns: Turn[],
  opts: { stateHome?: string; fallback?: string; config?: string; git?: boolean } = {},
): ScriptedProject {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-durable-"));
  if (opts.git) {
    writeFileSync(join(cwd, "README.md"), "a project\n");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "start");
  }
  const scenario = join(cwd, ".scenario.json");
  writeFileSync(scenario, JSON.stringify({ turns, fallback_text: opts.fallback ?? "Nothing more to do." }));
  const config = join(cwd, ".yuj.toml");
  // Unsandboxed: the commands write where the test looks.
  writeFileSync(config, `[provider]\nname = "scripted"\nmodel = "script"\nscenario = ${JSON.stringify(scenario)}\n[sandbox]\nmode = "off"\n${opts.config ?? ""}`);
  const env = isolatedEnv();
  if (opts.stateHome) env.XDG_STATE_HOME = opts.stateHome;
  return { cwd, env, flags: ["--config", config] };
}

export function sessionsRoot(env: Record<string, string>): string {
  return join(env.XDG_STATE_HOME!, "yuj", "sessions");
}

/** Every folder under the sessions root, hidden ones included. */
export function sessionFolders(env: Record<string, string>): string[] {
  const root = sessionsRoot(env);
  return existsSync(root) ? readdirSync(root) : [];
}

export function onlySessionDir(env: Record<string, string>): string {
  const ids = sessionFolders(env);
  if (ids.length !== 1) throw new Error(`expected one session folder, found ${ids.join(", ") || "none"}`);
  return join(sessionsRoot(env), ids[0]!);
}

export function stateIn(dir: string): SessionState {
  const state = readState(dir);
  if (!state) throw new Error(`no readable state in ${dir}`);
  return state;
}

/** JSON lines of a stdout or a file; lines that do not parse (a torn row) are left out. */
export function jsonLines(text: string): any[] {
  return text.split("\n").flatMap((l) => {
    try {
      return l.trim() ? [JSON.parse(l)] : [];
    } catch {
      return [];
    }
  });
}

export function traceOf(dir: string): any[] {
  return jsonLines(readFileSync(join(dir, "trace.jsonl"), "utf8"));
}

export async function statusJson(p: ScriptedProject, id = ""): Promise<any> {
  const res = await runCli(["status", ...(id ? [id] : []), "--output", "json"], { cwd: p.cwd, env: p.env });
  if (res.code !== 0) throw new Error(`yuj status failed (${res.code}): ${res.stderr}`);
  return JSON.parse(res.stdout);
}

/** A run's stderr holds one-line `yuj:` messages only: never a stack trace or an unexpected error. */
export function cleanStderr(res: CliResult): string[] {
  const lines = res.stderr.split("\n").filter(Boolean);
  for (const line of lines) {
    if (!line.startsWith("yuj: ") || /unexpected error|^\s+at /.test(line)) throw new Error(`stderr is not a one-line reason:\n${res.stderr}`);
  }
  return lines;
}

/** A real tmpfs of `bytes` (rounded up to whole pages by the kernel) mounted at a new folder. */
export function mountTmpfs(bytes: number): { dir: string; resize(bytes: number): void; unmount(): void } {
  const dir = mkdtempSync(join(tmpdir(), "yuj-tmpfs-"));
  mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0700`, "tmpfs", dir]);
  return {
    dir,
    resize: (size) => void execFileSync("mount", ["-o", `remount,size=${size}`, dir]),
    unmount: () => void execFileSync("umount", ["-l", dir]),
  };
}
