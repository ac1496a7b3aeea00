// The files a patch touches, read by the same parser that applies it: the
// permission engine, the guards and the approval see exactly the paths the
// write will change, whatever header form the patch uses (spacing, CRLF
// line ends, quoted names, a/ and b/ prefixes). A patch that does not parse
// changes nothing, so it touches nothing.

import type { Touch } from "../../../core/tool-types.js";
import { parseUdiff } from "./udiff-parse.js";
import { parseV4A, type ParseOptions, type PatchOp } from "./v4a-parse.js";

function opTouches(ops: readonly PatchOp[]): Touch[] {
  return ops.flatMap((op): Touch[] => {
    if (op.kind === "add") return [{ path: op.path, as: "creates" }];
    if (op.kind === "delete") return [{ path: op.path, as: "deletes" }];
    if (op.moveTo === undefined || op.moveTo === op.path) return [{ path: op.path, as: "updates" }];
    return [
      { path: op.path, as: "updates", move: "from" },
      { path: op.moveTo, as: "creates", move: "to" },
    ];
  });
}

/** The touches of a V4A envelope. */
export function v4aTouches(patch: string, options: ParseOptions = {}): Touch[] {
  const parsed = parseV4A(patch, options);
  return parsed.ok ? opTouches(parsed.ops) : [];
}

/** The touches of a unified diff. */
export function udiffTouches(patch: string): Touch[] {
  const parsed = parseUdiff(patch);
  return parsed.ok ? opTouches(parsed.ops) : [];
}

/** Every kind of touch a patch can make. */
export const PATCH_TOUCH_KINDS: ReadonlySet<Touch["as"]> = new Set(["creates", "updates", "deletes"]);
