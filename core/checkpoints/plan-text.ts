// How a rewind plan and the list of rewind points read, the same for
// `yuj rewind` and the terminal UI.

import { firstLine } from "../session-state.js";
import type { ChangedPath } from "./git-tree.js";
import type { RewindPlan, RewindPoint } from "./rewind.js";

const SIGN: Record<ChangedPath["change"], string> = { modified: "M", created: "A", deleted: "D" };

/** `M src/a.ts` lines: what writing the checkpoint does to each file. */
function fileLines(files: readonly ChangedPath[]): string[] {
  return files.map((f) => `${SIGN[f.change]} ${f.path}`);
}

/** One line per message: its number, its first line, and the files its steps changed. */
export function pointLine(p: RewindPoint): string {
  const files = p.changed.length ? `  (${p.changed.length} file${p.changed.length === 1 ? "" : "s"}: ${p.changed.map((c) => c.path).join(", ")})` : "";
  return `${p.n}. ${firstLine(p.text)}${files}`;
}

/** The lines said before the operator is asked: what the conversation and the files will become. */
export function planSummary(plan: RewindPlan): string[] {
  const lines: string[] = [];
  if (plan.kind === "rewind") {
    lines.push(`Rewind to before message ${plan.point!.n}: ${firstLine(plan.point!.text)}`);
    lines.push(`The conversation loses its last ${plan.items} item${plan.items === 1 ? "" : "s"} (kept beside the session: yuj rewind --undo puts them back).`);
  } else {
    lines.push(`Undo the last rewind: ${plan.items} item${plan.items === 1 ? "" : "s"} of the conversation come back.`);
  }
  if (plan.filesNote) lines.push(`Files: none restored (${plan.filesNote}).`);
  else if (plan.files.length === 0) lines.push("Files: already as the checkpoint has them.");
  else lines.push(`Files (${plan.files.length}):`, ...fileLines(plan.files).map((l) => `  ${l}`));
  if (plan.outside.length) {
    lines.push(`Changed outside yuj since its last checkpoint, and overwritten by this (${plan.outside.length}):`, ...plan.outside.map((p) => `  ${p}`));
  }
  return lines;
}
