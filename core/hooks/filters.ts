// Which hook entries fire for one occurrence of a point. Filters are AND-ed.
// A filter about something the point does not have (tools at
// on_before_llm_call, changed files at on_tool_call) does not narrow it: the
// agent, kind and model filters apply everywhere, the others where the point
// carries what they test.

import { globMatch } from "../permissions/glob.js";
import type { HookEntry } from "./config.js";

/** What an occurrence offers the filters. */
export interface HookSubject {
  /** The tool of a call, or every tool of a batch. */
  tools?: readonly string[];
  /** Project-relative paths the call touches, or the batch changed. */
  paths?: readonly string[];
  /** How many files the batch changed. */
  changedFiles?: number;
  /** Whether a call failed (always true at on_agent_error). */
  failed?: boolean;
}

export interface HookAgent {
  id: string;
  kind: "main" | "subagent";
  model: string;
}

type Filters = Pick<HookEntry, "tools" | "paths" | "agents" | "models" | "agent_kinds" | "only_on_error"> & { min_changed_files?: number | undefined };

export function hookApplies(entry: Filters, subject: HookSubject, agent: HookAgent): boolean {
  const some = (patterns: readonly string[] | undefined, values: readonly string[] | undefined) =>
    patterns === undefined || values === undefined || values.some((v) => patterns.some((p) => globMatch(p, v)));
  if (!some(entry.agents, [agent.id])) return false;
  if (!some(entry.models, [agent.model])) return false;
  if (entry.agent_kinds && !entry.agent_kinds.includes(agent.kind)) return false;
  if (!some(entry.tools, subject.tools)) return false;
  if (!some(entry.paths, subject.paths)) return false;
  if (entry.min_changed_files !== undefined && subject.changedFiles !== undefined && subject.changedFiles < entry.min_changed_files) return false;
  if (entry.only_on_error && subject.failed === false) return false;
  return true;
}
