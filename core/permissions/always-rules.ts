// The rules "allow always" can store for a call that asked. The stored rule
// covers exactly what was approved: its value with every `*`, `?` and `\`
// escaped, so approving `rm -f *.log` never allows `rm -f important.txt`.
// Broader choices are listed from exact to broad (`rm -f build.log`,
// `rm -f *.log`, `rm -f *`, `rm *`), each one kept only if it really lets
// the call through when added after the rules in force.

import { invocationsOf } from "../shell/invocations.js";
import { isCompound, parseShell } from "../shell/index.js";
import { evaluate, matchTarget } from "./engine.js";
import { escapeGlob, isLiteral, isUniversal } from "./glob.js";
import type { Decision, PermissionCall, PolicyOptions, Rule, ToolCatalog } from "./types.js";

/** The rule naming exactly the value that made the call ask. */
export function exactAllowRule(call: PermissionCall, decision: Pick<Decision, "matchValues" | "value">, tools: ToolCatalog): Rule {
  const { kind } = matchTarget(call, tools);
  const value = decision.value ?? decision.matchValues[0];
  if (kind === "any" || value === undefined) return { tool: call.tool, pattern: "*", action: "allow" };
  // Host patterns have their own syntax and a host has no wildcard characters.
  return { tool: call.tool, pattern: kind === "host" ? value : escapeGlob(value), action: "allow" };
}

/**
 * A suggested rule recorded by an older yuj, before patterns were escaped:
 * a specific pattern with wildcards was meant as the exact value, so it is
 * escaped now rather than stored as the glob it would read as.
 */
export function asExactRule(rule: Rule): Rule {
  const p = rule.pattern;
  if (p === undefined || isUniversal(p) || isLiteral(p)) return rule;
  return { ...rule, pattern: escapeGlob(p) };
}

/** Allow rules for the call from exact to broad, each one verified to cover it. */
export function alwaysRuleCandidates(call: PermissionCall, rules: readonly Rule[], policy: PolicyOptions): Rule[] {
  const strict: PolicyOptions = { ...policy, yolo: false, measurement: false };
  const decision = evaluate(call, [...rules], strict);
  const exact = exactAllowRule(call, decision, policy.tools);
  const { kind } = matchTarget(call, policy.tools);
  const value = decision.value ?? decision.matchValues[0] ?? "";
  const broader = kind === "command" ? commandPatterns(value) : kind === "path" ? pathPatterns(value) : [];
  const seen = new Set<string>();
  const out: Rule[] = [];
  for (const rule of [exact, ...broader.map((pattern): Rule => ({ tool: call.tool, pattern, action: "allow" }))]) {
    if (seen.has(rule.pattern!)) continue;
    seen.add(rule.pattern!);
    if (evaluate(call, [...rules, rule], strict).action === "allow") out.push(rule);
  }
  return out;
}

/** `rm -f build.log` → `rm -f *.log`, `rm -f *`, `rm *`; nothing broader for a chain or what cannot be judged. */
function commandPatterns(cmd: string): string[] {
  if (isCompound(cmd) || invocationsOf(cmd).some((i) => i.unresolved)) return [];
  const items = parseShell(cmd).items;
  const words = items[0]?.pipeline.stages[0]?.words.map((w) => w.raw) ?? [];
  if (words.length < 2) return [];
  const out: string[] = [];
  const last = words.at(-1)!;
  const ext = /^[^\s'"$`\\*?]*?(\.[A-Za-z0-9_-]+)$/.exec(last)?.[1];
  if (ext && ext !== last) out.push(`${words.slice(0, -1).map(escapeGlob).join(" ")} *${escapeGlob(ext)}`);
  for (let k = words.length - 1; k >= 1; k--) out.push(`${words.slice(0, k).map(escapeGlob).join(" ")} *`);
  return out;
}

/** `src/a/b.ts` → `src/a/*.ts`, `src/a/*`, `src/*`. */
function pathPatterns(p: string): string[] {
  const parts = p.split("/");
  const out: string[] = [];
  const file = parts.at(-1) ?? "";
  const dir = parts.slice(0, -1);
  const ext = /^.+?(\.[A-Za-z0-9_-]+)$/.exec(file)?.[1];
  const prefix = (segments: string[]) => segments.map(escapeGlob).join("/") + (segments.length ? "/" : "");
  if (ext) out.push(`${prefix(dir)}*${escapeGlob(ext)}`);
  for (let k = dir.length; k >= 1; k--) out.push(`${prefix(dir.slice(0, k))}*`);
  return out;
}
