// Runs one named agent as a child session, to its end, inside the parent's
// session folder: `<session>/tasks/<task_id>/` holds its own trace and its
// history. The child shares the parent's provider, permission gate, guards
// and background services, but has its own context, tools, turn limit and
// token count, which is added to the parent's when it ends. One child runs
// at a time, and nesting stops at [tools].task_max_depth. An agent with
// workspace = "isolated" works in a temporary git worktree of the parent's
// files instead of the parent's directory (isolated.ts); what it changed
// comes back as a patch the parent may apply.

import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { createEmitter, type Emit } from "../events.js";
import type { Config } from "../config/schema.js";
import { atomicWriteSync } from "../atomic-write.js";
import type { HistoryItem } from "../history.js";
import { runLoop, type LoopDeps, type RunOutcome } from "../loop.js";
import { activateTools, type ActiveTool, type ActiveToolset } from "../profiles/activate.js";
import { fail, ok, type SubagentRunner, type ToolHandler, type ToolRegistry, type ToolResult, type ToolRole } from "../tool-types.js";
import { openTrace } from "../trace.js";
import { gateForAgent } from "../permissions/gate.js";
import { AgentFileError, type AgentDefinition } from "./definition.js";
import { findAgent, type AgentDirs } from "./find.js";
import { describeChanges } from "./changes.js";
import { openIsolated, type Isolation, type IsolatedWorkspace } from "./isolated.js";
import { mayOnlyLook, readOnlyCallsGuard } from "./read-only-calls.js";

/** Roles only the top-level session has: a child asks nobody, plans nothing, keeps no checkpoints, and gets its tools at once. */
const TOP_LEVEL_ONLY: ReadonlySet<ToolRole> = new Set<ToolRole>(["ask", "plan_exit", "checkpoint", "rewind", "load"]);

export interface RunnerSetup {
  /** The parent's loop as it runs (its provider, gate, services, usage…). */
  parent: Omit<LoopDeps, "signal">;
  registry: ToolRegistry;
  agentDirs: AgentDirs;
  /** Secrets the child's trace hides, as the parent's does. */
  secrets: string[];
  /** How deep the parent is: 0 for the top-level session. */
  depth?: number;
  /** Worktrees and confined commands for isolated agents; without it they are refused. */
  isolation?: Isolation;
}

/** Shared by a parent and all its descendants: children run one at a time. */
interface Lane {
  busy: boolean;
}

export function createSubagentRunner(setup: RunnerSetup, lane: Lane = { busy: false }): SubagentRunner {
  const depth = setup.depth ?? 0;
  return {
    async run(agentName, prompt, signal) {
      const maxDepth = setup.parent.config.tools.task_max_depth;
      if (depth >= maxDepth) {
        return fail(`task refused: depth cap ${maxDepth} reached: a child session may not start another beyond depth ${maxDepth} ([tools].task_max_depth)`);
      }
      if (lane.busy) return fail("task refused: another child session is running; children run one at a time");
      let def: AgentDefinition;
      try {
        def = findAgent(agentName, setup.agentDirs);
      } catch (err) {
        if (err instanceof AgentFileError) return fail(`task refused: ${err.message}`);
        throw err;
      }
      if (def.mode === "main") {
        return fail(`task refused: agent "${def.name}" (${def.file}) has mode = "main", so it is not run as a child; set mode = "subagent"`);
      }
      if (def.workspace === "isolated" && !setup.isolation) {
        return fail(`task refused: agent "${def.name}" asks for workspace = "isolated", which this session cannot provide; use workspace = "shared"`);
      }
      lane.busy = true;
      try {
        return await runChild(def, prompt, signal, setup, lane, depth);
      } finally {
        lane.busy = false;
      }
    },
  };
}

/** The child's tools that run processes (bash, the terminal, tests, cells). */
function commandTools(toolset: ActiveToolset): string[] {
  return [...toolset.tools.values()].filter((t) => t.handler.effects.has("execute")).map((t) => t.name);
}

async function runChild(def: AgentDefinition, prompt: string, signal: AbortSignal, setup: RunnerSetup, lane: Lane, depth: number): Promise<ToolResult> {
  const parent = setup.parent;
  const { taskId, dir } = newTaskDir(parent.sessionDir);
  const config = childConfig(parent.config, def);
  const model = def.model ?? parent.model;
  let toolset: ActiveToolset;
  try {
    toolset = childToolset(def, setup.registry, config, parent.toolset, { provider: parent.provider.name, id: model });
  } catch (err) {
    return fail(`task refused: agent "${def.name}" (${def.file}): ${(err as Error).message}`);
  }
  const trace = openTrace(join(dir, "trace.jsonl"), { secrets: setup.secrets });
  const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const history: HistoryItem[] = [];
  const saveHistory = () => atomicWriteSync(join(dir, "history.json"), JSON.stringify({ task_id: taskId, agent: def.name, read_only: def.readOnly, workspace: def.workspace, history }));
  // The child's rows carry the parent's session id and the task id as their agent.
  const emitter = createEmitter(basename(parent.sessionDir), (event) => {
    trace.write(event);
    parent.observeAgent?.(event);
  });
  const emit: Emit = (body, extra) => emitter.emit(body, { ...extra, agentId: taskId });
  let workspace: IsolatedWorkspace | undefined;
  if (def.workspace === "isolated") {
    const runners = commandTools(toolset);
    if (runners.length > 0 && !setup.isolation!.confined()) {
      trace.close();
      return fail(
        `task refused: agent "${def.name}" (${def.file}): an isolated agent's commands (${runners.join(", ")}) need an active sandbox, ` +
          `or they could change the parent's files; turn the sandbox on ([sandbox].mode = "on") or leave those tools out of the agent's tools`,
      );
    }
    const opened = await openIsolated(parent.cwd, setup.isolation!, { id: taskId, dir, emit });
    if ("error" in opened) {
      trace.close();
      return fail(`task refused: agent "${def.name}" (${def.file}): ${opened.error}`);
    }
    workspace = opened;
  }
  const cwd = workspace?.worktree.cwd ?? parent.cwd;
  const session = childSession(withoutLoader(parent.session), workspace);
  emit({ type: "session_started", cwd, profile: toolset.profile.name, provider: parent.provider.name, model, version: "child", traceFile: trace.path, agent: def.name });
  let outcome: RunOutcome;
  let changes = "";
  try {
    outcome = await runLoop(history, prompt, {
      ...parent,
      cwd,
      model,
      // The parent's prompt names the parent's directory; an isolated child's is its worktree.
      system: def.systemPrompt ?? parent.system.split(parent.cwd).join(cwd),
      toolset,
      config,
      emit,
      setTurn: emitter.setTurn,
      gate: gateForAgent(parent.gate, { taskId, role: def.name }),
      sessionDir: dir,
      signal,
      usage,
      // A child is woken by nothing: it answers and ends.
      wake: undefined,
      onStep: saveHistory,
      onFinish: undefined,
      takeCompactRequest: undefined,
      // What the top-level session's requests carry is its own: a child gets its tools at once.
      guards: [...(parent.guards?.filter((g) => !g.topLevelOnly) ?? []), ...(def.readOnly ? [readOnlyCallsGuard()] : [])],
      // A tool's own model request (a hosted search) goes to the child's model.
      session: { ...session, ...(session?.model ? { model: { provider: parent.provider, id: model, usage } } : {}), subagents: createSubagentRunner({ ...setup, parent: { ...parent, cwd, config, toolset, session }, depth: depth + 1 }, lane) },
      // The child's hooks see it as the agent it is (filters on agents and agent_kinds).
      hooks: parent.hooks?.forAgent({ id: taskId, kind: "subagent" }, emit, model),
    } as LoopDeps);
  } finally {
    saveHistory();
    if (workspace) {
      const set = await workspace.close();
      changes = "error" in set ? `changes: none kept: ${set.error}` : describeChanges(set);
      emit({ type: "notice", level: "info", text: `isolated worktree ${workspace.worktree.dir} removed` });
    }
    trace.close();
    parent.usage.inputTokens += usage.inputTokens;
    parent.usage.outputTokens += usage.outputTokens;
    parent.usage.cachedTokens += usage.cachedTokens;
  }
  const place = workspace ? `workspace: isolated (a temporary worktree, now removed)\n${changes}\n` : "";
  const head = `task_id: ${taskId}\nagent: ${def.name}\nstatus: ${outcome.reason}\ntokens: ${usage.inputTokens} in, ${usage.outputTokens} out\n${place}\n`;
  const text = outcome.message ?? "";
  if (outcome.reason === "answered" || outcome.reason === "done") return ok(head + text);
  return fail(head + (text || `the child session ended (${outcome.reason}) without a final answer`));
}

/**
 * An isolated child's commands run in its worktree, by its own jobs and
 * terminal; the parent's language servers know only the parent's files.
 */
function childSession(session: LoopDeps["session"], workspace: IsolatedWorkspace | undefined): LoopDeps["session"] {
  if (!workspace) return session;
  const { lsp: _parentsOnly, ...rest } = session ?? {};
  return { ...rest, jobs: workspace.services.jobs, terminals: workspace.services.terminals };
}

/** The next free `task-<n>` under the session's tasks folder: stable for the session's life. */
export function newTaskDir(sessionDir: string): { taskId: string; dir: string } {
  const root = join(sessionDir, "tasks");
  mkdirSync(root, { recursive: true });
  let n = readdirSync(root).length + 1;
  while (existsSync(join(root, `task-${n}`))) n++;
  const taskId = `task-${n}`;
  const dir = join(root, taskId);
  mkdirSync(dir);
  return { taskId, dir };
}

export function childConfig(config: Config, def: AgentDefinition): Config {
  if (def.maxTurns === undefined) return config;
  return { ...config, loop: { ...config.loop, max_turns: Math.min(def.maxTurns, config.loop.max_turns) } };
}

/**
 * The parent surface's tools for a child: those the agent's allowlist names
 * (all, without one), minus the operator's tools, and for a read-only agent
 * only handlers that change nothing, or whose calls can only look (a shell:
 * its commands are judged one by one, core/agents/read-only-calls.ts).
 */
export function childToolset(
  def: AgentDefinition,
  registry: ToolRegistry,
  config: Config,
  parentSet: ActiveToolset,
  model: { provider: string; id: string },
): ActiveToolset {
  const all = activateTools(parentSet.profile, registry, config, { topLevel: false, model });
  if (def.tools) {
    const unknown = def.tools.filter((t) => !all.tools.has(t));
    if (unknown.length > 0) throw new Error(`field tools: ${unknown.join(", ")} not among this surface's enabled tools (${[...all.tools.keys()].join(", ")})`);
    const writing = def.readOnly ? def.tools.filter((t) => !mayOnlyLook(all.tools.get(t)!.handler)) : [];
    if (writing.length > 0) throw new Error(`field tools: ${writing.join(", ")} can change files, which a read-only agent may not; set read_only = false or drop them`);
  }
  const keep = (t: ActiveTool) =>
    !(t.handler.role !== undefined && TOP_LEVEL_ONLY.has(t.handler.role)) && (def.tools === undefined || def.tools.includes(t.name)) && (!def.readOnly || mayOnlyLook(t.handler));
  const tools = new Map([...all.tools].filter(([, t]) => keep(t)));
  // Code mode: a child's cells call the same functions.
  const cells = all.cellFunctions ? { cellFunctions: all.cellFunctions } : {};
  return { profile: all.profile, editFormat: all.editFormat, tools, names: new Set(tools.keys()), specs: [...tools.values()].map((t) => t.spec), dropped: all.dropped, catalog: all.catalog, ...cells };
}

/** The parent's session services less its tool loader (deferred loading shapes the top-level requests only). */
function withoutLoader(session: LoopDeps["session"]): LoopDeps["session"] {
  if (!session?.toolLoader) return session;
  const { toolLoader: _parentOnly, ...rest } = session;
  return rest;
}
