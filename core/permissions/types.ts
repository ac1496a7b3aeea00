// The permission engine's contract: a pure decision from a tool call, the
// rules and the mode to allow / ask / deny, with the rule that decided it.

import type { RuleFamily } from "../tool-types.js";
import type { MatchTarget } from "./match-target.js";

export type Action = "allow" | "ask" | "deny";

export interface Rule {
  /** Glob over exposed tool names (`*`, `?`). */
  tool: string;
  /** Glob over the tool's match value; absent means any value. */
  pattern?: string;
  action: Action;
  /** Where the rule came from, for messages: a config file, "session", "profile chord". */
  source?: string;
}

export interface PermissionCall {
  /** Exposed tool name. */
  tool: string;
  args: Record<string, unknown>;
  /** The task directory, to make paths repository-relative. */
  cwd: string;
  /** The session's folder, for tools whose paths are in what the session saved. */
  sessionDir?: string;
}

/** What the engine knows of one tool of the surface (from its handler). */
export interface ToolRuleFacts {
  /** The values a call's rules are matched against, paths as written. */
  matchValue(args: Record<string, unknown>, cwd: string, sessionDir?: string): MatchTarget;
  family?: RuleFamily;
  /** Older names rules may use for it. */
  aliases: readonly string[];
  /** YOLO never lifts its asks, and only a rule naming it grants it. */
  guarded: boolean;
  /** What an ask rule means for it: an allow (it asks the operator itself), or only that it is offered (a finish tool, whose own checks still apply). */
  ask?: "allow" | "available";
  /** On Yuj, why a call no rule matches asks instead of running (the tool reaches outside or runs code yuj does not know). */
  defaultAsk?: string;
}

/** Every tool the surface declares, on or off in this session, by exposed name: rules may name any of them. */
export type ToolCatalog = ReadonlyMap<string, ToolRuleFacts>;

export interface Decision {
  action: Action;
  /** The rule that decided, when one matched. */
  rule?: Rule;
  /** One line: why, for the model and the user. */
  reason: string;
  /** The match values the rules were checked against (paths, command, host). */
  matchValues: string[];
  /** The value that decided when there are several (a patch's paths, a file's names: its real path, another hard link). */
  value?: string;
}

export interface PolicyOptions {
  /** Which spec's semantics apply: Yuj (no match = normal behaviour) or Chord (no match = deny). */
  surface: "yuj" | "chord";
  /** Skip ordinary asks (never the protected tools). */
  yolo: boolean;
  /** Measurement runs: every ask becomes a deny. */
  measurement: boolean;
  /** The surface's tools: what their calls are matched on and how rules for one speak to another. */
  tools: ToolCatalog;
}
