// The [hooks] settings: commands yuj runs at fixed points of a session.
//
//   [[hooks.on_tool_call]]
//   name = "no-force-push"
//   command = ["python3", ".yuj/hooks/check_push.py"]   # argv, no shell
//   tools = ["bash", "shell"]
//
//   [[hooks.on_tool_batch_complete]]
//   shell = "npx tsc --noEmit"                          # through bash -c
//   min_changed_files = 1
//   result = "append_on_failure"
//   debounce_ms = 2000        # a burst of batches runs it once, with the last
//   concurrency = 1           # never two at once
//   retry_on_failure = 1      # a failed run is run once more,
//   retry_delay_ms = 500      # half a second later
//
// Each entry gives exactly one of `command` and `shell`. The filters are
// AND-ed; a filter left out matches everything. debounce_ms is refused on
// the sync points, whose step waits for the answer.

import { z } from "zod";

/** Hooks that decide: their answer lets the step go on, stops it, or changes it. */
const SYNC_POINTS = ["on_tool_call", "on_before_llm_call", "on_before_tool_result_append"] as const;
/** The one automation point: runs after a batch of tool calls, its report can reach the model. */
export const AUTOMATION_POINTS = ["on_tool_batch_complete"] as const;
/** Hooks that are told: their output is logged, never acted on. */
const OBSERVER_POINTS = [
  "on_session_start",
  "on_session_end",
  "on_after_llm_call",
  "on_tool_result",
  "on_before_compress",
  "on_after_compress",
  "on_idle",
  "on_wait_confirm",
  "on_wait_question",
  "on_agent_error",
] as const;

export type SyncPoint = (typeof SYNC_POINTS)[number];
export type ObserverPoint = (typeof OBSERVER_POINTS)[number];
export type HookPoint = SyncPoint | (typeof AUTOMATION_POINTS)[number] | ObserverPoint;

const posInt = z.number().int().positive();
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");
const globs = z.array(z.string().min(1)).optional();

const commonFields = {
  /** Shown in notices and the trace; default the point and the entry's number. */
  name: z.string().min(1).optional(),
  /** Argument vector, run without a shell. */
  command: z.array(z.string()).min(1).optional(),
  /** A command line for `bash -o pipefail -c`. */
  shell: z.string().min(1).optional(),
  /** Seconds; past it the hook's process group is killed and the hook counts as failed. */
  timeout: posInt.default(30),
  /** Set in the hook's environment, over the commands' environment. */
  environment: z.record(envName, z.string()).default({}),
  /** Tool names (globs): the call's tool, or for a batch any of its tools. */
  tools: globs,
  /** Project-relative paths (globs) the call touches, or the batch changed. */
  paths: globs,
  /** Agent ids (globs): "main", or a child agent's id. */
  agents: globs,
  /** Model names (globs) the session runs. */
  models: globs,
  /** Exactly "main" or "subagent". */
  agent_kinds: z.array(z.enum(["main", "subagent"])).optional(),
  /** A batch that changed fewer files is skipped. */
  min_changed_files: z.number().int().nonnegative().optional(),
  /** Only when a call failed (a batch with a failed call, a failed result). */
  only_on_error: z.boolean().default(false),
  /** A failed run is run again up to this many times (true: once). */
  retry_on_failure: z
    .union([z.boolean(), z.number().int().nonnegative()])
    .default(0)
    .transform((v) => (v === true ? 1 : v === false ? 0 : v)),
  /** Milliseconds between a failed run and its retry. */
  retry_delay_ms: z.number().int().nonnegative().default(1000),
  /** At most this many runs of the entry at once; the others wait their turn. Unset: no limit. */
  concurrency: posInt.optional(),
};

/** Only where nobody waits for the hook: triggers this close together run it once, with the latest data. */
const debounceField = { debounce_ms: z.number().int().nonnegative().optional() };

const automationFields = {
  /** before_next_llm: the next model request waits for it; background: it does not. */
  join: z.enum(["background", "before_next_llm"]).default("before_next_llm"),
  /** What becomes of its report: nothing, a notice, or also the model's context (on failure, or always). */
  result: z.enum(["ignore", "notify_only", "append_on_failure", "always_append"]).default("notify_only"),
  /** What of the report the model gets: its summary line, the last lines of its body, or the body. */
  result_format: z.enum(["summary", "tail", "full"]).default("tail"),
  max_result_lines: posInt.default(40),
  max_result_bytes: posInt.default(16 * 1024),
};

const oneProgram = (h: { command?: string[] | undefined; shell?: string | undefined }) => (h.command === undefined) !== (h.shell === undefined);
const oneProgramMessage = { message: "give either command (an argv list) or shell (a command line), not both and not neither" };

const hookEntry = z
  .strictObject({ ...commonFields, ...debounceField })
  .refine(oneProgram, oneProgramMessage)
  .refine((h) => h.debounce_ms === undefined, {
    path: ["debounce_ms"],
    message: "debounce_ms is for automation and observer hooks: the step of a sync hook waits for its answer, so it cannot be put off",
  });
const observerEntry = z.strictObject({ ...commonFields, ...debounceField }).refine(oneProgram, oneProgramMessage);
const automationEntry = z.strictObject({ ...commonFields, ...automationFields, ...debounceField }).refine(oneProgram, oneProgramMessage);

export type HookEntry = z.infer<typeof observerEntry>;
export type AutomationEntry = z.infer<typeof automationEntry>;

const list = <T extends z.ZodType>(entry: T) => z.array(entry).default([]);

export const hooksSection = z
  .strictObject({
    on_tool_call: list(hookEntry),
    on_before_llm_call: list(hookEntry),
    on_before_tool_result_append: list(hookEntry),
    on_tool_batch_complete: list(automationEntry),
    on_session_start: list(observerEntry),
    on_session_end: list(observerEntry),
    on_after_llm_call: list(observerEntry),
    on_tool_result: list(observerEntry),
    on_before_compress: list(observerEntry),
    on_after_compress: list(observerEntry),
    on_idle: list(observerEntry),
    on_wait_confirm: list(observerEntry),
    on_wait_question: list(observerEntry),
    on_agent_error: list(observerEntry),
  })
  .prefault(() => ({}) as never);

export type HooksSettings = z.infer<typeof hooksSection>;
