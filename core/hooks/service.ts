// The session's hooks: the one object the loop and the app call at each
// point. It picks the entries whose filters match, runs them (hook-run.ts),
// reads their answers, and reports every run as a `hook_ran` event and every
// failure as a warning notice. Nothing here throws into the run.
//
// Three kinds of point:
// * sync (on_tool_call, on_before_llm_call, on_before_tool_result_append):
//   the entries run one after another and each answers continue (or
//   nothing), block (the step does not happen; the first block wins) or
//   modify (its `data` fields replace those of the point's data, for the
//   next entry and the step). A failed hook counts as continue.
// * automation (on_tool_batch_complete): runs after a batch of calls; its
//   report becomes a notice and, by its `result` mode, context for the
//   model's next request (automation.ts).
// * observer (the rest): told, never waited for by the run, except that the
//   session's end waits for them (drain).
// Each entry's retries, concurrency limit and debounce are pacing.ts's.

import type { Emit } from "../events.js";
import { AUTOMATION_POINTS, type HookEntry, type HookPoint, type HooksSettings, type ObserverPoint, type SyncPoint } from "./config.js";
import { hookApplies, type HookAgent, type HookSubject } from "./filters.js";
import { runHook, type HookRun, type HookRunner } from "./run-hook.js";
import { automationReport, trackReport, type PendingReport } from "./automation.js";
import { createPacer, type Pacer } from "./pacing.js";

interface SyncOutcome<T> {
  /** The point's data after every modify. */
  data: T;
  /** Set when a hook blocked: its name and message. */
  blocked?: { hook: string; message: string };
}

export interface HookService {
  /** Whether any entry is configured for the point (the caller can skip building its data). */
  has(point: HookPoint): boolean;
  sync<T extends object>(point: SyncPoint, data: T, subject?: HookSubject): Promise<SyncOutcome<T>>;
  observe(point: ObserverPoint, data: object, subject?: HookSubject, extra?: { errorKind?: string }): void;
  /** Starts the automation hooks of a finished batch. */
  batchComplete(data: object, subject: HookSubject): void;
  /** Waits for the automation hooks the next request must wait for; their texts for the model. */
  contextForNextRequest(signal?: AbortSignal): Promise<string[]>;
  /** The same hooks as another agent (a child session) sees them. */
  forAgent(agent: Omit<HookAgent, "model">, emit: Emit, model?: string): HookService;
  /** Resolves when every hook started so far has ended. */
  drain(): Promise<void>;
}

export interface HookServiceOptions {
  settings: HooksSettings;
  runner: HookRunner;
  sessionId: string;
  agent: Omit<HookAgent, "model">;
  /** The model the session runs now (it can be switched mid-session). */
  model: () => string;
  emit: Emit;
  /** The turn now running, for the envelope. */
  turn?: () => number | undefined;
}

const SYNC_ACTIONS = new Set(["continue", "block", "modify"]);

export function createHookService(opts: HookServiceOptions): HookService {
  // Shared by every agent's view: the session ends when all of them are done.
  const running = new Set<Promise<unknown>>();
  const pending: PendingReport[] = [];
  return view(opts, { running, pacer: createPacer(opts.runner.clock) }, pending);
}

/** What every agent's view shares: the runs not ended yet, and each entry's pace. */
interface Shared {
  running: Set<Promise<unknown>>;
  pacer: Pacer;
}

function view(opts: HookServiceOptions, shared: Shared, pending: PendingReport[]): HookService {
  const { running, pacer } = shared;
  const entriesOf = (point: HookPoint): readonly HookEntry[] => opts.settings[point] ?? [];
  const labelOf = (point: HookPoint, entry: HookEntry) => entry.name ?? `${point}[${entriesOf(point).indexOf(entry)}]`;
  const agent = (): HookAgent => ({ ...opts.agent, model: opts.model() });
  const matching = (point: HookPoint, subject: HookSubject) => entriesOf(point).filter((e) => hookApplies(e, subject, agent()));

  const once = (point: HookPoint, entry: HookEntry, data: object, subject: HookSubject, errorKind?: string): Promise<HookRun> => {
    const label = labelOf(point, entry);
    const turn = opts.turn?.();
    const envelope = {
      point,
      timestamp: new Date(opts.runner.clock.now()).toISOString(),
      session_id: opts.sessionId,
      turn_id: turn === undefined ? null : String(turn),
      agent_id: opts.agent.id,
      agent_kind: opts.agent.kind,
      project_root: opts.runner.cwd,
      selected_model: opts.model(),
      running_model: opts.model(),
      data,
    };
    const vars: Record<string, string> = {
      ...entry.environment,
      YUJ_HOOK_POINT: point,
      YUJ_HOOK_SESSION_ID: opts.sessionId,
      YUJ_HOOK_TURN_ID: envelope.turn_id ?? "",
      YUJ_HOOK_AGENT_ID: opts.agent.id,
      YUJ_HOOK_AGENT_KIND: opts.agent.kind,
      YUJ_HOOK_PROJECT_ROOT: opts.runner.cwd,
      YUJ_HOOK_SELECTED_MODEL: envelope.selected_model,
      YUJ_HOOK_RUNNING_MODEL: envelope.running_model,
      YUJ_HOOK_TIMEOUT_MS: String(entry.timeout * 1000),
      ...(subject.tools?.length === 1 ? { YUJ_HOOK_TOOL_NAME: subject.tools[0]! } : {}),
      ...(errorKind ? { YUJ_HOOK_ERROR_KIND: errorKind } : {}),
    };
    return runHook({ label, command: entry.command, shell: entry.shell, timeoutS: entry.timeout }, envelope, vars, opts.runner);
  };
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  };
  /** A run the caller waits for: paced, never put off. */
  const run = (point: HookPoint, entry: HookEntry, data: object, subject: HookSubject): Promise<HookRun> =>
    track(pacer.paced(entry, () => once(point, entry, data, subject)));
  /** A run nobody waits for: paced, and put off by the entry's debounce. */
  const later = (point: HookPoint, entry: HookEntry, data: object, subject: HookSubject, errorKind?: string): Promise<HookRun | undefined> =>
    track(pacer.debounced(entry, () => once(point, entry, data, subject, errorKind)));

  const report = (point: HookPoint, entry: HookEntry, r: HookRun, action?: string, failure?: string) => {
    const hook = labelOf(point, entry);
    const detail = failure ?? (r.ok ? undefined : r.reason);
    opts.emit({ type: "hook_ran", point, hook, ok: detail === undefined, ...(action ? { action } : {}), ...(detail ? { detail } : {}), durationMs: r.durationMs });
    if (detail !== undefined && !AUTOMATION_POINTS.includes(point as never)) {
      opts.emit({ type: "notice", level: "warning", text: `hook "${hook}" (${point}) failed: ${detail}; it is ignored and the run goes on` });
    }
  };

  return {
    has: (point) => entriesOf(point).length > 0,

    async sync(point, data, subject = {}) {
      let current = data;
      for (const entry of matching(point, subject)) {
        const r = await run(point, entry, current, subject);
        const answer = r.ok ? readSyncAnswer(r.output) : undefined;
        if (!r.ok || answer === undefined || typeof answer === "string") {
          report(point, entry, r, undefined, typeof answer === "string" ? answer : undefined);
          continue;
        }
        report(point, entry, r, answer.action);
        if (answer.action === "block") {
          return { data: current, blocked: { hook: labelOf(point, entry), message: answer.message ?? "no reason given" } };
        }
        if (answer.action === "modify" && answer.data) current = { ...current, ...answer.data };
      }
      return { data: current };
    },

    observe(point, data, subject = {}, extra = {}) {
      for (const entry of matching(point, subject)) {
        void later(point, entry, data, subject, extra.errorKind).then((r) => r && report(point, entry, r));
      }
    },

    batchComplete(data, subject) {
      const point = "on_tool_batch_complete";
      for (const entry of opts.settings.on_tool_batch_complete.filter((e) => hookApplies(e, subject, agent()))) {
        const label = labelOf(point, entry);
        const done = later(point, entry, data, subject).then((r) => {
          if (!r) return undefined;
          report(point, entry, r);
          return automationReport(label, entry, r, opts.emit);
        });
        pending.push(trackReport(entry.join, done));
      }
    },

    async contextForNextRequest(signal) {
      const texts: string[] = [];
      // Background reports are taken only once ready; the others are waited for.
      for (const item of [...pending]) {
        const text = item.join === "before_next_llm" ? await untilAborted(item.done, signal) : item.settled ? item.value : undefined;
        if (item.join === "before_next_llm" || item.settled) pending.splice(pending.indexOf(item), 1);
        if (text) texts.push(text);
      }
      return texts;
    },

    // A child's automation reports are its own: they go to its next request, not the parent's.
    forAgent: (child, emit, model) => view({ ...opts, agent: child, emit, ...(model ? { model: () => model } : {}) }, shared, []),

    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** The answer of a sync hook, or why it is not one. Empty output means continue. */
function readSyncAnswer(output: unknown): { action: string; message?: string; data?: Record<string, unknown> } | string {
  if (output === undefined) return { action: "continue" };
  if (typeof output !== "object" || output === null || Array.isArray(output)) return "its output is JSON but not an object";
  const o = output as Record<string, unknown>;
  const action = o.action ?? "continue";
  if (typeof action !== "string" || !SYNC_ACTIONS.has(action)) return `"action" must be "continue", "block" or "modify", got ${JSON.stringify(action)}`;
  if (o.message !== undefined && typeof o.message !== "string") return `"message" must be a string`;
  if (action === "modify" && (typeof o.data !== "object" || o.data === null || Array.isArray(o.data))) return `"modify" needs "data", an object of the fields to replace`;
  return { action, ...(typeof o.message === "string" ? { message: o.message } : {}), ...(action === "modify" ? { data: o.data as Record<string, unknown> } : {}) };
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    void p.then((v) => {
      signal.removeEventListener("abort", onAbort);
      resolve(v);
    });
  });
}
