// What the core asks a tool about one call, in one place: its effects, the
// paths it touches, whether it checked the work, how its card and approval
// read. Every answer comes from the handler; none depends on the tool's name.
// Handler code runs on the model's arguments, so a description that throws
// is treated as saying nothing rather than failing the call.

import type { ToolDisplay } from "./display-schema.js";
import type { GuardCall } from "./guards/types.js";
import { parseArgsJson } from "./json-depth.js";
import { HandlerNotLoaded, type CallFacts, type ToolEffect, type ToolHandler, type ToolResult, type Touch } from "./tool-types.js";

// A handler not loaded yet is a mistake of yuj's, never taken for "says nothing".
function quietly<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HandlerNotLoaded) throw err;
    return fallback;
  }
}

/** The effects of one call: its tool's, narrowed by the call when the tool says so. */
function callEffects(handler: ToolHandler, args: Record<string, unknown>, facts: CallFacts): ReadonlySet<ToolEffect> {
  return handler.callEffects ? quietly(() => handler.callEffects!(args, facts), handler.effects) : handler.effects;
}

// Effects that change nothing here: looking at files, fetching a page.
const CHANGES_NOTHING: ReadonlySet<ToolEffect> = new Set(["inspect", "network"]);

/**
 * Calls run beside each other only when this call changes nothing: a read, a
 * search, a page fetch, or a command that only looks (`git status`, `ls`),
 * judged per call as Chord batches its read-only shell commands with reads.
 */
export function runsAlongside(handler: ToolHandler, args: Record<string, unknown>, facts: CallFacts): boolean {
  return [...callEffects(handler, args, facts)].every((e) => CHANGES_NOTHING.has(e));
}

function touchesOf(handler: ToolHandler, args: Record<string, unknown>, facts: CallFacts): Touch[] {
  return handler.touches ? quietly(() => handler.touches!(args, facts), []) : [];
}

/** A validated call as the guards see it. */
export function guardCallOf(handler: ToolHandler, callId: string, args: Record<string, unknown>, facts: CallFacts): GuardCall {
  return {
    callId,
    tool: facts.name,
    args,
    effects: callEffects(handler, args, facts),
    ...(handler.role ? { role: handler.role } : {}),
    touches: touchesOf(handler, args, facts),
    verifies: (result: ToolResult) => (handler.verifies ? quietly(() => handler.verifies!(args, result), false) : false),
  };
}

/** The approval prompt's words, when the tool words its calls itself. */
export function describedBy(handler: ToolHandler, args: Record<string, unknown>, facts: CallFacts): { summary: string; detail?: string } | undefined {
  const describe = handler.view.describe;
  return describe ? quietly(() => describe(args, facts), undefined) : undefined;
}

/** A call's header summary and preview, from its arguments as streamed (nothing when they are not an object). */
export function callView(handler: ToolHandler, argsText: string, facts: CallFacts): { summary?: string; preview?: ToolDisplay } {
  const parsed = parseArgsJson(argsText || "{}")?.value;
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const args = parsed as Record<string, unknown>;
  const { summary, preview } = handler.view;
  const s = summary ? quietly(() => summary(args, facts), undefined) : undefined;
  const p = preview ? quietly(() => preview(args, facts), undefined) : undefined;
  return { ...(s === undefined ? {} : { summary: s }), ...(p === undefined ? {} : { preview: p }) };
}
