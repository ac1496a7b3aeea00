// Agent files written with an `[agent]` table, the layout other Yuj
// installations use:
//
//   [agent]
//   model_profile = "_base"
//   tools = ["read", "bash", "done"]
//   system_prompt_file = "prompts/probe.md"
//   max_turns = 5
//   read_only = true
//
// read as yuj's flat fields: the prompt file is read from beside the agent
// file, a missing description gets a plain one, and model_profile may name
// only the profile a child runs on here (its parent's, `_base` as shipped).

import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/** The profile every child runs on in yuj: its parent's, which ships as `_base`. */
const SHIPPED_PROFILE = "_base";

type Flattened = { fields: Record<string, unknown> } | { error: string };

/** Flat fields for an `[agent]`-table file, or the fields as they are; an error names what cannot be used. */
export function flattenAgentTable(file: string, raw: Record<string, unknown>, stem: string): Flattened {
  const table = raw.agent;
  if (typeof table !== "object" || table === null || Array.isArray(table)) return { fields: raw };
  const others = Object.keys(raw).filter((k) => k !== "agent");
  if (others.length > 0) return { error: `fields ${others.join(", ")} sit outside the [agent] table; put every field in it, or drop the table` };
  const { model_profile: profile, system_prompt_file: promptFile, ...fields } = table as Record<string, unknown>;
  if (profile !== undefined && profile !== SHIPPED_PROFILE) {
    return { error: `field model_profile: "${String(profile)}": a child runs on its parent's profile in yuj; remove the field or set it to "${SHIPPED_PROFILE}"` };
  }
  if (promptFile !== undefined) {
    const prompt = readPromptFile(file, promptFile);
    if (typeof prompt !== "string") return prompt;
    fields.system_prompt ??= prompt;
  }
  fields.description ??= `the ${stem} agent`;
  return { fields };
}

function readPromptFile(file: string, promptFile: unknown): string | { error: string } {
  if (typeof promptFile !== "string" || promptFile.trim() === "") return { error: "field system_prompt_file: a path to the prompt file, relative to the agent file" };
  const dir = dirname(file);
  const abs = resolve(dir, promptFile);
  const rel = relative(dir, abs);
  // The prompt sits with the agent files; a path out of their folder is refused.
  if (isAbsolute(promptFile) || rel.startsWith("..")) return { error: `field system_prompt_file: ${promptFile} is outside the agent file's folder` };
  try {
    return readFileSync(abs, "utf8");
  } catch {
    return { error: `field system_prompt_file: cannot read ${promptFile} (beside ${file})` };
  }
}
