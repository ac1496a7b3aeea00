// What the user does next with a session, as the exact command to type.
// `yuj status`, `yuj show` and the pause messages of a headless run all say
// it the same way.

import type { SessionState } from "../core/session-state.js";
import type { ShownStatus } from "./find-session.js";

export interface NextAction {
  /** One sentence: what the session waits for. */
  text: string;
  /** The command that moves it on, when one does. */
  command?: string;
}

/** `pid`: the process holding the session (core/session-lock.ts), when known. */
export function nextAction(state: SessionState, status: ShownStatus, pid?: number): NextAction {
  const id = state.sessionId;
  switch (status) {
    case "running":
      return { text: `it is running in process ${pid || state.pid || "?"}; wait for it to end (Ctrl+C there pauses it)` };
    case "approval_required":
      if (state.answer) return { text: "the approval is answered; continue it", command: `yuj resume ${id}` };
      return {
        text: `it waits for your approval of ${state.pending?.request.summary ?? "a call"}; allow it, or refuse it with yuj reject ${id} --message "…"`,
        command: `yuj approve ${id}`,
      };
    case "input_required": {
      const q = state.question;
      if (q?.answer !== undefined && !q.delivered) return { text: "the question is answered; continue it", command: `yuj resume ${id}` };
      return { text: "it waits for your answer to the model's question; the run then continues", command: `yuj answer ${id} "…"` };
    }
    case "interrupted":
      return { text: "its process ended mid-run (killed or crashed); continue where it stopped", command: `yuj resume ${id}` };
    case "paused":
      return { text: "it was stopped (Ctrl+C or SIGTERM); continue it", command: `yuj resume ${id}` };
    case "failed":
      return { text: `the last run failed${state.lastMessage ? `: ${state.lastMessage}` : ""}; try again`, command: `yuj resume ${id}` };
    case "done":
      return { text: "it is finished; continue it with a new message", command: `yuj resume ${id} "…"` };
  }
}
