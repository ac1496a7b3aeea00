// The max_tools cap. A profile lists, as data, the order in which enabled
// tools claim the places ([[capacity.keep]] in profile.toml): each entry is a
// group of tools that only work together, kept whole or left out whole, and
// an entry may hold only under a condition (plan mode keeps its inspection
// tools). Tools that ride outside the count (counts_toward_cap = false: done,
// ask_user, exit_plan_mode) are always kept; enabled tools no entry names
// claim what room is left, in the order they are declared. Every tool left
// out is reported with the reason, for the notice and `yuj doctor`.

import type { ProfileTool } from "./load.js";

export interface CapGroup {
  tools: string[];
  /** Every condition must hold for the entry to claim places. */
  when: string[];
}

export interface DroppedTool {
  name: string;
  reason: string;
}

export interface CapResult {
  kept: ProfileTool[];
  dropped: DroppedTool[];
}

export function applyCap(on: readonly ProfileTool[], max: number, order: readonly CapGroup[], holds: (c: string) => boolean): CapResult {
  const counted = on.filter((t) => t.counts_toward_cap);
  const byName = new Map(counted.map((t) => [t.name, t]));
  const decided = new Set<string>();
  const keep = new Set<string>();
  const dropped: DroppedTool[] = [];
  const groups = [
    ...order.filter((g) => g.when.every(holds)).map((g) => g.tools),
    ...counted.map((t) => [t.name]),
  ];
  for (const names of groups) {
    const members = names.filter((n) => byName.has(n) && !decided.has(n));
    if (members.length === 0) continue;
    for (const n of members) decided.add(n);
    if (keep.size + members.length <= max) {
      for (const n of members) keep.add(n);
      continue;
    }
    const together = members.length > 1 ? ` (${members.join(", ")} only work together: kept both or neither)` : "";
    const reason = `max_tools = ${max} is taken by tools with a higher priority: ${[...keep].join(", ")}${together}`;
    for (const n of members) dropped.push({ name: n, reason });
  }
  return { kept: on.filter((t) => !t.counts_toward_cap || keep.has(t.name)), dropped };
}
