// A profile's baseline permission rules: `<profile>/permissions.toml`, an
// ordered `[[rules]]` array of {tool, pattern?, action}. The user's config
// rules are appended after them, so they extend the baseline and, being
// later, win. A profile without the file has no baseline.

import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { z } from "zod";
import { PERMISSION_ACTIONS, permissionRule } from "../config/schema.js";
import type { Rule } from "./types.js";

const PROFILE_RULES_FILE = "permissions.toml";

const fileSchema = z.strictObject({ rules: z.array(permissionRule).default([]) });

export class ProfileRulesError extends Error {
  override name = "ProfileRulesError";
}

/** The baseline rules of the profile in `profileDir`, each with source `profile <name>`. */
export function loadProfileRules(profileDir: string): Rule[] {
  const file = join(profileDir, PROFILE_RULES_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new ProfileRulesError(`${file}: cannot read the file (${(err as Error).message})`);
  }
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    throw new ProfileRulesError(`${file}: TOML syntax error at line ${err.line}, column ${err.column}: ${reason}`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    throw new ProfileRulesError(parsed.error.issues.map((issue) => `${file}: ${explain(issue, data)}`).join("\n"));
  }
  const source = `profile ${basename(profileDir)}`;
  return parsed.data.rules.map((r) => ({ ...r, source }));
}

function explain(issue: z.core.$ZodIssue, data: unknown): string {
  const key = keyOf(issue.path);
  if (issue.code === "unrecognized_keys") {
    const allowed = issue.path.length === 0 ? "rules" : "tool, pattern, action";
    const names = issue.keys.map((k) => JSON.stringify(k)).join(", ");
    return `${key}: unknown field ${names} (the fields allowed here are ${allowed})`;
  }
  const got = valueAt(data, issue.path);
  if (issue.path.at(-1) === "action" && got !== undefined) {
    return `${key}: unknown action ${JSON.stringify(got)} (use one of ${PERMISSION_ACTIONS.join(", ")})`;
  }
  return `${key}: ${got === undefined ? "required field is missing" : issue.message}`;
}

function keyOf(path: readonly PropertyKey[]): string {
  return path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : `${i ? "." : ""}${String(seg)}`)).join("") || "(top level)";
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}
