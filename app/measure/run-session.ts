// One session of a measured task, run as its own `yuj` process: a new session
// (`yuj code --measure`) or the continuation of the task's last one
// (`yuj resume ID MESSAGE`, which keeps the settings it was started with).
// A process of its own per session keeps each run's state, signals and
// provider connections apart, as a user's separate runs would be. Its JSONL
// event stream is kept in the task's results beside the checkpoint.

import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FinishReason } from "../../core/events.js";
import type { SessionRun } from "./checkpoint.js";

export type SessionStart = { task: string; flags: string[] } | { resume: string; message: string };

export async function runSession(x: { cwd: string; results: string; index: number; start: SessionStart }): Promise<SessionRun | { failed: string; exitCode: number | null }> {
  mkdirSync(x.results, { recursive: true });
  const stream = join(x.results, `session-${x.index}.jsonl`);
  const args =
    "task" in x.start
      ? ["code", "--measure", "--output", "jsonl", ...x.start.flags, "-p", x.start.task]
      : ["resume", x.start.resume, x.start.message, "--output", "jsonl"];
  const startedAt = new Date();
  const exitCode = await spawnYuj(args, x.cwd, stream);
  const wallMs = Date.now() - startedAt.getTime();
  const seen = readStream(stream);
  if (!seen.sessionId || !seen.sessionDir) {
    return { failed: `the session did not start (exit ${exitCode}); its output is in ${stream}`, exitCode };
  }
  return {
    sessionId: seen.sessionId,
    sessionDir: seen.sessionDir,
    ...(seen.reason ? { reason: seen.reason } : {}),
    exitCode,
    wallMs,
    startedAt: startedAt.toISOString(),
  };
}

/**
 * The same yuj as this process (its script and Node), stdout to the stream
 * file, stderr passed on. The session runs in a process group of its own and
 * gets Ctrl+C and SIGTERM from here, once: it stops its run cleanly and saves
 * it, and this process records that in the checkpoint before it ends.
 */
function spawnYuj(args: string[], cwd: string, streamFile: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(streamFile);
    const child = spawn(process.execPath, [process.argv[1]!, ...args], { cwd, env: process.env, stdio: ["ignore", "pipe", "inherit"], detached: true });
    const forward = (sig: NodeJS.Signals) => () => void child.kill(sig);
    const onInt = forward("SIGINT");
    const onTerm = forward("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    child.stdout.pipe(out);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      out.end(() => resolve(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : null)));
    });
  });
}

/** The session's id and folder (from its first event) and how its last run ended. */
function readStream(file: string): { sessionId?: string; sessionDir?: string; reason?: FinishReason } {
  const seen: { sessionId?: string; sessionDir?: string; reason?: FinishReason } = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let e: { type?: string; agentId?: string; sessionId?: string; traceFile?: string; reason?: FinishReason };
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e.agentId !== "main") continue;
    if (e.type === "session_started" && e.traceFile) {
      seen.sessionId = e.sessionId;
      seen.sessionDir = dirname(e.traceFile);
    }
    if (e.type === "run_finished" && e.reason) seen.reason = e.reason;
  }
  return seen;
}
