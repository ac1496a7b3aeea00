// A search worker: parsing is most of a directory search's time and runs
// one file at a time per thread, so a large search spreads its files over a
// few of these. Each builds the same FileSearcher as the tool's own thread,
// then claims batches of the search's files from the shared counter until
// none is left, answering each batch's outcomes as it finishes it.

import { parentPort, workerData } from "node:worker_threads";
import { optimizeThisThread, tierUpThisThread } from "./grammars.js";
import { FileSearcher, readJobSync, type FileOutcome } from "./scan-file.js";
import { claimBatch, linesWanted, type WorkerReply, type WorkerSetup } from "./scan-shared.js";

const setup = workerData as WorkerSetup;
const state = new Int32Array(setup.state);
if (setup.optimized) optimizeThisThread();
else tierUpThisThread();

const post = (reply: WorkerReply) => parentPort!.postMessage(reply);
// Kept alive until the search terminates it, so that its exit before the
// search ends always means a failure (and the search runs in one thread).
parentPort!.on("message", () => undefined);

FileSearcher.create(setup.language, setup.query)
  .then((made) => {
    if (!made.ok) throw new Error(made.error);
    const searcher = made.searcher;
    let claimed = 0;
    for (let batch = claimBatch(state); batch >= 0; batch = claimBatch(state)) {
      const withLines = linesWanted(state, batch);
      const outcomes: FileOutcome[] = setup.batches[batch]!.map((job) => searcher.outcome(job.file, readJobSync(job), withLines));
      post({ ok: true, batch, outcomes });
      claimed++;
    }
    if (claimed === 0) post({ ok: true, batch: -1, outcomes: [] });
  })
  .catch((err: unknown) => post({ ok: false, error: err instanceof Error ? err.message : String(err) }));
