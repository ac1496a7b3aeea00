// The permission engine (digest 4.1, 4.2): a pure decision — allow, ask or
// deny — for one tool call, from the ordered rules and the policy mode.
//
// Evaluation:
//   * Rules are scanned last to first; the first whose tool glob matches the
//     exposed tool name and whose pattern matches the call's match value
//     (match-values.ts) decides. A call with several values (apply_patch,
//     delete) is decided per value and takes the strictest (deny > ask > allow).
//   * No match: Chord denies; Yuj keeps its normal behaviour (yuj-default.ts).
//   * Compound shell guard: an allow rule with a specific pattern never covers
//     a command that chains anything (`ls; rm -rf /` under `ls *`); the scan
//     goes on to earlier rules. A universal pattern (`*`, or none) still does.
//     Beyond the digest, a command substitution (`ls $(rm x)`) counts as
//     chaining too.
//   * Deliberate extension, safer than the digest: on a compound command an
//     ask or deny rule also matches when its pattern matches one segment, so
//     `cd x && rm -rf y` still meets `rm *` ask behind a `*` allow.
//   * Edit family: a rule naming edit also governs apply_patch and udiff (and
//     each governs the others) while the called tool has no rule naming it.
//     `patch` is the legacy name of apply_patch.
//   * apply_patch: Add paths also meet explicit `write` rules, Delete and Move
//     sources explicit `delete` rules; the stricter decision stands.
//   * cancel is denied while delegate is denied everywhere.
//   * question: ask becomes allow. handoff, done: ask becomes allow (their
//     built-in confirmations still apply).
//   * YOLO turns the remaining asks into allows, except for the protected
//     tools (handoff, delegate, cancel, done), which under YOLO are granted only
//     by a rule naming them: a broad `*` allow or ask is skipped for them.
//   * Measurement runs turn every remaining ask into a deny.

import { commandsOf, isCompound, MAX_NESTING, parseShell, unwrap, type Word } from "../shell/index.js";
import { globMatch, isLiteral, isUniversal } from "./glob.js";
import { matchTarget, type MatchKind, type MatchTarget, type PatchRole } from "./match-values.js";
import { hostMatches } from "./net.js";
import type { Action, Decision, PermissionCall, PolicyOptions, Rule } from "./types.js";
import { yujDefaultAsk } from "./yuj-default.js";

/** Tools YOLO never waves through. */
export const PROTECTED_TOOLS: ReadonlySet<string> = new Set(["handoff", "delegate", "cancel", "done"]);
const EDIT_FAMILY: ReadonlySet<string> = new Set(["edit", "apply_patch", "udiff"]);
const TOOL_ALIASES: Readonly<Record<string, string>> = { patch: "apply_patch" };
const SEVERITY: Readonly<Record<Action, number>> = { allow: 0, ask: 1, deny: 2 };
const VERB: Readonly<Record<Action, string>> = { allow: "allowed", ask: "approval required", deny: "denied" };

/** The tool a rule names, legacy aliases resolved. */
export const ruleTool = (rule: Rule): string => TOOL_ALIASES[rule.tool] ?? rule.tool;

/** A rule as the reasons show it: `{tool="bash", pattern="rm *", action="deny"} from <source>`. */
export function describeRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? "" : `, pattern=${JSON.stringify(rule.pattern)}`;
  const from = rule.source ? ` from ${rule.source}` : "";
  return `{tool=${JSON.stringify(rule.tool)}${pattern}, action=${JSON.stringify(rule.action)}}${from}`;
}

export type ToolMatcher = (rule: Rule, tool: string) => boolean;

/** Whether a rule speaks to calls of a tool: tool glob, edit-family coupling, YOLO protection. */
export function toolMatcher(rules: readonly Rule[], opts: PolicyOptions): ToolMatcher {
  const named = new Set(rules.map(ruleTool).filter(isLiteral));
  return (rule, tool) => {
    const name = ruleTool(rule);
    if (opts.yolo && PROTECTED_TOOLS.has(tool) && name !== tool && rule.action !== "deny") return false;
    if (name === tool || globMatch(name, tool)) return true;
    return EDIT_FAMILY.has(tool) && EDIT_FAMILY.has(name) && !named.has(tool);
  };
}

/** The last rule that speaks to a tool, whatever its pattern. */
export function lastToolRule(tool: string, rules: readonly Rule[], applies: ToolMatcher): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) if (applies(rules[i]!, tool)) return rules[i];
  return undefined;
}

/** Why delegate is denied for every target (so cancel is too), or undefined. */
export function delegateDeniedEverywhere(rules: readonly Rule[], opts: PolicyOptions, applies: ToolMatcher): string | undefined {
  const last = lastToolRule("delegate", rules, applies);
  if (!last) return opts.surface === "chord" ? "no rule allows delegate (chord default: deny)" : undefined;
  return last.action === "deny" && isUniversal(last.pattern) ? `delegate is denied by rule ${describeRule(last)}` : undefined;
}

interface Verdict {
  action: Action;
  rule?: Rule;
  reason: string;
}

interface Scope {
  rules: readonly Rule[];
  opts: PolicyOptions;
  applies: ToolMatcher;
  cwd: string;
  /** Values are labelled in reasons when a call has more than one. */
  label: boolean;
}

export function evaluate(call: PermissionCall, rules: Rule[], opts: PolicyOptions): Decision {
  const applies = toolMatcher(rules, opts);
  const target = matchTarget(call, opts.surface);
  const finish = (v: Verdict): Decision => ({ ...v, matchValues: target.values });
  if (call.tool === "cancel") {
    const why = delegateDeniedEverywhere(rules, opts, applies);
    if (why !== undefined) return finish({ action: "deny", reason: `cancel is unavailable: ${why}` });
  }
  const scope: Scope = { rules, opts, applies, cwd: call.cwd, label: target.values.length > 1 };
  return finish(adjust(call.tool, decideTarget(call.tool, target, scope), opts));
}

/** Tool-specific normalisations, YOLO and measurement, applied to the rules' verdict. */
function adjust(tool: string, v: Verdict, opts: PolicyOptions): Verdict {
  if (v.action !== "ask") return v;
  if (tool === "question") return { ...v, action: "allow", reason: `allowed: ask is treated as allow for question (${v.reason})` };
  if (tool === "handoff" || tool === "done") {
    return { ...v, action: "allow", reason: `allowed: ask only makes ${tool} available (${v.reason})` };
  }
  if (opts.yolo && !PROTECTED_TOOLS.has(tool)) return { ...v, action: "allow", reason: `allowed by YOLO, which skips the ask (${v.reason})` };
  if (opts.measurement) return { ...v, action: "deny", reason: `denied: measurement runs treat ask as deny (${v.reason})` };
  return v;
}

function decideTarget(tool: string, target: MatchTarget, scope: Scope): Verdict {
  let worst: Verdict | undefined;
  if (target.ops) {
    for (const op of target.ops) worst = stricter(worst, decidePatchPath(tool, op.path, op.role, scope));
  } else {
    for (const value of target.values) worst = stricter(worst, decideValue(tool, value, target.kind, scope));
  }
  return worst ?? decideValue(tool, "*", "any", scope);
}

/** The first verdict unless the second is stricter. */
function stricter(a: Verdict | undefined, b: Verdict): Verdict {
  return a === undefined || SEVERITY[b.action] > SEVERITY[a.action] ? b : a;
}

function decidePatchPath(tool: string, path: string, role: PatchRole, scope: Scope): Verdict {
  const own = decideValue(tool, path, "path", scope);
  const coupled = role === "add" ? "write" : role === "delete" || role === "move_source" ? "delete" : undefined;
  if (coupled === undefined) return own;
  // Only rules naming write/delete themselves take part, not wildcards.
  const explicit = scope.rules.filter((r) => ruleTool(r) === coupled);
  const hit = scan(coupled, path, "path", explicit, () => true);
  if (!hit || SEVERITY[hit.rule.action] <= SEVERITY[own.action]) return own;
  const what = role === "add" ? "added file" : role === "delete" ? "deleted file" : "moved-away file";
  return { action: hit.rule.action, rule: hit.rule, reason: `${VERB[hit.rule.action]} by rule ${describeRule(hit.rule)} (${what} ${JSON.stringify(path)})` };
}

function decideValue(tool: string, value: string, kind: MatchKind, scope: Scope): Verdict {
  const hit = scan(tool, value, kind, scope.rules, scope.applies);
  const shown = kind === "any" ? tool : `${tool} ${JSON.stringify(value)}`;
  if (hit) {
    const about = hit.segment !== undefined ? ` (segment ${JSON.stringify(hit.segment)})` : scope.label ? ` (${shown})` : "";
    return { action: hit.rule.action, rule: hit.rule, reason: `${VERB[hit.rule.action]} by rule ${describeRule(hit.rule)}${about}` };
  }
  if (scope.opts.surface === "chord") return { action: "deny", reason: `no rule matches ${shown} (chord default: deny)` };
  const gate = yujDefaultAsk({ kind, values: [value] }, scope.cwd);
  if (gate !== undefined) return { action: "ask", reason: `${gate} (Yuj approval gate: no rule matches ${shown})` };
  return { action: "allow", reason: `no rule matches ${shown} (yuj default: allow)` };
}

interface Hit {
  rule: Rule;
  /** Set when an ask/deny rule matched one segment of a compound command. */
  segment?: string;
}

/** Last to first: the first rule for this tool whose pattern covers the value. */
function scan(tool: string, value: string, kind: MatchKind, rules: readonly Rule[], applies: ToolMatcher): Hit | undefined {
  const shell = kind === "command" ? lazyShell(value) : undefined;
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!applies(rule, tool)) continue;
    const universal = isUniversal(rule.pattern);
    if (universal) return { rule };
    if (shell && rule.action === "allow" && shell.compound()) continue; // the compound guard
    if (kind === "host" ? hostMatches(rule.pattern, value) : globMatch(rule.pattern!, value)) return { rule };
    if (shell && rule.action !== "allow" && shell.compound()) {
      const segment = shell.segments().find((s) => globMatch(rule.pattern!, s));
      if (segment !== undefined) return { rule, segment };
    }
  }
  return undefined;
}

/**
 * Parses a command only when a rule needs to know its structure. A command
 * substitution counts as chaining here too: `ls $(rm -rf x)` runs rm as
 * surely as `ls; rm -rf x` does, so `ls *` must not vouch for it.
 */
function lazyShell(cmd: string): { compound(): boolean; segments(): string[] } {
  let compound: boolean | undefined;
  let segments: string[] | undefined;
  return {
    compound: () => (compound ??= isCompound(cmd) || parseShell(cmd).substitutions.length > 0),
    segments: () => (segments ??= segmentsOf(cmd, 0)),
  };
}

/**
 * Each simple command's words as written, substitutions included, and the
 * command behind a wrapper as well (`xargs rm x` also gives `rm x`).
 */
function segmentsOf(cmd: string, depth: number): string[] {
  const p = parseShell(cmd);
  const text = (words: readonly Word[]) => words.map((w) => w.raw).join(" ");
  const own = commandsOf(p)
    .flatMap((c) => [text(c.words), text(unwrap(c.words))])
    .filter((s, i, all) => s !== "" && all.indexOf(s) === i);
  if (depth >= MAX_NESTING) return own;
  return [...own, ...p.substitutions.flatMap((s) => segmentsOf(s, depth + 1))];
}
