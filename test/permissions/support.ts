// Shorthands for the permission tests.

import { evaluate } from "../../core/permissions/engine.js";
import type { Action, Decision, PermissionCall, PolicyOptions, Rule } from "../../core/permissions/types.js";

const CWD = "/repo";
export const CHORD: PolicyOptions = { surface: "chord", yolo: false, measurement: false };
export const YUJ: PolicyOptions = { surface: "yuj", yolo: false, measurement: false };

export const rule = (tool: string, pattern: string | undefined, action: Action, source?: string): Rule => ({
  tool,
  ...(pattern === undefined ? {} : { pattern }),
  action,
  ...(source === undefined ? {} : { source }),
});

export const call = (tool: string, args: Record<string, unknown> = {}, handler = tool): PermissionCall => ({
  tool,
  handler,
  args,
  cwd: CWD,
});

export const shell = (command: string) => call("shell", { command });
export const bash = (cmd: string) => call("bash", { cmd });
export const patch = (...lines: string[]) => call("apply_patch", { patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });

export const decide = (c: PermissionCall, rules: Rule[], opts: PolicyOptions = CHORD): Decision => evaluate(c, rules, opts);
export const action = (c: PermissionCall, rules: Rule[], opts: PolicyOptions = CHORD): Action => evaluate(c, rules, opts).action;
