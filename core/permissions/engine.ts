// The permission engine: a decision — allow, ask or deny — for one tool
// call, from the ordered rules and the policy mode. It reads nothing but
// file metadata (to know a path's other names).
//
// Evaluation:
//   * Rules are scanned last to first; the first whose tool glob matches the
//     exposed tool name and whose pattern matches the call's match value
//     (match-values.ts) decides. A call with several values (apply_patch,
//     delete) is decided per value and takes the strictest (deny > ask > allow).
//   * No match: Chord denies; Yuj keeps its normal behaviour (yuj-default.ts):
//     it allows, but asks for web_fetch and for MCP tools not marked read-only.
//   * Shell commands (command-rules.ts): judged as a whole with the compound
//     guard (a specific allow never covers `ls; rm -rf /`), and each program
//     they run on its own, found through wrappers, `bash -c` and the like;
//     what cannot be known from the text meets every deny and ask rule.
//   * Paths: a rule meets every name of the file (path-names.ts): as
//     written, re-rooted into the project, through symlinks, other hard
//     links; each name is decided and the strictest stands. An absolute
//     pattern inside the project is read relative to it.
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

import { decideCommand } from "./command-rules.js";
import { globMatch, isLiteral, isUniversal, literalValue } from "./glob.js";
import { matchTarget, type MatchKind, type MatchTarget, type PatchRole } from "./match-values.js";
import { hostMatches } from "./net.js";
import { pathNames, projectRoots, type Roots } from "./path-names.js";
import { defaultAskReason } from "./yuj-default.js";
import type { Decision, PermissionCall, PolicyOptions, Rule } from "./types.js";
import { describeRule, SEVERITY, stricter, VERB, type Scope, type ToolMatcher, type Verdict } from "./verdict.js";

/** Tools YOLO never waves through. */
export const PROTECTED_TOOLS: ReadonlySet<string> = new Set(["handoff", "delegate", "cancel", "done"]);
const EDIT_FAMILY: ReadonlySet<string> = new Set(["edit", "apply_patch", "udiff"]);
const TOOL_ALIASES: Readonly<Record<string, string>> = { patch: "apply_patch" };

/** The tool a rule names, legacy aliases resolved. */
const ruleTool = (rule: Rule): string => TOOL_ALIASES[rule.tool] ?? rule.tool;

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

export function evaluate(call: PermissionCall, rules: Rule[], opts: PolicyOptions): Decision {
  const applies = toolMatcher(rules, opts);
  const target = matchTarget(call, opts.surface);
  const finish = (v: Verdict): Decision => ({ ...v, matchValues: target.values });
  if (call.tool === "cancel") {
    const why = delegateDeniedEverywhere(rules, opts, applies);
    if (why !== undefined) return finish({ action: "deny", reason: `cancel is unavailable: ${why}` });
  }
  const roots = target.kind === "path" ? projectRoots(call.cwd) : undefined;
  const defaultAsk = opts.surface === "yuj" ? defaultAskReason(call.handler) : undefined;
  const scope: Scope = {
    rules,
    opts,
    applies,
    cwd: call.cwd,
    label: target.values.length > 1,
    ...(roots ? { roots } : {}),
    ...(defaultAsk ? { defaultAsk } : {}),
  };
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

function decidePatchPath(tool: string, written: string, role: PatchRole, scope: Scope): Verdict {
  let worst: Verdict | undefined;
  for (const name of namesOf(tool, written, scope)) worst = stricter(worst, decidePatchName(tool, name, written, role, scope));
  return worst!;
}

function decidePatchName(tool: string, path: string, written: string, role: PatchRole, scope: Scope): Verdict {
  const own = decideName(tool, path, written, scope);
  const coupled = role === "add" ? "write" : role === "delete" || role === "move_source" ? "delete" : undefined;
  if (coupled === undefined) return own;
  // Only rules naming write/delete themselves take part, not wildcards.
  const explicit = scope.rules.filter((r) => ruleTool(r) === coupled);
  const hit = scan(coupled, path, "path", explicit, () => true, scope.roots);
  if (!hit || SEVERITY[hit.action] <= SEVERITY[own.action]) return own;
  const what = role === "add" ? "added file" : role === "delete" ? "deleted file" : "moved-away file";
  return { action: hit.action, rule: hit, value: path, reason: `${VERB[hit.action]} by rule ${describeRule(hit)} (${what} ${JSON.stringify(path)}${aliasNote(path, written)})` };
}

function decideValue(tool: string, value: string, kind: MatchKind, scope: Scope): Verdict {
  if (kind === "command") return decideCommand(tool, value, scope);
  if (kind !== "path") return decideName(tool, value, value, scope, kind);
  let worst: Verdict | undefined;
  for (const name of namesOf(tool, value, scope)) worst = stricter(worst, decideName(tool, name, value, scope));
  return worst!;
}

/** The names a path rule may know the file by; only the written one when no path rule could refuse it. */
function namesOf(tool: string, written: string, scope: Scope): string[] {
  if (!scope.roots || written === "*") return [written];
  const fences = scope.rules.filter((r) => r.action !== "allow" && !isUniversal(r.pattern));
  const literalPaths = fences.filter((r) => isLiteral(r.pattern!)).map((r) => literalValue(r.pattern!));
  return pathNames(written, scope.cwd, { hardLinks: fences.some((r) => scope.applies(r, tool) || r.tool === "write" || r.tool === "delete"), literalPaths });
}

const aliasNote = (name: string, written: string): string => (name === written ? "" : `, a name of ${JSON.stringify(written)}`);

function decideName(tool: string, value: string, written: string, scope: Scope, kind: MatchKind = "path"): Verdict {
  const hit = scan(tool, value, kind, scope.rules, scope.applies, scope.roots);
  const shown = kind === "any" ? tool : `${tool} ${JSON.stringify(value)}`;
  const alias = aliasNote(value, written);
  if (hit) {
    const about = alias || scope.label ? ` (${shown}${alias})` : "";
    return { action: hit.action, rule: hit, value, reason: `${VERB[hit.action]} by rule ${describeRule(hit)}${about}` };
  }
  if (scope.opts.surface === "chord") return { action: "deny", value, reason: `no rule matches ${shown}${alias} (chord default: deny)` };
  if (scope.defaultAsk) return { action: "ask", value, reason: `no rule matches ${shown}${alias} (yuj default: ${scope.defaultAsk})` };
  return { action: "allow", value, reason: `no rule matches ${shown}${alias} (yuj default: allow)` };
}

/** Last to first: the first rule for this tool whose pattern covers the value. */
function scan(tool: string, value: string, kind: MatchKind, rules: readonly Rule[], applies: ToolMatcher, roots?: Roots): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!applies(rule, tool)) continue;
    if (isUniversal(rule.pattern)) return rule;
    const pattern = kind === "path" && roots ? inProject(rule.pattern!, roots) : rule.pattern!;
    if (kind === "host" ? hostMatches(pattern, value) : globMatch(pattern, value)) return rule;
  }
  return undefined;
}

/** An absolute path pattern inside the project, as the relative one path values use. */
function inProject(pattern: string, roots: Roots): string {
  for (const root of [roots.real, roots.abs]) {
    const prefix = root.endsWith("/") ? root : `${root}/`;
    if (pattern.startsWith(prefix)) return pattern.slice(prefix.length);
  }
  return pattern;
}
