// One tool call from raw model output to a bounded result: resolve the name,
// validate the arguments, ask the permission gate, run the handler, bound the
// output. The loop and `yuj tool` both come through here. The result's
// `tool_result` event is not emitted here: the loop emits it once the result
// is saved in the session, so nothing (trace, stdout, view) ever shows a
// result that a resume would not find.

import { stoppedText } from "./stop-reason.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config/schema.js";
import type { Emit, EventBody } from "./events.js";
import type { ToolCall, ToolImage } from "./history.js";
import { boundOutput } from "./output-bound.js";
import type { ActiveTool, ActiveToolset } from "./profiles/activate.js";
import type { Services } from "./services.js";
import type { SessionMemory } from "./session-memory.js";
import { AnswerDeferred, type QuestionRequest, type ToolContext, type ToolHandler, type ToolResult } from "./tool-types.js";
import { rejectEnvelope, validateArgs } from "./arg-validation.js";
import { meantTool, offBecause } from "./tool-off.js";
import type { Guard, GuardCall, GuardContext } from "./guards/types.js";
import { describeCall } from "./approvals/describe.js";
import { boundDisplay } from "./display-bound.js";
import { describedBy, guardCallOf, runsAlongside } from "./tool-facts.js";
import type { PermissionGate } from "./permissions/gate.js";
import type { ApprovalRequest } from "./approvals/types.js";
import type { CellRunner } from "./cells/runner.js";
import { cellContext } from "./cells/host.js";
import type { HookService } from "./hooks/service.js";
import { beforeResultAppend, beforeToolCall, toolResultSettled } from "./hooks/loop-points.js";

export type { PermissionGate };

/** With no gate every call may run (tests, `yuj tool` with no rules). */
const allowAll: PermissionGate = { check: async () => ({ kind: "allow" }) };

export interface DispatchDeps {
  toolset: ActiveToolset;
  config: Config;
  services: Services;
  emit: Emit;
  cwd: string;
  sessionDir: string;
  /** The session's in-process memory, handed to every call. */
  memory: SessionMemory;
  signal: AbortSignal;
  gate?: PermissionGate;
  /** Session-scoped services tools reach through their context. */
  session?: Pick<ToolContext, "jobs" | "terminals" | "lsp" | "skills" | "pauseForAnswer" | "subagents" | "toolLoader" | "orchestration" | "mainRoles" | "model"> & {
    /** The operator's answer to a tool's question; the call's signal ends the wait. */
    ask?: (question: QuestionRequest, signal: AbortSignal) => Promise<string>;
    /** Code mode: runs cells (the toolset's cellFunctions are what they call). */
    cellRunner?: CellRunner;
  };
  /** Hides secrets in every tool result before the model or the trace sees it. */
  redact?: (text: string) => string;
  /** Checks around every call (stale files, plan mode, the done guard). */
  guards?: readonly Guard[];
  /** The conversation so far, for handlers that steer it (rewind). */
  conversation?: ToolContext["conversation"];
  /** The session's [hooks]: on_tool_call, on_before_tool_result_append and on_tool_result run here. */
  hooks?: HookService;
}

export type PreparedCall =
  | { ready: true; call: ToolCall; tool: ActiveTool; args: Record<string, unknown>; notes?: string[] }
  | { ready: false; call: ToolCall; text: string };

export interface CallOutcome {
  call: ToolCall;
  ok: boolean;
  modelText: string;
  finish?: { message?: string };
  /** Images for the model (with their saved copies named), when the tool returned any. */
  images?: ToolImage[];
  cancelled: boolean;
  /** The call waits for an approval nobody can give now; it has no result yet. */
  paused?: ApprovalRequest;
  /** The call asked the operator this (ask_user, headless); its result is the answer, later. */
  question?: string;
  /** The `tool_result` event to emit once the result is saved (reportResults); absent while the call has no result. */
  report?: ToolResultEvent;
}

type ToolResultEvent = Extract<EventBody, { type: "tool_result" }>;

/** Emits the results' events, in call order: only after the step that holds them is saved. */
export function reportResults(outcomes: readonly CallOutcome[], emit: Emit): void {
  for (const o of outcomes) if (o.report) emit(o.report);
}

export const CANCELLED_TEXT = "ERROR: cancelled by the user before the tool finished";

/** Loads the code of the named tools' handlers where it loads on first use (a name no tool has: nothing). */
export async function loadHandlersOf(toolset: ActiveToolset, names: Iterable<string>): Promise<void> {
  await Promise.all([...names].map((name) => toolset.tools.get(name)?.handler.load?.()));
}

/** Resolves and validates without running anything. */
export function prepareCall(call: ToolCall, toolset: ActiveToolset, config: Config): PreparedCall {
  const tool = toolset.tools.get(call.name);
  if (!tool) {
    const names = [...toolset.tools.keys()].join(", ");
    const declared = toolset.profile.tools.find((t) => t.name === call.name);
    if (declared) return { ready: false, call, text: `ERROR: the ${call.name} tool is disabled in this session${offBecause(toolset, declared.enabled_when, call.name)}. Available tools: ${names}.` };
    const unknown = `unknown tool '${call.name}'.${meantTool(call.name, toolset)} Available tools: ${names}.`;
    // Under reject, a name the model was not sent fails the check like bad arguments do (rule "tool"), as the reference's validator says it.
    if (config.tools.schema_validation === "reject") {
      return { ready: false, call, text: `${rejectEnvelope(call.name, [{ path: "$", rule: "tool", expected: "active tool name", actual: "unknown tool" }])}\n${unknown}` };
    }
    return { ready: false, call, text: `ERROR: ${unknown}` };
  }
  const exposed = Object.keys((tool.spec.parameters.properties ?? {}) as object);
  const checked = validateArgs(call.name, call.args, tool.handler.schema, {
    mode: config.tools.schema_validation,
    exposed,
    undeclared: toolset.profile.undeclaredParams,
    ...(tool.handler.argForms ? { forms: tool.handler.argForms } : {}),
  });
  if (!checked.ok) return { ready: false, call, text: checked.text };
  return { ready: true, call, tool, args: checked.args, ...(checked.notes.length ? { notes: checked.notes } : {}) };
}

/** Whether the call may run beside others: it changes nothing (a call that cannot run changes nothing either). */
export function runsAlongsideOthers(p: PreparedCall, where: { cwd: string; sessionDir?: string }): boolean {
  return !p.ready || runsAlongside(p.tool.handler, p.args, { cwd: where.cwd, name: p.call.name, ...(where.sessionDir ? { sessionDir: where.sessionDir } : {}) });
}

export async function runPrepared(asPrepared: PreparedCall, deps: DispatchDeps): Promise<CallOutcome> {
  const started = deps.services.clock.now();
  const p = asPrepared.ready && !deps.signal.aborted ? await hookedCall(asPrepared, deps) : asPrepared;
  let result: ToolResult;
  let cancelled = false;
  if (deps.signal.aborted) {
    result = { ok: false, modelText: stoppedText(deps.signal, CANCELLED_TEXT) };
    cancelled = true;
  } else if (!p.ready) {
    result = { ok: false, modelText: p.text };
  } else {
    const facts = { cwd: deps.cwd, name: p.call.name, sessionDir: deps.sessionDir };
    const handler = p.tool.handler;
    const guardCall = guardCallOf(handler, p.call.id, p.args, facts);
    const guardCtx: GuardContext = { cwd: deps.cwd, config: deps.config, activeTools: deps.toolset.names, handlers: handlersOf(deps.toolset), ...planPhaseOf(deps.toolset), signal: deps.signal };
    const refusal = await firstRefusal(deps.guards ?? [], guardCall, guardCtx);
    const gateCall = {
      callId: p.call.id,
      tool: p.call.name,
      args: p.args,
      sessionDir: deps.sessionDir,
      describe: () => describedBy(handler, p.args, facts) ?? describeCall(p.call.name, p.args),
      checkArgs: (args: Record<string, unknown>) => {
        const checked = prepareCall({ ...p.call, args: JSON.stringify(args) }, deps.toolset, deps.config);
        return checked.ready ? undefined : checked.text.replace(/^ERROR: /, "");
      },
    };
    const verdict = refusal === undefined ? await (deps.gate ?? allowAll).check(gateCall, deps.signal) : undefined;
    if (verdict?.kind === "pause") {
      return { call: p.call, ok: false, modelText: "", cancelled: false, paused: verdict.request };
    }
    if (refusal !== undefined) {
      result = { ok: false, modelText: refusal };
    } else if (verdict!.kind === "deny") {
      result = { ok: false, modelText: verdict!.text };
    } else {
      const edited = verdict!.kind === "allow" && verdict!.args ? editedCall(p, verdict!.args, deps) : undefined;
      const editRefusal = edited ? await firstRefusal(deps.guards ?? [], guardCallOf(handler, p.call.id, edited.args, facts), guardCtx) : undefined;
      result = editRefusal !== undefined ? { ok: false, modelText: editRefusal } : await runHandler(edited ?? p, deps);
      if (result.approval !== undefined && !deps.signal.aborted) {
        // A call inside it waits for an approval: this call pauses as a call of the model's own would.
        return { call: p.call, ok: false, modelText: "", cancelled: false, paused: result.approval };
      }
      if (result.question !== undefined && !deps.signal.aborted) {
        // No result now: the session pauses and the answer becomes the result.
        deps.emit({ type: "question_asked", callId: p.call.id, question: result.question });
        return { call: p.call, ok: true, modelText: "", cancelled: false, question: result.question };
      }
      if (deps.signal.aborted) {
        cancelled = true;
        result = { ok: false, modelText: `${stoppedText(deps.signal, CANCELLED_TEXT)}\n${result.modelText}`.trimEnd() };
      } else {
        for (const guard of deps.guards ?? []) if (guard.after) result = await guard.after(guardCall, result, guardCtx);
      }
    }
    if (!cancelled) result = await beforeResultAppend(deps.hooks, guardCall, result, deps.cwd);
  }
  const outcome = settleResult(p.call, result, cancelled, deps, deps.services.clock.now() - started);
  toolResultSettled(deps.hooks, p.call, outcome.ok, outcome.modelText, deps.services.clock.now() - started);
  return outcome;
}

/** The call as the on_tool_call hooks leave it: refused, or with their arguments (validated again). */
async function hookedCall(p: Extract<PreparedCall, { ready: true }>, deps: DispatchDeps): Promise<PreparedCall> {
  const guardCall = guardCallOf(p.tool.handler, p.call.id, p.args, { cwd: deps.cwd, name: p.call.name });
  const hooked = await beforeToolCall(deps.hooks, guardCall, deps.cwd);
  if ("refusal" in hooked) return { ready: false, call: p.call, text: hooked.refusal };
  if (hooked.args === p.args) return p;
  const again = prepareCall({ ...p.call, args: JSON.stringify(hooked.args) }, deps.toolset, deps.config);
  if (!again.ready) return { ready: false, call: p.call, text: `${again.text}\n(the arguments are those a hook at on_tool_call gave)` };
  return { ...again, call: p.call };
}

/**
 * The call as the user edited it before allowing it: the handler gets the
 * edited arguments (checked against the schema when they were given), and
 * the model is told, since what ran is not what it asked for.
 */
function editedCall(p: Extract<PreparedCall, { ready: true }>, args: Record<string, unknown>, deps: DispatchDeps): Extract<PreparedCall, { ready: true }> {
  const checked = prepareCall({ ...p.call, args: JSON.stringify(args) }, deps.toolset, deps.config);
  const note = `NOTE: the user edited the arguments before allowing this call; it ran with ${JSON.stringify(args)}`;
  return { ...p, args: checked.ready ? checked.args : args, notes: [...(p.notes ?? []), note] };
}

async function firstRefusal(guards: readonly Guard[], call: GuardCall, ctx: GuardContext): Promise<string | undefined> {
  for (const guard of guards) {
    const refusal = guard.before ? await guard.before(call, ctx) : undefined;
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

function hiddenFiles(gate: PermissionGate | undefined, tool: string, args: Record<string, unknown>): Pick<ToolContext, "hiddenByRules"> {
  const hidden = gate?.searchFilter?.(tool, args);
  return hidden ? { hiddenByRules: hidden } : {};
}

/** The active tools' handlers by exposed name, made once per toolset. */
const handlerMaps = new WeakMap<ActiveToolset, ReadonlyMap<string, ToolHandler>>();
/** The guards' view of the tools offered only while planning (code mode in required plan mode). */
export function planPhaseOf(toolset: ActiveToolset): { planPhaseOnly?: ReadonlySet<string> } {
  return toolset.planPhaseOnly ? { planPhaseOnly: toolset.planPhaseOnly } : {};
}

export function handlersOf(toolset: ActiveToolset): ReadonlyMap<string, ToolHandler> {
  let map = handlerMaps.get(toolset);
  if (!map) {
    map = new Map([...toolset.tools].map(([name, t]) => [name, t.handler]));
    handlerMaps.set(toolset, map);
  }
  return map;
}

async function runHandler(
  p: Extract<PreparedCall, { ready: true }>,
  deps: DispatchDeps,
): Promise<ToolResult> {
  const ctx: ToolContext = {
    cwd: deps.cwd,
    signal: deps.signal,
    callId: p.call.id,
    emit: deps.emit,
    services: deps.services,
    config: deps.config,
    sessionDir: deps.sessionDir,
    memory: deps.memory,
    activeTools: deps.toolset.names,
    ...hiddenFiles(deps.gate, p.call.name, p.args),
    ...(deps.session?.jobs ? { jobs: deps.session.jobs } : {}),
    ...(deps.session?.terminals ? { terminals: deps.session.terminals } : {}),
    ...(deps.session?.lsp ? { lsp: deps.session.lsp } : {}),
    ...(deps.session?.skills ? { skills: deps.session.skills } : {}),
    ...(deps.session?.pauseForAnswer ? { pauseForAnswer: true } : {}),
    ...(deps.session?.subagents ? { subagents: deps.session.subagents } : {}),
    ...(deps.session?.toolLoader ? { toolLoader: deps.session.toolLoader } : {}),
    ...cellContext(deps, p.call.id),
    ...(deps.session?.orchestration ? { orchestration: deps.session.orchestration } : {}),
    ...(deps.session?.mainRoles ? { mainRoles: deps.session.mainRoles } : {}),
    ...(deps.session?.model ? { model: deps.session.model } : {}),
    ...(deps.conversation ? { conversation: deps.conversation } : {}),
  };
  // A question nobody can answer now (no operator, or the operator went away
  // while it waited) is asked again the way a session that pauses asks it:
  // the tool saves its question and the run ends waiting for `yuj answer`.
  let deferred = false;
  const ask = deps.session?.ask;
  if (ask) {
    ctx.ask = (q) =>
      ask(q, deps.signal).catch((err: unknown) => {
        if (err instanceof AnswerDeferred) deferred = true;
        throw err;
      });
  }
  try {
    const result = await p.tool.handler.run(p.args, ctx);
    if (!deferred || deps.signal.aborted) return withNotes(result, p.notes);
    const { ask: _gone, ...paused } = ctx;
    return withNotes(await p.tool.handler.run(p.args, { ...paused, pauseForAnswer: true }), p.notes);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, modelText: `ERROR: ${p.call.name} failed: ${message}` };
  }
}

/** The result with the validator's notes (an old parameter name read as today's) in front of what the model reads. */
function withNotes(result: ToolResult, notes: readonly string[] | undefined): ToolResult {
  if (!notes?.length) return result;
  return { ...result, modelText: `${notes.join("\n")}\n${result.modelText}` };
}

/** Bounds the texts and returns the outcome, with the tool_result event it will report. */
export function settleResult(
  call: ToolCall,
  result: ToolResult,
  cancelled: boolean,
  deps: Pick<DispatchDeps, "config" | "sessionDir" | "redact">,
  durationMs: number,
): CallOutcome {
  const redact = deps.redact ?? ((t: string) => t);
  const bound = (text: string, suffix: string) =>
    boundOutput(redact(text), {
      maxChars: deps.config.output.max_output_chars,
      headRatio: deps.config.output.truncate_head_ratio,
      saveDir: join(deps.sessionDir, "tool-output"),
      name: `${call.id}${suffix}`,
    });
  const model = bound(result.modelText, "");
  // A cancelled call's display would show work it did not finish: its text says what happened.
  const display = result.display && !cancelled ? boundDisplay(result.display, deps.config.output.max_output_chars, redact) : undefined;
  const images = cancelled ? [] : saveImages(call.id, result.images, deps.sessionDir);
  const report: ToolResultEvent = {
    type: "tool_result",
    callId: call.id,
    name: call.name,
    ok: result.ok,
    modelText: model.text,
    ...(display ? { display } : {}),
    durationMs,
    ...(model.fullOutputPath ? { fullOutputPath: model.fullOutputPath } : {}),
    ...(cancelled ? { cancelled: true } : {}),
    ...(images.length
      ? {
          images: images.map((img) => ({
            mediaType: img.mediaType,
            ...(img.label === undefined ? {} : { label: img.label }),
            bytes: Buffer.byteLength(img.data, "base64"),
            ...(img.file === undefined ? {} : { file: join(deps.sessionDir, img.file) }),
          })),
        }
      : {}),
  };
  return {
    call,
    ok: result.ok,
    modelText: model.text,
    cancelled,
    report,
    ...(result.finish ? { finish: result.finish } : {}),
    ...(images.length ? { images } : {}),
  };
}

/**
 * Saves each image under <session>/images/ so events and the session state can
 * name it instead of carrying megabytes of base64. A failed save only costs
 * the reference: the image still reaches the model from memory.
 */
function saveImages(callId: string, images: ToolResult["images"], sessionDir: string): ToolImage[] {
  if (!images?.length) return [];
  const stem = callId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80) || "image";
  return images.map((img, i) => {
    const file = join("images", `${stem}-${i}.${img.mediaType === "image/png" ? "png" : "jpg"}`);
    try {
      mkdirSync(join(sessionDir, "images"), { recursive: true });
      writeFileSync(join(sessionDir, file), Buffer.from(img.data, "base64"));
      return { ...img, file };
    } catch {
      return { ...img };
    }
  });
}
