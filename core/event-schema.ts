// The schema of every event the core emits: one discriminated union on
// `type`. The TypeScript types in core/events.ts are inferred from it, so the
// published JSON Schema (`yuj schema events`) and the code cannot disagree.
// Events are plain JSON: the trace stores them as they are, `--output jsonl`
// prints them as they are, and the reducer builds the view from them alone.
//
// Every variant is strict: an event carrying a field the schema does not
// name fails validation, so a field added in code without its schema is
// caught by the tests that validate real runs' events.

import { z } from "zod";
import { todoItemSchema, toolCardSchema, toolDisplaySchema } from "./display-schema.js";

const int = () => z.number().int();

export const usageSchema = z.strictObject({
  inputTokens: int().nonnegative(),
  outputTokens: int().nonnegative(),
  cachedTokens: int().nonnegative(),
});

export const finishReasonSchema = z
  .enum(["done", "answered", "max_turns", "cancelled", "input_required", "approval_required", "error"])
  .describe(
    "How a run ended: done (the model called the finish tool), answered (it replied without tool calls), max_turns, " +
      "cancelled, input_required (paused for an answer), approval_required (paused for an approval), error",
  );

export { todoItemSchema, todoStatusSchema } from "./display-schema.js";

export const approvalDecisionSchema = z.enum(["allow_once", "allow_always", "reject", "reject_with_message"]);

/** Fields every event carries. */
export const eventEnvelopeSchema = z.strictObject({
  seq: int().positive().describe("Dense from 1 within a session; a resumed session numbers on"),
  ts: z.string().describe("ISO-8601 time the event was emitted"),
  sessionId: z.string(),
  agentId: z.string().describe('The agent the event belongs to; "main" for the top-level session'),
  turn: int().nonnegative().optional().describe("Model turn (0-based) the event belongs to, when it belongs to one"),
});

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description?: string) => {
  const schema = z.strictObject({ type: z.literal(type), ...shape });
  return description ? schema.describe(description) : schema;
};

const questionOption = z.strictObject({ label: z.string(), description: z.string().optional() });

const sessionEvents = [
  event("session_started", {
    cwd: z.string(),
    profile: z.string(),
    provider: z.string(),
    model: z.string(),
    version: z.string(),
    demo: z.boolean().optional(),
    traceFile: z.string().optional(),
    agent: z.string().optional().describe("The agent definition a delegated worker or a task child runs (absent for the main agent)"),
  }),
  event(
    "workspace_snapshot",
    {
      tree: z.string().optional().describe("A git tree object holding the working tree (untracked files included, ignored ones not)"),
      head: z.string().optional(),
      dirty: z.boolean().optional(),
      prefix: z.string().optional().describe('The session\'s cwd relative to the repository root ("" at the root)'),
      repo: z.string().optional().describe("The repository root the tree's objects live in"),
      unavailable: z.string().optional().describe("Why there is no snapshot"),
    },
    "The files as they were when the session started, so `yuj replay` can run it again on the same input",
  ),
  event("user_message", {
    text: z.string().describe("The message as the user typed it"),
    attachments: z
      .array(
        z.strictObject({
          path: z.string(),
          from: int().positive().optional(),
          to: int().positive().optional(),
          lines: int().nonnegative(),
          savedTo: z.string().optional().describe("Set when the file was cut at the output limit: the whole text is there"),
        }),
      )
      .optional()
      .describe("Files the message's @-mentions attached for the model (after the text, each in its own block)"),
  }),
] as const;

const modelEvents = [
  event("request_sent", {
    requestId: z.string(),
    provider: z.string(),
    model: z.string(),
    messageCount: int().nonnegative(),
    toolNames: z.array(z.string()),
  }),
  event("provider_request", { requestId: z.string(), url: z.string(), body: z.string() }, "Raw request body as sent (headers are never recorded)"),
  event(
    "provider_response",
    { requestId: z.string(), status: int(), body: z.string() },
    "Raw response body as received (the SSE text for streams)",
  ),
  event("assistant_text_delta", { text: z.string() }),
  event("assistant_message", { text: z.string() }),
  event("tool_call_started", {
    callId: z.string(),
    name: z.string(),
    parentCallId: z.string().optional().describe("Set on a call a code cell made: the exec_cell call it ran in"),
    view: toolCardSchema.optional().describe("How the tool's card is laid out (absent for a name no tool has)"),
  }),
  event("tool_call_args_delta", { callId: z.string(), delta: z.string() }),
  event("tool_call_finished", {
    callId: z.string(),
    name: z.string(),
    parentCallId: z.string().optional().describe("Set on a call a code cell made"),
    args: z.string(),
    summary: z.string().optional().describe("The call's key argument, for a header"),
    preview: toolDisplaySchema.optional().describe("What the call will do, shown while it runs"),
  }),
  event("tool_result", {
    callId: z.string(),
    name: z.string(),
    parentCallId: z.string().optional().describe("Set on a call a code cell made"),
    ok: z.boolean(),
    modelText: z.string().describe("What the model is sent (already bounded)"),
    display: toolDisplaySchema.optional().describe("What the view shows (bounded); absent: the model's text as plain text"),
    viewText: z.string().optional().describe("Written by earlier versions instead of `display`: the view's text"),
    durationMs: z.number(),
    fullOutputPath: z.string().optional().describe("Set when the model text was cut; the full text is at this path"),
    cancelled: z.boolean().optional(),
    images: z
      .array(z.strictObject({ mediaType: z.string(), label: z.string().optional(), bytes: int().nonnegative(), file: z.string().optional() }))
      .optional()
      .describe("Images sent with the text, by reference: the bytes are saved in the session dir (`file`, absolute), never in an event"),
  }),
] as const;

const operatorEvents = [
  event("approval_requested", {
    callId: z.string(),
    tool: z.string(),
    summary: z.string(),
    detail: z.string().optional(),
    reason: z.string().optional().describe("Why it asks (the rule, or the built-in gate)"),
    rule: z.string().optional().describe('The rule "allow always" would store, as TOML'),
    rules: z
      .array(z.object({ pattern: z.string(), rule: z.string() }))
      .optional()
      .describe('The rules "allow always" offers, exact to broad: each pattern and the rule as TOML'),
    arguments: z.string().optional().describe("The call's arguments as JSON, for editing them before allowing (approval_answer.arguments)"),
    agent: z
      .object({ taskId: z.string(), role: z.string() })
      .optional()
      .describe("The worker or task child whose call asks (absent: the main agent's); answering it lets that agent go on"),
  }),
  event("approval_resolved", {
    callId: z.string(),
    decision: approvalDecisionSchema,
    message: z.string().optional(),
    rule: z.string().optional(),
    arguments: z.string().optional().describe("The arguments the user edited the call to before allowing it, as JSON"),
  }),
  event("tools_loaded", {
    callId: z.string().describe("The load_tools call"),
    names: z.array(z.string()).describe("The tools it added, from the next request on"),
    active: z.array(z.string()).describe("Every tool the next request carries"),
  }),
  event("question_asked", {
    callId: z.string(),
    question: z.string(),
    header: z.string().optional().describe("Short label"),
    options: z.array(questionOption).optional().describe("Choices; absent means a free-text answer"),
    multiple: z.boolean().optional(),
  }),
  event("question_answered", { callId: z.string(), answer: z.string() }),
] as const;

const jobEvents = [
  event("job_started", {
    jobId: z.string(),
    command: z.string(),
    callId: z.string().optional(),
    pid: int().optional(),
    label: z.string().optional(),
    background: z.boolean(),
    deadlineAt: z.number().optional().describe("Absolute deadline (epoch ms), when the job has one"),
    outputFile: z.string().optional(),
  }),
  event("job_output", { jobId: z.string(), text: z.string(), totalBytes: int().nonnegative() }, "New output, throttled: several chunks are merged into one event"),
  event("job_exited", {
    jobId: z.string(),
    exitCode: int().nullable(),
    signal: z.string().nullable().optional(),
    durationMs: z.number().optional(),
    status: z.enum(["exited", "killed", "timed_out"]).optional().describe("How it ended: on its own, killed, or past its deadline"),
  }),
  event("job_killed", { jobId: z.string(), reason: z.string().optional(), confirmed: z.boolean() }),
  event("job_promoted", { jobId: z.string(), callId: z.string().optional() }, "A foreground command outlived its budget and now runs as a background job"),
  event("jobs_orphans_found", { count: int().nonnegative(), detail: z.array(z.string()) }),
  event("terminal_started", { terminalId: z.string(), command: z.string(), pid: int().optional() }),
  event(
    "terminal_input",
    { terminalId: z.string(), sha256: z.string(), bytes: int().nonnegative() },
    "Input sent to the interactive terminal: recorded by hash and size, never its text",
  ),
  event("terminal_exited", { terminalId: z.string(), exitCode: int().nullable(), signal: z.string().nullable().optional() }),
] as const;

const sessionStateEvents = [
  event("todo_updated", { todos: z.array(todoItemSchema) }),
  event(
    "lsp_server",
    {
      server: z.string().describe("The [lsp.servers] name"),
      root: z.string().describe("The workspace root it serves"),
      state: z.enum(["starting", "ready", "failed", "stopped"]),
      pid: int().positive().optional(),
      detail: z.string().optional().describe("Why it failed or stopped"),
    },
    "A language server started, became ready, failed or stopped",
  ),
  event(
    "mcp_server",
    {
      server: z.string().describe("The [mcp.servers] name"),
      state: z.enum(["connecting", "connected", "failed", "ended", "stopped", "disabled"]).describe("disabled: manual, or turned off with /mcp disable"),
      transport: z.enum(["stdio", "http"]),
      tools: z.array(z.string()).optional().describe("The exposed names of the tools it registered (connected)"),
      pid: int().positive().optional(),
      detail: z.string().optional().describe("Why it failed or ended"),
    },
    "An MCP server connected, failed to, ended, or was turned off",
  ),
  event("usage", { usage: usageSchema, total: usageSchema }),
  event(
    "context_compacted",
    {
      reason: z.enum(["auto", "manual"]),
      summarisedItems: int().nonnegative().describe("History items the summary stands for"),
      keptItems: int().nonnegative().describe("History items kept after it"),
      summaryChars: int().nonnegative(),
      tokensBefore: int().nonnegative().optional().describe("Input tokens of the last request before compacting, when known"),
    },
    "Older turns were summarised to free context; the durable history keeps them, later requests carry the summary instead",
  ),
  event("model_switched", { model: z.string(), previous: z.string() }, "Requests from now on go to another model of the same provider"),
  event(
    "conversation_forked",
    { droppedItems: int().nonnegative().describe("History items after the edited message that left the model's context"), message: z.string() },
    "A user message was edited: the conversation goes on from before it; history.jsonl keeps the earlier items",
  ),
  event(
    "skills_found",
    { skills: z.array(z.strictObject({ name: z.string(), description: z.string() })) },
    "The Agent Skills the session found (names and descriptions; their instructions load on demand)",
  ),
  event(
    "skill_loaded",
    { name: z.string(), callId: z.string().optional().describe("The call that loaded it (Chord's skill, or a read of its SKILL.md)") },
    "A skill's instructions were loaded: it is in use from now on",
  ),
  event("yolo_changed", { on: z.boolean() }, "YOLO was turned on or off for the session"),
  event(
    "main_role_changed",
    {
      role: z.string().describe("The main agent's role from the next request on (builder, planner, or a main agent file's name)"),
      by: z.enum(["operator", "plan"]).describe("operator: switched by the operator (Tab, set_main_role); plan: a plan handed to the builder"),
      planPath: z.string().optional().describe("The plan handed off, relative to the project"),
    },
    "The main agent's role changed; the session keeps it for a resume",
  ),
  event("session_renamed", { name: z.string() }, "The session was given a name"),
  event(
    "loop_changed",
    {
      on: z.boolean(),
      target: z.string().optional(),
      iteration: int().nonnegative().describe("The iteration running or last run; 0 before the first"),
      maxIterations: int().positive(),
      report: z.string().optional().describe("done's report, waiting for the operator to confirm it or send it back"),
      ended: z.enum(["confirmed", "limit", "off"]).optional().describe("Why the loop ended: its report was confirmed, the iteration limit, /loop off"),
    },
    "Loop mode changed: turned on or off, a new iteration, or done's report waits for confirmation",
  ),

  event(
    "rules_listed",
    {
      rules: z.array(
        z.strictObject({
          scope: z.enum(["session", "project"]),
          tool: z.string(),
          pattern: z.string().optional(),
          action: z.enum(["allow", "ask", "deny"]),
        }),
      ),
      projectFile: z.string().describe("The project's config file the project rules are in"),
    },
    "The session's and the project's permission rules, in order",
  ),
  event("retry", {
    attempt: int().positive(),
    delayMs: z.number(),
    reason: z.string(),
    status: int().optional(),
    discardedPartial: z.boolean().describe("True when partial output of the failed attempt was discarded"),
  }),
  event("notice", { level: z.enum(["info", "warning"]), text: z.string() }),
  event(
    "hook_ran",
    {
      point: z.string().describe("The hook point: on_tool_call, on_tool_batch_complete, on_session_start, …"),
      hook: z.string().describe("The entry's name, or point[index]"),
      ok: z.boolean().describe("False when it could not start, exited non-zero, timed out or printed something other than JSON"),
      action: z.string().optional().describe("A sync hook's answer: continue, block or modify"),
      detail: z.string().optional().describe("Why it failed"),
      durationMs: z.number().nonnegative(),
    },
    "A configured hook ran",
  ),
  event(
    "config_untrusted",
    { file: z.string(), project: z.string(), ignored: z.array(z.string()), text: z.string() },
    "The project's config file loosens settings and is not trusted, so those settings were left out",
  ),
  event("turn_finished", { toolCalls: int().nonnegative() }),
  event("run_finished", { reason: finishReasonSchema, message: z.string().optional() }),
  event("error", {
    message: z.string(),
    code: z.string().describe("provider, state_write, output_closed, bad_operation, internal, …"),
    callId: z.string().optional(),
  }),
] as const;

// Delegated workers, as their owner sees them: one event each time a task's
// state changes or it sends its owner something, keyed by the stable task id.
const agentEvents = [
  event(
    "agent_update",
    {
      taskId: z.string(),
      agentType: z.string(),
      workerId: z.string().describe("The worker's current runtime (a resumed session gives it a new one); its task id stays"),
      state: z.enum(["running", "waiting_main", "idle", "completed", "failed", "cancelled"]),
      what: z
        .enum(["started", "rehydrated", "message", "completed", "blocked", "failed", "cancelled", "resumed"])
        .describe("What happened: completed raises AGENT COMPLETE, blocked and failed AGENT BLOCKED"),
      text: z.string().optional(),
      callId: z.string().optional().describe("started: the delegate call that started the task (its card follows the task's state)"),
    },
    "A delegated task changed state or sent its owner a message",
  ),
] as const;

const bodies = [...sessionEvents, ...modelEvents, ...operatorEvents, ...jobEvents, ...sessionStateEvents, ...agentEvents] as const;

/** An event without its envelope: what the core hands the emitter. */
export const eventBodySchema = z.discriminatedUnion("type", bodies);

type Variant = (typeof bodies)[number];

/** One line of `--output jsonl` (and one row of the trace): the envelope and the body. */
export const coreEventSchema = z
  .discriminatedUnion(
    "type",
    bodies.map((b: Variant) => {
      const full = eventEnvelopeSchema.extend(b.shape);
      return b.description ? full.describe(b.description) : full;
    }) as unknown as [Variant, ...Variant[]],
  )
  .describe("One yuj core event: a line of `yuj code --output jsonl` and a row of a session's trace.jsonl");
