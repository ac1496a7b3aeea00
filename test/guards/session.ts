// One guarded session over the real _base profile and the real dispatcher:
// calls go through prepareCall/runPrepared exactly as the loop sends them,
// so the guards run where they do in production (after validation, before
// the permission gate and the handler).

import type { Config } from "../../core/config/schema.js";
import { handlersOf, planPhaseOf, prepareCall, runPrepared, type CallOutcome, type DispatchDeps } from "../../core/dispatch.js";
import type { Guard, GuardContext } from "../../core/guards/types.js";
import { createGuards } from "../../tools/guards/index.js";
import { baseToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

export interface GuardedSession extends TestToolContext {
  config: Config;
  guards: Guard[];
  call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  /** What the loop would hide from the next request (counts as one request). */
  hidden(): string[];
  /** Names the next request would carry. */
  visible(): string[];
}

let seq = 0;

export async function guardedSession(adjust: (config: Config) => void): Promise<GuardedSession> {
  const t = await makeToolContext(adjust);
  const config = t.ctx.config;
  const toolset = baseToolset(config);
  const guards = createGuards(config, { jobs: t.ctx.jobs, emit: t.ctx.emit });
  const deps: DispatchDeps = {
    toolset,
    config,
    services: t.ctx.services,
    emit: t.ctx.emit,
    cwd: t.cwd,
    sessionDir: t.ctx.sessionDir,
    memory: t.ctx.memory,
    signal: t.abort.signal,
    session: { jobs: t.ctx.jobs! },
    guards,
  };
  const guardCtx = (): GuardContext => ({ cwd: t.cwd, config, activeTools: new Set(toolset.tools.keys()), handlers: handlersOf(toolset), ...planPhaseOf(toolset) });
  const hidden = () => {
    const names = new Set<string>();
    for (const g of guards) for (const n of g.hiddenTools?.(guardCtx()) ?? []) names.add(n);
    return [...names].sort();
  };
  return {
    ...t,
    config,
    guards,
    call: (name, args = {}) =>
      runPrepared(prepareCall({ id: `g_${++seq}`, name, args: JSON.stringify(args) }, toolset, config), deps),
    hidden,
    visible: () => {
      const h = new Set(hidden());
      return toolset.specs.map((s) => s.name).filter((n) => !h.has(n));
    },
  };
}
