// The operator's rewind: the conversation goes back to before one of their
// messages and the work tree to the checkpoint taken when that message was
// sent, together. Planning changes nothing: it says which files would
// change, shows the patch, and names the files changed outside yuj since its
// last checkpoint that the rewind would overwrite (the caller asks, or
// refuses with that list). Applying checkpoints the work tree first, so a
// rewind can itself be undone, then writes the files and cuts the history;
// the items it cut are kept beside the session for the undo.
//
// The message is given as its place among the operator's messages still in
// the conversation (1 = the first). The conversation is cut before it: the
// message itself is what the operator sends again, edited or not.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteSync } from "../atomic-write.js";
import type { HistoryItem } from "../history.js";
import type { SessionRecord } from "../session-record.js";
import { changedPaths, hasObject, openRepo, restoreTree, treeDiff, writeWorkTree, type ChangedPath, type Repo } from "./git-tree.js";
import { recordCheckpoint } from "./recorder.js";
import type { CheckpointRecord, CheckpointStore } from "./store.js";

type MessageRow = Extract<CheckpointRecord, { kind: "message" }>;
type RewindRow = Extract<CheckpointRecord, { kind: "rewind" }>;

export interface RewindContext {
  store: CheckpointStore;
  /** The session's saved state (its history is the conversation) and its writer. */
  record: SessionRecord;
  sessionId: string;
  sessionDir: string;
  cwd: string;
}

/** One message a rewind can return to. */
export interface RewindPoint {
  /** 1-based place among the operator's messages still in the conversation. */
  n: number;
  text: string;
  /** Where it is in the history. */
  index: number;
  /** The files the steps after it changed (from its first checkpoint to its last). */
  changed: ChangedPath[];
  seq: number;
}

export interface RewindPlan {
  kind: "rewind" | "undo";
  /** The message rewound to (a rewind). */
  point?: RewindPoint;
  /** History items the rewind cuts, or the undo puts back. */
  items: number;
  /** What happens to the files, path by path (from the work tree's top). */
  files: ChangedPath[];
  /** The patch from the work tree as it is to the checkpoint. */
  diff: string;
  /** Files the rewind would overwrite that changed outside yuj since its last checkpoint. */
  outside: string[];
  /** Why no file is restored, when none is. */
  filesNote?: string;
  /** The trees and records the apply step needs. */
  current?: string;
  target?: string;
  undoOf?: RewindRow;
}

export class RewindError extends Error {
  override name = "RewindError";
}

/** The operator's messages still in the conversation, with the files each one's steps changed. */
export async function rewindPoints(ctx: RewindContext): Promise<RewindPoint[]> {
  const history = ctx.record.state.history;
  const repo = await openRepo(ctx.cwd);
  const points: RewindPoint[] = [];
  let cursor = 0;
  for (const m of ctx.store.liveMessages()) {
    const index = findUserItem(history, m, cursor);
    if (index === undefined) continue; // cut by an edit of an earlier message
    cursor = index + 1;
    const changed = "none" in repo ? [] : await changedUnder(ctx.store, repo, m.seq);
    points.push({ n: points.length + 1, text: m.text, index, changed, seq: m.seq });
  }
  return points;
}

/** The plan of a rewind to the n-th message; throws RewindError naming what is wrong. */
export async function planRewind(ctx: RewindContext, n: number): Promise<RewindPlan> {
  const points = await rewindPoints(ctx);
  const point = points[n - 1];
  if (!point) {
    throw new RewindError(
      points.length === 0 ? "this session has no message to rewind to" : `there is no message ${n}: the session's messages are 1 to ${points.length} (yuj rewind ID lists them)`,
    );
  }
  const items = ctx.record.state.history.length - point.index;
  const target = ctx.store.checkpoints().find((c) => c.message === point.seq);
  const files = await filesPlan(ctx, target?.tree, "no checkpoint was taken when this message was sent");
  return { kind: "rewind", point, items, ...files };
}

/** The plan of undoing the last rewind; throws RewindError when there is none to undo. */
export async function planUndo(ctx: RewindContext): Promise<RewindPlan> {
  const last = ctx.store.undoable();
  if (!last) throw new RewindError("there is no rewind to undo (an undo follows the rewind, before another message is sent)");
  if (ctx.record.state.history.length !== last.historyLength) {
    throw new RewindError("the conversation changed since the rewind, so it cannot be put back");
  }
  const before = ctx.store.checkpoint(last.before);
  const items = readItems(ctx.sessionDir, last.itemsFile).length;
  const files = await filesPlan(ctx, before?.tree, "the rewind restored no files");
  return { kind: "undo", items, undoOf: last, ...files };
}

async function filesPlan(ctx: RewindContext, target: string | undefined, noTarget: string): Promise<Pick<RewindPlan, "files" | "diff" | "outside" | "filesNote" | "current" | "target">> {
  const none = { files: [], diff: "", outside: [] };
  const repo = await openRepo(ctx.cwd);
  if ("none" in repo) return { ...none, filesNote: `workspace checkpoints are off: ${repo.none}` };
  const current = await writeWorkTree(repo);
  if (!target) return { ...none, current, filesNote: noTarget };
  if (!(await hasObject(repo, `${target}^{tree}`))) return { ...none, current, filesNote: `the checkpoint's tree ${target} is gone from the repository (pruned)` };
  const files = await changedPaths(repo, current, target);
  const last = ctx.store.lastCheckpoint();
  const touched = new Set(files.map((f) => f.path));
  const outside = last && (await hasObject(repo, `${last.tree}^{tree}`)) ? (await changedPaths(repo, last.tree, current)).map((c) => c.path).filter((p) => touched.has(p)) : [];
  return { files, diff: await treeDiff(repo, current, target), outside, current, target };
}

/**
 * Carries a plan out: the work tree is checkpointed (the undo's way back),
 * the files written, the history cut or put back, the session saved.
 * Throws RewindError when the files changed since the plan was made.
 */
export async function applyPlan(ctx: RewindContext, plan: RewindPlan): Promise<void> {
  const repo = await openRepo(ctx.cwd);
  const git = "none" in repo ? undefined : repo;
  let before: number | undefined;
  if (git && plan.current) {
    const now = await writeWorkTree(git);
    if (now !== plan.current) throw new RewindError("files changed since the rewind was planned: look at the diff again");
    before = (await recordCheckpoint(ctx.store, git, ctx.sessionId, now, "before_rewind")).id;
    if (plan.target && plan.files.length) {
      await restoreTree(git, now, plan.target);
      await recordCheckpoint(ctx.store, git, ctx.sessionId, plan.target, "rewound");
    }
  }
  if (plan.kind === "rewind") cutHistory(ctx, plan, before);
  else putBack(ctx, plan.undoOf!);
  ctx.record.save();
}

function cutHistory(ctx: RewindContext, plan: RewindPlan, before: number | undefined): void {
  const state = ctx.record.state;
  const point = plan.point!;
  const id = ctx.store.nextId("rewind");
  const itemsFile = join("rewinds", `${id}.json`);
  const cut = state.history.slice(point.index);
  atomicWriteSync(join(ctx.sessionDir, itemsFile), JSON.stringify(cut), { createParents: true, mode: 0o600 });
  const live = ctx.store.liveMessages().map((m) => m.seq);
  const dropped = live.slice(Math.max(0, live.indexOf(point.seq)));
  state.history.splice(point.index);
  forgetWaits(ctx);
  const target = ctx.store.checkpoints().find((c) => c.message === point.seq)?.id;
  ctx.store.append({
    kind: "rewind",
    id,
    to: point.seq,
    dropped,
    ...(before !== undefined ? { before } : {}),
    ...(target !== undefined ? { target } : {}),
    itemsFile,
    historyLength: state.history.length,
    at: new Date().toISOString(),
  });
}

function putBack(ctx: RewindContext, rewind: RewindRow): void {
  ctx.record.state.history.push(...readItems(ctx.sessionDir, rewind.itemsFile));
  ctx.store.append({ kind: "undo", rewind: rewind.id, at: new Date().toISOString() });
}

/** What waited (an approval, a question) belonged to the turns cut: the session goes on from a plain pause. */
function forgetWaits(ctx: RewindContext): void {
  const state = ctx.record.state;
  delete state.pending;
  delete state.answer;
  delete state.question;
  if (state.status === "approval_required" || state.status === "input_required") state.status = "paused";
}

function readItems(dir: string, file: string): HistoryItem[] {
  try {
    return JSON.parse(readFileSync(join(dir, file), "utf8")) as HistoryItem[];
  } catch (err) {
    throw new RewindError(`the conversation the rewind cut cannot be read from ${join(dir, file)}: ${(err as Error).message}`);
  }
}

/** The history index of a message, searching from `from` (the model's text starts with the operator's). */
function findUserItem(history: readonly HistoryItem[], m: MessageRow, from: number): number | undefined {
  for (let i = from; i < history.length; i++) {
    const item = history[i]!;
    if (item.role === "user" && item.text.startsWith(m.text)) return i;
  }
  return undefined;
}

/** The files changed between the first and the last checkpoint taken under one message. */
async function changedUnder(store: CheckpointStore, repo: Repo, seq: number): Promise<ChangedPath[]> {
  const under = store.checkpoints().filter((c) => c.message === seq && c.reason !== "before_rewind" && c.reason !== "rewound");
  const first = under[0];
  const last = under[under.length - 1];
  if (!first || !last || first.tree === last.tree) return [];
  try {
    return await changedPaths(repo, first.tree, last.tree);
  } catch {
    return []; // pruned
  }
}
