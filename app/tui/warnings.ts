// While the full-screen UI is up, nothing but the UI may write to the
// terminal: a runtime warning (a deprecation, too many listeners) printed to
// stderr would land over the frame. Warnings go to the session's log file
// instead, and Node's own printer is put back when the UI closes.

import { appendFileSync } from "node:fs";
import { join } from "node:path";

/** The session's log of what happened outside the transcript (warnings of the runtime). */
export const SESSION_LOG = "yuj.log";

type WarningListener = (warning: Error) => void;

/** Sends process warnings to `dir`/yuj.log; returns the function that restores Node's printer. */
export function warningsToSessionLog(dir: string): () => void {
  const printers = process.listeners("warning") as WarningListener[];
  for (const p of printers) process.off("warning", p);
  const toLog: WarningListener = (w) => {
    try {
      appendFileSync(join(dir, SESSION_LOG), `${new Date().toISOString()} ${w.name}: ${w.message}\n`);
    } catch {
      // A log that cannot be written loses the warning, never the UI.
    }
  };
  process.on("warning", toLog);
  return () => {
    process.off("warning", toLog);
    for (const p of printers) process.on("warning", p);
  };
}
