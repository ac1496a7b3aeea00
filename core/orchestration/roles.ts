// The roles delegate may start: every agent definition (the project's, the
// user's, the built-in ones; the first of a name wins) whose mode lets it run
// as a worker, less those the permission rules deny delegating to. A file
// that cannot be read is left out; delegating to it by name says why.

import { existsSync, readdirSync } from "node:fs";
import type { AgentDefinition } from "../agents/definition.js";
import { findAgent, type AgentDirs } from "../agents/find.js";

/** Every agent name a definition file exists for, sorted. */
export function agentNames(dirs: AgentDirs): string[] {
  const names = new Set<string>();
  for (const dir of [dirs.project, dirs.user, dirs.builtin]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const m = /^([a-z0-9][a-z0-9_-]*)\.(toml|md)$/.exec(file);
      if (m) names.add(m[1]!);
    }
  }
  return [...names].sort();
}

export function delegableRoles(dirs: AgentDirs, allowed: (role: string) => boolean): string[] {
  return roleDefinitions(dirs, agentNames(dirs)).filter((d) => d.mode === "subagent" && allowed(d.name)).map((d) => d.name);
}

/** The usable definitions of these names, in order (an unusable file is left out). */
export function roleDefinitions(dirs: AgentDirs, names: readonly string[]): AgentDefinition[] {
  const defs: AgentDefinition[] = [];
  for (const name of names) {
    try {
      defs.push(findAgent(name, dirs));
    } catch {
      // Unusable file: not offered.
    }
  }
  return defs;
}

/**
 * A role's empty-scope rule, in the reference's tokens: a role with no
 * file-changing tools may pass an empty expected_write_scope, one that can
 * write must name what it will change.
 */
export const scopeRule = (def: AgentDefinition) => (def.readOnly ? "empty_scope=allowed" : "non_empty_scope=required");
