// `yuj status [ID]`: a session's status and the exact command that moves it
// on. `yuj show [ID]`: that, plus its settings, todos, jobs and the last
// steps of its conversation. Both default to the newest session here.

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { safeText } from "../../core/text/safe.js";
import { findSession } from "../find-session.js";
import { keyValues, reportJson, showReport, statusReport, statusText } from "../session-report.js";

export async function statusCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError(`yuj ${args.command} takes at most one session id`);
  // Only reads: a session another process runs is shown, never locked.
  const { dir, state, status, pid, skipped } = findSession(process.env, process.cwd(), args.positionals[0]);
  const json = args.output === "json";
  if (args.command === "status") {
    const report = statusReport(state, status, pid);
    process.stdout.write(json ? reportJson(report) : statusText(report));
    return 0;
  }
  const damaged = skipped.map((s) => `history.jsonl line ${s.line}: ${s.reason}; skipped`);
  const report = showReport(state, status, dir, pid, damaged);
  if (json) {
    process.stdout.write(reportJson(report));
    return 0;
  }
  const s = report.settings;
  const settings = [
    s.profile && `profile ${s.profile}`,
    s.provider && `provider ${s.provider}`,
    s.model && `model ${s.model}`,
    s.baseUrl && `base URL ${s.baseUrl}`,
    s.editFormat && `edit format ${s.editFormat}`,
    s.maxTurns && `max turns ${s.maxTurns}`,
    s.yolo && "yolo",
    s.measure && "measure",
    ...s.configFiles.map((f) => `config ${f}`),
  ].filter(Boolean);
  const u = report.usage;
  const parts = [
    statusText(report),
    keyValues([
      ["dir", report.dir],
      ["settings", settings.length ? settings.join("\n") : "(the defaults and config files of the directory)"],
      ["tokens", `${u.inputTokens} in (${u.cachedTokens} cached), ${u.outputTokens} out`],
      ["todos", report.todos.map((t) => `[${t.status}] ${t.description}`).join("\n")],
      ["jobs", report.jobs.map((j) => `${j.jobId} ${j.status}${j.exitCode != null ? ` (exit ${j.exitCode})` : ""}: ${j.command}`).join("\n")],
      ["damaged", damaged.join("\n")],
    ]),
    report.recent.length ? `recent activity:\n${report.recent.map((l) => `  ${safeText(l)}`).join("\n")}\n` : "recent activity: none\n",
  ];
  process.stdout.write(parts.join("\n"));
  return 0;
}
