// `yuj --resume ID`: the stored session's events, replayed into a fresh view
// store before anything new happens, so the transcript shows the session as
// it was. The view is built from events alone, and the traces hold them all:
// the main agent's, then each worker's and task child's own (in
// `tasks/<task_id>/`), so every agent view is back as well.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { CoreEvent } from "../../core/events.js";
import { TRACE_FILE } from "../../core/session.js";
import { readTrace } from "../../core/trace.js";
import type { ViewStore } from "../../components/view-store.js";

export function replayInto(store: ViewStore, sessionDir: string): void {
  replayTrace(store, join(sessionDir, TRACE_FILE));
  for (const taskId of taskIds(sessionDir)) replayTrace(store, join(sessionDir, "tasks", taskId, TRACE_FILE));
}

function replayTrace(store: ViewStore, file: string): void {
  let events: CoreEvent[];
  try {
    ({ events } = readTrace(file));
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

/** The session's task folders, in the order they were made (task-2 before task-10). */
function taskIds(sessionDir: string): string[] {
  const root = join(sessionDir, "tasks");
  if (!existsSync(root)) return [];
  const number = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? Number.MAX_SAFE_INTEGER);
  return readdirSync(root)
    .filter((id) => existsSync(join(root, id, TRACE_FILE)))
    .sort((a, b) => number(a) - number(b));
}
