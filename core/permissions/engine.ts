// The permission engine: a decision — allow, ask or deny — for one tool
// call, from the ordered rules and the policy mode. It reads nothing but
// file metadata (to know a path's other names).
//
// Evaluation:
//   * Rules are scanned last to first; the first whose tool glob matches the
//     exposed tool name and whose pattern matches the call's match value
//     (the tool's own, match-target.ts) decides. A call with several values
//     (a patch, a delete) is decided per value and takes the strictest
//     (deny > ask > allow).
//   * No match: Chord denies; Yuj keeps its normal behaviour (yuj-default.ts):
//     it allows, but asks for a tool that says so (web_fetch, MCP tools not
//     marked read-only).
//   * Shell commands (command-rules.ts): judged as a whole with the compound
//     guard (a specific allow never covers `ls; rm -rf /`), and each program
//     they run on its own, found through wrappers, `bash -c` and the like;
//     what cannot be known from the text meets every deny and ask rule.
//   * Paths: a rule meets every name of the file (path-names.ts): as
//     written, re-rooted into the project, through symlinks, other hard
//     links; each name is decided and the strictest stands. An absolute
//     pattern inside the project is read relative to it.
//   * The edit family: a rule naming one edit tool also governs the others
//     while the called tool has no rule naming it. A tool's older names
//     (aliases) in a rule mean the tool.
//   * Patches: added files also meet explicit rules of the write tools,
//     deleted files and move sources those of the delete tools; the stricter
//     decision stands.
//   * A tool that asks the operator itself: ask becomes allow. A finish tool:
//     ask becomes allow (its own checks still apply).
//   * YOLO turns the remaining asks into allows, except for the guarded tools
//     (finishing, orchestrating), which under YOLO are granted only by a
//     rule naming them: a broad `*` allow or ask is skipped for them.
//   * Measurement runs turn every remaining ask into a deny.

import { decideCommand } from "./command-rules.js";
import { globMatch, isLiteral, isUniversal, literalValue } from "./glob.js";
import { cleanPath } from "./clean-path.js";
import { ANY, type MatchKind, type MatchTarget, type PatchRole } from "./match-target.js";
import { hostMatches } from "./net.js";
import { pathNames, projectRoots, type Roots } from "./path-names.js";
import type { Decision, PermissionCall, PolicyOptions, Rule, ToolCatalog, ToolRuleFacts } from "./types.js";
import { describeRule, SEVERITY, stricter, VERB, type Scope, type ToolMatcher, type Verdict } from "./verdict.js";

export type { ToolMatcher };

const UNKNOWN: ToolRuleFacts = { matchValue: () => ANY, aliases: [], guarded: false };

/** The facts of an exposed name; a name the surface does not declare has none. */
export const factsOf = (tools: ToolCatalog, name: string): ToolRuleFacts => tools.get(name) ?? UNKNOWN;

/** The tool a rule names, older names resolved. */
function ruleTool(rule: Rule, tools: ToolCatalog): string {
  if (tools.has(rule.tool)) return rule.tool;
  for (const [name, facts] of tools) if (facts.aliases.includes(rule.tool)) return name;
  return rule.tool;
}

/** Whether a rule speaks to calls of a tool: tool glob, edit-family coupling, YOLO's guarded tools. */
export function toolMatcher(rules: readonly Rule[], opts: PolicyOptions): ToolMatcher {
  const named = new Set(rules.map((r) => ruleTool(r, opts.tools)).filter(isLiteral));
  const isEdit = (name: string) => factsOf(opts.tools, name).family === "edit";
  return (rule, tool) => {
    const name = ruleTool(rule, opts.tools);
    if (opts.yolo && factsOf(opts.tools, tool).guarded && name !== tool && rule.action !== "deny") return false;
    if (name === tool || globMatch(name, tool)) return true;
    return isEdit(tool) && isEdit(name) && !named.has(tool);
  };
}

/** The last rule that speaks to a tool, whatever its pattern. */
export function lastToolRule(tool: string, rules: readonly Rule[], applies: ToolMatcher): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) if (applies(rules[i]!, tool)) return rules[i];
  return undefined;
}

/** The values a call is matched on: the tool's own, paths made repository-relative. */
export function matchTarget(call: PermissionCall, tools: ToolCatalog): MatchTarget {
  const target = factsOf(tools, call.tool).matchValue(call.args, call.cwd, call.sessionDir);
  if (target.kind !== "path") return target;
  const clean = (p: string) => (p === "*" ? p : cleanPath(p, call.cwd));
  return {
    kind: "path",
    values: [...new Set(target.values.map(clean))],
    ...(target.ops ? { ops: target.ops.map((o) => ({ path: clean(o.path), role: o.role })) } : {}),
  };
}

export function evaluate(call: PermissionCall, rules: Rule[], opts: PolicyOptions): Decision {
  const target = matchTarget(call, opts.tools);
  return evaluateTarget(call.tool, call.cwd, target, rules, opts);
}

/** The decision for a match target already known (a search asking whether a file may be read). */
export function evaluateTarget(tool: string, cwd: string, target: MatchTarget, rules: Rule[], opts: PolicyOptions): Decision {
  const applies = toolMatcher(rules, opts);
  const roots = target.kind === "path" ? projectRoots(cwd) : undefined;
  const defaultAsk = opts.surface === "yuj" ? factsOf(opts.tools, tool).defaultAsk : undefined;
  const scope: Scope = {
    rules,
    opts,
    applies,
    cwd,
    label: target.values.length > 1,
    ...(roots ? { roots } : {}),
    ...(defaultAsk ? { defaultAsk } : {}),
  };
  return { ...adjust(tool, decideTarget(tool, target, scope), opts), matchValues: target.values };
}

/** Tool-specific normalisations, YOLO and measurement, applied to the rules' verdict. */
function adjust(tool: string, v: Verdict, opts: PolicyOptions): Verdict {
  if (v.action !== "ask") return v;
  const facts = factsOf(opts.tools, tool);
  if (facts.ask === "allow") return { ...v, action: "allow", reason: `allowed: ask is treated as allow for ${tool} (${v.reason})` };
  if (facts.ask === "available") {
    return { ...v, action: "allow", reason: `allowed: ask only makes ${tool} available (${v.reason})` };
  }
  if (opts.yolo && !facts.guarded) return { ...v, action: "allow", reason: `allowed by YOLO, which skips the ask (${v.reason})` };
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
  const coupled = role === "add" ? "write" : role === "remove" || role === "move_source" ? "delete" : undefined;
  if (coupled === undefined) return own;
  // Only rules naming a write/delete tool itself take part, not wildcards.
  const tools = scope.opts.tools;
  const explicit = scope.rules.filter((r) => factsOf(tools, ruleTool(r, tools)).family === coupled);
  const hit = scan(tool, path, "path", explicit, () => true, scope.roots);
  if (!hit || SEVERITY[hit.action] <= SEVERITY[own.action]) return own;
  const what = role === "add" ? "added file" : role === "remove" ? "deleted file" : "moved-away file";
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
  const family = (r: Rule) => factsOf(scope.opts.tools, ruleTool(r, scope.opts.tools)).family;
  const changesFiles = (r: Rule) => family(r) === "write" || family(r) === "delete";
  return pathNames(written, scope.cwd, { hardLinks: fences.some((r) => scope.applies(r, tool) || changesFiles(r)), literalPaths });
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
