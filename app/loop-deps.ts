// What every run of a session hands the loop, assembled once for every
// front end: they differ only in who answers the gate's asks and the
// questions (an operator, or nobody: the run pauses) and in the wake source.

import type { LoopDeps } from "../core/loop.js";
import type { PermissionGate } from "../core/permissions/gate.js";
import type { Provider } from "../core/providers/types.js";
import { createRedact } from "../core/redact.js";
import { hostedToolsFor } from "../core/providers/hosted.js";
import { handlersOf, type DispatchDeps } from "../core/dispatch.js";
import type { HistoryItem } from "../core/history.js";
import { toolWithRole, type ActiveToolset } from "../core/profiles/activate.js";
import { createGuards } from "../tools/guards/index.js";
import { skillToolsGuard } from "../tools/guards/skill-tools.js";
import { createSubagentRunner } from "../core/agents/runner.js";
import type { AgentDirs } from "../core/agents/find.js";
import { configDir, PROJECT_DIR } from "../core/paths.js";
import { packageRoot } from "./locate.js";
import { join } from "node:path";
import type { ParsedArgs } from "./args.js";
import { ruleHidingGuard, surfaceOf } from "./permission-setup.js";
import { withOrchestration } from "./orchestration-setup.js";
import type { ProviderChoice } from "./provider-select.js";
import { oneQuestionGuard } from "./question-limit.js";
import { createDeferredTools } from "../core/profiles/deferred.js";
import { deferredToolsGuard } from "../tools/guards/deferred-tools.js";
import { workspaceCheckpointGuard } from "../tools/guards/workspace-checkpoint.js";
import type { SessionRecord } from "../core/session-record.js";
import { systemPromptFor, type OpenSession, type Resolved } from "./session.js";
import { createMainRoles, type MainRoles } from "../core/orchestration/main-roles.js";
import type { WakeSource } from "../core/loop.js";

export interface LoopDepsInputs {
  resolved: Resolved;
  choice: ProviderChoice;
  provider: Provider;
  session: OpenSession;
  args: ParsedArgs;
  cwd: string;
  secrets: string[];
  gate: PermissionGate;
  /** The questions' way to the operator (who may be nobody: the question then pauses the run for `yuj answer`). */
  ask: NonNullable<NonNullable<DispatchDeps["session"]>["ask"]>;
  /** The saved state: written after every step, and the one-question rule reads it. */
  record: SessionRecord;
  /** What wakes a model that ended its turn; the session's job notices unless given. */
  wake?: LoopDeps["wake"];
  /** The view's ear for the workers' and task children's own events (the TUI's agent views). */
  observeAgent?: LoopDeps["observeAgent"];
  /** What every model response waits for before tools run or the run ends (the workspace snapshot). */
  toolsReady?: Promise<void>;
}

export function loopDepsFor(x: LoopDepsInputs): Omit<LoopDeps, "signal"> {
  // Deferred loading: what the requests carry grows with each load, from the saved conversation on.
  const deferred = x.resolved.config.tools.lazy_loading_enabled ? createDeferredTools(x.resolved.toolset, x.record.state.history) : undefined;
  const ruleHiding = ruleHidingGuard(x.resolved, x.args);
  const roles = surfaceOf(x.resolved) === "chord" ? mainRolesFor(x) : undefined;
  // A tool that runs the hosted search in a request of its own (Chord's web_search)
  // replaces the declaration in the conversation's requests: it is never declared twice.
  const ownSearch = toolWithRole(x.resolved.toolset, "hosted_search") !== undefined;
  const hosted = ownSearch ? { tools: [] } : hostedToolsFor(x.resolved.config, x.provider.name);
  if (hosted.problem) x.session.emit({ type: "notice", level: "warning", text: hosted.problem });
  const deps: Omit<LoopDeps, "signal"> = {
    provider: x.provider,
    model: x.choice.model,
    system: systemPromptFor(x.cwd, x.resolved.toolset, x.session.services.skills),
    toolset: x.resolved.toolset,
    config: x.resolved.config,
    services: x.resolved.services,
    emit: x.session.emit,
    setTurn: x.session.setTurn,
    cwd: x.cwd,
    sessionDir: x.session.dir,
    memory: x.session.memory,
    usage: x.session.usage,
    gate: x.gate,
    oneQuestion: surfaceOf(x.resolved) === "yuj",
    guards: [
      ...(deferred ? [deferredToolsGuard(deferred)] : []),
      ruleHiding,
      ...(surfaceOf(x.resolved) === "yuj" ? [oneQuestionGuard(() => x.record.state.question !== undefined)] : []),
      ...createGuards(x.resolved.config, { services: x.resolved.services, surface: surfaceOf(x.resolved), lsp: x.session.services.lsp, jobs: x.session.services.jobs, emit: x.session.emit, planAccepted: planAcceptedIn(x.record.state.history, x.resolved.toolset) }),
      skillToolsGuard(x.session.services.skills),
      ...(roles ? [roles.guard] : []),
      // Last: a call another guard refuses changes nothing, so needs no checkpoint.
      workspaceCheckpointGuard(x.session.services.checkpoints),
    ],
    session: {
      jobs: x.session.services.jobs,
      terminals: x.session.services.terminals,
      ask: x.ask,
      lsp: x.session.services.lsp,
      skills: x.session.services.skills,
      cellRunner: x.session.services.cells,
      ...(deferred ? { toolLoader: deferred } : {}),
      ...(roles ? { mainRoles: roles } : {}),
      model: { provider: x.provider, id: x.choice.model, usage: x.session.usage },
    },
    // A trace that stopped taking rows ends the run here too, its step saved.
    onStep: () => {
      x.record.save({ durable: false });
      x.session.checkTrace();
    },
    wake: withRoleNote(x.wake ?? x.session.services.notices, roles),
    hooks: x.session.services.hooks,
    hostedTools: hosted.tools,
    redact: createRedact(x.secrets),
    ...(x.observeAgent ? { observeAgent: x.observeAgent } : {}),
    ...(x.toolsReady ? { toolsReady: x.toolsReady } : {}),
  };
  const orchestrated = withOrchestration({
    deps,
    resolved: x.resolved,
    args: x.args,
    cwd: x.cwd,
    session: x.session,
    registry: x.resolved.registry,
    agentDirs: agentDirs(x.cwd),
    secrets: x.secrets,
    mainHistory: x.record.state.history,
  });
  // Tools the orchestration rules hide are hidden by the same guard, rebuilt with them.
  const hiding = ruleHidingGuard(x.resolved, x.args, orchestrated.hidden);
  const withGuards = { ...orchestrated.deps, guards: deps.guards!.map((g) => (g === ruleHiding ? hiding : g)) };
  if (!x.resolved.config.tools.task_enabled) return withGuards;
  const subagents = createSubagentRunner({ parent: withGuards, registry: x.resolved.registry, agentDirs: agentDirs(x.cwd), secrets: x.secrets, isolation: x.session.services.isolation });
  return { ...withGuards, session: { ...withGuards.session, subagents } };
}

/** The main agent's roles, the session's last one in force; each switch saved in its state. */
function mainRolesFor(x: LoopDepsInputs): MainRoles {
  const state = x.record.state;
  return createMainRoles({
    agentDirs: agentDirs(x.cwd),
    cwd: x.cwd,
    ...(state.mainRole !== undefined ? { initial: state.mainRole } : {}),
    save(role) {
      if (role === "builder") delete state.mainRole;
      else state.mainRole = role;
      x.record.save({ durable: false });
    },
    emit: x.session.emit,
  });
}

/** The operator's role switch reaches the model in its next request, before the other notices. */
function withRoleNote(wake: WakeSource | undefined, roles: MainRoles | undefined): WakeSource | undefined {
  if (!roles) return wake;
  return {
    take: () => {
      const note = roles.takeNote();
      return [...(note ? [note] : []), ...(wake?.take() ?? [])];
    },
    wait: (signal) => wake?.wait(signal) ?? Promise.resolve(false),
  };
}

/** Project agents win over the user's, and both over those that ship with yuj. */
function agentDirs(cwd: string): AgentDirs {
  return { project: join(cwd, PROJECT_DIR, "agents"), user: join(configDir(), "agents"), builtin: join(packageRoot, "agents") };
}

/**
 * Whether the conversation already holds an accepted plan (a successful call
 * of the plan-exit tool): a resumed session, or the session's next run, does
 * not go back into the planning phase.
 */
function planAcceptedIn(history: readonly HistoryItem[], toolset: ActiveToolset): boolean {
  const handlers = handlersOf(toolset);
  return history.some((h) => h.role === "tool" && !h.isError && handlers.get(h.name)?.role === "plan_exit");
}
