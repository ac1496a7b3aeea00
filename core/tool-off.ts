// Why a tool the model called is not on this request's surface, in words a
// model can act on: the cap left it out, the kind of session, the setting
// that turns it on, or the tool it most likely meant.

import type { ActiveToolset } from "./profiles/activate.js";
import { closestTool } from "./closest-tool.js";

// A tool offered to one kind of session only, as the model is told when it calls it in another.
const SESSION_KIND: Record<string, string> = {
  delegated: "it is reserved for SubAgents: a delegated worker reports on its task with it",
  top_level: "it is reserved for the main agent",
  loop_running: "it is mounted only while a loop runs: /loop on or yuj code --loop",
};

/** Why a tool the profile declares is off: the cap left it out, the kind of session, or the one setting that turns it on. */
export function offBecause(toolset: ActiveToolset, conditions: readonly string[], name: string): string {
  const dropped = toolset.dropped.find((d) => d.name === name);
  if (dropped) return ` (${dropped.reason})`;
  const kind = conditions.length === 1 ? SESSION_KIND[conditions[0]!] : undefined;
  if (kind) return ` (${kind})`;
  // A replacement dialect the edit format did not select: the reference says "unavailable for
  // the selected edit format"; the setting and the flag that select it are the way forward.
  const formats = conditions.find((c) => c.startsWith("edit_format:"))?.slice("edit_format:".length).split("|");
  if (formats && !formats.includes(toolset.editFormat)) {
    return ` (it is unavailable for the selected edit format "${toolset.editFormat}"; [tools].edit_format = "${formats[0]}" or --edit-format ${formats[0]} selects it)`;
  }
  // A setting's value (required plan mode): the tool belongs to that mode; nothing here for the model to enter.
  const valued = conditions.length === 1 ? /^config:([a-z_]+(?:\.[a-z_]+)*)\.([a-z_]+)=([a-z_]+)$/.exec(conditions[0]!) : null;
  if (valued) return ` (it is offered only when [${valued[1]}].${valued[2]} = "${valued[3]}")`;
  const keys = conditions.filter((c) => /^config:[a-z_]+(?:\.[a-z_]+)+$/.test(c)).map((c) => c.slice("config:".length));
  if (keys.length !== 1) return "";
  const parts = keys[0]!.split(".");
  return ` ([${parts.slice(0, -1).join(".")}].${parts.at(-1)} = true turns it on)`;
}

/**
 * " Did you mean 'read'?" for a misnamed call. The profile's tools that are
 * off count too, after the active ones, so `todo_write` while write_todos is
 * off is told that tool is off rather than pointed at `write`.
 */
export function meantTool(name: string, toolset: ActiveToolset): string {
  const off = toolset.profile.tools.filter((t) => !toolset.tools.has(t.name));
  const meant = closestTool(name, [...toolset.tools.keys(), ...off.map((t) => t.name)]);
  if (!meant) return "";
  const disabled = off.find((t) => t.name === meant);
  return disabled ? ` Did you mean '${meant}'? It is disabled in this session${offBecause(toolset, disabled.enabled_when, meant)}.` : ` Did you mean '${meant}'?`;
}
