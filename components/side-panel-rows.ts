// The side panel's rows as data: each a line of text with its style, cut to
// the panel's width when drawn. Pure, so the first frame can be drawn from
// them before Ink is loaded (first-frame.ts) as SidePanel draws them after.

import type { TodoItem } from "../core/events.js";
import type { JobView, SessionView } from "../core/reducer.js";
import type { GitStatus } from "./git-status.js";
import { oneLine } from "../core/text/safe.js";
import { truncateStart } from "../core/text/width.js";
import { formatElapsed, formatTokens, since, theme } from "./theme.js";
import { agentFacts, agentLabel, shownState, stateColor } from "./agent-views.js";

export interface SidePanelProps {
  view: SessionView;
  git?: GitStatus;
  /** The model's context window in tokens, when known. */
  contextWindow?: number;
  width: number;
  height: number;
  /** Clock for job ages (defaults to now). */
  now?: number;
  /** Configured language servers; their states come from the view. */
  lspServers?: readonly string[];
  /** The agent whose transcript is shown (marked in the list); absent: the main agent. */
  shownAgent?: string;
}

/** Changed files listed before the rest are summed up. */
const GIT_FILES = 8;

export interface Row {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  /** Extra coloured tail after the text (diff counts). */
  tail?: Array<{ text: string; color: string }>;
}

const TODO_GLYPH: Record<TodoItem["status"], { glyph: string; color?: string }> = {
  completed: { glyph: "✓", color: theme.ok },
  in_progress: { glyph: "▶", color: theme.warn },
  pending: { glyph: "○" },
  cancelled: { glyph: "✗", color: theme.muted },
  blocked: { glyph: "!", color: theme.error },
};

/** Green when a server answers, yellow while it starts, red when it failed, grey before and after. */
const LSP_COLOR: Record<string, string> = {
  ready: theme.ok,
  starting: theme.warn,
  failed: theme.error,
  stopped: theme.muted,
  idle: theme.muted,
};

/** Green when connected, yellow while connecting, red when it failed or ended. */
const MCP_COLOR: Record<string, string> = {
  connected: theme.ok,
  connecting: theme.warn,
  failed: theme.error,
  ended: theme.error,
  stopped: theme.muted,
  disabled: theme.muted,
};

export function contextBar(used: number, window: number, cells: number): string {
  const ratio = Math.min(1, Math.max(0, used / window));
  const full = Math.round(ratio * cells);
  return `${"█".repeat(full)}${"░".repeat(cells - full)} ${Math.round(ratio * 100)}%`;
}

export function sidePanelRows(props: SidePanelProps): Row[] {
  const { view, git, contextWindow, width } = props;
  const now = props.now ?? Date.now();
  const rows: Row[] = [];
  const heading = (text: string) => {
    if (rows.length) rows.push({ text: "" });
    rows.push({ text, bold: true, color: theme.muted });
  };

  heading("MODEL");
  rows.push({ text: oneLine(view.model ?? "—"), bold: true });
  if (view.provider) rows.push({ text: oneLine(view.provider), dim: true });
  if (view.profile) rows.push({ text: `profile ${oneLine(view.profile)}`, dim: true });
  if (view.demo) rows.push({ text: "demo (scripted)", color: theme.warn });

  heading("CONTEXT");
  const used = view.usage.last?.inputTokens ?? 0;
  rows.push({ text: contextWindow ? `${formatTokens(used)} / ${formatTokens(contextWindow)}` : formatTokens(used) });
  if (contextWindow) {
    const ratio = used / contextWindow;
    const color = ratio > 0.85 ? theme.error : ratio > 0.6 ? theme.warn : theme.ok;
    rows.push({ text: contextBar(used, contextWindow, Math.max(5, Math.min(20, width - 5))), color });
  }

  heading("TOKENS");
  const t = view.usage.total;
  rows.push({ text: `in ${formatTokens(t.inputTokens)}  out ${formatTokens(t.outputTokens)}` });
  rows.push({ text: `cached ${formatTokens(t.cachedTokens)}`, dim: true });

  const agents = Object.values(view.agents);
  if (agents.length) {
    heading(`AGENTS ${agents.length} · Shift+Tab`);
    rows.push(...agentRows(view, now, props.shownAgent));
  }

  if (props.lspServers?.length) {
    heading(`LSP ${props.lspServers.length}`);
    for (const name of props.lspServers) {
      const state = view.lsp[name]?.state;
      rows.push({ text: `● ${oneLine(name)} ${state ?? "idle"}`, color: LSP_COLOR[state ?? "idle"] });
    }
  }

  const mcp = Object.values(view.mcp);
  if (mcp.length) {
    heading(`MCP ${mcp.length}`);
    for (const server of mcp) {
      const tools = server.state === "connected" ? ` ${server.tools} tools` : "";
      rows.push({ text: `● ${oneLine(server.server)} ${server.state}${tools}`, color: MCP_COLOR[server.state] ?? theme.muted });
    }
  }

  const skills = view.facts.skills ?? [];
  if (skills.length) {
    const loaded = skills.filter((k) => k.loaded).length;
    heading(`SKILLS ${skills.length}${loaded ? ` · ${loaded} loaded` : ""}`);
    // Green only once its instructions were loaded.
    for (const k of skills) rows.push(k.loaded ? { text: `● ${oneLine(k.name)} loaded`, color: theme.ok } : { text: `○ ${oneLine(k.name)}`, color: theme.muted });
  }

  if (view.todos.length) {
    heading(todosHeading(view));
    rows.push(...todoRows(view));
  }

  const running = runningJobs(view);
  if (running.length) {
    heading(`JOBS ${running.length}`);
    rows.push(...jobRows(view, now));
  }

  if (git) {
    heading(`GIT ${oneLine(git.branch)}`);
    if (!git.files.length) rows.push({ text: "clean", dim: true });
    for (const f of git.files.slice(0, GIT_FILES)) {
      const counts = `+${f.added} -${f.removed}`;
      rows.push({
        text: `${truncateStart(oneLine(f.path), Math.max(4, width - counts.length - 1))} `,
        tail: [
          { text: `+${f.added}`, color: theme.added },
          { text: ` -${f.removed}`, color: theme.removed },
        ],
      });
    }
    if (git.files.length > GIT_FILES) rows.push({ text: `… ${git.files.length - GIT_FILES} more`, dim: true });
  }
  return rows;
}

export const todosHeading = (view: SessionView) => `TODOS ${view.todos.filter((x) => x.status === "completed").length}/${view.todos.length}`;
const runningJobs = (view: SessionView) => Object.values(view.jobs).filter((j) => j.status === "running" || j.status === "stopping");

export function todoRows(view: SessionView): Row[] {
  return view.todos.map((todo) => {
    const g = TODO_GLYPH[todo.status] ?? { glyph: "?" };
    const label = todo.status === "in_progress" && todo.activeForm ? todo.activeForm : todo.description;
    const row: Row = { text: `${g.glyph} ${oneLine(label)}` };
    if (g.color) row.color = g.color;
    if (todo.status === "in_progress") row.bold = true;
    if (todo.status === "cancelled") row.dim = true;
    return row;
  });
}

/** Two rows per agent: who it is (▶ when its transcript is shown), then its state, elapsed time and tokens. */
export function agentRows(view: SessionView, now: number, shown?: string): Row[] {
  return Object.values(view.agents).flatMap((a) => [
    { text: `${a.taskId === shown ? "▶" : "●"} ${agentLabel(a)}`, bold: a.taskId === shown, color: stateColor(shownState(view, a)) },
    { text: `  ${agentFacts(view, a, now)}`, dim: true },
  ]);
}

export function jobRows(view: SessionView, now: number): Row[] {
  return runningJobs(view).map((job) => ({ text: jobLine(job, now), color: job.status === "stopping" ? theme.muted : theme.warn }));
}

function jobLine(job: JobView, now: number): string {
  const label = oneLine(job.label ?? job.command);
  return `${job.jobId} ${job.status} ${formatElapsed(since(job.startedAt, now))} ${label}`;
}

