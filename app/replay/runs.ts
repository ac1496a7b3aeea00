// How a recorded session splits into runs of the loop, and where a process
// stopped without ending its run.
//
// Every process that works on a session (`yuj code`, each `yuj resume` /
// `yuj answer`, a TUI) starts its part of the trace with `session_started`.
// A resumed process then repairs the history before its loop starts: each
// call the killed process left without a saved result gets a `tool_result`
// with the interrupted text (app/resume-plan.ts), and only then comes the
// run's `user_message` (a new message) or its first request (a plain
// continuation). A process killed mid-run leaves no `run_finished` after its
// last activity. One killed while a request was in flight leaves its
// `request_sent` and, when any of the response had come, its
// `provider_request` (the body is recorded once the response starts), but
// never its `provider_response`.

import type { CoreEvent } from "../../core/events.js";
import { INTERRUPTED_TEXT } from "../../core/interrupted.js";

export interface RecordedRun {
  /** A new user message, or a continuation of a history that waits for the model (`yuj resume` with no message). */
  input: { userText: string } | { continue: true };
  /** The run began a resumed process: the replay repairs the history first, as `yuj resume` did. */
  resumed: boolean;
  /** Calls that process closed with the interrupted result, in the order it did. */
  closes: Array<{ callId: string; name: string }>;
  /** UTC date (YYYY-MM-DD) of the run's first request: the process built its system prompt that day. */
  date?: string;
  /** How the recorded run ended, when it did. */
  finished?: string;
  /** Set when the run's last process was killed before the run ended. */
  killed?: {
    /** 0-based number of the request that was in flight, when one was. */
    inFlight?: number;
    /** False when nothing of that request was recorded (no response had begun): the replay does not send it. */
    recorded?: boolean;
  };
}

/** Pauses the replay answers on the spot (the recorded decision or answer), so the resume after them is no new run. */
const ANSWERED_INLINE = new Set(["approval_required", "input_required"]);

export function recordedRuns(events: readonly CoreEvent[]): RecordedRun[] {
  const runs: RecordedRun[] = [];
  let requests = 0;
  let processes = 0;
  let pending: { closes: RecordedRun["closes"]; resumed: boolean } | undefined;
  let lastFinish: string | undefined;
  let active = false; // the last run started in this process has not finished
  let inFlight: { id: string; index: number; recorded: boolean } | undefined;

  const endProcess = () => {
    const run = runs.at(-1);
    if (active && run) run.killed = inFlight ? { inFlight: inFlight.index, recorded: inFlight.recorded } : {};
    active = false;
    inFlight = undefined;
  };
  const start = (input: RecordedRun["input"]) => {
    runs.push({ input, resumed: pending?.resumed ?? false, closes: pending?.closes ?? [] });
    pending = undefined;
    active = true;
  };

  for (const e of events) {
    if (e.type === "session_started") {
      if (processes++ > 0) {
        endProcess();
        // After a pause the replay answered inline, the recorded run simply goes on.
        pending = lastFinish && ANSWERED_INLINE.has(lastFinish) && runs.length ? undefined : { closes: [], resumed: true };
        if (!pending) active = true;
      }
      continue;
    }
    if (e.agentId !== "main") {
      if (e.type === "provider_request") requests++;
      continue;
    }
    switch (e.type) {
      case "tool_result":
        if (pending && e.modelText === INTERRUPTED_TEXT) pending.closes.push({ callId: e.callId, name: e.name });
        break;
      case "user_message":
        start({ userText: e.text });
        break;
      case "request_sent":
        if (pending) start({ continue: true });
        inFlight = { id: e.requestId, index: requests, recorded: false };
        break;
      case "provider_request": {
        const run = runs.at(-1);
        if (run && run.date === undefined) run.date = e.ts.slice(0, 10);
        inFlight = { id: e.requestId, index: requests++, recorded: true };
        break;
      }
      case "provider_response":
        if (inFlight?.id === e.requestId) inFlight = undefined;
        break;
      case "run_finished":
        // A continuation that stopped before any request (max_turns again) made none to replay.
        if (pending) start({ continue: true });
        lastFinish = e.reason;
        if (runs.length) runs.at(-1)!.finished = e.reason;
        active = false;
        inFlight = undefined;
        break;
    }
  }
  endProcess();
  return runs;
}
