// How one event changes the view's cards: adding, updating and dropping them.
// The reducer (reducer.ts) decides which event does what; these are its steps.

import type { CoreEvent, EventOf } from "./events.js";
import type { Card, InnerCall, JobView, SessionView } from "./reducer.js";

/** Lines of a finished job's output the JOB RESULT card keeps. */
const JOB_TAIL_LINES = 20;

export function jobResultCard(job: JobView, event: EventOf<"job_exited">): NewCard {
  const failed = event.status !== "exited" || event.exitCode !== 0;
  const how =
    event.status === "killed" ? "killed" : event.status === "timed_out" ? "timed out (its deadline)" : event.exitCode === null ? `ended by ${event.signal ?? "a signal"}` : `exit ${event.exitCode}`;
  const tail = job.output.replace(/\n$/, "").split("\n").slice(-JOB_TAIL_LINES).join("\n");
  return {
    kind: "job",
    jobId: job.jobId,
    command: job.label ?? job.command,
    how,
    failed,
    tail,
    totalBytes: job.totalBytes,
    ...(job.outputFile ? { outputFile: job.outputFile } : {}),
    ...(event.durationMs === undefined ? {} : { durationMs: event.durationMs }),
  };
}


/**
 * Drops the prompts of `callId` (or all of the main agent's): nothing can
 * answer them once their call or turn is over. A worker's approval outlives
 * the main agent's turn: it waits for its own answer.
 */
export function settlePrompts(s: SessionView, callId?: string): SessionView {
  const ends = (p: { callId: string; agent?: unknown } | undefined) => p !== undefined && (callId === undefined ? p.agent === undefined : p.callId === callId);
  const withApprovals = dropApprovals(s, ends);
  if (!ends(s.pendingQuestion)) return withApprovals;
  return { ...withApprovals, pendingQuestion: undefined };
}

/** Drops the approvals `ends` says nothing can answer any more; the next one waiting takes the prompt. */
export function dropApprovals(s: SessionView, ends: (e: EventOf<"approval_requested">) => boolean): SessionView {
  const queue = s.queuedApprovals ?? [];
  const current = s.pendingApproval && !ends(s.pendingApproval) ? s.pendingApproval : undefined;
  const rest = queue.filter((q) => !ends(q));
  if (current === s.pendingApproval && rest.length === queue.length) return s;
  const [first, ...later] = current ? [current, ...rest] : rest;
  return { ...s, pendingApproval: first, queuedApprovals: later };
}

export type NewCard = Card extends infer C ? (C extends Card ? Omit<C, "num"> : never) : never;

export function addCard(s: SessionView, card: NewCard): SessionView {
  return { ...s, cards: [...s.cards, { ...card, num: s.nextCardNum } as Card], nextCardNum: s.nextCardNum + 1 };
}

export function received(s: SessionView, chars: number): SessionView {
  return { ...s, request: { ...s.request, state: "streaming", bytesReceived: s.request.bytesReceived + chars } };
}

export function appendAssistantText(s: SessionView, text: string, turn: number | undefined): SessionView {
  const last = s.cards[s.cards.length - 1];
  if (last?.kind === "assistant" && last.streaming) {
    const cards = s.cards.slice(0, -1);
    cards.push({ ...last, text: last.text + text });
    return { ...s, cards };
  }
  return addCard(s, turn === undefined ? { kind: "assistant", text, streaming: true } : { kind: "assistant", text, streaming: true, turn });
}

export function finishAssistant(s: SessionView): SessionView {
  const last = s.cards[s.cards.length - 1];
  if (last?.kind !== "assistant" || !last.streaming) return s;
  return { ...s, cards: [...s.cards.slice(0, -1), { ...last, streaming: false }] };
}

export function updateInner(s: SessionView, parent: string, callId: string, fn: (call: InnerCall) => InnerCall): SessionView {
  return updateTool(s, parent, (c) => ({ ...c, inner: (c.inner ?? []).map((i) => (i.callId === callId ? fn(i) : i)) }));
}

export function updateTool(
  s: SessionView,
  callId: string,
  fn: (card: Extract<Card, { kind: "tool" }>) => Card,
): SessionView {
  // Search from the end: the card being updated is almost always recent.
  for (let i = s.cards.length - 1; i >= 0; i--) {
    const card = s.cards[i]!;
    if (card.kind === "tool" && card.callId === callId) {
      const cards = s.cards.slice();
      cards[i] = fn(card);
      return { ...s, cards };
    }
  }
  return s;
}

export function updateJob(s: SessionView, jobId: string, fn: (job: JobView) => JobView): SessionView {
  const job = s.jobs[jobId];
  return job ? { ...s, jobs: { ...s.jobs, [jobId]: fn(job) } } : s;
}

/** A retry after partial output: the streamed text and calls of that turn go. */
export function dropPartialTurn(s: SessionView, turn: number | undefined): SessionView {
  const partial = (c: Card) =>
    (c.kind === "assistant" && c.turn === turn) ||
    (c.kind === "tool" && c.turn === turn && (c.status === "streaming" || c.status === "running"));
  const cards = s.cards.filter((c) => !partial(c));
  return { ...s, cards };
}

/** A worker's completion raises AGENT COMPLETE in its owner's view, a terminal failure AGENT BLOCKED. */
export function agentCard(s: SessionView, e: Extract<CoreEvent, { type: "agent_update" }>): SessionView {
  const who = `${e.taskId} (${e.agentType})`;
  const body = e.text ? `\n${e.text}` : "";
  if (e.what === "completed") return addCard(s, { kind: "notice", level: "info", text: `AGENT COMPLETE ${who}${body}`, agent: "completed" });
  if (e.what === "blocked" || e.what === "failed") return addCard(s, { kind: "notice", level: "warning", text: `AGENT BLOCKED ${who}${body}`, agent: "blocked" });
  return s;
}
