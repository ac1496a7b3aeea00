// `yuj approve`, `reject` and `answer` answer a session that paused in an
// earlier process: they send its controller the same operation the TUI or a
// script on `--input jsonl` sends a live one, and the controller records it
// in the session's state for the run that continues it.

import { createOperator } from "../core/controller/operator.js";
import { createEmitter } from "../core/events.js";
import type { OpOf } from "../core/ops.js";
import { createSessionController } from "../core/session-controller.js";
import { storedRecord } from "../core/session-record.js";
import type { HistoryLog } from "../core/history-log.js";
import type { SessionState } from "../core/session-state.js";
import { FatalError } from "./errors.js";

/** Records the answer in the stored session (its lock held); a FatalError saying why when it does not wait for it. */
export function answerStoredSession(
  claimed: { dir: string; state: SessionState; log: HistoryLog },
  op: OpOf<"approval_answer"> | OpOf<"question_answer">,
): void {
  const { dir, state, log } = claimed;
  // Nothing is shown or traced here: the run that continues the session reports the answer.
  const { emit } = createEmitter(state.sessionId, () => {});
  const controller = createSessionController({ record: storedRecord(dir, state, log), emit, operator: createOperator({ emit, attached: false }) });
  const problem = controller.submit(op);
  if (problem !== undefined) throw new FatalError(problem);
}
