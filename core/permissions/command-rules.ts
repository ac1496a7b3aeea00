// Rules over shell commands. A command is judged twice, and the stricter
// verdict stands:
//
//   * as a whole, by its text (the Chord way): the last rule whose pattern
//     matches decides. A specific allow never covers a command that chains
//     anything (`ls; rm x` under `ls *`), substitutes a command, or runs
//     something that cannot be known from its text; the scan goes on to
//     earlier rules. A universal allow (`*`, or none) still covers it, and so
//     does an exact one (no wildcard: the whole text, as "allow always"
//     stores it).
//   * program by program: every program it runs (core/shell/invocations.ts)
//     meets the rules on its own, named as it is looked up (`/bin/rm`, `\rm`,
//     `"rm"` → `rm`), behind its wrappers (`sudo rm x` also gives `rm x`) and
//     with every unknown stretch as a hole that may hold anything (`rm $f`
//     meets `rm *.log`). A program that cannot be known from the text (eval,
//     `$cmd`, `… | sh`, inline python) meets every deny and ask rule and no
//     specific allow. Only rules decide here; the defaults are the whole's.

import { invocationsOf, type Invocation } from "../shell/invocations.js";
import { isCompound, parseShell } from "../shell/index.js";
import { globMatch, globMatchesSome, HOLE, isUniversal } from "./glob.js";
import type { Rule } from "./types.js";
import { describeRule, isExactAllow, stricter, VERB, type Scope, type Verdict } from "./verdict.js";
import { gateReason } from "./yuj-default.js";

export function decideCommand(tool: string, cmd: string, scope: Scope): Verdict {
  const invocations = invocationsOf(cmd);
  const unknowable = invocations.some((i) => i.unresolved);
  const chains = unknowable || isCompound(cmd) || parseShell(cmd).substitutions.length > 0;
  const hits = invocations.map((inv) => ({ inv, rule: scanProgram(tool, inv, cmd, scope) }));

  const whole = scanWhole(tool, cmd, chains, scope);
  const shown = `${tool} ${JSON.stringify(cmd)}`;
  let verdict: Verdict;
  if (whole) verdict = { action: whole.action, rule: whole, reason: `${VERB[whole.action]} by rule ${describeRule(whole)}` };
  else if (scope.opts.surface === "chord") verdict = { action: "deny", reason: `no rule matches ${shown} (chord default: deny)` };
  else {
    // The gate asks about the programs no rule spoke to.
    const gate = gateReason(hits.filter((h) => !h.rule).map((h) => h.inv), scope.cwd);
    verdict =
      gate !== undefined
        ? { action: "ask", reason: `${gate} (Yuj approval gate: no rule matches ${shown})` }
        : { action: "allow", reason: `no rule matches ${shown} (yuj default: allow)` };
  }
  for (const { inv, rule } of hits) {
    if (!rule) continue;
    const why = inv.unresolved ? `: ${inv.unresolved.reason}, so every deny and ask rule meets it` : "";
    verdict = stricter(verdict, {
      action: rule.action,
      rule,
      reason: `${VERB[rule.action]} by rule ${describeRule(rule)} (segment ${JSON.stringify(inv.shown)}${why})`,
    });
  }
  return verdict;
}

/** Last to first: the rule that decides the command as a whole. */
function scanWhole(tool: string, cmd: string, chains: boolean, scope: Scope): Rule | undefined {
  for (let i = scope.rules.length - 1; i >= 0; i--) {
    const rule = scope.rules[i]!;
    if (!scope.applies(rule, tool)) continue;
    if (isUniversal(rule.pattern) || isExactAllow(rule, cmd)) return rule;
    if (rule.action === "allow" && chains) continue; // the compound guard
    if (globMatch(rule.pattern!, cmd)) return rule;
  }
  return undefined;
}

/** Last to first: the rule that speaks to one program of the command, if any. */
function scanProgram(tool: string, inv: Invocation, cmd: string, scope: Scope): Rule | undefined {
  for (let i = scope.rules.length - 1; i >= 0; i--) {
    const rule = scope.rules[i]!;
    if (!scope.applies(rule, tool)) continue;
    // An exact approval of the whole command covers each of its parts.
    if (isUniversal(rule.pattern) || isExactAllow(rule, cmd)) return rule;
    if (rule.action === "allow") {
      if (!inv.unresolved && globMatch(rule.pattern!, inv.shown)) return rule;
    } else if (inv.unresolved || meets(rule.pattern!, inv)) return rule;
  }
  return undefined;
}

/** A deny or ask pattern meets a program when some way it may run matches. */
function meets(pattern: string, inv: Invocation): boolean {
  if (globMatch(pattern, inv.shown) || globMatchesSome(pattern, inv.template)) return true;
  return inv.openEnded && globMatchesSome(pattern, [...inv.template, " ", HOLE]);
}
