// The roles delegate may start: every agent definition (the project's, the
// user's, the built-in ones; the first of a name wins) whose mode lets it run
// as a worker, less those the permission rules deny delegating to. A file
// that cannot be read is left out; delegating to it by name says why.

import { existsSync, readdirSync } from "node:fs";
import { findAgent, type AgentDirs } from "../agents/find.js";

export function delegableRoles(dirs: AgentDirs, allowed: (role: string) => boolean): string[] {
  const names = new Set<string>();
  for (const dir of [dirs.project, dirs.user, dirs.builtin]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const m = /^([a-z0-9][a-z0-9_-]*)\.(toml|md)$/.exec(file);
      if (m) names.add(m[1]!);
    }
  }
  const roles: string[] = [];
  for (const name of [...names].sort()) {
    try {
      if (findAgent(name, dirs).mode === "subagent" && allowed(name)) roles.push(name);
    } catch {
      // Unusable file: not offered.
    }
  }
  return roles;
}
