// Delegation on the Chord surface: when the profile offers delegate and the
// rules let the main agent delegate to at least one role, the session gets a
// delegation runtime; delegate's agent_type lists exactly those roles. When
// the rules deny delegate, cancel goes too (there is nothing to cancel).

import type { AgentDirs } from "../core/agents/find.js";
import type { LoopDeps, WakeSource } from "../core/loop.js";
import { createOrchestrator } from "../core/orchestration/runtime.js";
import { delegableRoles, roleDefinitions, scopeRule } from "../core/orchestration/roles.js";
import { withRoleEnum } from "../core/orchestration/nested-runtime.js";
import type { ActiveToolset } from "../core/profiles/activate.js";
import type { HistoryItem } from "../core/history.js";
import type { ToolRegistry, ToolRole } from "../core/tool-types.js";
import type { ParsedArgs } from "./args.js";
import { rulesPermit } from "./permission-setup.js";
import type { OpenSession, Resolved } from "./session.js";

/** Exposed names of the active tools with a role. */
const namesOf = (toolset: ActiveToolset, role: ToolRole) => [...toolset.tools.values()].filter((t) => t.handler.role === role).map((t) => t.name);

export interface OrchestrationInputs {
  deps: Omit<LoopDeps, "signal">;
  resolved: Resolved;
  args: ParsedArgs;
  cwd: string;
  session: OpenSession;
  registry: ToolRegistry;
  agentDirs: AgentDirs;
  secrets: string[];
  mainHistory: readonly HistoryItem[];
}

/** The loop's dependencies with the runtime in place, and the tools to take out of the model's list. */
export function withOrchestration(x: OrchestrationInputs): { deps: Omit<LoopDeps, "signal">; hidden: string[] } {
  const delegateNames = namesOf(x.deps.toolset, "delegation");
  if (delegateNames.length === 0) return { deps: x.deps, hidden: [] };
  const mayDelegateTo = (role: string) => delegateNames.some((name) => rulesPermit(x.resolved, x.args, x.cwd, name, { agent_type: role }));
  const roles = delegableRoles(x.agentDirs, mayDelegateTo);
  if (roles.length === 0) return { deps: x.deps, hidden: [...delegateNames, ...namesOf(x.deps.toolset, "cancellation")] };
  const toolset = withRoleEnum(x.deps.toolset, delegateNames, roles, roleList(x.agentDirs, roles));
  const base = { ...x.deps, toolset };
  const orchestrator = createOrchestrator({ parent: base, registry: x.registry, agentDirs: x.agentDirs, secrets: x.secrets, mainHistory: x.mainHistory, mayDelegateTo });
  x.session.onClose(() => orchestrator.close());
  let picked = false;
  const mailWake: WakeSource = {
    take() {
      // A resumed session picks its tasks up when the main agent first works again.
      if (!picked) {
        picked = true;
        orchestrator.rehydrate();
      }
      return orchestrator.mainWake.take();
    },
    wait: (signal) => orchestrator.mainWake.wait(signal),
  };
  const main: Omit<LoopDeps, "signal"> = {
    ...base,
    // The workers share the main agent's provider and its bound on requests in flight.
    provider: orchestrator.limit(x.deps.provider),
    session: { ...x.deps.session, orchestration: orchestrator.port },
    wake: x.deps.wake ? bothWakes(x.deps.wake, mailWake) : mailWake,
  };
  return { deps: main, hidden: [] };
}

/**
 * agent_type's description, as the reference writes it: each role with its
 * own description and its empty-scope rule, so the model picks a role
 * without reading the scope's prose.
 */
function roleList(dirs: AgentDirs, roles: string[]): string {
  const rows = roleDefinitions(dirs, roles).map((d) => `- ${d.name}: ${d.description} [${scopeRule(d)}]`);
  return `Agent type to use for this task. Available types:\n${rows.join("\n")}\n`;
}

/** Notices from both sources; waiting wakes on either, and gives up only when neither can produce one. */
function bothWakes(a: WakeSource, b: WakeSource): WakeSource {
  return {
    take: () => [...a.take(), ...b.take()],
    async wait(signal) {
      const inner = new AbortController();
      const stop = () => inner.abort();
      signal.addEventListener("abort", stop, { once: true });
      const woke = (v: boolean) => {
        if (v) inner.abort();
        return v;
      };
      try {
        const [x, y] = await Promise.all([a.wait(inner.signal).then(woke), b.wait(inner.signal).then(woke)]);
        return (x || y) && !signal.aborted;
      } finally {
        signal.removeEventListener("abort", stop);
      }
    },
  };
}
