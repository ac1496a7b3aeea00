// How a headless process ends: the lines on stderr that go with the session's
// last run (what a pause waits for, why a run failed) and the exit status.

import type { FinishReason } from "../core/events.js";
import type { RunEnd } from "../core/session-record.js";
import { pauseHelp, questionHelp } from "./pause.js";

const EXIT_CODES: Record<FinishReason, number> = {
  done: 0,
  answered: 0,
  max_turns: 1,
  error: 1,
  approval_required: 3,
  input_required: 4,
  cancelled: 130,
};

export function reportEnd(x: {
  id: string;
  end: RunEnd;
  jsonl: boolean;
  /** The demo's closing words, after its transcript. */
  footer?: string;
  /** The status a stop signal asks for (130, 143), once one arrived. */
  exitCode: number | undefined;
  out: (text: string) => void;
}): number {
  const { stopped, outcome, saveError } = x.end;
  const unsaved = saveError
    ? `yuj: the status of session ${x.id} could not be saved (${saveError}); yuj resume ${x.id} continues from its last saved step\n`
    : "";
  if (stopped) {
    // The text transcript printed the error event's line on stderr already.
    return said(`${x.jsonl ? `yuj: ${stopped.message}\n` : ""}${unsaved}`, 1);
  }
  if (!outcome || saveError) return said(unsaved, 1);
  if (!x.jsonl && x.footer) x.out(`\n${x.footer}\n`);
  if (outcome.reason === "approval_required" && outcome.pending) {
    process.stderr.write(pauseHelp(x.id, outcome.pending.request));
  } else if (outcome.reason === "input_required" && outcome.question) {
    process.stderr.write(questionHelp(x.id, outcome.question.question));
  } else if (EXIT_CODES[outcome.reason] !== 0 && (x.jsonl || outcome.reason !== "error")) {
    // The text transcript already printed the provider's error on stderr.
    process.stderr.write(`yuj: ${reasonLine(outcome.reason, outcome.message)}\n`);
  }
  return x.exitCode ?? EXIT_CODES[outcome.reason];
}

export function said(text: string, code: number): number {
  process.stderr.write(text);
  return code;
}

function reasonLine(reason: FinishReason, message?: string): string {
  if (reason === "error") return `run failed: ${message ?? "unknown error"}`;
  if (reason === "max_turns") return message ?? "stopped at the turn limit";
  if (reason === "cancelled") return "cancelled";
  return message ?? reason;
}
