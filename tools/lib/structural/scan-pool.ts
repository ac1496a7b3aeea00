// Runs a directory search's files through FileSearchers: in this thread for
// a small search, else in this thread and a few worker threads together
// (one per idle core, at most four workers), each taking the next batch of
// files when it is done with one, so a slow file or a busy core holds up
// only its own batch. Outcomes
// come back in the files' order either way. The workers run the bundle's
// own worker entry (dist/structural-worker.js); from the sources, or if a
// worker fails, the search runs in this thread.

import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ToolContext } from "../../../core/tool-types.js";
import type { LanguageName } from "./languages.js";
import type { FileJob, FileOutcome, FileSearcher } from "./scan-file.js";
import type { WorkerReply, WorkerSetup } from "./scan-worker.js";

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 48;
const MAX_WORKERS = 4;
const BATCH_FILES = 8;

function workerScript(): URL | undefined {
  const url = new URL("./structural-worker.js", import.meta.url);
  return url.protocol === "file:" && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** `threads`: how many worker threads helped (0: this thread alone). */
export type ScanRun = { ok: true; outcomes: FileOutcome[]; threads: number } | { ok: false; cancelled: true; threads: number };

/**
 * Workers worth starting now: one per core left idle beside this thread's.
 * Cores other processes keep busy (the load average) do not count: a worker
 * there only competes for them, and costs its start-up on top.
 */
function idleCoreWorkers(): number {
  return Math.max(0, Math.min(MAX_WORKERS, Math.round(availableParallelism() - loadavg()[0]!) - 1));
}

export async function scanAll(
  ctx: ToolContext,
  setup: { language: LanguageName; query: string },
  jobs: readonly FileJob[],
  local: FileSearcher,
  pool: { script: URL | undefined; workers: number } = { script: workerScript(), workers: idleCoreWorkers() },
): Promise<ScanRun> {
  const { script } = pool;
  const workers = Math.min(pool.workers, Math.ceil(jobs.length / BATCH_FILES) - 1);
  if (script && jobs.length >= MIN_FILES_FOR_WORKERS && workers >= 1) {
    const pooled = await withWorkers(ctx, script, setup, jobs, workers, local).catch(() => undefined);
    if (pooled) return pooled;
  }
  const outcomes: FileOutcome[] = [];
  for (const job of jobs) {
    if (ctx.signal.aborted) return { ok: false, cancelled: true, threads: 0 };
    outcomes.push(await local.scan(job, ctx.services.fs));
  }
  return { ok: true, outcomes, threads: 0 };
}

/** This thread and `count` workers take batches from one queue until it is empty. */
function withWorkers(
  ctx: ToolContext,
  script: URL,
  setup: WorkerSetup,
  jobs: readonly FileJob[],
  count: number,
  local: FileSearcher,
): Promise<ScanRun> {
  return new Promise((resolve, reject) => {
    const batches: FileJob[][] = [];
    for (let i = 0; i < jobs.length; i += BATCH_FILES) batches.push(jobs.slice(i, i + BATCH_FILES));
    const results: FileOutcome[][] = new Array(batches.length);
    const workers: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (run: ScanRun | Error) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener("abort", onAbort);
      for (const w of workers) void w.terminate();
      if (run instanceof Error) reject(run);
      else resolve(run);
    };
    const onAbort = () => finish({ ok: false, cancelled: true, threads: count });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const completed = (batch: number, outcomes: FileOutcome[]) => {
      results[batch] = outcomes;
      if (++done === batches.length) finish({ ok: true, outcomes: results.flat(), threads: count });
    };
    const feed = (worker: Worker & { batch?: number }) => {
      if (settled || next >= batches.length) return;
      worker.batch = next++;
      worker.postMessage(batches[worker.batch]);
    };
    for (let i = 0; i < count; i++) {
      const worker: Worker & { batch?: number } = new Worker(script, { workerData: setup satisfies WorkerSetup });
      workers.push(worker);
      worker.on("message", (reply: WorkerReply) => {
        if (!reply.ok) return finish(new Error(reply.error));
        completed(worker.batch!, reply.outcomes);
        feed(worker);
      });
      worker.on("error", (err) => finish(err));
      worker.on("exit", (code) => {
        if (!settled) finish(new Error(`a search worker exited (code ${code}) before the search ended`));
      });
      feed(worker);
    }
    void (async () => {
      while (!settled && next < batches.length) {
        const batch = next++;
        const outcomes: FileOutcome[] = [];
        for (const job of batches[batch]!) outcomes.push(await local.scan(job, ctx.services.fs));
        if (!settled) completed(batch, outcomes);
      }
    })().catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
    if (ctx.signal.aborted) onAbort();
  });
}
