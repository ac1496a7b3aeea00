// The skills of one session: the catalogue the request names, and the skill
// in use. While a skill that lists allowed-tools is in use, only those tools
// (and the skill tool itself, to switch skills) may run; loading another
// skill, or one without the list, lifts the narrowing, and so does the end
// of the run (the model's answer to the request that used it).

import type { Skill } from "./discover.js";

export class SkillSession {
  private active: Skill | undefined;
  readonly loaded = new Set<string>();

  constructor(readonly skills: readonly Skill[]) {}

  find(name: string): Skill | undefined {
    return this.skills.find((s) => s.name === name);
  }

  use(skill: Skill): void {
    this.active = skill;
    this.loaded.add(skill.name);
  }

  /** The run ended: no skill is in use any more (they stay loaded). */
  release(): void {
    this.active = undefined;
  }

  /** The skill whose allowed-tools narrow the tools now, if any. */
  narrowing(): Skill | undefined {
    return this.active?.allowedTools ? this.active : undefined;
  }

  /** The directories `read` may read although they are outside the project. */
  readRoots(): string[] {
    return this.skills.map((s) => s.dir);
  }

  /** Names and descriptions, one line each: what the request carries. */
  catalogue(): string {
    return this.skills.map((s) => `- ${s.name}: ${s.description}`).join("\n");
  }

  /** The Yuj system prompt's section: the catalogue with each skill's SKILL.md path. */
  promptSection(): string {
    if (this.skills.length === 0) return "";
    const lines = this.skills.map((s) => `- ${s.name}: ${s.description} (${s.file})`);
    return (
      "# Skills\n\nThese skills hold instructions for particular tasks. When a task matches one, read its SKILL.md with the read tool " +
      "(the absolute path is readable) and follow it; files it names are in the same directory.\n\n" +
      lines.join("\n")
    );
  }
}
