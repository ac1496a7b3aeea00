// The session's other agents as the view shows them. Each delegated worker
// and each task child has its own transcript: its own events (stamped with
// its task id as agentId), reduced by the same reducer into a view of its
// own. Beside it the side panel's facts: its role, its state, when it
// started and settled. The owner's delegate card follows the task's state in
// place, and approvals a worker asks wait in the owner's view, one after
// another, until each is answered.

import type { CoreEvent, EventOf } from "./events.js";
import type { Card, SessionView } from "./reducer.js";
import { agentCard } from "./reducer-cards.js";

/** What an agent is doing, as the side panel says it. */
export type AgentState = "running" | "waiting" | "parked" | "done" | "failed" | "cancelled";

export interface AgentView {
  taskId: string;
  /** The agent definition it runs (builder, explorer, …). */
  role: string;
  /** A delegated worker (Chord) or a task child (Yuj). */
  kind: "worker" | "child";
  state: AgentState;
  /** Its first event's time. */
  startedAt: string;
  /** When it last settled (done, failed, cancelled); running again clears it. */
  endedAt?: string;
  /** Its own transcript, numbered from 1. */
  view: SessionView;
}

/** A delegated task's state on the owner's delegate card. */
export interface CardTask {
  taskId: string;
  role: string;
  state: AgentState;
  /** The last thing it said: its completion summary, a message, why it failed. */
  text?: string;
}

type Reduce = (state: SessionView, event: CoreEvent) => SessionView;

const SETTLED: ReadonlySet<AgentState> = new Set(["done", "failed", "cancelled"]);

/** How a task's stored state reads in the view: a needs_repair escalation parks it; idle waits for a message. */
const STATE_OF: Record<EventOf<"agent_update">["state"], AgentState> = {
  running: "running",
  waiting_main: "parked",
  idle: "waiting",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** An event of a worker or task child: into that agent's own view (`reduceOwn` is the reducer without this routing). */
export function reduceAgentEvent(s: SessionView, e: CoreEvent, reduceOwn: Reduce, blank: () => SessionView): SessionView {
  const known = s.agents[e.agentId];
  let agent: AgentView = known ?? { taskId: e.agentId, role: "agent", kind: "worker", state: "running", startedAt: e.ts, view: blank() };
  agent = { ...agent, view: reduceOwn(agent.view, e) };
  if (e.type === "session_started") {
    const kind = known?.kind ?? (e.version === "child" ? "child" : "worker");
    agent = { ...agent, kind, role: e.agent ?? agent.role };
    if (kind === "child") agent = settle(agent, "running", e.ts);
  }
  // A task child has no task record: how its run ends is its state.
  if (e.type === "run_finished" && agent.kind === "child") {
    agent = settle(agent, e.reason === "answered" || e.reason === "done" ? "done" : e.reason === "cancelled" ? "cancelled" : "failed", e.ts);
  }
  return { ...s, agents: { ...s.agents, [e.agentId]: agent } };
}

/** A worker's lifecycle, as its owner hears it: its state, its delegate card, and AGENT COMPLETE / AGENT BLOCKED. */
export function agentUpdate(s: SessionView, e: EventOf<"agent_update">, blank: () => SessionView): SessionView {
  const state = STATE_OF[e.state];
  const known = s.agents[e.taskId];
  const agent = settle(known ?? { taskId: e.taskId, role: e.agentType, kind: "worker", state, startedAt: e.ts, view: blank() }, state, e.ts);
  const next = { ...s, agents: { ...s.agents, [e.taskId]: { ...agent, role: e.agentType, kind: "worker" as const } } };
  return agentCard(followTask(next, e, state), e);
}

function settle(agent: AgentView, state: AgentState, ts: string): AgentView {
  if (SETTLED.has(state)) return { ...agent, state, endedAt: agent.state === state && agent.endedAt ? agent.endedAt : ts };
  const { endedAt: _ended, ...rest } = agent;
  return { ...rest, state };
}

/** The delegate card of the task (found by the call that started it, then by task id) shows its latest state. */
function followTask(s: SessionView, e: EventOf<"agent_update">, state: AgentState): SessionView {
  let at = s.cards.length - 1;
  const follows = (c: Card) => c.kind === "tool" && (c.task?.taskId === e.taskId || (e.callId !== undefined && c.callId === e.callId));
  while (at >= 0 && !follows(s.cards[at]!)) at--;
  if (at < 0) return s;
  const card = s.cards[at] as Extract<Card, { kind: "tool" }>;
  const text = e.text ?? card.task?.text;
  const task: CardTask = { taskId: e.taskId, role: e.agentType, state, ...(text === undefined ? {} : { text }) };
  const cards = s.cards.slice();
  cards[at] = { ...card, task };
  return { ...s, cards };
}

/** An approval asked while another waits (two workers at once) waits its turn behind it. */
export function askApproval(s: SessionView, e: EventOf<"approval_requested">): SessionView {
  if (!s.pendingApproval || s.pendingApproval.callId === e.callId) return { ...s, pendingApproval: e };
  return { ...s, queuedApprovals: [...(s.queuedApprovals ?? []).filter((q) => q.callId !== e.callId), e] };
}

/** The approval of `taskId` waiting for an answer, if one does. */
export function asksApproval(s: SessionView, taskId: string): boolean {
  return [s.pendingApproval, ...(s.queuedApprovals ?? [])].some((a) => a?.agent?.taskId === taskId);
}
