// What a rule's pattern is matched against: each tool says it for its calls
// (ToolHandler.matchValue), by default the paths it touches. The engine
// cleans path values (relative to the task directory) before matching, so a
// handler gives paths as the model wrote them:
//
//   commands   the command string (bash, shell, terminal_start; terminal_io its input)
//   paths      the files read or changed: one for read/write/edit, each of a
//              delete, every file of a patch, Yuj grep's search path
//   text       a pattern or a name (glob's first pattern, Chord grep's regex)
//   host       `host:port` of a URL
//   any        `*`: the tool has no value to fence, only rules without a pattern speak to it

import type { Touch } from "../tool-types.js";

export type MatchKind = "command" | "path" | "host" | "text" | "any";

/** What a patch does to one path: added paths also meet write rules, removed ones and move sources delete rules. */
export type PatchRole = "add" | "update" | "remove" | "move_source" | "move_target";

interface PatchOp {
  path: string;
  role: PatchRole;
}

export interface MatchTarget {
  kind: MatchKind;
  /** One or more values; a call is decided by the strictest of them. */
  values: string[];
  /** For patches: the role of each path (the values are these paths). */
  ops?: PatchOp[];
}

export const ANY: MatchTarget = { kind: "any", values: ["*"] };

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

export const commandTarget = (command: string): MatchTarget => ({ kind: "command", values: [command] });
export const textTarget = (text: string): MatchTarget => ({ kind: "text", values: [text] });
export const pathTarget = (paths: readonly string[]): MatchTarget => ({ kind: "path", values: unique(paths.length ? [...paths] : [""]) });

/** The default: the paths a call touches, or `*` for a call that touches none. */
export function touchedTarget(touches: readonly Touch[] | undefined): MatchTarget {
  return touches === undefined ? ANY : pathTarget(touches.map((t) => t.path));
}

/**
 * A patch's paths with their roles. A patch whose files cannot be told (it
 * does not parse) writes nothing: nothing to fence by path.
 */
export function patchTarget(touches: readonly Touch[]): MatchTarget {
  if (touches.length === 0) return { kind: "path", values: ["*"] };
  const ops = touches.map((t): PatchOp => ({ path: t.path, role: patchRole(t) }));
  return { kind: "path", values: unique(ops.map((o) => o.path)), ops };
}

function patchRole(t: Touch): PatchRole {
  if (t.move === "from") return "move_source";
  if (t.move === "to") return "move_target";
  if (t.as === "creates") return "add";
  if (t.as === "deletes") return "remove";
  return "update";
}
