// Code mode for one exec_cell call: the functions its cell may call, and the
// cell's run, in which every call the cell makes goes through the dispatcher
// like a call of the model's own. So an inner call meets the same argument
// checks, guards, permission gate (an ask asks the operator), redaction and
// output bound, and leaves the same events in the trace, marked with the
// cell's call as their parent. Nobody can approve while a headless cell waits,
// and a cell cannot be paused and continued: a call that would pause for an
// approval is refused instead, with the reason.

import type { CellFunction, CellHost, ToolContext } from "../tool-types.js";
import type { Config } from "../config/schema.js";
import type { ActiveToolset } from "../profiles/activate.js";
import { prepareCall, runPrepared, settleResult, type CallOutcome, type DispatchDeps } from "../dispatch.js";
import type { CellRunner } from "./runner.js";

function cellHost(deps: DispatchDeps, parentCallId: string, runner: CellRunner, functions: ActiveToolset): CellHost {
  const list: CellFunction[] = functions.specs.map((s) => ({ name: s.name, description: s.description, parameters: s.parameters }));
  const params = Object.fromEntries(functions.specs.map((s) => [s.name, Object.keys((s.parameters.properties ?? {}) as object)]));
  // Inside a cell nothing is left running: a command's leftovers are stopped, not handed back as a job.
  const config: Config = { ...deps.config, tools: { ...deps.config.tools, background_enabled: false } };
  let count = 0;
  return {
    functions: list,
    run: (source) =>
      runner.run({
        source,
        cwd: deps.cwd,
        timeoutMs: deps.config.tools.code_cell_timeout * 1000,
        signal: deps.signal,
        functions: params,
        call: (name, args, signal) => innerCall({ ...deps, toolset: functions, config, signal }, parentCallId, `${parentCallId}.${++count}`, name, args),
      }),
  };
}

async function innerCall(deps: DispatchDeps, parentCallId: string, callId: string, name: string, args: Record<string, unknown>): Promise<string> {
  const tool = deps.toolset.tools.get(name)!;
  const call = { id: callId, name, args: JSON.stringify(args) };
  const facts = { cwd: deps.cwd, name };
  deps.emit({ type: "tool_call_started", callId, name, parentCallId, view: { card: tool.handler.view.card } });
  const summary = safely(() => tool.handler.view.summary?.(args, facts));
  deps.emit({ type: "tool_call_finished", callId, name, args: call.args, parentCallId, ...(summary === undefined ? {} : { summary }) });
  let outcome: CallOutcome;
  if ("background" in args) {
    outcome = settleResult(call, { ok: false, modelText: "ERROR: background commands are not available inside a cell; run the command in the foreground" }, false, deps, 0);
  } else {
    outcome = await runPrepared(prepareCall(call, deps.toolset, deps.config), deps);
    if (outcome.paused) outcome = refusedForApproval(deps, call, outcome.paused);
  }
  if (outcome.report) deps.emit({ ...outcome.report, parentCallId });
  return outcome.modelText;
}

function refusedForApproval(deps: DispatchDeps, call: { id: string; name: string; args: string }, request: NonNullable<CallOutcome["paused"]>): CallOutcome {
  const text =
    `ERROR: ${request.summary} needs approval (${request.reason}), and nobody can approve it while a cell runs in a headless session; ` +
    `it was not run. A permission rule that allows it (${request.suggestedRule ? JSON.stringify(request.suggestedRule) : "a rule"}) lets it run here, or run the session in the TUI`;
  deps.emit({ type: "approval_resolved", callId: call.id, decision: "reject", message: "nobody can approve inside a headless cell" });
  return settleResult(call, { ok: false, modelText: text }, false, deps, 0);
}

function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** What the dispatcher adds to an exec_cell call's context. */
export function cellContext(deps: DispatchDeps, callId: string): Pick<ToolContext, "cells"> {
  const functions = deps.toolset.cellFunctions;
  const runner = deps.session?.cellRunner;
  return functions && runner ? { cells: cellHost(deps, callId, runner, functions) } : {};
}
