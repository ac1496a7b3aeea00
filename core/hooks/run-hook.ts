// Runs one hook as a real process: the envelope as JSON on stdin, the
// YUJ_HOOK_* variables in its environment, under the same sandbox as the
// model's commands (a hook is a command from a config file, and a project's
// file must not get more reach than the model has). It leads its own
// process group, so a timeout ends whatever it started too.
//
// A hook never ends the run: a program that cannot start, exits non-zero,
// times out or prints something that is not JSON comes back as a failure
// with a reason, and the caller reports it and goes on.

import type { spawn as nodeSpawn } from "node:child_process";
import type { Sandbox } from "../sandbox/index.js";
import { unavailableMessage } from "../sandbox/index.js";
import type { Clock } from "../services.js";
import { killGroup } from "../jobs/process-group.js";

export interface HookProgram {
  /** For messages: the entry's name. */
  label: string;
  command?: readonly string[] | undefined;
  shell?: string | undefined;
  timeoutS: number;
}

export interface HookRunner {
  spawn: typeof nodeSpawn;
  clock: Clock;
  /** The commands' environment (secrets already left out). */
  env: Record<string, string>;
  /** The project root: the hook's working directory. */
  cwd: string;
  /** The commands' sandbox (which, in mode off, runs the program as it is). */
  sandbox: Pick<Sandbox, "wrap" | "wrapArgv" | "afterCommand">;
}

export type HookRun =
  | { ok: true; output: unknown; stdout: string; stderr: string; durationMs: number }
  | { ok: false; reason: string; stdout: string; stderr: string; exitCode?: number | null; durationMs: number };

const KILL_GRACE_MS = 500;
/** Output kept per stream: an answer is small; a chatty hook's report is cut. */
const KEEP_BYTES = 1024 * 1024;
/** After the leader exits, a process it left behind may hold the pipes open: wait this long at most. */
const DRAIN_MS = 500;

export async function runHook(program: HookProgram, envelope: object, vars: Record<string, string>, r: HookRunner): Promise<HookRun> {
  const started = r.clock.now();
  const took = () => r.clock.now() - started;
  const env = { ...r.env, ...vars };
  // A shell line goes the way the model's commands go (the sandbox's own shell invocation).
  const wrapped = program.command ? r.sandbox.wrapArgv(program.command, r.cwd, env) : r.sandbox.wrap(program.shell ?? "", r.cwd, env);
  if ("error" in wrapped) {
    return { ok: false, reason: unavailableMessage(wrapped.error).replace("the command was", "the hook was"), stdout: "", stderr: "", durationMs: took() };
  }
  let child: ReturnType<typeof nodeSpawn>;
  try {
    child = r.spawn(wrapped.file, wrapped.args, { cwd: r.cwd, env: wrapped.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  } catch (err) {
    return { ok: false, reason: `could not start: ${(err as Error).message}`, stdout: "", stderr: "", durationMs: took() };
  }
  const out = collect(child.stdout);
  const errOut = collect(child.stderr);
  // A hook that never reads its stdin must not fail on the pipe.
  child.stdin?.on("error", () => {});
  child.stdin?.end(JSON.stringify(envelope) + "\n");

  let timedOut = false;
  let killed: Promise<void> | undefined;
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) killed = killGroup(child.pid, KILL_GRACE_MS, r.clock);
  }, program.timeoutS * 1000);
  const end = await exited;
  clearTimeout(timer);
  await killed;
  await Promise.race([closed, r.clock.sleep(DRAIN_MS)]);
  child.stdout?.destroy();
  child.stderr?.destroy();
  await r.sandbox.afterCommand();

  const stdout = out();
  const stderr = errOut();
  const failed = (reason: string) => ({ ok: false as const, reason, stdout, stderr, exitCode: end.code, durationMs: took() });
  if (end.error) return failed(`could not start: ${end.error.message}`);
  if (timedOut) return failed(`timed out after ${program.timeoutS} s (its process group was killed)`);
  if (end.code !== 0) return failed(end.code === null ? `killed by ${end.signal}` : `exit code ${end.code}`);
  const text = stdout.trim();
  if (text === "") return { ok: true, output: undefined, stdout, stderr, durationMs: took() };
  try {
    return { ok: true, output: JSON.parse(text) as unknown, stdout, stderr, durationMs: took() };
  } catch {
    return failed(`its output is not JSON (starts ${JSON.stringify(text.slice(0, 60))})`);
  }
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on("data", (chunk: Buffer) => {
    if (size >= KEEP_BYTES) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return () => Buffer.concat(chunks).subarray(0, KEEP_BYTES).toString("utf8");
}
