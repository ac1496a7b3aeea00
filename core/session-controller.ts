// An interactive session: operations in (a user message, an approval or
// question answer, cancel, kill a job), events out. The TUI drives it; it
// knows nothing of any view. One run at a time: a message sent while the
// model works waits and starts when the run ends.

import type { ApprovalAnswer, ApprovalRequest, Approver } from "./approvals/types.js";
import type { Emit } from "./events.js";
import type { HistoryItem } from "./history.js";
import type { JobManager } from "./jobs/types.js";
import { runLoop, type LoopDeps, type RunOutcome } from "./loop.js";
import { compactHistory } from "./compaction.js";
import type { ActiveToolset } from "./profiles/activate.js";
import type { ToolContext } from "./tool-types.js";

export type QuestionRequest = Parameters<NonNullable<ToolContext["ask"]>>[0];

export interface ControllerDeps {
  emit: Emit;
  jobs?: JobManager;
  /** Everything the loop needs except the abort signal, which each run gets fresh. */
  loopDeps: Omit<LoopDeps, "signal">;
  /** Called when a run ends (to save state, for example). */
  onRunEnd?(outcome: RunOutcome): void;
  /** The conversation to go on with (a resumed session); extended in place. */
  history?: HistoryItem[];
  /** The tools a model gets (some depend on the model); for /model. */
  toolsetFor?(model: string): ActiveToolset;
  /**
   * Settles when the session may start its first run (the workspace snapshot
   * is recorded): the view draws at once, a message waits for this.
   */
  ready?: Promise<void>;
}

export interface SessionController {
  submit(text: string): void;
  answerApproval(callId: string, answer: ApprovalAnswer): void;
  answerQuestion(callId: string, answer: string): void;
  /** For ask_user: shows the question and resolves with the operator's answer. */
  ask(question: QuestionRequest): Promise<string>;
  /** Cancels the running turn (and any prompt it waits on). */
  cancel(): void;
  killJob(jobId: string, reason?: string): Promise<void>;
  running(): boolean;
  /** The conversation so far. */
  history(): readonly HistoryItem[];
  /** Resolves when the current run (if any) and the queued messages are done. */
  idle(): Promise<void>;
  /**
   * /model: without an id, a notice with the current model and the ones the
   * provider offers; with one, later requests go to that model.
   */
  switchModel(id?: string): Promise<void>;
  /** /compact: summarises older turns now, or before the next request of a running turn. */
  compact(): Promise<void>;
}

/** The approver the controller installs: asks wait for answerApproval(). */
export interface InteractiveApprover extends Approver {
  answer(callId: string, answer: ApprovalAnswer): boolean;
}

export function createInteractiveApprover(): InteractiveApprover {
  const waiting = new Map<string, (a: ApprovalAnswer) => void>();
  return {
    ask(request: ApprovalRequest, signal: AbortSignal) {
      return new Promise((resolve) => {
        const onAbort = () => {
          waiting.delete(request.callId);
          resolve({ decision: "reject_with_message", message: "the turn was cancelled" });
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(request.callId, (a) => {
          signal.removeEventListener("abort", onAbort);
          resolve(a);
        });
      });
    },
    answer(callId, answer) {
      const resolve = waiting.get(callId);
      if (!resolve) return false;
      waiting.delete(callId);
      resolve(answer);
      return true;
    },
  };
}

export function createSessionController(deps: ControllerDeps, approver?: InteractiveApprover): SessionController {
  const history: HistoryItem[] = deps.history ?? [];
  const queue: string[] = [];
  const questions = new Map<string, (answer: string) => void>();
  let controller: AbortController | undefined;
  let current: Promise<void> | undefined;
  // /model and /compact change what the next run is given, never a run in flight.
  let model = deps.loopDeps.model;
  let toolset = deps.loopDeps.toolset;
  let compactAsked = false;
  const takeCompactRequest = () => {
    const asked = compactAsked;
    compactAsked = false;
    return asked;
  };

  const startNext = () => {
    const text = queue.shift();
    if (text === undefined) {
      current = undefined;
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    current = (deps.ready ?? Promise.resolve())
      .then(() => runLoop(history, text, { ...deps.loopDeps, model, toolset, takeCompactRequest, signal }))
      .then((outcome) => deps.onRunEnd?.(outcome))
      .catch((err: unknown) => {
        deps.emit({ type: "error", code: "internal", message: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => {
        controller = undefined;
        startNext();
      });
  };

  return {
    submit(text) {
      if (!text.trim()) return;
      queue.push(text);
      if (!current) startNext();
    },
    answerApproval(callId, answer) {
      approver?.answer(callId, answer);
    },
    ask(q) {
      return new Promise((resolve, reject) => {
        const signal = controller?.signal;
        if (signal?.aborted) return reject(new Error("cancelled"));
        const onAbort = () => {
          questions.delete(q.callId);
          reject(new Error("cancelled"));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        questions.set(q.callId, (answer) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        });
        deps.emit({
          type: "question_asked",
          callId: q.callId,
          question: q.question,
          ...(q.header ? { header: q.header } : {}),
          ...(q.options ? { options: q.options } : {}),
          ...(q.multiple ? { multiple: q.multiple } : {}),
        });
      });
    },
    answerQuestion(callId, answer) {
      const resolve = questions.get(callId);
      if (!resolve) return;
      questions.delete(callId);
      deps.emit({ type: "question_answered", callId, answer });
      resolve(answer);
    },
    cancel() {
      controller?.abort(new Error("cancelled by the user"));
    },
    async killJob(jobId, reason) {
      await deps.jobs?.kill(jobId, reason ?? "killed from the jobs panel");
    },
    async switchModel(id) {
      const provider = deps.loopDeps.provider;
      if (!id) {
        let offered = "";
        if (provider.listModels) {
          try {
            const ids = await provider.listModels(AbortSignal.timeout(15_000));
            offered = ids.length ? ` ${provider.name} offers: ${ids.sort().join(", ")}.` : "";
          } catch (err) {
            offered = ` (the model list is unavailable: ${(err as Error).message})`;
          }
        }
        deps.emit({ type: "notice", level: "info", text: `Model: ${model} on ${provider.name}.${offered} Switch with /model NAME.` });
        return;
      }
      if (id === model) {
        deps.emit({ type: "notice", level: "info", text: `Already using ${model}.` });
        return;
      }
      try {
        toolset = deps.toolsetFor ? deps.toolsetFor(id) : toolset;
      } catch (err) {
        deps.emit({ type: "notice", level: "warning", text: `Cannot switch to ${id}: ${(err as Error).message}` });
        return;
      }
      const previous = model;
      model = id;
      deps.emit({ type: "model_switched", model: id, previous });
    },
    async compact() {
      if (controller) {
        // The running loop compacts before its next request.
        compactAsked = true;
        deps.emit({ type: "notice", level: "info", text: "Compacting before the next request." });
        return;
      }
      // Idle: compacting is the session's work of the moment, like a run:
      // cancel() stops it, and a message sent meanwhile waits for it.
      controller = new AbortController();
      const signal = controller.signal;
      const { provider, system, config, onStep } = deps.loopDeps;
      const compaction = compactHistory(history, { provider, model, system, config, emit: deps.emit, signal, ...(onStep ? { onStep } : {}) }, "manual");
      current = compaction
        .then(() => undefined)
        .finally(() => {
          controller = undefined;
          startNext();
        });
      await current;
    },
    running: () => controller !== undefined,
    history: () => history,
    async idle() {
      while (current) await current;
    },
  };
}
