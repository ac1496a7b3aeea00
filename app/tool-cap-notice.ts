// When the profile's max_tools cap leaves out tools that are enabled, the
// run says so once (a notice in the trace, the JSONL stream and the TUI),
// and `yuj doctor` lists the surface with what was left out and why.

import type { DroppedTool } from "../core/profiles/cap.js";
import type { ActiveToolset } from "../core/profiles/activate.js";
import type { Emit } from "../core/events.js";

/** Tools left out for the same reason, together. */
function byReason(dropped: readonly DroppedTool[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const d of dropped) groups.set(d.reason, [...(groups.get(d.reason) ?? []), d.name]);
  return groups;
}

/** One line per reason: `left out glob, grep: max_tools = 8 is taken by …`. */
export function droppedLines(dropped: readonly DroppedTool[]): string[] {
  return [...byReason(dropped)].map(([reason, names]) => `left out ${names.join(", ")}: ${reason}`);
}

function droppedNotice(toolset: Pick<ActiveToolset, "dropped" | "profile">): string | undefined {
  if (toolset.dropped.length === 0) return undefined;
  const names = toolset.dropped.map((d) => d.name).join(", ");
  return (
    `the ${toolset.profile.name} profile's max_tools = ${toolset.profile.maxTools} leaves out enabled tools: ${names}. ` +
    "`yuj doctor` lists the surface and why; disable tools you do not need or raise [capacity].max_tools in the profile."
  );
}

/** Emits the notice when the cap left tools out; returns its text. */
export function announceDroppedTools(toolset: Pick<ActiveToolset, "dropped" | "profile">, emit: Emit): string | undefined {
  const text = droppedNotice(toolset);
  if (text) emit({ type: "notice", level: "warning", text });
  return text;
}
