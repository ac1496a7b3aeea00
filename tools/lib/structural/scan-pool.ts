// Runs a directory search's files through FileSearchers: in this thread for
// a small search, else in this thread and a few worker threads together
// (one per other core, at most four, none on a saturated machine), each
// taking the next batch of files when it is done with one, so a slow file
// or a busy core holds up only its own batch. Outcomes come back in the
// files' order either way. The workers run the bundle's
// own worker entry (dist/structural-worker.js); from the sources, or if a
// worker fails, the search runs in this thread.

import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ToolContext } from "../../../core/tool-types.js";
import type { LanguageName } from "./languages.js";
import { readJob, type FileJob, type FileOutcome, type FileSearcher } from "./scan-file.js";
import type { WorkerReply, WorkerSetup } from "./scan-worker.js";

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 48;
const MAX_WORKERS = 4;
const BATCH_FILES = 8;
/**
 * Workers start once this thread has parsed this much (about 50 ms of
 * parsing): a search for a rare name parses a few files, and a worker
 * started for it would spend more on its start-up than it could save.
 */
const PARSED_BEFORE_WORKERS = 100_000;

function workerScript(): URL | undefined {
  const url = new URL("./structural-worker.js", import.meta.url);
  return url.protocol === "file:" && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** `threads`: how many worker threads were started (0: this thread alone). */
export type ScanRun = { ok: true; outcomes: FileOutcome[]; threads: number } | { ok: false; cancelled: true; threads: number };

/**
 * One worker per core beside this thread's, unless the machine is already
 * saturated: with a 1-minute load average at or above the core count (11
 * to 13 on 2 cores, measured), a worker made a search slower, not faster
 * (its start-up and its compilations are spent, and the threads it
 * competes with keep the cores). Below that, a core at least partly idle
 * takes it.
 */
function otherCoreWorkers(): number {
  const cores = availableParallelism();
  return loadavg()[0]! >= cores ? 0 : Math.max(0, Math.min(MAX_WORKERS, cores - 1));
}

/** One batch in this thread: its files are all read at once, and parsed in order as they arrive. */
async function scanBatch(ctx: ToolContext, batch: readonly FileJob[], local: FileSearcher): Promise<FileOutcome[]> {
  const texts = batch.map((job) => readJob(job, ctx.services.fs));
  const outcomes: FileOutcome[] = [];
  for (let i = 0; i < batch.length; i++) outcomes.push(local.outcome(batch[i]!.file, await texts[i]));
  return outcomes;
}

/**
 * `script`: the worker entry (none: this thread alone); `workers`: at most
 * this many; `atOnce`: start them with the search rather than once this
 * thread has parsed enough (for the tests, which compare the two).
 */
export interface PoolOptions {
  script: URL | undefined;
  workers: number;
  atOnce?: boolean;
}

export async function scanAll(
  ctx: ToolContext,
  setup: { language: LanguageName; query: string },
  jobs: readonly FileJob[],
  local: FileSearcher,
  pool: PoolOptions = { script: workerScript(), workers: otherCoreWorkers() },
): Promise<ScanRun> {
  const { script } = pool;
  const workers = Math.min(pool.workers, Math.ceil(jobs.length / BATCH_FILES) - 1);
  if (script && jobs.length >= MIN_FILES_FOR_WORKERS && workers >= 1) {
    const pooled = await withWorkers(ctx, { script, setup, count: workers, atOnce: pool.atOnce ?? false }, jobs, local).catch(() => undefined);
    if (pooled) return pooled;
  }
  const outcomes: FileOutcome[] = [];
  for (let i = 0; i < jobs.length; i += BATCH_FILES) {
    if (ctx.signal.aborted) return { ok: false, cancelled: true, threads: 0 };
    outcomes.push(...(await scanBatch(ctx, jobs.slice(i, i + BATCH_FILES), local)));
  }
  return { ok: true, outcomes, threads: 0 };
}

interface Helpers {
  script: URL;
  setup: WorkerSetup;
  count: number;
  atOnce: boolean;
}

/**
 * This thread and up to `count` workers take batches from one queue until
 * it is empty. Workers start once this thread has parsed enough to show
 * the search is a large one (one whose literals few files hold parses
 * little and needs none), and one after another: the next when the last
 * has answered, so no two compile their runtimes at the same moment (see
 * grammars.ts).
 */
function withWorkers(ctx: ToolContext, helpers: Helpers, jobs: readonly FileJob[], local: FileSearcher): Promise<ScanRun> {
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
    const onAbort = () => finish({ ok: false, cancelled: true, threads: workers.length });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const completed = (batch: number, outcomes: FileOutcome[]) => {
      results[batch] = outcomes;
      if (++done === batches.length) finish({ ok: true, outcomes: results.flat(), threads: workers.length });
    };
    // A worker holds two batches: the next one waits in its queue while it
    // parses the other, since this thread, parsing its own batch, answers
    // a reply only between batches.
    const feed = (worker: Worker, held: number[]) => {
      while (!settled && next < batches.length && held.length < 2) {
        held.push(next);
        worker.postMessage(batches[next++]);
      }
    };
    // Worth one more when the queue still holds a batch for it and one for this thread.
    const startWorker = () => {
      if (settled || workers.length >= helpers.count || batches.length - next < 2) return;
      const worker = new Worker(helpers.script, { workerData: helpers.setup satisfies WorkerSetup });
      workers.push(worker);
      // Batches sent and not answered yet, in order (a worker answers in order).
      const held: number[] = [];
      let answered = false;
      worker.on("message", (reply: WorkerReply) => {
        if (!reply.ok) return finish(new Error(reply.error));
        completed(held.shift()!, reply.outcomes);
        feed(worker, held);
        if (!answered) {
          answered = true;
          if (!helpers.atOnce) startWorker();
        }
      });
      worker.on("error", (err) => finish(err));
      worker.on("exit", (code) => {
        if (!settled) finish(new Error(`a search worker exited (code ${code}) before the search ended`));
      });
      feed(worker, held);
    };
    if (helpers.atOnce) for (let i = 0; i < helpers.count; i++) startWorker();
    void (async () => {
      while (!settled && next < batches.length) {
        const batch = next++;
        const outcomes = await scanBatch(ctx, batches[batch]!, local);
        if (!settled) completed(batch, outcomes);
        if (workers.length === 0 && local.parsedChars >= PARSED_BEFORE_WORKERS) startWorker();
      }
    })().catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
    if (ctx.signal.aborted) onAbort();
  });
}
