// The table a multi-task measurement run ends with: one line per task.

import type { Metrics } from "./metrics.js";
import type { SavingsRow } from "./savings.js";

export interface TaskOutcome {
  name: string;
  status: "completed" | "not_completed" | "skipped";
  metrics?: Metrics;
  savings?: SavingsRow[];
  /** Why a task did not complete, when it is not the run's own reason. */
  note?: string;
  /** The exit status of a session stopped by Ctrl+C or SIGTERM: the run ends there. */
  stoppedWith?: number;
}

export function summaryTable(outcomes: TaskOutcome[]): string {
  const header = ["task", "status", "sessions", "requests", "input", "output", "wall s", "saved chars"];
  const lines = outcomes.map((o) => {
    const m = o.metrics;
    const saved = (o.savings ?? []).reduce((t, r) => t + Math.max(0, r.input_chars - r.output_chars), 0);
    return [
      o.name,
      o.status,
      m ? String(m.sessions.length) : "-",
      m ? String(m.tokens.requests) : "-",
      m ? String(m.tokens.total.input) : "-",
      m ? String(m.tokens.total.output) : "-",
      m ? (m.wall_ms / 1000).toFixed(1) : "-",
      m ? String(saved) : "-",
    ];
  });
  const done = outcomes.filter((o) => o.status !== "not_completed").length;
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
  return [fmt(header), ...lines.map(fmt), `${done} of ${outcomes.length} tasks completed`].join("\n") + "\n";
}
