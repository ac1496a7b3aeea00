// Tools the rules take out of the model's tool list:
//   * a tool whose last name-matching rule is a deny with a universal pattern
//     (`*` or none) — no call of it could ever run;
//   * on the Chord surface, a tool no rule names at all (every call would
//     meet the default deny) — an extension of the same idea;
//   * a finish tool whenever it is denied (allow and ask just make it
//     available).
// Rules are read as evaluate() reads them: edit-family coupling, older
// names, and under YOLO the guarded tools seeing only rules naming them.

import { evaluate, factsOf, lastToolRule, toolMatcher } from "./engine.js";
import { isUniversal } from "./glob.js";
import type { PolicyOptions, Rule } from "./types.js";

export function hiddenTools(toolNames: Iterable<string>, rules: Rule[], opts: PolicyOptions): Set<string> {
  const applies = toolMatcher(rules, opts);
  const hidden = new Set<string>();
  for (const name of toolNames) {
    if (factsOf(opts.tools, name).ask === "available") {
      const d = evaluate({ tool: name, args: {}, cwd: "/" }, rules, opts);
      if (d.action === "deny") hidden.add(name);
      continue;
    }
    const last = lastToolRule(name, rules, applies);
    if (last ? last.action === "deny" && isUniversal(last.pattern) : opts.surface === "chord") hidden.add(name);
  }
  return hidden;
}
