// The conversation a request carries, shaped from the durable history without
// changing it. Tools of three roles change what the model sees later, while the history
// (and so the trace and a resumed session) keeps every raw row:
//
// * think: a scratchpad call and its result are left out of requests once
//   think_keep_turns later model turns have seen them.
// * checkpoint/rewind: a successful rewind drops everything after the active
//   checkpoint from the view and keeps only the rewind call itself, whose
//   `report` argument is the findings summary the model carries forward.
//
// Both are pure functions of the history, so a resumed session shapes its
// requests exactly as the live one did, and the rewind handler can ask the
// same replay which checkpoint is active.

import type { HistoryItem, ToolCall } from "../history.js";
import type { ToolRole } from "../tool-types.js";

type AssistantItem = Extract<HistoryItem, { role: "assistant" }>;
type ToolItem = Extract<HistoryItem, { role: "tool" }>;

/** Exposed names of the tools whose calls shape the conversation, and of those that set the todo list a rewind restores. */
export interface ConversationRoles {
  think: ReadonlySet<string>;
  checkpoint: ReadonlySet<string>;
  rewind: ReadonlySet<string>;
  todos: ReadonlySet<string>;
}

export interface ShapeOptions {
  roles: ConversationRoles;
  /** A think call is sent in the requests of this many later turns, then left out. */
  thinkKeepTurns: number;
}

/** An active checkpoint, innermost last. */
interface CheckpointMark<S = unknown> {
  goal: string;
  callId: string;
  /** Length of the request view when the checkpoint became active. */
  viewLength: number;
  /** Caller-tracked state (the todo list) as it was at the checkpoint. */
  state: S | undefined;
}

export interface Replay<S = unknown> {
  view: HistoryItem[];
  checkpoints: CheckpointMark<S>[];
  /** Caller-tracked state after the replay (rewinds restore it). */
  state: S | undefined;
}

/** Optional tracking of harness state that follows the checkpoint too. */
export interface StateTracker<S> {
  /** The state after this successful call, or undefined when the call does not change it. */
  after(call: ToolCall, result: ToolItem): S | undefined;
}

const NO_ROLES: ConversationRoles = { think: new Set(), checkpoint: new Set(), rewind: new Set(), todos: new Set() };

/** The exposed names of the active tools, by the role their handlers state. */
export function conversationRoles(tools: ReadonlyMap<string, { name: string; handler: { role?: ToolRole } }>): ConversationRoles {
  const by = (role: ToolRole) => new Set([...tools.values()].filter((t) => t.handler.role === role).map((t) => t.name));
  const roles = { think: by("think"), checkpoint: by("checkpoint"), rewind: by("rewind"), todos: by("todos") };
  return roles.think.size + roles.checkpoint.size + roles.rewind.size === 0 ? NO_ROLES : roles;
}

/** The history as the next request should carry it. Returns `history` itself when nothing changes. */
export function shapeHistory(history: readonly HistoryItem[], opts: ShapeOptions): HistoryItem[] {
  const { roles } = opts;
  if (roles.think.size + roles.checkpoint.size + roles.rewind.size === 0) return history as HistoryItem[];
  return replay(history, opts).view;
}

/**
 * Walks the history turn by turn (an assistant message and the results after
 * it), building the request view and the stack of active checkpoints.
 * A checkpoint becomes active at the end of its turn, once all its results
 * are in; a turn whose results are not in yet (the one being dispatched)
 * activates nothing.
 */
export function replay<S>(history: readonly HistoryItem[], opts: ShapeOptions, tracker?: StateTracker<S>): Replay<S> {
  const { roles } = opts;
  const dropped = staleThinkCalls(history, roles.think, opts.thinkKeepTurns);
  const view: HistoryItem[] = [];
  const checkpoints: CheckpointMark<S>[] = [];
  let state: S | undefined;

  for (let i = 0; i < history.length; i++) {
    const item = history[i]!;
    if (item.role !== "assistant") {
      // A compaction summary stands for everything before it, checkpoints
      // included: a rewind cannot return past it (it would drop the summary).
      if (item.role === "summary") checkpoints.length = 0;
      // A result with no assistant before it cannot occur in a valid history; keep it as it is.
      view.push(item);
      continue;
    }
    const results: ToolItem[] = [];
    while (i + 1 < history.length && history[i + 1]!.role === "tool") results.push(history[++i] as ToolItem);
    const succeeded = new Map(results.filter((r) => !r.isError).map((r) => [r.callId, r]));
    const rewind = item.toolCalls.find((c) => roles.rewind.has(c.name) && succeeded.has(c.id));
    const marks = item.toolCalls.filter((c) => roles.checkpoint.has(c.name) && succeeded.has(c.id));

    if (rewind && checkpoints.length > 0) {
      const mark = checkpoints.pop()!;
      // User messages (a new instruction, a job notice) are not exploration: they stay, in order.
      const users = view.splice(mark.viewLength).filter((h) => h.role === "user");
      view.push(...users);
      state = mark.state;
      const keep = new Set([rewind.id, ...marks.map((c) => c.id)]);
      pushTurn(view, { ...item, text: "", toolCalls: item.toolCalls.filter((c) => keep.has(c.id)) }, results.filter((r) => keep.has(r.callId)));
    } else {
      if (tracker) {
        for (const call of item.toolCalls) {
          const result = succeeded.get(call.id);
          const next = result ? tracker.after(call, result) : undefined;
          if (next !== undefined) state = next;
        }
      }
      pushTurn(
        view,
        dropped.size ? { ...item, toolCalls: item.toolCalls.filter((c) => !dropped.has(c.id)) } : item,
        dropped.size ? results.filter((r) => !dropped.has(r.callId)) : results,
      );
    }
    // Several checkpoints in one turn mark the same point: one is enough.
    const first = marks[0];
    if (first) checkpoints.push({ goal: goalOf(first), callId: first.id, viewLength: view.length, state });
  }
  return { view, checkpoints, state };
}

/** Ids of think calls that this many later assistant turns have already seen. */
function staleThinkCalls(history: readonly HistoryItem[], think: ReadonlySet<string>, keepTurns: number): Set<string> {
  const stale = new Set<string>();
  if (think.size === 0) return stale;
  let later = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.role !== "assistant") continue;
    if (later >= keepTurns) for (const call of item.toolCalls) if (think.has(call.name)) stale.add(call.id);
    later++;
  }
  return stale;
}

/**
 * Appends one turn. A turn left with nothing (it only thought) is skipped;
 * a text-only turn followed by another assistant turn is merged into it, so
 * the view never has two assistant messages in a row. Items are copied,
 * never changed: they belong to the durable history.
 */
function pushTurn(view: HistoryItem[], turn: AssistantItem, results: ToolItem[]): void {
  if (!turn.text && turn.toolCalls.length === 0) return;
  const prev = view[view.length - 1];
  if (prev?.role === "assistant" && prev.toolCalls.length === 0) {
    view[view.length - 1] = {
      role: "assistant",
      text: [prev.text, turn.text].filter(Boolean).join("\n\n"),
      toolCalls: turn.toolCalls,
    };
  } else {
    view.push(turn);
  }
  view.push(...results);
}

function goalOf(call: ToolCall): string {
  try {
    const goal = (JSON.parse(call.args) as { goal?: unknown }).goal;
    return typeof goal === "string" ? goal : "";
  } catch {
    return "";
  }
}
