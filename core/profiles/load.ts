// Profiles are data: which tools a surface exposes, under which names, with
// which descriptions, when each is on, and how many at most. This module reads
// a profile's TOML, checks it against the handler registry, and turns it into
// the tool list a request carries.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { EDIT_FORMATS } from "../config/schema.js";
import type { ToolRegistry } from "../tool-types.js";
import { conditionSchema, profileToolSchema, type ProfileTool } from "./tool-entry.js";
import type { CapGroup } from "./cap.js";

const profileFileSchema = z.strictObject({
  profile: z.strictObject({
    name: z.string().min(1),
    description: z.string().default(""),
    edit_format: z.enum(EDIT_FORMATS).default("exact"),
    // A parameter the schema does not declare: "refuse" always refuses the
    // call; "setting" follows [tools].schema_validation (refused only under reject).
    undeclared_params: z.enum(["refuse", "setting"]).default("setting"),
    // How a finished background job is told to the model: yuj's one line,
    // or Chord's `[Background job … finished]` block with the output's tail.
    job_notice: z.enum(["yuj", "chord"]).default("yuj"),
  }),
  capacity: z
    .strictObject({
      max_tools: z.number().int().positive().default(8),
      keep: z
        .array(z.strictObject({ tools: z.array(z.string().min(1)).min(1), when: z.array(conditionSchema).default(["always"]) }))
        .default([]),
      // Deferred loading: the tools the first request carries (exposed names; those not enabled are skipped).
      active_default: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  // Code mode: the tools a cell calls as Python functions (exposed names).
  code_mode: z.strictObject({ functions: z.array(z.string().min(1)).default([]) }).prefault({}),
});

const toolSchemasFileSchema = z.strictObject({
  tools: z.record(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), profileToolSchema),
});

export type { ProfileTool };

export interface Profile {
  name: string;
  description: string;
  dir: string;
  editFormat: (typeof EDIT_FORMATS)[number];
  /** How a call naming a parameter the schema does not declare is met. */
  undeclaredParams: "refuse" | "setting";
  /** The words of the notice that a background job finished. */
  jobNotice: "yuj" | "chord";
  maxTools: number;
  /** The order in which enabled tools claim the max_tools places (cap.ts). */
  capOrder: CapGroup[];
  /** Every tool the profile declares, in the order the model is sent them. */
  tools: ProfileTool[];
  /** Deferred loading: what the first request carries besides the tools outside the count. */
  activeDefault: string[];
  /** Code mode: the tools a cell calls as functions. */
  cellFunctions: string[];
}

export class ProfileError extends Error {
  override name = "ProfileError";
}

export function loadProfile(profilesRoot: string, name: string): Profile {
  const dir = join(profilesRoot, name);
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || !existsSync(join(dir, "profile.toml"))) {
    throw new ProfileError(
      `unknown profile "${name}": no ${join(dir, "profile.toml")}. ` +
        `Use --profile with a folder name under ${profilesRoot} (the default is _base).`,
    );
  }
  const meta = readToml(join(dir, "profile.toml"), profileFileSchema);
  const schemas = readToml(join(dir, "tool_schemas.toml"), toolSchemasFileSchema);
  const tools = Object.entries(schemas.tools).map(([exposed, entry]) => ({
    ...entry,
    name: exposed,
  }));
  return {
    name,
    description: meta.profile.description,
    dir,
    editFormat: meta.profile.edit_format,
    undeclaredParams: meta.profile.undeclared_params,
    jobNotice: meta.profile.job_notice,
    maxTools: meta.capacity.max_tools,
    capOrder: meta.capacity.keep,
    tools,
    activeDefault: meta.capacity.active_default,
    cellFunctions: meta.code_mode.functions,
  };
}

/**
 * Checks that every tool the profile declares has a handler and that the
 * declared parameters are exactly the handler's, and that description files
 * exist. Fails on the first problem with a message that names it.
 */
export function checkProfile(profile: Profile, registry: ToolRegistry, descMode: string): void {
  for (const tool of profile.tools) {
    const handler = registry.get(tool.handler);
    const where = `profile ${profile.name}, tool ${tool.name}`;
    if (!handler) {
      throw new ProfileError(`${where}: no handler "${tool.handler}" is registered`);
    }
    const declared = Object.keys(tool.params).sort();
    const actual = [...(handler.declared?.params ?? Object.keys(handler.schema.shape))].sort();
    if (declared.join(",") !== actual.join(",")) {
      throw new ProfileError(
        `${where}: params [${declared.join(", ")}] do not match handler ` +
          `"${tool.handler}" parameters [${actual.join(", ")}]`,
      );
    }
    const descFile = descriptionPath(profile, tool, descMode);
    if (!existsSync(descFile)) throw new ProfileError(`${where}: missing description ${descFile}`);
  }
  checkCapOrder(profile);
  checkNamed(profile, "[capacity].active_default", profile.activeDefault);
  checkNamed(profile, "[code_mode].functions", profile.cellFunctions);
}

/** A list of exposed names in profile.toml names only tools the profile declares. */
function checkNamed(profile: Profile, where: string, names: readonly string[]): void {
  const declared = new Set(profile.tools.map((t) => t.name));
  const unknown = names.find((n) => !declared.has(n));
  if (unknown === undefined) return;
  throw new ProfileError(
    `profile ${profile.name}, ${where} names "${unknown}", which tool_schemas.toml does not declare; ` +
      `remove it or use one of: ${[...declared].join(", ")}`,
  );
}

/** Every tool the max_tools order names is one the profile declares (a typo would silently do nothing). */
function checkCapOrder(profile: Profile): void {
  const declared = new Set(profile.tools.map((t) => t.name));
  for (const group of profile.capOrder) {
    const unknown = group.tools.find((n) => !declared.has(n));
    if (unknown !== undefined) {
      throw new ProfileError(
        `profile ${profile.name}, [[capacity.keep]] names "${unknown}", which tool_schemas.toml does not declare; ` +
          `remove it or use one of: ${[...declared].join(", ")}`,
      );
    }
  }
}

export function descriptionPath(profile: Profile, tool: ProfileTool, descMode: string): string {
  return join(profile.dir, "tool_descriptions", descMode, tool.description);
}

function readToml<T>(file: string, schema: z.ZodType<T>): T {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ProfileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (err) {
    throw new ProfileError(`${file}: ${(err as Error).message.split("\n")[0]}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join(".") || "(root)";
    throw new ProfileError(`${file}: ${path}: ${issue.message}`);
  }
  return parsed.data;
}
