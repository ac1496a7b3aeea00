// From a profile, the registry and the config to the tools one request
// carries: conditions applied, the max_tools cap applied (cap.ts), and each tool's
// JSON Schema built from its handler's zod schema plus the profile's words.

import { readFileSync } from "node:fs";
import type { Config } from "../config/schema.js";
import type { ToolSpec } from "../history.js";
import type { ToolHandler, ToolRegistry, ToolRole } from "../tool-types.js";
import { descriptionPath, ProfileError, type Profile, type ProfileTool } from "./load.js";
import { conditionHolds } from "./tool-entry.js";
import { applyCap, type DroppedTool } from "./cap.js";
import { buildSchema, type SchemaSource } from "./schema-cache.js";
import { ruleFacts, toolCatalog } from "../permissions/catalog.js";
import type { ToolCatalog, ToolRuleFacts } from "../permissions/types.js";

export interface ActiveTool {
  /** Exposed name. */
  name: string;
  handler: ToolHandler;
  spec: ToolSpec;
}

export interface ActiveToolset {
  profile: Profile;
  editFormat: string;
  tools: Map<string, ActiveTool>;
  /** The exposed names, made once: guards and shell rules ask it on every call. */
  names: ReadonlySet<string>;
  /** In the order the model is sent them. */
  specs: ToolSpec[];
  /** Enabled tools the max_tools cap left out, each with the reason. */
  dropped: DroppedTool[];
  /** Every tool the profile declares, on or off, as the permission rules see them. */
  catalog: ToolCatalog;
  /** Code mode: the tools a cell calls as functions, never in a request themselves. */
  cellFunctions?: ActiveToolset;
  /**
   * Code mode in required plan mode: the native tools the planning phase
   * works through (read, the searches, read-only bash, the plan write). The
   * plan guard offers them instead of the cell tools until the plan is
   * accepted, then hides them.
   */
  planPhaseOnly?: ReadonlySet<string>;
}

export interface ActivateOptions {
  topLevel: boolean;
  /** Someone can answer questions now (the TUI); headless runs are not. */
  interactive?: boolean;
  /** A measurement run: nothing that asks the operator is offered. */
  measurement?: boolean;
  /** A continuous loop runs (mounts Chord's loop `done`). */
  loopRunning?: boolean;
  /** The provider and model the requests go to; model conditions read them. */
  model?: { provider: string; id: string };
  /** Where the handlers' JSON Schemas come from (default: built from their zod schemas now). */
  schemas?: SchemaSource;
}

export function activateTools(
  given: Profile,
  registry: ToolRegistry,
  config: Config,
  opts: ActivateOptions,
): ActiveToolset {
  const profile = withActiveDefault(given, config);
  const editFormat = config.tools.edit_format ?? profile.editFormat;
  const condCtx = { editFormat, topLevel: opts.topLevel, interactive: opts.interactive ?? false, measurement: opts.measurement ?? false, loopRunning: opts.loopRunning ?? false, config, model: opts.model };
  // Nobody is ever asked anything in a measurement run: no tool that asks is offered.
  const asks = (t: ProfileTool) => opts.measurement === true && registry.get(t.handler)?.role === "ask";
  const enabled = profile.tools.filter((t) => !asks(t) && t.enabled_when.every((c) => conditionHolds(c, condCtx)));
  const codeMode = config.tools.code_mode;
  if (codeMode && profile.cellFunctions.length === 0) {
    throw new ProfileError(`profile ${profile.name} has no code mode (no [code_mode].functions in its profile.toml); set [tools].code_mode = false`);
  }
  // Code mode replaces the catalogue: its own tools, and those that finish, ask or end the planning phase.
  const steers = (t: ProfileTool) => ["finish", "ask", "plan_exit"].includes(registry.get(t.handler)?.role ?? "");
  const cellTool = (t: ProfileTool) => t.enabled_when.includes(CODE_MODE) || steers(t);
  // Planning comes before code mode: the phase needs the native tools to look around and write the plan.
  const planNative = codeMode && config.loop.plan_mode === "required";
  const on = codeMode && !planNative ? enabled.filter(cellTool) : enabled;
  // Deferred loading caps what is loaded, not what may be: every enabled tool stays loadable.
  const { kept, dropped } = config.tools.lazy_loading_enabled
    ? { kept: on, dropped: [] }
    : applyCap(on, profile.maxTools, profile.capOrder, (c) => conditionHolds(c, condCtx));
  if (config.tools.lazy_loading_enabled && !kept.some((t) => registry.get(t.handler)?.role === "load")) {
    throw new ProfileError(`profile ${profile.name} has no tool that loads tools, so deferred loading cannot work; set [tools].lazy_loading_enabled = false`);
  }
  const paramCtx = { ...condCtx, active: new Set(kept.map((t) => t.name)) };
  const schemas = opts.schemas ?? buildSchema;
  const make = (entry: ProfileTool) => activeTool(profile, registry, entry, config.experiment.tool_desc, (c) => conditionHolds(c, paramCtx), schemas);

  const tools = new Map(kept.map((entry) => [entry.name, make(entry)]));
  const catalog = toolCatalog(profile.tools, registry);
  const toolset = (map: Map<string, ActiveTool>, gone: DroppedTool[]): ActiveToolset => ({
    profile,
    editFormat,
    tools: map,
    names: new Set(map.keys()),
    specs: [...map.values()].map((t) => t.spec),
    dropped: gone,
    catalog,
  });
  const active = toolset(tools, dropped);
  if (planNative) active.planPhaseOnly = new Set(kept.filter((t) => !cellTool(t)).map((t) => t.name));
  if (codeMode) {
    // A cell's functions are the tools themselves, whatever their own switches say.
    const byName = new Map(profile.tools.map((t) => [t.name, t]));
    active.cellFunctions = toolset(new Map(profile.cellFunctions.map((n) => [n, make(byName.get(n)!)])), []);
  }
  return active;
}

/** The condition that marks the code-mode tools. */
const CODE_MODE = "config:tools.code_mode";

function activeTool(profile: Profile, registry: ToolRegistry, entry: ProfileTool, descMode: string, holds: (c: string) => boolean, schemas: SchemaSource): ActiveTool {
  const handler = registry.get(entry.handler);
  if (!handler) throw new Error(`tool ${entry.name}: no handler "${entry.handler}"`);
  const description = readFileSync(descriptionPath(profile, entry, descMode), "utf8").trim();
  return { name: entry.name, handler, spec: { name: entry.name, description, parameters: parametersSchema(schemas(handler), entry, holds) } };
}

/** The exposed name of the first active tool of a role, if any. */
export function toolWithRole(toolset: Pick<ActiveToolset, "tools">, role: ToolRole): string | undefined {
  for (const [name, t] of toolset.tools) if (t.handler.role === role) return name;
  return undefined;
}

/** The JSON Schema of a tool's parameters, as sent to the model. */
function parametersSchema(
  schema: Record<string, unknown>,
  entry: ProfileTool,
  holds: (condition: string) => boolean,
): Record<string, unknown> {
  delete schema.$schema;
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, conds] of Object.entries(entry.param_conditions)) {
    if (conds.every(holds)) continue;
    delete props[name];
    if (Array.isArray(schema.required)) {
      schema.required = (schema.required as string[]).filter((r) => r !== name);
    }
  }
  for (const [name, prop] of Object.entries(props)) {
    dropSafeIntegerBounds(prop);
    const words = entry.params[name];
    if (words) props[name] = { ...prop, description: words };
  }
  return schema;
}

// zod states ±MAX_SAFE_INTEGER on every int; they say nothing and cost bytes.
function dropSafeIntegerBounds(prop: Record<string, unknown>): void {
  if (prop.minimum === Number.MIN_SAFE_INTEGER) delete prop.minimum;
  if (prop.maximum === Number.MAX_SAFE_INTEGER) delete prop.maximum;
}

/**
 * Adds tools that are not the profile's (an MCP server's, once it connected)
 * to a toolset in place, after the profile's own: every holder of the toolset
 * (the loop, the guards, the model switch) sees them from the next request.
 * A name the toolset already has is kept as it was. Outside max_tools: the
 * user chose these servers.
 */
export function addTools(toolset: ActiveToolset, extra: readonly ActiveTool[]): string[] {
  const added: string[] = [];
  for (const tool of extra) {
    if (toolset.tools.has(tool.name)) continue;
    toolset.tools.set(tool.name, tool);
    toolset.specs.push(tool.spec);
    (toolset.names as Set<string>).add(tool.name);
    // Rules may name it from now on, and see what its handler says of it.
    (toolset.catalog as Map<string, ToolRuleFacts>).set(tool.name, ruleFacts(tool.handler, tool.name));
    added.push(tool.name);
  }
  return added;
}

/** Takes tools addTools added out again (a server turned off): gone from the next request. */
export function removeTools(toolset: ActiveToolset, names: ReadonlySet<string>): void {
  for (const name of names) {
    if (!toolset.tools.delete(name)) continue;
    (toolset.names as Set<string>).delete(name);
    (toolset.catalog as Map<string, ToolRuleFacts>).delete(name);
  }
  const kept = toolset.specs.filter((s) => !names.has(s.name));
  toolset.specs.splice(0, toolset.specs.length, ...kept);
}

/** [tools].active_default, when set, is deferred loading's first tools in place of the profile's; each must be a tool of the profile. */
function withActiveDefault(profile: Profile, config: Config): Profile {
  const names = config.tools.active_default;
  if (names === undefined) return profile;
  const declared = new Set(profile.tools.map((t) => t.name));
  const unknown = names.filter((n) => !declared.has(n));
  if (unknown.length > 0) {
    throw new ProfileError(`[tools].active_default: unknown tool names: ${unknown.join(", ")} (the tools of profile ${profile.name}: ${[...declared].join(", ")})`);
  }
  return { ...profile, activeDefault: [...names] };
}
