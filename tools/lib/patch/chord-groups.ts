// How Chord's apply_patch decides what applies when some operations fail.
// Operations are grouped by the file they name (`*** Update File:` /
// `*** Add File:` / `*** Delete File:` path): all of one file's operations
// apply together or not at all. The whole patch is simulated in order; a
// group with a failing operation is dropped and the simulation runs again
// without it. A later group that touches a path an earlier operation of a
// dropped group touched depends on it and is dropped too. So a move, a
// re-add of its source and a failing update of the moved file: the move and
// the add (the source's group) apply; the update fails alone.

import type { FileSystem } from "../../../core/services.js";
import { CHORD_MISSING_SOURCE, PatchPlan, resolvePatchPath, type PatchError, type PatchPlanOptions } from "./plan.js";
import type { PatchOp } from "./v4a-parse.js";

export interface DroppedGroup {
  /** The group's file, as the patch first names it. */
  path: string;
  /** Why: the failing operation's error, or the dependency that took it down. */
  cause: string;
  /** How many operations the group has. */
  ops: number;
}

export interface GroupedPlan {
  plan: PatchPlan;
  dropped: DroppedGroup[];
  groups: number;
}

const names = (op: PatchOp): string[] => (op.kind === "update" && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]);

/** The error without the path it starts with: the listing names the file already. */
function causeOf(error: PatchError, path: string): string {
  for (const prefix of [`${path}: `, `${CHORD_MISSING_SOURCE} ${path}: `]) {
    if (error.message.startsWith(prefix)) return error.message.slice(prefix.length);
  }
  return error.message;
}

export async function planGroups(ops: readonly PatchOp[], fs: FileSystem, cwd: string, options: PatchPlanOptions): Promise<GroupedPlan | { error: PatchError }> {
  // Resolve every name once: the group key and the paths each op touches.
  const touches: string[][] = [];
  const groupOf: number[] = [];
  const groupKeys = new Map<string, number>();
  const groupPath: string[] = [];
  const groupSize: number[] = [];
  for (const op of ops) {
    const abs: string[] = [];
    const shownAs: string[] = [];
    for (const name of names(op)) {
      const where = await resolvePatchPath(fs, cwd, name, options);
      if (!where.ok) return { error: where.error };
      abs.push(where.abs);
      shownAs.push(where.display);
    }
    touches.push(abs);
    let g = groupKeys.get(abs[0]!);
    if (g === undefined) {
      g = groupPath.length;
      groupKeys.set(abs[0]!, g);
      groupPath.push(shownAs[0]!);
      groupSize.push(0);
    }
    groupSize[g]!++;
    groupOf.push(g);
  }
  // Dropped group -> why, and the index of the operation that failed (or was skipped).
  const dropped = new Map<number, { cause: string; at: number }>();
  for (;;) {
    const plan = new PatchPlan(fs, cwd, options);
    let again = false;
    for (const [i, op] of ops.entries()) {
      const g = groupOf[i]!;
      if (dropped.has(g)) continue;
      const dep = dependency(i, g, touches, groupOf, dropped, ops, groupPath);
      if (dep !== undefined) {
        dropped.set(g, { cause: dep, at: i });
        again = true;
        break;
      }
      const error = await plan.check(op);
      if (error) {
        dropped.set(g, { cause: causeOf(error, error.path ?? groupPath[g]!), at: i });
        again = true;
        break;
      }
    }
    if (!again) {
      const list = [...dropped.entries()].sort((a, b) => a[0] - b[0]).map(([g, d]) => ({ path: groupPath[g]!, cause: d.cause, ops: groupSize[g]! }));
      return { plan, dropped: list, groups: groupPath.length };
    }
  }
}

/** Why op `i` cannot apply: an earlier op of a dropped group touched one of its paths. */
function dependency(
  i: number,
  g: number,
  touches: readonly string[][],
  groupOf: readonly number[],
  dropped: ReadonlyMap<number, { cause: string; at: number }>,
  ops: readonly PatchOp[],
  groupPath: readonly string[],
): string | undefined {
  for (let j = 0; j < i; j++) {
    const h = groupOf[j]!;
    if (h === g || !dropped.has(h)) continue;
    const shared = touches[i]!.findIndex((p) => touches[j]!.includes(p));
    if (shared < 0) continue;
    const name = names(ops[i]!)[shared]!;
    // Op j itself failed (or never ran), or it ran and its group failed later on.
    return j >= dropped.get(h)!.at
      ? `skipped: a prior operation touching ${name} failed, so this operation must remain with that dependency when revised`
      : `rolled back: an earlier operation group for ${groupPath[h]} that this one depends on (through ${name}) was not applied; keep both groups together when revising`;
  }
  return undefined;
}

