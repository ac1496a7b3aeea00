// Where agent definitions come from, first match wins: the project's
// `.yuj/agents/`, then the user's `<config>/agents/`, then the ones that ship
// with yuj. In one folder `<name>.toml` and `<name>.md` may not both exist:
// which one counts would be a guess.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentFileError, parseAgentFile, type AgentDefinition } from "./definition.js";

export interface AgentDirs {
  project: string;
  user: string;
  builtin: string;
}

export function findAgent(name: string, dirs: AgentDirs): AgentDefinition {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
    throw new AgentFileError(`agent "${name}": not an agent name (lower-case letters, digits, - and _)`);
  }
  for (const dir of [dirs.project, dirs.user, dirs.builtin]) {
    const found = [".toml", ".md"].map((ext) => join(dir, name + ext)).filter((f) => existsSync(f));
    if (found.length > 1) throw new AgentFileError(`agent "${name}": both ${found.join(" and ")} exist; keep one`);
    const file = found[0];
    if (file) return parseAgentFile(file, readFileSync(file, "utf8"), name);
  }
  throw new AgentFileError(`agent "${name}": no ${name}.toml or ${name}.md in ${dirs.project}, ${dirs.user} or the built-in agents`);
}
