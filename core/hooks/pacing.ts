// How often and how many at once one hook entry runs:
// * retry_on_failure: a failed run (non-zero exit, not JSON, timeout) is run
//   again up to that many times, retry_delay_ms apart; the last run counts.
// * concurrency: at most that many runs of the entry at once; the others
//   wait their turn in the order they came.
// * debounce_ms (automation and observer entries, whose callers do not wait):
//   a trigger replaces the one still waiting; the entry runs once the
//   triggers have been quiet that long, with the latest trigger's data. A
//   replaced trigger resolves to undefined: it never ran.
//
// The state is per entry and shared by every agent's view of the hooks, so
// a limit holds for the session as a whole.

import type { Clock } from "../services.js";
import type { HookEntry } from "./config.js";
import type { HookRun } from "./run-hook.js";

interface EntryPace {
  running: number;
  queue: Array<() => void>;
  /** The trigger waiting out the debounce: replacing it resolves it to undefined. */
  waiting?: { superseded: () => void };
}

export interface Pacer {
  /** Runs `attempt` under the entry's concurrency and retry settings. */
  paced(entry: HookEntry, attempt: () => Promise<HookRun>): Promise<HookRun>;
  /** As paced, after the entry's debounce; undefined when a later trigger replaced this one. */
  debounced(entry: HookEntry & { debounce_ms?: number | undefined }, attempt: () => Promise<HookRun>): Promise<HookRun | undefined>;
}

export function createPacer(clock: Clock): Pacer {
  const state = new Map<HookEntry, EntryPace>();
  const paceOf = (entry: HookEntry): EntryPace => {
    let p = state.get(entry);
    if (!p) state.set(entry, (p = { running: 0, queue: [] }));
    return p;
  };

  const slot = async (entry: HookEntry): Promise<() => void> => {
    const p = paceOf(entry);
    const limit = entry.concurrency ?? Infinity;
    if (p.running >= limit) await new Promise<void>((resolve) => p.queue.push(resolve));
    p.running++;
    return () => {
      p.running--;
      p.queue.shift()?.();
    };
  };

  const paced = async (entry: HookEntry, attempt: () => Promise<HookRun>): Promise<HookRun> => {
    const release = await slot(entry);
    try {
      let run = await attempt();
      for (let retry = 0; !run.ok && retry < entry.retry_on_failure; retry++) {
        await clock.sleep(entry.retry_delay_ms);
        run = await attempt();
      }
      return run;
    } finally {
      release();
    }
  };

  return {
    paced,
    debounced(entry, attempt) {
      const wait = entry.debounce_ms ?? 0;
      if (wait <= 0) return paced(entry, attempt);
      const p = paceOf(entry);
      p.waiting?.superseded();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          p.waiting = undefined;
          void paced(entry, attempt).then(resolve);
        }, wait);
        p.waiting = {
          superseded: () => {
            clearTimeout(timer);
            resolve(undefined);
          },
        };
      });
    },
  };
}
