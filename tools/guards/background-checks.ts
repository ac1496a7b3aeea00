// Background runs as the finish rule sees them. A run is bound, when it
// starts, to the session's change count and to what every file the session
// changed then held; it checks the work only if it is seen to pass (a read of
// it showing exit 0), was a command that does more than look, no change was
// recorded after it started, and those files still hold the same bytes (an
// edit by anything else, an editor or another process, also makes it stale).
// A run that failed, was killed or is still running checks nothing.
//
// While the one run the guard knows to be live is read or stopped, the file
// changes seen around that call are its own (a report it leaves, a cache):
// they are held with it and, once it ends, recorded as changes that it
// checked when it counts, or as unchecked changes when it does not.

import { createHash } from "node:crypto";
import type { FileSystem } from "../../core/services.js";

/** A file change by its real path and the path shown to the model. */
export interface ChangedFile {
  abs: string;
  display: string;
}

interface Run {
  /** The guard's change count when the run started. */
  generation: number;
  checks: boolean;
  /** Content fingerprint of each file the session had changed, at the start. */
  revisions: ReadonlyMap<string, string>;
  /** File changes seen while it was the one live run being read. */
  held: ChangedFile[];
}

/** How a read of a run ended for the finish rule: the run's own changes, and whether it checked the work. */
export interface RunEnd {
  held: ChangedFile[];
  counts: boolean;
}

async function revisionsOf(fs: FileSystem, files: Iterable<string>): Promise<ReadonlyMap<string, string>> {
  const out = new Map<string, string>();
  for (const abs of files) {
    try {
      out.set(abs, createHash("sha1").update(await fs.readFile(abs)).digest("hex"));
    } catch {
      out.set(abs, "missing");
    }
  }
  return out;
}

export function backgroundRuns(fs: FileSystem) {
  const runs = new Map<string, Run>();

  return {
    /** Read before the start's result is handed on, so no later edit is taken for the bytes it ran on. */
    async start(job: string, checks: boolean, generation: number, changed: Iterable<string>): Promise<void> {
      runs.set(job, { generation, checks, revisions: await revisionsOf(fs, [...changed]), held: [] });
    },

    /** Takes the changes seen around a read or stop of `job` as its own, when it is the only live run known. */
    hold(job: string, changes: readonly ChangedFile[]): boolean {
      const run = runs.get(job);
      if (!run || runs.size !== 1 || changes.length === 0) return false;
      run.held.push(...changes.filter((c) => !run.held.some((h) => h.abs === c.abs)));
      return true;
    },

    /** The run is over: whether it checked the work, given the session's change count now. */
    async end(job: string, passed: boolean, generation: number): Promise<RunEnd | undefined> {
      const run = runs.get(job);
      if (!run) return undefined;
      runs.delete(job);
      if (!passed || !run.checks || run.generation !== generation) return { held: run.held, counts: false };
      const was = run.revisions;
      const now = await revisionsOf(fs, was.keys());
      const same = [...was].every(([abs, rev]) => now.get(abs) === rev);
      return { held: run.held, counts: same };
    },
  };
}
