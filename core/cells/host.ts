// Code mode for one exec_cell call: the functions its cell may call, and the
// cell's run, in which every call the cell makes goes through the dispatcher
// like a call of the model's own. So an inner call meets the same argument
// checks, guards, permission gate (an ask asks the operator), redaction and
// output bound, and leaves the same events in the trace, marked with the
// cell's call as their parent. A cell cannot be held open across processes:
// when an inner call would pause for an approval (headless, nobody to ask),
// the cell is stopped there and the exec_cell call itself pauses the run;
// once the approval is recorded the resumed run runs the cell again from its
// start, and the recorded answer meets the same call at the same place.

import type { CellFunction, CellHost, ToolContext } from "../tool-types.js";
import type { Config } from "../config/schema.js";
import type { ActiveToolset } from "../profiles/activate.js";
import { loadHandlersOf, prepareCall, runPrepared, settleResult, type CallOutcome, type DispatchDeps } from "../dispatch.js";
import type { CellRunner } from "./runner.js";

function cellHost(deps: DispatchDeps, parentCallId: string, runner: CellRunner, functions: ActiveToolset): CellHost {
  const list: CellFunction[] = functions.specs.map((s) => ({ name: s.name, description: s.description, parameters: s.parameters }));
  const params = Object.fromEntries(functions.specs.map((s) => [s.name, Object.keys((s.parameters.properties ?? {}) as object)]));
  // Inside a cell nothing is left running: a command's leftovers are stopped, not handed back as a job.
  const config: Config = { ...deps.config, tools: { ...deps.config.tools, background_enabled: false } };
  let count = 0;
  return {
    functions: list,
    async run(source) {
      // Stops the cell when a call of it pauses; the run's own cancel stops it too.
      const stop = new AbortController();
      const signal = AbortSignal.any([deps.signal, stop.signal]);
      let paused: CallOutcome["paused"];
      const onPause = (request: NonNullable<CallOutcome["paused"]>) => {
        paused ??= request;
        stop.abort();
      };
      const outcome = await runner.run({
        source,
        cwd: deps.cwd,
        timeoutMs: deps.config.tools.code_cell_timeout * 1000,
        signal,
        functions: params,
        call: (name, args, callSignal) =>
          innerCall({ ...deps, toolset: functions, config, signal: callSignal }, parentCallId, `${parentCallId}.${++count}`, name, args, onPause),
      });
      return paused && !deps.signal.aborted ? { ...outcome, paused } : outcome;
    },
  };
}

async function innerCall(
  deps: DispatchDeps,
  parentCallId: string,
  callId: string,
  name: string,
  args: Record<string, unknown>,
  onPause: (request: NonNullable<CallOutcome["paused"]>) => void,
): Promise<string> {
  await loadHandlersOf(deps.toolset, [name]);
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
    if (outcome.paused) {
      // No result: the call runs when the cell runs again, after the approval.
      onPause(outcome.paused);
      return "";
    }
  }
  if (outcome.report) deps.emit({ ...outcome.report, parentCallId });
  return outcome.modelText;
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
