// Tools that come from outside the profile, joined to the session's toolset
// before the first model request: the MCP servers' tools, once the servers
// connected (or failed, or ran out of time), and the skills' catalogue in
// the skill tool's description. A model switch builds a new toolset, which
// gets the same. A server turned on or off mid-session changes every
// toolset made so far: its tools join or leave from the next request.

import { addTools, removeTools, type ActiveToolset } from "../core/profiles/activate.js";
import type { McpService } from "../core/mcp/manager.js";
import { mcpActiveTool } from "../tools/lib/mcp/handler.js";
import type { SkillSession } from "../core/skills/session.js";
import type { Resolved } from "./session.js";

export interface Extensions {
  /** Resolves once the servers are up or failed and their tools are in the toolset. */
  ready: Promise<void>;
  toolsetFor(model: string, opts?: { loopRunning?: boolean }): ActiveToolset;
}

export function joinExtensions(resolved: Resolved, mcp: McpService, skills: SkillSession): Extensions {
  // Each toolset with the MCP tools it carries now.
  const carried = new Map<ActiveToolset, Set<string>>();
  const withTools = (toolset: ActiveToolset) => {
    const now = mcp.tools();
    const names = new Set(now.map((t) => t.exposed));
    const had = carried.get(toolset) ?? new Set<string>();
    removeTools(toolset, new Set([...had].filter((n) => !names.has(n))));
    const added = addTools(toolset, now.filter((t) => !had.has(t.exposed)).map((t) => mcpActiveTool(t, mcp)));
    carried.set(toolset, new Set([...[...had].filter((n) => names.has(n)), ...added]));
    return toolset;
  };
  mcp.onToolsChanged(() => {
    for (const toolset of carried.keys()) withTools(toolset);
  });
  const withCatalogue = (toolset: ActiveToolset) => {
    describeSkills(toolset, skills);
    return toolset;
  };
  withCatalogue(resolved.toolset);
  return {
    ready: mcp.start().then(() => void withTools(resolved.toolset)),
    toolsetFor: (model, opts) => withTools(withCatalogue(resolved.toolsetFor(model, opts))),
  };
}

/**
 * The skill tool's description gets the catalogue: the names and descriptions, never the bodies.
 * Its `name` parameter lists every skill's name, also those the bounded
 * catalogue leaves out, as Chord's schema does, so a model can pick any.
 */
function describeSkills(toolset: ActiveToolset, skills: SkillSession): void {
  for (const tool of toolset.tools.values()) {
    if (tool.handler.role !== "skill" || tool.spec.description.includes("\nSkills:\n")) continue;
    const list = skills.skills.length ? skills.catalogue() : "No skills are currently available.";
    tool.spec.description = `${tool.spec.description}\nSkills:\n${list}`;
    if (skills.skills.length) tool.spec.parameters = withNameEnum(tool.spec.parameters, skills.skills.map((s) => s.name));
  }
}

/** A copy of the parameters' schema whose `name` property takes only these values (the profile's schema stays as it is). */
function withNameEnum(parameters: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const properties = (parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  if (!properties.name) return parameters;
  return { ...parameters, properties: { ...properties, name: { ...properties.name, enum: names } } };
}
