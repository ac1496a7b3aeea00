// While a skill that lists allowed-tools is in use, only those tools run
// (and the skill tool, so another skill can be loaded, and the finishing
// tools). Names are matched without case and without a `(…)` scope, as
// skills written for other agents spell them (`Bash(git:*)`, `Read`); Bash
// and shell stand for each other, as the two surfaces name the shell.

import type { Guard } from "../../core/guards/types.js";
import type { SkillSession } from "../../core/skills/session.js";

const SAME: Record<string, string[]> = { bash: ["shell"], shell: ["bash"] };

export function skillToolsGuard(skills: SkillSession): Guard {
  return {
    name: "skill-tools",
    before(call) {
      const skill = skills.narrowing();
      if (!skill || call.role === "skill" || call.role === "finish") return undefined;
      const allowed = new Set(skill.allowedTools!.flatMap((t) => {
        const name = t.replace(/\(.*$/, "").trim().toLowerCase();
        return [name, ...(SAME[name] ?? [])];
      }));
      if (allowed.has(call.tool.toLowerCase())) return undefined;
      return `ERROR: ${call.tool} is not among the tools the skill ${skill.name} allows while it is in use (${skill.allowedTools!.join(", ")}); use one of those, or load another skill`;
    },
  };
}
