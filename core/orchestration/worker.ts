// One delegated worker's runtime: its loop over its own history (saved in
// `<session>/tasks/<task_id>/history.json` after every step), its wake
// source (its mailbox), and what happens when its run ends. The runtime,
// not the model, decides the task's state: a run that ends without the task
// settled by complete or escalate is failed, its owner told.

import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { atomicWriteSync } from "../atomic-write.js";
import { createEmitter, type Emit } from "../events.js";
import type { HistoryItem } from "../history.js";
import { closeInterruptedCalls } from "../interrupted.js";
import { runLoop, type LoopDeps, type LoopInput, type RunOutcome, type WakeSource } from "../loop.js";
import type { ActiveToolset } from "../profiles/activate.js";
import type { Provider } from "../providers/types.js";
import { openTrace } from "../trace.js";
import { gateForAgent } from "../permissions/gate.js";
import type { Config } from "../config/schema.js";
import type { AgentDefinition } from "../agents/definition.js";
import type { Mailbox } from "./mailbox.js";
import { liveChildren, ownerOf } from "./nesting.js";
import type { OrchestrationStore, TaskRecord } from "./store.js";
import type { OrchestrationPort } from "./types.js";

/** The one reminder a worker gets when it ends its turn without a coordination tool. */
const FOLLOW_UP_TEXT =
  "You ended your turn without a coordination tool. Call complete with a summary if the task is done, " +
  "escalate if you need your owner (needs_repair) or cannot go on (blocked), or notify your owner of progress. " +
  "This is the only reminder: ending again without one fails the task.";

export interface Worker {
  readonly taskId: string;
  readonly def: AgentDefinition;
  readonly dir: string;
  history: HistoryItem[];
  /** Set while its loop runs. */
  run?: { abort: AbortController; done: Promise<void> };
  /** The reminder was given since the worker was last woken. */
  followUpUsed: boolean;
  /** It called notify or escalate since it was last woken: ending its turn then parks it. */
  coordinated: boolean;
  /** The session is closing: the task stays where it is, for a resume. */
  stopping: boolean;
  /** Its loop waits for a message (after escalate or notify): it can send nothing until one comes. */
  parked?: boolean;
}

export interface WorkerHost {
  store: OrchestrationStore;
  mailbox: Mailbox;
  /** The main agent's loop as it runs (its gate, services, config…). */
  parent: Omit<LoopDeps, "signal">;
  /** The main agent's events: a worker's state changes are shown to its owner. */
  ownerEmit: Emit;
  secrets: string[];
  providerFor(task: TaskRecord): Provider;
  toolsetFor(def: AgentDefinition, taskId: string): { toolset: ActiveToolset; config: Config };
  portFor(taskId: string): OrchestrationPort;
  /** How a task's sender is named in a delivered message. */
  label(from: string): string;
  /** A task settled or parked: the runtime re-checks who waits on whom. */
  changed(): void;
}

export function loadWorkerHistory(dir: string): HistoryItem[] {
  const file = join(dir, "history.json");
  if (!existsSync(file)) return [];
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { history?: HistoryItem[] };
    const history = saved.history ?? [];
    // A call the killed process left without a result gets one that says so.
    closeInterruptedCalls(history);
    return history;
  } catch {
    return [];
  }
}

/** Starts the worker's loop (unless it already runs) from `input`. */
export function startWorker(w: Worker, input: LoopInput, host: WorkerHost): void {
  if (w.run) return;
  const abort = new AbortController();
  const done = drive(w, input, abort.signal, host).finally(() => {
    w.run = undefined;
    host.changed();
  });
  w.run = { abort, done };
}

async function drive(w: Worker, input: LoopInput, signal: AbortSignal, host: WorkerHost): Promise<void> {
  const task = host.store.tasks.get(w.taskId)!;
  const parent = host.parent;
  const { toolset, config } = host.toolsetFor(w.def, w.taskId);
  const model = w.def.model ?? parent.model;
  const trace = openTrace(join(w.dir, "trace.jsonl"), { secrets: host.secrets });
  const emitter = createEmitter(basename(parent.sessionDir), (event) => {
    trace.write(event);
    parent.observeAgent?.(event);
  });
  const emit: Emit = (body, extra) => emitter.emit(body, { ...extra, agentId: w.taskId });
  const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const save = () => atomicWriteSync(join(w.dir, "history.json"), JSON.stringify({ task_id: w.taskId, agent: w.def.name, history: w.history }));
  emit({ type: "session_started", cwd: parent.cwd, profile: toolset.profile.name, provider: parent.provider.name, model, version: "worker", traceFile: trace.path, agent: w.def.name });
  let outcome: RunOutcome | undefined;
  try {
    outcome = await runLoop(w.history, input, {
      ...parent,
      provider: host.providerFor(task),
      model,
      system: w.def.systemPrompt ?? parent.system,
      toolset,
      config,
      emit,
      setTurn: emitter.setTurn,
      gate: gateForAgent(parent.gate, { taskId: w.taskId, role: w.def.name }),
      sessionDir: w.dir,
      signal,
      usage,
      wake: workerWake(w, host),
      onStep: save,
      // Guards that shape the main agent's own requests (its role, deferred loading) are not the worker's.
      guards: parent.guards?.filter((g) => !g.topLevelOnly),
      onFinish: undefined,
      takeCompactRequest: undefined,
      session: {
        ...withoutSubagents(parent.session),
        orchestration: host.portFor(w.taskId),
        // A tool's own model request (a hosted search) goes to the worker's model, its tokens to the worker's count.
        ...(parent.session?.model ? { model: { provider: host.providerFor(task), id: model, usage } } : {}),
      },
    } as LoopDeps);
  } catch (err) {
    outcome = { reason: "error", message: err instanceof Error ? err.message : String(err), turns: 0 };
  } finally {
    save();
    trace.close();
    parent.usage.inputTokens += usage.inputTokens;
    parent.usage.outputTokens += usage.outputTokens;
    parent.usage.cachedTokens += usage.cachedTokens;
  }
  settleAfterRun(w, outcome, host);
}

function withoutSubagents(session: LoopDeps["session"]): NonNullable<LoopDeps["session"]> {
  const { subagents: _task, orchestration: _main, mainRoles: _roles, ...rest } = session ?? {};
  return rest;
}

/** A run that ended with the task still open fails it, unless the session is closing. */
function settleAfterRun(w: Worker, outcome: RunOutcome, host: WorkerHost): void {
  const task = host.store.tasks.get(w.taskId)!;
  if (w.stopping || task.state === "completed" || task.state === "failed" || task.state === "cancelled") return;
  const reason =
    outcome.reason === "answered"
      ? "the worker ended without complete, escalate or notify, also after the follow-up request"
      : `the worker's run ended (${outcome.reason})${outcome.message ? `: ${outcome.message}` : ""}`;
  failTask(task, reason, host);
}

/** Fails a task: its state, a risk_alert in the owner's mailbox (which wakes the owner), and the owner's AGENT BLOCKED card. */
export function failTask(task: TaskRecord, reason: string, host: Pick<WorkerHost, "store" | "ownerEmit" | "changed">, what: "failed" | "blocked" = "failed"): void {
  host.store.setState(task.taskId, "failed", { reason });
  host.store.send({ to: ownerOf(task), from: task.taskId, type: "risk_alert", ...(what === "blocked" ? { subtype: "blocked" } : {}), text: `Task ${task.taskId} failed: ${reason}` });
  host.ownerEmit({ type: "agent_update", taskId: task.taskId, agentType: task.agentType, workerId: task.agentId, state: "failed", what, text: reason });
  host.changed();
}

/**
 * The worker's mailbox as its loop's wake source. A worker that ends its
 * turn after notify or escalate waits for a message; one that ends without
 * either gets the follow-up request once, then its run ends (and fails).
 */
function workerWake(w: Worker, host: WorkerHost): WakeSource {
  let followUp = false;
  return {
    take() {
      const text = host.mailbox.take(w.taskId, host.label);
      const notes: string[] = [];
      if (text) {
        // A message starts a new stretch of work: the reminder is available again.
        w.followUpUsed = false;
        w.coordinated = false;
        const task = host.store.tasks.get(w.taskId)!;
        if (task.state !== "running") setRunning(task, host);
        notes.push(text);
      }
      if (followUp) {
        followUp = false;
        notes.push(FOLLOW_UP_TEXT);
      }
      return notes;
    },
    async wait(signal) {
      try {
        return await parkUntilMail(signal);
      } finally {
        w.parked = false;
      }
    },
  };
  async function parkUntilMail(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (host.mailbox.pending(w.taskId).length > 0) return true;
      if (signal.aborted) return false;
      const task = host.store.tasks.get(w.taskId)!;
      // A worker whose own workers still run waits for their reports, as after notify.
      if (task.state === "running" && (w.coordinated || liveChildren(host.store, w.taskId).length > 0)) {
        host.store.setState(w.taskId, "idle");
        host.changed();
      }
      if (task.state === "waiting_main" || task.state === "idle") {
        // Told once: telling on every wake-up would wake the other parked workers, and they this one, without end.
        if (!w.parked) {
          w.parked = true;
          host.changed();
        }
        await host.mailbox.changed(signal);
        continue;
      }
      if (task.state !== "running" || w.followUpUsed) return false;
      w.followUpUsed = true;
      followUp = true;
      return true;
    }
  }
}

export function setRunning(task: TaskRecord, host: Pick<WorkerHost, "store" | "ownerEmit" | "changed">): void {
  host.store.setState(task.taskId, "running");
  host.ownerEmit({ type: "agent_update", taskId: task.taskId, agentType: task.agentType, workerId: task.agentId, state: "running", what: "resumed" });
  host.changed();
}
