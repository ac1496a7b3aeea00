// Chord's `skill(name, args?)`: loads a discovered skill's instructions (the
// SKILL.md body) on demand, with the directory its other files are in. From
// then on the skill is in use: its allowed-tools, if it lists them, narrow
// the tools. The permission match value is the name. The result names the
// skill, its SKILL.md, the folder relative paths resolve against and the
// arguments in tags, as Chord's do, and fills in the body's
// `${CHORD_SKILL_DIR}` and `${CHORD_SKILL_ARGS}`.

import { str } from "../lib/view.js";
import * as fs from "node:fs";
import { z } from "zod";
import { skillBody } from "../../core/skills/discover.js";
import { markSkillLoaded } from "../lib/skill-files.js";
import { textTarget } from "../../core/permissions/match-target.js";
import { fail, ok, type ToolEffect, type ToolHandler } from "../../core/tool-types.js";

const schema = z.object({ name: z.string().min(1), args: z.string().optional() });

export const skillTool: ToolHandler<typeof schema> = {
  id: "skill",
  schema,
  effects: new Set<ToolEffect>(["inspect"]),
  role: "skill",
  matchValue: (args) => textTarget(args.name),
  view: { card: "foldable", summary: (args) => str(args, "name") ?? "" },
  async run(args, ctx) {
    const skills = ctx.skills;
    const skill = skills?.find(args.name);
    if (!skills || !skill) {
      const names = skills?.skills.map((s) => s.name).join(", ") || "none are installed";
      return fail(`ERROR: no skill named ${JSON.stringify(args.name)}; the skills are: ${names}`);
    }
    let body: string;
    try {
      body = skillBody(skill);
    } catch (err) {
      return fail(`ERROR: the skill ${skill.name} could not be read: ${(err as Error).message}`);
    }
    markSkillLoaded(ctx, skill);
    const files = fs.readdirSync(skill.dir).filter((f) => f !== "SKILL.md");
    const filled = body.replaceAll("${CHORD_SKILL_DIR}", skill.dir).replaceAll("${CHORD_SKILL_ARGS}", args.args ?? "");
    const lines = [
      "<skill>",
      `<name>${skill.name}</name>`,
      `<path>${skill.file}</path>`,
      `<root>${skill.dir}</root>`,
      `<relative_paths_base>${skill.dir}</relative_paths_base>`,
      ...(args.args ? [`<args>${args.args}</args>`] : []),
      // Chord's own note, word for word: models trained on Chord know it.
      "<notes>Relative paths from the skill content resolve against <root>. Read referenced files only when needed; do not guess other entry points if the skill already provides one.</notes>",
      "<instructions>",
      filled,
      "</instructions>",
    ];
    if (files.length) lines.push(`Files in the skill's directory: ${files.join(", ")}`);
    if (skill.allowedTools) lines.push(`While this skill is in use only these tools run: ${skill.allowedTools.join(", ")}`);
    lines.push("</skill>");
    const bodyLines = body.split("\n").length;
    return ok(lines.join("\n"), { kind: "text", text: `✓ skill ${skill.name} loaded: ${bodyLines} lines of instructions from ${skill.file}` });
  },
};
