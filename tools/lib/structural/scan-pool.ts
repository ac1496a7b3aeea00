// Runs a directory search's files through FileSearchers: in this thread for
// a small search, else in this thread and a few worker threads together
// (one per other core, at most four, none on a saturated machine). The
// files are cut into small batches, and every thread claims the next one
// from a counter in shared memory when it is done with its last, so no
// thread waits for another to hand it work, and a slow file or a busy core
// holds up only its own batch. Outcomes come back in the files' order
// either way. The workers run the bundle's own worker entry
// (dist/structural-worker.js); from the sources, or if a worker fails, the
// search runs in this thread.

import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ToolContext } from "../../../core/tool-types.js";
import type { LanguageName } from "./languages.js";
import { readJob, type FileJob, type FileOutcome, type FileSearcher } from "./scan-file.js";
import { batchesOf, NEXT_BATCH, claimBatch, linesWanted, sharedState, stopClaims, UNRENDERED_FROM, type WorkerReply, type WorkerSetup } from "./scan-shared.js";

/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 48;
const MAX_WORKERS = 4;
/**
 * Workers start once this thread has this much text to parse (about 15 ms
 * of parsing): a search for a rare name parses a few files, and a worker
 * started for it would spend more on its start-up than it could save.
 */
const PARSED_BEFORE_WORKERS = 30_000;

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

/**
 * `script`: the worker entry (none: this thread alone); `workers`: at most
 * this many; `atOnce`: start them with the search rather than once this
 * thread has parsed enough (for the tests, which compare the two);
 * `lines`: how many match lines, from the first file on, the caller will
 * show (the end of its page; default all). Files wholly past them keep
 * their count only.
 */
export interface PoolOptions {
  script: URL | undefined;
  workers: number;
  atOnce?: boolean;
  lines?: number;
}

/** The bundle's worker entry, and as many workers as the machine's load leaves room for. */
export function defaultPool(): PoolOptions {
  return { script: workerScript(), workers: otherCoreWorkers() };
}

export async function scanAll(
  ctx: ToolContext,
  setup: { language: LanguageName; query: string; optimized?: boolean },
  jobs: readonly FileJob[],
  local: FileSearcher,
  pool: PoolOptions = defaultPool(),
): Promise<ScanRun> {
  const { script } = pool;
  const batches = batchesOf(jobs);
  const wanted = pool.lines ?? Infinity;
  const workers = Math.min(pool.workers, batches.length - 1);
  if (script && jobs.length >= MIN_FILES_FOR_WORKERS && workers >= 1) {
    const helpers = { script, setup, count: workers, atOnce: pool.atOnce ?? false, wanted };
    const pooled = await withWorkers(ctx, helpers, batches, local).catch(() => undefined);
    if (pooled) return pooled;
  }
  const outcomes: FileOutcome[] = [];
  let counted = 0;
  for (const batch of batches) {
    if (ctx.signal.aborted) return { ok: false, cancelled: true, threads: 0 };
    const texts = batch.map((job) => readJob(job, ctx.services.fs));
    const withLines = counted < wanted;
    for (let i = 0; i < batch.length; i++) outcomes.push(local.outcome(batch[i]!.file, await texts[i], withLines));
    counted = outcomes.reduce((n, o) => n + o.count, 0);
  }
  return { ok: true, outcomes, threads: 0 };
}

interface Helpers {
  script: URL;
  setup: { language: LanguageName; query: string; optimized?: boolean };
  count: number;
  atOnce: boolean;
  wanted: number;
}

/**
 * This thread and up to `count` workers claim batches until none is left.
 * Workers start once this thread has seen enough text to parse to show the
 * search is a large one (one whose literals few files hold parses little
 * and needs none), and one after another: the next when the last has
 * answered, so no two compile their runtimes at the same moment (see
 * grammars.ts). As the batches from the first on are done, the number of
 * matches they hold tells from which batch on no line is wanted.
 */
function withWorkers(ctx: ToolContext, helpers: Helpers, batches: readonly FileJob[][], local: FileSearcher): Promise<ScanRun> {
  return new Promise((resolve, reject) => {
    const state = sharedState(batches.length);
    const results: FileOutcome[][] = new Array(batches.length);
    const workers: Worker[] = [];
    let done = 0;
    // Batches [0, prefix) are done and hold `counted` matches.
    let prefix = 0;
    let counted = 0;
    let settled = false;
    const finish = (run: ScanRun | Error) => {
      if (settled) return;
      settled = true;
      stopClaims(state);
      ctx.signal.removeEventListener("abort", onAbort);
      for (const w of workers) void w.terminate();
      if (run instanceof Error) reject(run);
      else resolve(run);
    };
    const onAbort = () => finish({ ok: false, cancelled: true, threads: workers.length });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const completed = (batch: number, outcomes: FileOutcome[]) => {
      results[batch] = outcomes;
      while (prefix < batches.length && results[prefix]) {
        for (const o of results[prefix++]!) counted += o.count;
      }
      if (counted >= helpers.wanted) Atomics.store(state, UNRENDERED_FROM, prefix);
      if (++done === batches.length) finish({ ok: true, outcomes: results.flat(), threads: workers.length });
    };
    // Worth one more while batches are left for it.
    const startWorker = () => {
      if (settled || workers.length >= helpers.count || Atomics.load(state, NEXT_BATCH) >= batches.length - 1) return;
      const setup: WorkerSetup = { ...helpers.setup, optimized: helpers.setup.optimized ?? false, batches, state: state.buffer as SharedArrayBuffer };
      const worker = new Worker(helpers.script, { workerData: setup });
      workers.push(worker);
      let answered = false;
      worker.on("message", (reply: WorkerReply) => {
        if (!reply.ok) return finish(new Error(reply.error));
        if (reply.batch >= 0) completed(reply.batch, reply.outcomes);
        if (!answered) {
          answered = true;
          if (!helpers.atOnce) startWorker();
        }
      });
      worker.on("error", (err) => finish(err));
      worker.on("exit", (code) => {
        if (!settled) finish(new Error(`a search worker exited (code ${code}) before the search ended`));
      });
    };
    if (helpers.atOnce) for (let i = 0; i < helpers.count; i++) startWorker();
    void (async () => {
      // The next batch's files are read while this one is parsed.
      let batch = claimBatch(state);
      let texts = batch < 0 ? [] : batches[batch]!.map((job) => readJob(job, ctx.services.fs));
      while (!settled && batch >= 0) {
        const jobs = batches[batch]!;
        const following = claimBatch(state);
        const nextTexts = following < 0 ? [] : batches[following]!.map((job) => readJob(job, ctx.services.fs));
        const withLines = linesWanted(state, batch);
        const outcomes: FileOutcome[] = [];
        for (let i = 0; i < jobs.length && !settled; i++) {
          outcomes.push(local.outcome(jobs[i]!.file, await texts[i], withLines));
          if (workers.length === 0 && local.parsedChars >= PARSED_BEFORE_WORKERS) startWorker();
        }
        if (!settled) completed(batch, outcomes);
        [batch, texts] = [following, nextTexts];
      }
    })().catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
    if (ctx.signal.aborted) onAbort();
  });
}
