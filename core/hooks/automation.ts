// What an on_tool_batch_complete hook's run becomes. Its answer (JSON on
// stdout) is `{status, summary, body, severity, append_context, notify}`,
// every field optional. A run that failed (non-zero exit, output that is not
// JSON, a timeout) is a report too: status failed, its reason as the
// summary and what it printed as the body, so a plain check command (a type
// checker, a test runner) works as a hook without speaking JSON.
//
// `result` decides where the report goes: ignore (nowhere), notify_only (a
// notice), append_on_failure (a notice, and to the model when it failed),
// always_append (a notice, and to the model). The answer's `notify` and
// `append_context` booleans override the notice and the model's copy for
// that one report (append_context cannot override `ignore`).

import type { Emit } from "../events.js";
import type { AutomationEntry } from "./config.js";
import type { HookRun } from "./run-hook.js";

export interface PendingReport {
  join: AutomationEntry["join"];
  done: Promise<string | undefined>;
  settled: boolean;
  value: string | undefined;
}

export function trackReport(join: AutomationEntry["join"], done: Promise<string | undefined>): PendingReport {
  const item: PendingReport = { join, done, settled: false, value: undefined };
  void done.then((v) => {
    item.settled = true;
    item.value = v;
  });
  return item;
}

interface Report {
  status: "success" | "failed";
  summary: string;
  body: string;
  severity: "info" | "warning" | "error";
  appendContext?: boolean;
  notify?: boolean;
}

/** Emits the notice the mode asks for; returns the text for the model's next request, if any. */
export function automationReport(label: string, entry: AutomationEntry, run: HookRun, emit: Emit): string | undefined {
  if (entry.result === "ignore") return undefined;
  const report = readReport(run);
  const head = `hook "${label}" (on_tool_batch_complete): ${report.status}${report.summary ? ` — ${report.summary}` : ""}`;
  if (report.notify ?? true) emit({ type: "notice", level: report.severity === "info" && report.status === "success" ? "info" : "warning", text: head });
  const byMode = entry.result === "always_append" || (entry.result === "append_on_failure" && report.status === "failed");
  if (!(report.appendContext ?? byMode)) return undefined;
  const body = shaped(report, entry);
  return body ? `${head}\n${body}` : head;
}

function readReport(run: HookRun): Report {
  const printed = [run.stdout, run.stderr].filter((t) => t.trim() !== "").join("\n");
  if (!run.ok) return { status: "failed", summary: run.reason, body: printed, severity: "error" };
  const o = typeof run.output === "object" && run.output !== null && !Array.isArray(run.output) ? (run.output as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const status = o.status === "failed" ? "failed" : "success";
  const severity = o.severity === "warning" || o.severity === "error" ? o.severity : status === "failed" ? "error" : "info";
  return {
    status,
    summary: text(o.summary),
    body: text(o.body),
    severity,
    ...(typeof o.append_context === "boolean" ? { appendContext: o.append_context } : {}),
    ...(typeof o.notify === "boolean" ? { notify: o.notify } : {}),
  };
}

/** The body as `result_format` and the limits want it. */
function shaped(report: Report, entry: AutomationEntry): string {
  if (entry.result_format === "summary") return "";
  let lines = report.body.trimEnd().split("\n");
  let cut = false;
  if (lines.length > entry.max_result_lines) {
    cut = true;
    lines = entry.result_format === "tail" ? lines.slice(-entry.max_result_lines) : lines.slice(0, entry.max_result_lines);
  }
  let text = lines.join("\n");
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length > entry.max_result_bytes) {
    cut = true;
    const kept = entry.result_format === "tail" ? bytes.subarray(bytes.length - entry.max_result_bytes) : bytes.subarray(0, entry.max_result_bytes);
    text = kept.toString("utf8").replace(/^\uFFFD+|\uFFFD+$/g, "");
  }
  if (!cut) return text;
  return entry.result_format === "tail" ? `[earlier output cut]\n${text}` : `${text}\n[later output cut]`;
}
