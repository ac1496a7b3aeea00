// The status bar's content as data: its styled segments on the left, the
// cwd and session id on the right, and the gap between. Pure, so the first
// frame can be drawn before Ink is loaded (first-frame.ts) as StatusBar draws
// it after.

import type { RequestView, SessionView } from "../core/reducer.js";
import { oneLine } from "../core/text/safe.js";
import { truncate, truncateStart, widthOf } from "../core/text/width.js";
import type { Activity } from "./activity.js";
import { formatBytes, formatElapsed, formatTokens, short, since, theme } from "./theme.js";

export interface StatusBarProps {
  mode: "INSERT" | "NORMAL";
  profile: string;
  hint: string;
  request: RequestView;
  now: number;
  runningJobs: number;
  cwd: string;
  sessionId?: string;
  width: number;
  yolo?: boolean;
  /** Whose transcript is shown ("main" or a task id), once the session has other agents. */
  agentView?: string;
  /** The main agent's role, once switched (Chord surface). */
  role?: string;
  /** Loop mode, while it is on: the iteration running or last run. */
  loop?: { iteration: number; maxIterations: number };
  /** What is happening now, in words (the view's account); without it, the request's state. */
  activity?: Activity;
  /** The home directory `~` stands for (tests pass one). */
  home?: string;
}

interface Segment {
  text: string;
  color?: string;
  bold?: boolean;
  inverse?: boolean;
  hint?: boolean;
}

const SEP = " · ";

/**
 * The side panel's essentials for a terminal too narrow for it: the model,
 * context use (as a share of the window when it is known), the tokens spent,
 * the todos done and the background jobs running.
 */
export function narrowSummary(view: SessionView, contextWindow?: number): string {
  const used = view.usage.last?.inputTokens ?? 0;
  const ctx = contextWindow ? `ctx ${Math.round((100 * used) / contextWindow)}%` : `ctx ${formatTokens(used)}`;
  const t = view.usage.total;
  const done = view.todos.filter((x) => x.status === "completed").length;
  const jobs = Object.values(view.jobs).filter((j) => j.status === "running" || j.status === "stopping").length;
  const agents = Object.values(view.agents);
  const working = agents.length ? [`agents ${agents.filter((a) => a.state === "running").length}/${agents.length} running`] : [];
  return [oneLine(view.model ?? "—"), ctx, `${formatTokens(t.inputTokens + t.outputTokens)} tok`, `todos ${done}/${view.todos.length}`, `jobs ${jobs}`, ...working].join(SEP);
}

export function requestText(request: RequestView, now: number): string {
  const elapsed = formatElapsed(since(request.startedAt, now));
  const retry = request.retries > 0 ? ` (retry ${request.retries})` : "";
  if (request.state === "waiting") return `waiting ${elapsed}${retry}`;
  if (request.state === "streaming") return `streaming ${formatBytes(request.bytesReceived)} ${elapsed}${retry}`;
  return "idle";
}

const TONE_COLOR: Record<Activity["tone"], string> = { busy: theme.warn, idle: theme.muted, attention: theme.accent, cancelled: theme.error };

export interface StatusLine {
  segments: Segment[];
  /** The cwd and session id, muted, after `gap` spaces; empty when there is no room. */
  right: string;
  gap: number;
}

export function statusLine(props: StatusBarProps): StatusLine {
  const { width } = props;
  const activity = props.activity ?? { text: requestText(props.request, props.now), tone: props.request.state !== "idle" ? "busy" : "idle" };
  const left: Segment[] = [
    { text: ` ${props.mode} `, bold: true, inverse: true, color: props.mode === "INSERT" ? theme.insert : theme.normal },
    ...(props.yolo ? [{ text: " YOLO ", bold: true, inverse: true, color: theme.yolo }] : []),
    ...(props.agentView ? [{ text: ` view ${oneLine(props.agentView)}`, bold: true, color: theme.accent }] : []),
    ...(props.loop ? [{ text: ` LOOP [↻] ${props.loop.iteration}/${props.loop.maxIterations} `, bold: true, inverse: true, color: theme.accent }] : []),
    ...(props.profile ? [{ text: ` ${oneLine(props.profile)}`, bold: true }] : []),
    ...(props.role ? [{ text: `${SEP}role ${oneLine(props.role)}`, color: theme.accent }] : []),
    ...(props.hint ? [{ text: `${SEP}${oneLine(props.hint)}`, color: theme.muted, hint: true }] : []),
    { text: `${SEP}${oneLine(activity.text)}`, color: TONE_COLOR[activity.tone], bold: activity.tone === "cancelled" },
    ...(props.runningJobs > 0
      ? [{ text: `${SEP}${props.runningJobs} job${props.runningJobs === 1 ? "" : "s"}`, color: theme.accent }]
      : []),
  ];
  // The whole id: what `yuj status`, `--resume` and `yuj sessions` take.
  const sid = props.sessionId ? `${SEP}${oneLine(props.sessionId)}` : "";
  // A directory name can hold any character but / and NUL.
  const cwd = oneLine(short(props.cwd, props.home));

  // The right side gives way first: the session id goes, then the cwd is cut
  // from its start (the last directories say most), then it goes too.
  const leftWidth = left.reduce((w, s) => w + widthOf(s.text), 0);
  const room = width - leftWidth - 2;
  let right = "";
  if (room >= widthOf(cwd + sid)) right = cwd + sid;
  else if (room >= 12) right = truncateStart(cwd, room);
  // Short of room, the hint gives way before the request state and jobs.
  const avail = width - (right ? widthOf(right) + 2 : 0);
  const over = leftWidth - avail;
  const hint = left.findIndex((s) => s.hint);
  if (over > 0 && hint >= 0) {
    const h = left[hint]!;
    const keep = widthOf(h.text) - over;
    if (keep >= SEP.length + 4) left[hint] = { ...h, text: truncate(h.text, keep) };
    else left.splice(hint, 1);
  }
  const segments = fit(left, avail);
  const used = segments.reduce((w, s) => w + widthOf(s.text), 0);
  return { segments, right, gap: right ? Math.max(2, width - used - widthOf(right)) : 0 };
}

/** Segments cut to `width` columns in total, the last visible one marked `…`. */
function fit(segments: Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let left = width;
  for (const s of segments) {
    if (left <= 0) break;
    const w = widthOf(s.text);
    if (w <= left) {
      out.push(s);
      left -= w;
    } else {
      out.push({ ...s, text: truncate(s.text, left) });
      break;
    }
  }
  return out;
}
