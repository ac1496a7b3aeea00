// Every operation a front end sends a session, as one discriminated union on
// `type`: the mirror of the events (core/event-schema.ts). The TUI sends
// them from keys and slash commands, `yuj code --input jsonl` reads them one
// JSON object a line from stdin, and `yuj approve` / `reject` / `answer`
// send the answer operations to a stored session. The types come from the
// schema, which is published as JSON Schema (`yuj schema ops`), and every
// operation that arrives as text is checked against it before it is used.

import { z } from "zod";

const callId = z
  .string()
  .min(1)
  .optional()
  .describe("The call the answer is for (from approval_requested / question_asked); may be left out while one waits");

const op = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z.strictObject({ type: z.literal(type), ...shape }).describe(description);

export const operationSchema = z
  .discriminatedUnion("type", [
    op(
      "user_message",
      { text: z.string().min(1, "text is empty").refine((t) => t.trim().length > 0, "text is empty") },
      "A message to the model: starts a run, or waits for the running one to end",
    ),
    op(
      "approval_answer",
      {
        callId,
        decision: z.enum(["allow_once", "allow_always", "reject", "reject_with_message"]),
        message: z.string().min(1).optional().describe("reject_with_message: what the model is told (required there, refused elsewhere)"),
        scope: z
          .enum(["session", "project", "user"])
          .optional()
          .describe("allow_always: where the rule is stored (default session, kept in the session's state; project: ./.yuj/config.toml; user: the user config)"),
        pattern: z
          .string()
          .optional()
          .describe("allow_always: which offered rule to store, by its pattern (one of approval_requested.rules; default the exact one)"),
        arguments: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("allow_once: run the call with these arguments instead of the model's (checked against the tool's schema first; a problem keeps the approval waiting)"),
      },
      "The answer to the approval a call waits on",
    ).superRefine((a, ctx) => {
      if (a.decision === "reject_with_message" && a.message === undefined) {
        ctx.addIssue({ code: "custom", path: ["message"], message: "message is required with reject_with_message (what the model is told)" });
      }
      if (a.decision !== "reject_with_message" && a.message !== undefined) {
        ctx.addIssue({ code: "custom", path: ["message"], message: `message goes only with reject_with_message, not ${a.decision}` });
      }
      if (a.decision !== "allow_once" && a.arguments !== undefined) {
        ctx.addIssue({ code: "custom", path: ["arguments"], message: `arguments go only with allow_once, not ${a.decision}` });
      }
      if (a.decision !== "allow_always" && a.scope !== undefined) {
        ctx.addIssue({ code: "custom", path: ["scope"], message: `scope goes only with allow_always, not ${a.decision}` });
      }
    }),
    op(
      "question_answer",
      { callId, answer: z.string().min(1, "answer is empty").refine((t) => t.trim().length > 0, "answer is empty") },
      "The operator's answer to the question the model asked; information for the model, never an approval",
    ),
    op("cancel", {}, "Cancels the running turn and anything it waits on; the session stays, for the next message"),
    op(
      "kill_job",
      { jobId: z.string().min(1), reason: z.string().optional() },
      "Stops a background job (its whole process group)",
    ),
    op(
      "switch_model",
      { model: z.string().min(1).optional().describe("Absent: a notice names the current model and the ones the provider offers") },
      "Later requests go to this model of the same provider",
    ),
    op("compact", {}, "Summarises older turns now, or before the next request of a running turn"),
    op(
      "set_main_role",
      { role: z.string().min(1).optional().describe("Absent: the next role in order (builder, planner, then the main agent files)") },
      "Switches the main agent's role (Chord surface) from its next request on; kept in the session's state",
    ),
    op("set_yolo", { on: z.boolean() }, "Turns YOLO on or off: ordinary asks are skipped while it is on (never the protected tools'); kept in the session's settings"),
    op(
      "rename_session",
      { name: z.string().trim().min(1, "name is empty").max(200, "name is longer than 200 characters") },
      "Names the session: `yuj sessions` and the session picker show the name instead of the first message",
    ),
    op(
      "edit_message",
      {
        message: z.string().min(1).describe("The text of the user message to replace, as sent"),
        occurrence: z.number().int().nonnegative().optional().describe("Which of the messages with that text, from the first (default 0)"),
        text: z.string().min(1, "text is empty").refine((t) => t.trim().length > 0, "text is empty"),
      },
      "Replaces an earlier user message and goes on from there: the later turns leave the model's context (the session's log keeps them)",
    ),
    op(
      "set_mcp_server",
      {
        server: z.string().min(1).describe("The [mcp.servers] name"),
        enabled: z.boolean(),
      },
      "Turns an MCP server on (it connects; its tools join the requests once it is up) or off (it stops; its tools leave the next request); kept in the session's state, so a resume honours it",
    ),
    op(
      "set_loop",
      {
        on: z.boolean(),
        target: z.string().trim().min(1, "target is empty").optional().describe("on: what the loop works towards; sent to the model as the first message"),
      },
      "Loop mode on or off: while it is on, each run the model ends without `done` is followed by a continuation request, up to [loop].max_iterations; `done` asks the operator to confirm its report",
    ).superRefine((a, ctx) => {
      if (!a.on && a.target !== undefined) ctx.addIssue({ code: "custom", path: ["target"], message: "target goes only with on: true" });
    }),
    op(
      "loop_answer",
      {
        decision: z.enum(["confirm", "continue"]),
        message: z.string().trim().min(1, "message is empty").optional().describe("continue: what the model is told to do next (default: keep working)"),
      },
      "The answer to the report `done` gave in loop mode: confirm ends the loop; continue sends it back and the loop goes on",
    ).superRefine((a, ctx) => {
      if (a.decision === "confirm" && a.message !== undefined) ctx.addIssue({ code: "custom", path: ["message"], message: "message goes only with continue" });
    }),
    op("list_rules", {}, "Lists the session's and the project's permission rules (a rules_listed event)"),
    op(
      "remove_rule",
      {
        scope: z.enum(["session", "project"]),
        tool: z.string().min(1),
        pattern: z.string().optional(),
        action: z.enum(["allow", "ask", "deny"]),
      },
      "Removes a permission rule from the session or from ./.yuj/config.toml, in force at once (a rules_listed event follows)",
    ),
  ])
  .describe("One operation sent to a yuj session: a line of `yuj code --input jsonl`");

export type Operation = z.infer<typeof operationSchema>;
type OperationType = Operation["type"];
/** Operations narrowed by type: `OpOf<"approval_answer">`. */
export type OpOf<T extends OperationType> = Extract<Operation, { type: T }>;

export const OPERATION_TYPES = operationSchema.options.map((o) => o.shape.type.value);

export type ParsedOperation = { ok: true; op: Operation } | { ok: false; problem: string };

/** Reads one operation from a line of JSON; a problem names the field and what it must be. */
export function parseOperation(line: string): ParsedOperation {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, problem: `not JSON (${(err as Error).message}); each line must be one JSON object such as {"type":"cancel"}` };
  }
  return checkOperation(value);
}

/** Checks a value against the operation schema. */
export function checkOperation(value: unknown): ParsedOperation {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'an operation is a JSON object with a "type", such as {"type":"cancel"}' };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !(OPERATION_TYPES as string[]).includes(type)) {
    const got = type === undefined ? 'no "type"' : `type ${JSON.stringify(type)}`;
    return { ok: false, problem: `unknown operation (${got}); the types are ${OPERATION_TYPES.join(", ")}` };
  }
  const parsed = operationSchema.safeParse(value);
  if (parsed.success) return { ok: true, op: parsed.data };
  const said = new Set(parsed.error.issues.map((i) => issueText(i, value)));
  return { ok: false, problem: `${type}: ${[...said].join("; ")}` };
}

function issueText(issue: z.core.$ZodIssue, value: unknown): string {
  const where = issue.path.length ? issue.path.join(".") : "";
  if (issue.code === "unrecognized_keys") return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
  if (issue.code === "invalid_value") return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "invalid_type") {
    const given = valueAt(value, issue.path);
    return given === undefined ? `${where} is missing (a ${issue.expected})` : `${where} must be a ${issue.expected}, not ${JSON.stringify(given)}`;
  }
  // Our own messages name their field already ("text is empty").
  return where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}
