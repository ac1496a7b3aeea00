// What the replay counts and compares while it runs: every request the loop
// sends against the recorded one (after swapping the recorded paths for the
// replay's), and where the provider is to stop for a recorded kill.

import type { CoreEvent } from "../../core/events.js";
import { firstDifference, normaliseRecorded, type PathSwap } from "./compare.js";
import type { RecordedKill, StopAt } from "./kill-points.js";
import type { Exchange } from "./recording.js";

export interface Difference {
  /** 0-based request number. */
  index: number;
  turn?: number;
  recorded: string;
  replayed: string;
  at: number;
}

export class ReplayWatch {
  /** Requests sent so far. */
  replayed = 0;
  readonly differences: Difference[] = [];
  /** Recorded paths and the replay's, set once the replay's session exists. */
  swaps: PathSwap[] = [];
  /** Where the provider stops in the current run, if its recorded process was killed with a request in flight. */
  stopAt: StopAt | undefined;
  /** The stop the provider made in the current run, if it made one. */
  stoppedBy: RecordedKill | undefined;
  /** Aborted at the first difference, unless differences are allowed. */
  readonly abort = new AbortController();

  constructor(
    private readonly exchanges: readonly Exchange[],
    private readonly allowDivergence: boolean,
  ) {}

  /** Hears every event of the replay; compares each provider request with the recorded one. */
  observe(e: CoreEvent): void {
    if (e.type !== "provider_request") return;
    const n = this.replayed++;
    const recorded = this.exchanges[n];
    if (!recorded) return; // counted as an extra request in the report
    const want = normaliseRecorded(recorded.request.body, this.swaps);
    const at = firstDifference(want, e.body);
    if (at < 0) return;
    this.differences.push({ index: n, ...(recorded.request.turn !== undefined ? { turn: recorded.request.turn } : {}), recorded: want, replayed: e.body, at });
    if (!this.allowDivergence) this.abort.abort(new Error("the replay diverged from the recording"));
  }
}
