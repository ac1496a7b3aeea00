// `yuj --resume ID`: the stored session's events, replayed into a fresh view
// store before anything new happens, so the transcript shows the session as
// it was. The view is built from events alone, and the trace holds them all.

import { join } from "node:path";
import type { CoreEvent } from "../../core/events.js";
import { TRACE_FILE } from "../../core/session.js";
import { readTrace } from "../../core/trace.js";
import type { ViewStore } from "../../components/view-store.js";

export function replayInto(store: ViewStore, sessionDir: string): void {
  let events: CoreEvent[];
  try {
    ({ events } = readTrace(join(sessionDir, TRACE_FILE)));
  } catch {
    return; // no trace: the history still continues, only the view starts empty
  }
  for (const e of events) store.dispatch(e);
  const last = events.at(-1);
  if (last && last.type !== "run_finished") {
    // The process stopped mid-run: end that run in the view (only there —
    // the trace keeps what really happened).
    const { seq, ts, sessionId, agentId } = last;
    store.dispatch({ seq, ts, sessionId, agentId, type: "run_finished", reason: "cancelled", message: "interrupted" });
  }
}
