// A read-only agent's shell: offered, as the reference offers it, but each
// call is judged by what its command does. A command that only reads, lists
// or searches runs; anything else (a write, a build, an unknown program) is
// refused before it runs, with the kinds of commands that do run.

import type { Guard } from "../guards/types.js";
import type { ToolEffect, ToolHandler } from "../tool-types.js";

const LOOKS: ReadonlySet<ToolEffect> = new Set(["inspect", "converse"]);

/** Whether every call of this tool only looks. */
const onlyLooks = (handler: ToolHandler): boolean => [...handler.effects].every((e) => LOOKS.has(e));

/** Whether some calls of this tool only look (a shell running `ls`): the guard below judges each one. */
export const mayOnlyLook = (handler: ToolHandler): boolean => onlyLooks(handler) || (handler.callEffects !== undefined && handler.effects.has("inspect"));

export function readOnlyCallsGuard(): Guard {
  return {
    name: "read_only_agent",
    before: (call) =>
      [...call.effects].every((e) => LOOKS.has(e))
        ? undefined
        : `ERROR: read-only subagent blocked ${call.tool}: this command may change files or run programs; ` +
          "a read-only agent runs only commands that read, list or search (cat, head, tail, ls, find, grep, rg, wc, git status/log/diff/show)",
  };
}
