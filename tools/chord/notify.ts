// Chord `notify`, in three forms: an owner update (no target_task_id;
// progress or notice, with subtype, correlation_id and a payload up to
// 32 KiB), a plain targeted message to a worker (which wakes or resumes it),
// and a reply to a worker's request by its correlation_id. The checks every
// form shares (labels trimmed, the size limits, a reply needs a target) are
// made here, before the port decides what the calling role may send.

import { z } from "zod";
import { CONVERSES, fail, type ToolHandler } from "../../core/tool-types.js";
import { str } from "../lib/view.js";

/** Longest subtype or correlation_id, in UTF-8 bytes. */
const MAX_LABEL_BYTES = 256;
/** Largest payload, as JSON bytes. */
const MAX_PAYLOAD_BYTES = 32 * 1024;

export const notifySchema = z.object({
  message: z.string().trim().min(1, "message must be non-empty"),
  target_task_id: z.string().trim().min(1).optional(),
  kind: z.string().optional(),
  message_type: z.enum(["progress", "notice", "response"]).optional(),
  subtype: z.string().optional(),
  correlation_id: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});

/** A label as the reference keeps it: trimmed, and absent when blank. */
const label = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t : undefined;
};

/** Which structured field is over its limit, in words a model can act on. */
function sizeProblem(subtype: string | undefined, correlationId: string | undefined, payload: Record<string, unknown> | undefined): string | undefined {
  const over: string[] = [];
  for (const [name, value] of [["subtype", subtype], ["correlation_id", correlationId]] as const) {
    const bytes = value === undefined ? 0 : Buffer.byteLength(value);
    if (bytes > MAX_LABEL_BYTES) over.push(`${name} is ${bytes} bytes (at most ${MAX_LABEL_BYTES})`);
  }
  const payloadBytes = payload === undefined ? 0 : Buffer.byteLength(JSON.stringify(payload));
  if (payloadBytes > MAX_PAYLOAD_BYTES) over.push(`payload is ${payloadBytes} bytes of JSON (at most ${MAX_PAYLOAD_BYTES}, 32 KiB)`);
  return over.length ? `notify refused: structured message metadata exceeds size limit: ${over.join("; ")}` : undefined;
}

export const notifyTool: ToolHandler<typeof notifySchema> = {
  id: "notify",
  schema: notifySchema,
  effects: CONVERSES,
  view: { card: "expanded", summary: (args) => str(args, "target_task_id") ?? "owner" },
  async run(args, ctx) {
    if (!ctx.orchestration) return fail("notify is not available in this session");
    const kind = label(args.kind);
    const subtype = label(args.subtype);
    const correlationId = label(args.correlation_id);
    const tooBig = sizeProblem(subtype, correlationId, args.payload);
    if (tooBig) return fail(tooBig);
    if (args.message_type === "response" && args.target_task_id === undefined) {
      return fail("notify refused: message_type=response requires target_task_id and correlation_id: a reply goes to the worker whose request it answers");
    }
    return ctx.orchestration.notify({
      message: args.message,
      ...(args.target_task_id !== undefined ? { targetTaskId: args.target_task_id } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...(args.message_type !== undefined ? { messageType: args.message_type } : {}),
      ...(subtype !== undefined ? { subtype } : {}),
      ...(correlationId !== undefined ? { correlationId } : {}),
      ...(args.payload !== undefined ? { payload: args.payload } : {}),
    });
  },
};
