// One Chord tool call the way a model makes it: the real dispatcher and the
// real `chord` profile, so argument aliases, validation and the handler's
// result all apply.

import { join } from "node:path";
import { defaultConfig } from "../../core/config/schema.js";
import { prepareCall, runPrepared } from "../../core/dispatch.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import type { OrchestrationPort } from "../../core/orchestration/types.js";
import type { QuestionRequest, ToolDisplay } from "../../core/tool-types.js";
import { builtinHandlers } from "../../tools/registry.js";
import { repoRoot } from "./loop-harness.js";
import type { TestToolContext } from "./tool-context.js";

// apply_patch is offered to patch-native models, edit to the others.
const PATCH_MODEL = { provider: "openai", id: "gpt-5" };
const EDIT_MODEL = { provider: "anthropic", id: "claude-sonnet-4" };

export interface ChordCallResult {
  ok: boolean;
  text: string;
  display?: ToolDisplay;
}

type Ask = (question: QuestionRequest, signal: AbortSignal) => Promise<string>;

/**
 * `raw`: `args` is the arguments' text exactly as the model sent it (malformed, twice encoded, bare), not an object to encode.
 * `agent`: who calls, "main" or a worker's task id (the orchestration identity is all the job tools read); default the main agent.
 * `useContextConfig`: dispatch with the test context's config (its permission rules, output bound) instead of the defaults.
 */
export async function chordCall(t: TestToolContext, tool: string, args: unknown, opts: { callId?: string; ask?: Ask; raw?: boolean; agent?: string; useContextConfig?: boolean } = {}): Promise<ChordCallResult> {
  const config = opts.useContextConfig ? t.ctx.config : defaultConfig();
  const registry = builtinHandlers();
  const profile = loadProfile(join(repoRoot, "profiles"), "chord");
  checkProfile(profile, registry, "minimal");
  const model = tool === "apply_patch" ? PATCH_MODEL : EDIT_MODEL;
  const tools = activateTools(profile, registry, config, { topLevel: (opts.agent ?? "main") === "main", model });
  const prepared = prepareCall({ id: opts.callId ?? "c1", name: tool, args: opts.raw ? String(args) : JSON.stringify(args) }, tools, config);
  const outcome = await runPrepared(prepared, {
    toolset: tools,
    config,
    services: t.ctx.services,
    emit: t.ctx.emit,
    cwd: t.cwd,
    sessionDir: t.ctx.sessionDir,
    signal: new AbortController().signal,
    memory: t.ctx.memory,
    session: {
      jobs: t.ctx.jobs!,
      ...(opts.ask ? { ask: opts.ask } : {}),
      ...(opts.agent ? { orchestration: { self: opts.agent } as OrchestrationPort } : {}),
    },
  });
  const display = outcome.report?.display;
  return { ok: outcome.ok, text: outcome.modelText, ...(display ? { display } : {}) };
}
