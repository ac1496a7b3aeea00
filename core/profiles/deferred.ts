// Deferred tool loading ([tools].lazy_loading_enabled): the first request
// carries only the profile's active_default tools and the tools that ride
// outside the count (finishing, asking, loading, leaving the planning phase);
// every other enabled tool stays hidden until the model loads it by its exact
// name. Loading adds from the next request on and never removes; a call that
// would make the counted tools more than the profile's max_tools is refused
// whole, and a tool the config leaves off cannot be loaded at all.
//
// The loaded set is rebuilt from the conversation on resume (each successful
// load call and its names), so a resumed or replayed session carries the
// same tools as the run it continues.

import type { HistoryItem } from "../history.js";
import type { ToolLoader, ToolRole } from "../tool-types.js";
import { toolWithRole, type ActiveToolset } from "./activate.js";

/** Roles whose tools are in every request: they steer the run itself. */
const ALWAYS: ReadonlySet<ToolRole> = new Set(["finish", "ask", "load", "plan_exit"]);

export interface DeferredTools extends ToolLoader {
  /** The exposed names the next request carries. */
  visible(): ReadonlySet<string>;
  /** The exposed name of the loading tool, for messages. */
  readonly loadTool: string;
}

export function createDeferredTools(toolset: ActiveToolset, history: readonly HistoryItem[]): DeferredTools {
  const loadTool = toolWithRole(toolset, "load");
  // activateTools refuses deferred loading on a profile without one.
  if (loadTool === undefined) throw new Error(`profile ${toolset.profile.name} offers no tool that loads tools`);
  const counted = new Set(toolset.profile.tools.filter((t) => t.counts_toward_cap).map((t) => t.name));
  const shown = new Set<string>();
  for (const [name, tool] of toolset.tools) {
    if (tool.handler.role !== undefined && ALWAYS.has(tool.handler.role)) shown.add(name);
  }
  for (const name of toolset.profile.activeDefault) if (toolset.tools.has(name)) shown.add(name);
  for (const name of loadedBefore(history, loadTool)) if (toolset.tools.has(name)) shown.add(name);
  const countOf = (names: Iterable<string>) => [...names].filter((n) => counted.has(n)).length;

  return {
    loadTool,
    visible: () => shown,
    load(names) {
      const refusal = unloadable(names, toolset, loadTool);
      if (refusal) return { ok: false, text: refusal };
      const added = [...new Set(names)].filter((n) => !shown.has(n));
      const total = countOf([...shown, ...added]);
      const max = toolset.profile.maxTools;
      if (total > max) {
        return {
          ok: false,
          text:
            `ERROR: ${loadTool}: loading ${added.join(", ")} would make ${total} tools, over the active-tool limit ${max} (this profile's max_tools); ` +
            `nothing was loaded. Loading never removes a tool: load fewer (${max - countOf(shown)} more fit). Active now: ${[...shown].join(", ")}`,
        };
      }
      for (const n of added) shown.add(n);
      return { ok: true, added, active: [...toolset.tools.keys()].filter((n) => shown.has(n)) };
    },
  };
}

/** Why these names cannot be loaded, if one cannot: not a tool of this profile, or off in this session. */
function unloadable(names: readonly string[], toolset: ActiveToolset, loadTool: string): string | undefined {
  if (names.length === 0) return `ERROR: ${loadTool}: names is empty; give the exact names of the tools to load`;
  const declared = new Set(toolset.profile.tools.map((t) => t.name));
  const loadable = [...toolset.tools.keys()].join(", ");
  for (const name of names) {
    if (toolset.tools.has(name)) continue;
    if (declared.has(name)) {
      return `ERROR: ${loadTool}: ${name} is disabled in this session and cannot be loaded (the configuration leaves it off); nothing was loaded. Tools that can be loaded: ${loadable}`;
    }
    return `ERROR: ${loadTool}: no tool is named ${JSON.stringify(name)}; nothing was loaded. Use exact names: ${loadable}`;
  }
  return undefined;
}

/** The names earlier successful load calls added (their calls, matched to results that are not errors). */
function loadedBefore(history: readonly HistoryItem[], loadTool: string): string[] {
  const succeeded = new Set(history.filter((h) => h.role === "tool" && h.name === loadTool && !h.isError).map((h) => (h as { callId: string }).callId));
  const names: string[] = [];
  for (const item of history) {
    if (item.role !== "assistant") continue;
    for (const call of item.toolCalls) {
      if (call.name !== loadTool || !succeeded.has(call.id)) continue;
      names.push(...namesOf(call.args));
    }
  }
  return names;
}

function namesOf(args: string): string[] {
  try {
    const parsed = JSON.parse(args) as { names?: unknown };
    return Array.isArray(parsed.names) ? parsed.names.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/** The refusal of a call to a tool the request did not carry: it names the loading tool. */
export function notActiveText(tool: string, loadTool: string): string {
  // `loader` names the tool to call, under the key the reference's envelope uses.
  const body = {
    error: {
      loader: loadTool,
      message: `${tool} is not active in this session yet. Call ${loadTool} with names ["${tool}"]; it is available from your next response on.`,
      tool,
      type: "tool_not_active",
      version: 1,
    },
  };
  return `ERROR: ${JSON.stringify(body)}`;
}
