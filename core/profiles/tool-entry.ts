// One tool entry of a profile's tool_schemas.toml, and the conditions that
// switch it on. Conditions are data so that a profile, not code, says when a
// tool is exposed.

import { z } from "zod";
import { editFamily } from "./model-family.js";
import { modelAcceptsImages } from "../providers/model-caps.js";
import { carriesHostedTools } from "../providers/hosted.js";

/**
 * A condition string:
 * - `always`
 * - `edit_format:<fmt>[|<fmt>...]`: on when the selected edit format is one of these
 * - `config:<dotted.key>`: on when that config value is true
 * - `config:<dotted.key>=<value>`: on when the value's string form is exactly
 *   `<value>` (for enum settings such as `config:loop.plan_mode=required`)
 * - `top_level`: on only in the top-level assistant session
 * - `delegated`: on only in a worker another agent started (complete, escalate)
 * - `interactive`: on only while someone can answer at once (the TUI)
 * - `not_measurement`: off in measurement runs (`--measure`), where nobody
 *   is ever asked anything
 * - `loop_running`: on only while a continuous loop runs (Chord's loop `done`);
 *   yuj has no loop mode yet, so nothing sets it and such a tool stays off
 * - `model_family:patch` / `model_family:edit`: on when the session's model
 *   is (is not) patch-native, GPT or o-series (model-family.ts); an unknown
 *   model counts as `edit`. Chord picks its edit tools this way.
 * - `model:images`: on when the session's model accepts image input
 *   (providers/model-caps.ts); off when the model is unknown.
 * - `hosted:<tool>`: on when `[compat] hosted_tools` lists that hosted tool
 *   and the session's provider can carry its declaration (Anthropic Messages,
 *   OpenAI Responses); off when the provider is unknown
 * - `active:<tool>` (parameters only): on when that tool is in the request
 *   after the max_tools cap (bash's `background` needs bash_poll and bash_kill)
 */
export const conditionSchema = z
  .string()
  .regex(
    /^(always|top_level|delegated|interactive|not_measurement|loop_running|edit_format:[a-z_|]+|model_family:(patch|edit)|model:images|config:[a-z_.]+(=[A-Za-z0-9_.-]+)?|hosted:[a-z_]+|active:[A-Za-z0-9_-]+)$/,
    "a condition: always, top_level, delegated, interactive, not_measurement, loop_running, edit_format:<fmt>, model_family:patch|edit, model:images, config:<key>, config:<key>=<value>, hosted:<tool>, active:<tool>",
  );
const condition = conditionSchema;

export const profileToolSchema = z.strictObject({
  /** Handler id in the registry. */
  handler: z.string().min(1),
  /** Description file under tool_descriptions/<mode>/. */
  description: z.string().min(1),
  /** Parameter name → description shown to the model. */
  params: z.record(z.string(), z.string()).default({}),
  /** Every condition must hold for the tool to be on. */
  enabled_when: z.array(condition).default(["always"]),
  /** Parameters shown only while their conditions hold (all must). */
  param_conditions: z.record(z.string(), z.array(condition)).default({}),
  /**
   * False for a tool that rides beside the working set rather than in it
   * (done, ask_user, exit_plan_mode): on when its conditions hold, and not
   * counted against max_tools. Which counted tools the cap keeps is the
   * profile's [[capacity.keep]] order.
   */
  counts_toward_cap: z.boolean().default(true),
});

export type ProfileTool = z.infer<typeof profileToolSchema> & { name: string };

export interface ConditionContext {
  editFormat: string;
  topLevel: boolean;
  /** Someone can answer questions now (the TUI). */
  interactive: boolean;
  /** A measurement run (`--measure`). */
  measurement?: boolean;
  /** A continuous loop is running (Chord `/loop`). */
  loopRunning?: boolean;
  config: unknown;
  /** The provider and model of the session; unknown in profile checks. */
  model?: { provider: string; id: string };
  /** The tools the request carries after the cap (for `active:` parameter conditions). */
  active?: ReadonlySet<string>;
}

export function conditionHolds(cond: string, ctx: ConditionContext): boolean {
  if (cond === "always") return true;
  if (cond === "top_level") return ctx.topLevel;
  if (cond === "delegated") return !ctx.topLevel;
  if (cond === "interactive") return ctx.interactive;
  if (cond === "not_measurement") return ctx.measurement !== true;
  if (cond === "loop_running") return ctx.loopRunning === true;
  const [kind, value = ""] = cond.split(/:(.*)/s);
  if (kind === "edit_format") return value.split("|").includes(ctx.editFormat);
  if (kind === "model_family") return editFamily(ctx.model) === value;
  if (kind === "active") return ctx.active?.has(value) === true;
  if (kind === "hosted") return ctx.model !== undefined && carriesHostedTools(ctx.model.provider) && hostedListed(ctx.config, value);
  if (cond === "model:images") return ctx.model !== undefined && modelAcceptsImages(ctx.model.provider, ctx.model.id);
  if (kind === "config") {
    const eq = value.indexOf("=");
    if (eq < 0) return lookup(ctx.config, value) === true;
    // An unset key never matches, not even `=undefined`.
    const actual = lookup(ctx.config, value.slice(0, eq));
    return actual !== undefined && actual !== null && String(actual) === value.slice(eq + 1);
  }
  return false;
}

function lookup(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const key of dotted.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Whether `[compat] hosted_tools` lists the hosted tool. */
function hostedListed(config: unknown, tool: string): boolean {
  const listed = lookup(config, "compat.hosted_tools");
  return Array.isArray(listed) && listed.includes(tool);
}
