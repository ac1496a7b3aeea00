// Shorthands for the permission tests.

import { join } from "node:path";
import { evaluate } from "../../core/permissions/engine.js";
import { toolCatalog } from "../../core/permissions/catalog.js";
import { loadProfile } from "../../core/profiles/load.js";
import type { Action, Decision, PermissionCall, PolicyOptions, Rule, ToolCatalog } from "../../core/permissions/types.js";
import { builtinHandlers } from "../../tools/registry.js";

/** Every tool a shipped profile declares, with its real handler's facts. */
export function catalogOf(profile: "_base" | "chord"): ToolCatalog {
  return toolCatalog(loadProfile(join(import.meta.dirname, "../../profiles"), profile).tools, builtinHandlers());
}

const CWD = "/repo";
export const CHORD: PolicyOptions = { surface: "chord", yolo: false, measurement: false, tools: catalogOf("chord") };
export const YUJ: PolicyOptions = { surface: "yuj", yolo: false, measurement: false, tools: catalogOf("_base") };

export const rule = (tool: string, pattern: string | undefined, action: Action, source?: string): Rule => ({
  tool,
  ...(pattern === undefined ? {} : { pattern }),
  action,
  ...(source === undefined ? {} : { source }),
});

/** A call of an exposed tool; the policy's catalog says what its handler matches on. */
export const call = (tool: string, args: Record<string, unknown> = {}): PermissionCall => ({ tool, args, cwd: CWD });

export const shell = (command: string) => call("shell", { command });
export const bash = (cmd: string) => call("bash", { cmd });
export const patch = (...lines: string[]) => call("apply_patch", { patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });

export const decide = (c: PermissionCall, rules: Rule[], opts: PolicyOptions = CHORD): Decision => evaluate(c, rules, opts);
export const action = (c: PermissionCall, rules: Rule[], opts: PolicyOptions = CHORD): Action => evaluate(c, rules, opts).action;
