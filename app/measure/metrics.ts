// metrics.json of a measured task: tokens of every model request (workers'
// and sub-agents' included) and their totals, wall time, the guardrails'
// counters, and where the numbers come from: the yuj version, the task
// repository's commit, and the resolved config with its hash.

import { createHash } from "node:crypto";
import type { Config } from "../../core/config/schema.js";
import type { SessionRun } from "./checkpoint.js";
import { readTrace, traceFilesUnder, type TraceRow } from "./traces.js";

interface Tokens {
  input: number;
  output: number;
  cached: number;
}

interface RequestTokens extends Tokens {
  sessionId: string;
  agent: string;
  requestId?: string;
}

interface Guardrails {
  tool_calls: number;
  failed_calls: number;
  denied_calls: number;
  error_nudges: number;
  duplicate_aborts: number;
  guard_stops: number;
  plan_mode_refusals: number;
  max_turns_stops: number;
}

export interface Metrics {
  task: string;
  completed: boolean;
  sessions: { sessionId: string; reason: string | null; exitCode: number | null; wallMs: number; startedAt: string }[];
  tokens: { total: Tokens; main: Tokens; children: Tokens; requests: number; per_request: RequestTokens[] };
  wall_ms: number;
  guardrails: Guardrails;
  provenance: { yuj_version: string; task_commit: string | null; config_sha256: string; config: Config };
}

export function computeMetrics(x: {
  task: string;
  completed: boolean;
  runs: SessionRun[];
  version: string;
  commit: string | null;
  config: Config;
}): Metrics {
  const rows = sessionRows(x.runs);
  const perRequest = requestTokens(rows);
  const sum = (list: RequestTokens[]) => list.reduce((t, r) => ({ input: t.input + r.input, output: t.output + r.output, cached: t.cached + r.cached }), zero());
  return {
    task: x.task,
    completed: x.completed,
    sessions: x.runs.map((r) => ({ sessionId: r.sessionId, reason: r.reason ?? null, exitCode: r.exitCode, wallMs: r.wallMs, startedAt: r.startedAt })),
    tokens: {
      total: sum(perRequest),
      main: sum(perRequest.filter((r) => r.agent === "main")),
      children: sum(perRequest.filter((r) => r.agent !== "main")),
      requests: perRequest.length,
      per_request: perRequest,
    },
    wall_ms: x.runs.reduce((t, r) => t + r.wallMs, 0),
    guardrails: guardrails(rows.flat()),
    provenance: { yuj_version: x.version, task_commit: x.commit, config_sha256: configHash(x.config), config: x.config },
  };
}

/** The rows of each distinct session (a resume appends to the same trace), one list per trace file. */
export function sessionRows(runs: SessionRun[]): TraceRow[][] {
  const dirs = [...new Set(runs.map((r) => r.sessionDir))];
  return dirs.flatMap((dir) => traceFilesUnder(dir).map(readTrace));
}

/** One entry per `usage` row: a request's tokens, named by the request it answered. */
function requestTokens(files: TraceRow[][]): RequestTokens[] {
  const out: RequestTokens[] = [];
  for (const rows of files) {
    const lastRequest = new Map<string, string>();
    for (const row of rows) {
      if (row.type === "request_sent") lastRequest.set(row.agentId, String(row.requestId));
      if (row.type !== "usage") continue;
      const u = row.usage as { inputTokens: number; outputTokens: number; cachedTokens: number };
      const requestId = lastRequest.get(row.agentId);
      out.push({
        sessionId: row.sessionId,
        agent: row.agentId,
        ...(requestId ? { requestId } : {}),
        input: u.inputTokens,
        output: u.outputTokens,
        cached: u.cachedTokens,
      });
    }
  }
  return out;
}

function guardrails(rows: TraceRow[]): Guardrails {
  const g: Guardrails = { tool_calls: 0, failed_calls: 0, denied_calls: 0, error_nudges: 0, duplicate_aborts: 0, guard_stops: 0, plan_mode_refusals: 0, max_turns_stops: 0 };
  for (const row of rows) {
    if (row.type === "tool_result") {
      g.tool_calls++;
      if (row.ok === false) g.failed_calls++;
      if (String(row.modelText).startsWith("ERROR: permission denied")) g.denied_calls++;
    } else if (row.type === "notice") {
      const text = String(row.text);
      if (text.startsWith("[yuj] The last ")) g.error_nudges++;
      if (text.startsWith("plan mode: refused ")) g.plan_mode_refusals++;
    } else if (row.type === "error") {
      if (row.code === "duplicate_calls") g.duplicate_aborts++;
      if (row.code === "guard_stop") g.guard_stops++;
    } else if (row.type === "run_finished" && row.reason === "max_turns") {
      g.max_turns_stops++;
    }
  }
  return g;
}

/** SHA-256 of the config as canonical JSON (keys sorted), so equal settings hash the same whatever their order. */
function configHash(config: Config): string {
  return createHash("sha256").update(canonical(config)).digest("hex");
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
}

function zero(): Tokens {
  return { input: 0, output: 0, cached: 0 };
}
