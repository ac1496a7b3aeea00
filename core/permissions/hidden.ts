// Tools the rules take out of the model's tool list:
//   * a tool whose last name-matching rule is a deny with a universal pattern
//     (`*` or none) — no call of it could ever run;
//   * on the Chord surface, a tool no rule names at all (every call would
//     meet the default deny) — an extension of the same idea;
//   * done and handoff whenever they are denied (allow and ask just make them
//     available);
//   * cancel while delegate is denied everywhere.
// Rules are read as evaluate() reads them: edit-family coupling, the `patch`
// alias, and under YOLO the protected tools seeing only rules naming them.

import { delegateDeniedEverywhere, evaluate, lastToolRule, toolMatcher } from "./engine.js";
import { isUniversal } from "./glob.js";
import type { PolicyOptions, Rule } from "./types.js";

export function hiddenTools(toolNames: Iterable<string>, rules: Rule[], opts: PolicyOptions): Set<string> {
  const applies = toolMatcher(rules, opts);
  const hidden = new Set<string>();
  for (const name of toolNames) {
    if (name === "done" || name === "handoff") {
      const d = evaluate({ tool: name, handler: name, args: {}, cwd: "/" }, rules, opts);
      if (d.action === "deny") hidden.add(name);
      continue;
    }
    if (name === "cancel" && delegateDeniedEverywhere(rules, opts, applies) !== undefined) {
      hidden.add(name);
      continue;
    }
    const last = lastToolRule(name, rules, applies);
    if (last ? last.action === "deny" && isUniversal(last.pattern) : opts.surface === "chord") hidden.add(name);
  }
  return hidden;
}
