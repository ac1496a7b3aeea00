// What the engine's parts pass each other: a verdict with the rule behind it,
// the rule scope of one evaluation, and how rules are named in reasons.

import { globMatch, isLiteral } from "./glob.js";
import type { Roots } from "./path-names.js";
import type { Action, PolicyOptions, Rule } from "./types.js";

export const SEVERITY: Readonly<Record<Action, number>> = { allow: 0, ask: 1, deny: 2 };
export const VERB: Readonly<Record<Action, string>> = { allow: "allowed", ask: "approval required", deny: "denied" };

export interface Verdict {
  action: Action;
  rule?: Rule;
  reason: string;
  /** The value that decided, when a call has several (paths of a patch, names of a file). */
  value?: string;
}

export type ToolMatcher = (rule: Rule, tool: string) => boolean;

export interface Scope {
  rules: readonly Rule[];
  opts: PolicyOptions;
  applies: ToolMatcher;
  cwd: string;
  /** The project directory on disk, when it exists: path rules also meet a file's other names. */
  roots?: Roots;
  /** Values are labelled in reasons when a call has more than one. */
  label: boolean;
  /** On Yuj, a call no rule matches asks for this reason instead of running (yuj-default.ts). */
  defaultAsk?: string;
}

/** A rule as the reasons show it: `{tool="bash", pattern="rm *", action="deny"} from <source>`. */
export function describeRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? "" : `, pattern=${JSON.stringify(rule.pattern)}`;
  const from = rule.source ? ` from ${rule.source}` : "";
  return `{tool=${JSON.stringify(rule.tool)}${pattern}, action=${JSON.stringify(rule.action)}}${from}`;
}

/** The first verdict unless the second is stricter. */
export function stricter(a: Verdict | undefined, b: Verdict): Verdict {
  return a === undefined || SEVERITY[b.action] > SEVERITY[a.action] ? b : a;
}

/** An allow whose pattern has no wildcard names one exact value (what "allow always" stores). */
export const isExactAllow = (rule: Rule, value: string): boolean =>
  rule.action === "allow" && rule.pattern !== undefined && isLiteral(rule.pattern) && globMatch(rule.pattern, value);
