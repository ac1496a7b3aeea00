// Which agent's transcript the view shows: the main agent's, or one worker's
// or task child's (Shift+Tab goes to the next, in the order they started,
// then back to the main view). Each view keeps its own folds; focus and
// scroll start fresh, as card numbers belong to one view. The side panel's
// rows for the agents are built here too: role, state, elapsed, tokens.

import type { AgentState, AgentView } from "../core/reducer-agents.js";
import { asksApproval } from "../core/reducer-agents.js";
import type { SessionView } from "../core/reducer.js";
import { oneLine } from "../core/text/safe.js";
import { formatElapsed, formatTokens, since, theme } from "./theme.js";
import type { UiState } from "./ui-state.js";

const MAIN = "main";

/** The view after Shift+Tab: the next agent, or the main view after the last. */
export function nextAgentView(ui: UiState, view: SessionView): UiState {
  const order = [MAIN, ...Object.keys(view.agents)];
  const current = ui.agent !== undefined && view.agents[ui.agent] ? ui.agent : MAIN;
  const next = order[(order.indexOf(current) + 1) % order.length]!;
  const saved = new Map(ui.viewFolds ?? []);
  saved.set(current, ui.folds);
  const { agent: _shown, focus: _focus, ...rest } = ui;
  return { ...rest, ...(next === MAIN ? {} : { agent: next }), folds: saved.get(next) ?? new Map(), viewFolds: saved, scroll: 0, pending: undefined };
}

/** The transcript shown: the focused agent's own view, else the main one. */
export function shownView(view: SessionView, agent: string | undefined): SessionView {
  return (agent !== undefined && view.agents[agent]?.view) || view;
}

/** How an agent is named on screen: its task id and role. */
export function agentLabel(agent: Pick<AgentView, "taskId" | "role">): string {
  return `${oneLine(agent.taskId)} (${oneLine(agent.role)})`;
}

/** Its state as shown: waiting while an approval it asked waits for the person. */
export function shownState(view: SessionView, agent: AgentView): AgentState | "waiting (approval)" {
  return agent.state === "running" && asksApproval(view, agent.taskId) ? "waiting (approval)" : agent.state;
}

const STATE_COLOR: Record<string, string> = {
  running: theme.warn,
  waiting: theme.accent,
  "waiting (approval)": theme.accent,
  parked: theme.accent,
  done: theme.ok,
  failed: theme.error,
  cancelled: theme.muted,
};

export function stateColor(state: string): string {
  return STATE_COLOR[state] ?? theme.muted;
}

/** One line of facts: state, time since it started (until it settled), tokens spent. */
export function agentFacts(view: SessionView, agent: AgentView, now: number): string {
  const end = agent.endedAt ? Date.parse(agent.endedAt) : now;
  const t = agent.view.usage.total;
  return `${shownState(view, agent)} ${formatElapsed(since(agent.startedAt, end))} ${formatTokens(t.inputTokens + t.outputTokens)} tok`;
}

/** The view header above an agent's transcript: whose it is, how it does, the key back. */
export function viewHeader(view: SessionView, agent: string | undefined, now: number): string | undefined {
  const shown = agent === undefined ? undefined : view.agents[agent];
  if (!shown) return undefined;
  return `VIEW ${agentLabel(shown)} · ${agentFacts(view, shown, now)} · Shift+Tab next view`;
}

/** Whether any agent is still at work (the clock keeps ticking for its elapsed time). */
export function agentsWorking(view: SessionView): boolean {
  return Object.values(view.agents).some((a) => a.state === "running");
}
