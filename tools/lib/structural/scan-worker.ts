// A search worker: parsing is most of a directory search's time and runs
// one file at a time per thread, so a large search spreads its files over a
// few of these. Each builds the same FileSearcher as the tool's own thread
// and answers one batch of files per message, in order.

import { parentPort, workerData } from "node:worker_threads";
import { tierUpThisThread } from "./grammars.js";
import { FileSearcher, readJobSync, type FileJob, type FileOutcome } from "./scan-file.js";
import type { LanguageName } from "./languages.js";

export interface WorkerSetup {
  language: LanguageName;
  query: string;
}

export type WorkerReply = { ok: true; outcomes: FileOutcome[] } | { ok: false; error: string };

const setup = workerData as WorkerSetup;
tierUpThisThread();
const searcher = FileSearcher.create(setup.language, setup.query).then((made) => {
  if (!made.ok) throw new Error(made.error);
  return made.searcher;
});

parentPort!.on("message", (jobs: FileJob[]) => {
  void (async (): Promise<WorkerReply> => {
    try {
      const s = await searcher;
      const outcomes: FileOutcome[] = [];
      for (const job of jobs) outcomes.push(s.outcome(job.file, readJobSync(job)));
      return { ok: true, outcomes };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  })().then((reply) => parentPort!.postMessage(reply));
});
