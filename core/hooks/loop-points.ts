// Where the model loop and the dispatcher call the hooks: the data each
// point hands its hooks, and what their answers do to the step. Kept here so
// the loop reads as the loop, and so a session without hooks pays nothing
// (every function returns at once when no entry is configured).

import * as path from "node:path";
import type { ToolResult } from "../tool-types.js";
import type { HookService } from "./service.js";
import { CHANGES } from "../guards/types.js";
import type { GuardCall } from "../guards/types.js";

/** The project-relative form of the paths a call touches (as the model wrote them). */
function relPaths(cwd: string, call: Pick<GuardCall, "touches">, changesOnly = false): string[] {
  return call.touches.filter((t) => !changesOnly || CHANGES.has(t.as)).map((t) => path.relative(cwd, path.resolve(cwd, t.path)) || ".");
}

/**
 * on_before_llm_call: a block ends the run (the text says which hook and
 * why); a modify may give a `note`, which goes to the model with this
 * request. Returns the notes to add, or the block's text.
 */
export async function beforeModelRequest(
  hooks: HookService | undefined,
  info: { turn: number; model: string; messages: number; tools: string[] },
): Promise<{ blocked: string } | { notes: string[] }> {
  if (!hooks?.has("on_before_llm_call")) return { notes: [] };
  const data = { turn: info.turn, model: info.model, message_count: info.messages, tools: info.tools, note: "" };
  const out = await hooks.sync("on_before_llm_call", data);
  if (out.blocked) return { blocked: `the model request was blocked by hook "${out.blocked.hook}": ${out.blocked.message}` };
  const note = typeof out.data.note === "string" ? out.data.note.trim() : "";
  return { notes: note ? [note] : [] };
}

/**
 * on_tool_call: before the guards and the permission gate, so a rule judges
 * the arguments a hook left. Returns the arguments to use, or the refusal
 * the model reads.
 */
export async function beforeToolCall(
  hooks: HookService | undefined,
  call: GuardCall,
  cwd: string,
): Promise<{ args: Record<string, unknown> } | { refusal: string }> {
  if (!hooks?.has("on_tool_call")) return { args: call.args };
  const out = await hooks.sync("on_tool_call", { tool: call.tool, call_id: call.callId, args: call.args }, { tools: [call.tool], paths: relPaths(cwd, call) });
  if (out.blocked) return { refusal: `ERROR: ${call.tool} was blocked by hook "${out.blocked.hook}": ${out.blocked.message}` };
  const args = out.data.args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { refusal: `ERROR: a hook at on_tool_call replaced the arguments of ${call.tool} with something that is not an object; the call did not run` };
  }
  return { args: args as Record<string, unknown> };
}

/** on_before_tool_result_append: a block withholds the result; a modify's `result` replaces the text the model reads. */
export async function beforeResultAppend(hooks: HookService | undefined, call: GuardCall, result: ToolResult, cwd: string): Promise<ToolResult> {
  if (!hooks?.has("on_before_tool_result_append")) return result;
  const data = { tool: call.tool, call_id: call.callId, args: call.args, ok: result.ok, result: result.modelText };
  const out = await hooks.sync("on_before_tool_result_append", data, { tools: [call.tool], paths: relPaths(cwd, call), failed: !result.ok });
  if (out.blocked) {
    return { ok: false, modelText: `ERROR: the result of ${call.tool} was withheld by hook "${out.blocked.hook}": ${out.blocked.message}` };
  }
  if (typeof out.data.result !== "string" || out.data.result === result.modelText) return result;
  // The card shows what the model reads: the tool's own view of the old text would mislead.
  const { display: _old, ...rest } = result;
  return { ...rest, modelText: out.data.result };
}

/** on_tool_result: told every settled result. */
export function toolResultSettled(hooks: HookService | undefined, call: { id: string; name: string }, ok: boolean, text: string, durationMs: number): void {
  if (!hooks?.has("on_tool_result")) return;
  hooks.observe("on_tool_result", { tool: call.name, call_id: call.id, ok, result: text, duration_ms: durationMs }, { tools: [call.name], failed: !ok });
}

/** on_tool_batch_complete: after all of one response's calls have results. */
export function batchFinished(
  hooks: HookService | undefined,
  turn: number,
  calls: ReadonlyArray<{ call: Pick<GuardCall, "tool" | "callId" | "touches"> | { tool: string; callId: string; touches: [] }; ok: boolean }>,
  cwd: string,
): void {
  if (!hooks?.has("on_tool_batch_complete") || calls.length === 0) return;
  const changed = [...new Set(calls.filter((c) => c.ok).flatMap((c) => relPaths(cwd, c.call, true)))];
  const failed = calls.some((c) => !c.ok);
  const data = { turn, calls: calls.map((c) => ({ tool: c.call.tool, call_id: c.call.callId, ok: c.ok })), changed_files: changed, failed };
  hooks.batchComplete(data, { tools: calls.map((c) => c.call.tool), paths: changed, changedFiles: changed.length, failed });
}
