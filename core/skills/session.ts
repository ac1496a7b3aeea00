// The skills of one session: the catalogue the request names, and the skill
// in use. While a skill that lists allowed-tools is in use, only those tools
// (and the skill tool itself, to switch skills) may run; loading another
// skill, or one without the list, lifts the narrowing, and so does the end
// of the run (the model's answer to the request that used it).

import type { Skill } from "./discover.js";

const CATALOGUE_MAX_ENTRIES = 32;
const CATALOGUE_MAX_BYTES = 8192;
const DESCRIPTION_MAX_CHARS = 1024;

/** A description within the per-skill budget, counted in characters so CJK text is not cut three times sooner. */
function shortDescription(text: string): string {
  const chars = [...text];
  return chars.length <= DESCRIPTION_MAX_CHARS ? text : `${chars.slice(0, DESCRIPTION_MAX_CHARS - 3).join("")}...`;
}

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

  /**
   * Names and descriptions, one line each: what the request carries. Bounded
   * as Chord bounds its listing, since it rides on every request: a
   * description keeps at most 1024 characters (`...` included), at most 32
   * skills and 8 KiB are listed, and the rest are counted (`+N more skills
   * available`). Every skill can still be loaded by name.
   */
  catalogue(): string {
    const lines: string[] = [];
    let bytes = 0;
    for (const s of this.skills) {
      if (lines.length >= CATALOGUE_MAX_ENTRIES) break;
      const line = `- ${s.name}: ${shortDescription(s.description)}`;
      const size = Buffer.byteLength(line, "utf8") + 1;
      if (lines.length > 0 && bytes + size > CATALOGUE_MAX_BYTES) break;
      lines.push(line);
      bytes += size;
    }
    const more = this.skills.length - lines.length;
    if (more > 0) lines.push(`+${more} more skills available`);
    return lines.join("\n");
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
