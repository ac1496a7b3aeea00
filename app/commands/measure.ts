// `yuj measure RUN_DIR`: runs each task of a run directory as a measurement
// run (every ask denied, no question to anyone, no terminal tools), resumes a
// task that did not complete up to [loop].max_sessions sessions, and writes
// per task checkpoint.json, metrics.json and savings.jsonl under
// RUN_DIR/results/<task>/. Exit 0 when every task is completed.

import { execFileSync } from "node:child_process";
import { isAbsolute, join, resolve } from "node:path";
import { atomicWriteSync } from "../../core/atomic-write.js";
import { conversationRoles } from "../../core/context/shape.js";
import { UsageError, type ParsedArgs } from "../args.js";
import { FatalError } from "../errors.js";
import { completedBy, readCheckpoint, writeCheckpoint, type Checkpoint } from "../measure/checkpoint.js";
import { computeMetrics } from "../measure/metrics.js";
import { runSession, type SessionStart } from "../measure/run-session.js";
import { computeSavings } from "../measure/savings.js";
import { summaryTable, type TaskOutcome } from "../measure/summary.js";
import { findTasks, readText, type MeasureTask } from "../measure/tasks.js";
import { requireProvider, resolveSession, type Resolved } from "../session.js";

/** What a task that stopped short is told when its session continues. */
const CONTINUE = "The task is not finished yet. Continue from where you stopped, and call done when it is complete.";
const STOPPED = new Set([130, 143]);

export async function measureCommand(args: ParsedArgs, version: string): Promise<number> {
  const opts = args.measureRun ?? {};
  if (args.positionals.length !== 1) {
    throw new UsageError("yuj measure takes one run directory: yuj measure RUN_DIR [--task PATH] [--config FILE] [--dry-run]");
  }
  const cwd = process.cwd();
  const runDir = resolve(cwd, args.positionals[0]!);
  const tasks = findTasks(runDir, opts, cwd);
  const resumeMessage = opts.resumeMessageFile !== undefined ? readText(resolve(cwd, opts.resumeMessageFile), "--resume-message-file") : undefined;
  if (resumeMessage !== undefined && !resumeMessage.trim()) throw new FatalError(`yuj measure: the message in ${opts.resumeMessageFile} is empty`);
  const runArgs: ParsedArgs = { ...args, measure: true, configFiles: args.configFiles.map((f) => (isAbsolute(f) ? f : resolve(cwd, f))) };

  const outcomes: TaskOutcome[] = [];
  for (const task of tasks) {
    const resolved = resolveSession({ args: runArgs, cwd: task.dir, env: process.env, topLevel: false, measurement: true });
    requireProvider(resolved);
    const limit = opts.maxSessions ?? resolved.config.loop.max_sessions;
    const cp = readCheckpoint(task.results);
    if (resumeMessage !== undefined && !cp?.sessions.length) {
      throw new FatalError(`yuj measure --resume: ${task.dir} has no earlier session in ${task.results}; measure it first (without --resume)`);
    }
    if (opts.dryRun) {
      process.stdout.write(`${task.name}: ${planLine(task, cp, limit, resumeMessage !== undefined)}\n`);
      continue;
    }
    if (cp?.status === "completed" && resumeMessage === undefined) {
      process.stdout.write(`${task.name}: completed before; skipped\n`);
      outcomes.push({ name: task.name, status: "skipped" });
      continue;
    }
    const outcome = await measureTask(task, { cp, limit, resumeMessage, runArgs, resolved, version });
    outcomes.push(outcome);
    // Stopped by Ctrl+C or SIGTERM: the task's files are written; the tasks after it wait for the next run.
    if (outcome.stoppedWith !== undefined) return outcome.stoppedWith;
  }
  if (opts.dryRun) return 0;
  if (outcomes.length > 1) process.stdout.write(`\n${summaryTable(outcomes)}`);
  return outcomes.every((o) => o.status !== "not_completed") ? 0 : 1;
}

interface TaskInputs {
  cp: Checkpoint | undefined;
  limit: number;
  resumeMessage: string | undefined;
  runArgs: ParsedArgs;
  resolved: Resolved;
  version: string;
}

/** Runs sessions of one task until it completes or its sessions are spent; writes its files after each. */
async function measureTask(task: MeasureTask, x: TaskInputs): Promise<TaskOutcome> {
  const commit = gitCommit(task.dir);
  const cp: Checkpoint = x.cp ?? { status: "not_completed", task: task.dir, sessions: [] };
  let message = x.resumeMessage;
  let note: string | undefined;
  let stoppedWith: number | undefined;
  if (x.resumeMessage !== undefined) cp.status = "not_completed";
  while (cp.status !== "completed" && cp.sessions.length < x.limit) {
    const last = cp.sessions.at(-1);
    const start: SessionStart = last ? { resume: last.sessionId, message: message ?? CONTINUE } : { task: task.prompt, flags: sessionFlags(x.runArgs) };
    message = undefined;
    const n = cp.sessions.length + 1;
    process.stdout.write(`${task.name}: session ${n} of at most ${x.limit} (${last ? `resuming ${last.sessionId}` : "new"})\n`);
    const run = await runSession({ cwd: task.dir, results: task.results, index: n, start });
    if (STOPPED.has(run.exitCode ?? -1)) stoppedWith = run.exitCode!;
    if ("failed" in run) {
      note = run.failed;
      break;
    }
    cp.sessions.push(run);
    if (completedBy(run.reason)) cp.status = "completed";
    writeCheckpoint(task.results, cp);
    process.stdout.write(`${task.name}: session ${n} ended: ${run.reason ?? `exit ${run.exitCode}`}\n`);
    if (stoppedWith !== undefined) break;
  }
  if (stoppedWith !== undefined) note = `stopped (exit ${stoppedWith}); the next yuj measure continues it`;
  else if (cp.status !== "completed" && !note) note = `not completed after ${cp.sessions.length} sessions ([loop].max_sessions / --max-sessions is ${x.limit})`;
  if (note) process.stdout.write(`${task.name}: ${note}\n`);
  writeCheckpoint(task.results, cp);
  const metrics = computeMetrics({ task: task.dir, completed: cp.status === "completed", runs: cp.sessions, version: x.version, commit, config: x.resolved.config });
  atomicWriteSync(join(task.results, "metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
  const roles = conversationRoles(x.resolved.toolset.tools);
  const savings = computeSavings(cp.sessions, roles, x.resolved.config.tools.think_keep_turns);
  atomicWriteSync(join(task.results, "savings.jsonl"), savings.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return { name: task.name, status: cp.status, metrics, savings, ...(note ? { note } : {}), ...(stoppedWith !== undefined ? { stoppedWith } : {}) };
}

/** The run's options a new session is started with (a resume keeps the ones it was started with). */
function sessionFlags(a: ParsedArgs): string[] {
  const flags: string[] = a.configFiles.flatMap((f) => ["--config", f]);
  const add = (flag: string, v: string | number | undefined) => void (v !== undefined && flags.push(flag, String(v)));
  add("--profile", a.profile);
  add("--provider", a.provider);
  add("--model", a.model);
  add("--base-url", a.baseUrl);
  add("--api-key-env", a.apiKeyEnv);
  add("--edit-format", a.editFormat);
  add("--max-turns", a.maxTurns);
  add("--plan-mode", a.planMode);
  add("--tool-desc", a.toolDesc);
  return flags;
}

/** What a run would do with the task, for --dry-run. */
function planLine(task: MeasureTask, cp: Checkpoint | undefined, limit: number, resuming: boolean): string {
  const spent = cp?.sessions.length ?? 0;
  if (cp?.status === "completed" && !resuming) return `completed before; would be skipped`;
  if (spent >= limit) return `${spent} sessions spent of ${limit}; would not run again (raise --max-sessions)`;
  const last = cp?.sessions.at(-1);
  const how = last ? `would resume session ${last.sessionId}` : `would start a new session in ${task.dir}`;
  return `${how}, up to ${limit - spent} more sessions; prompt from ${task.promptSource}`;
}

function gitCommit(dir: string): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || null;
  } catch {
    return null;
  }
}
