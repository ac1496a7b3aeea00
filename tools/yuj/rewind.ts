// Yuj `rewind(report)`: returns the model's context to the active checkpoint
// and keeps the short findings report (the rewind call's own argument, which
// stays in the request view in place of the abandoned exploration). The
// context changes at the next request, after every result of this turn is in;
// the history and the trace keep the exploration, and files are never
// restored. The todo list follows the checkpoint too.

import { z } from "zod";
import type { HistoryItem } from "../../core/history.js";
import type { TodoItem } from "../../core/events.js";
import { replay, type Replay } from "../../core/context/shape.js";
import { CONVERSES, fail, ok, type ToolContext, type ToolHandler } from "../../core/tool-types.js";
import { todosFromArgs, writeTodosSchema } from "./write_todos.js";

export const rewindSchema = z.object({
  report: z.string().trim().min(1, "report must be a non-empty string: the short findings to keep"),
});

/**
 * Replays the conversation before the turn that holds `callId`: a checkpoint
 * of this same turn is not active yet, whatever results are already in.
 */
export function activeCheckpoints(conv: NonNullable<ToolContext["conversation"]>, callId: string): Replay<TodoItem[]> & { current: HistoryItem[] } {
  const at = conv.history.findIndex((h) => h.role === "assistant" && h.toolCalls.some((c) => c.id === callId));
  const before = at < 0 ? conv.history : conv.history.slice(0, at);
  const current = at < 0 ? [] : conv.history.slice(at);
  // Only the replay's checkpoints and todo state matter here, not think shaping.
  const result = replay(before, { roles: conv.roles, thinkKeepTurns: Number.MAX_SAFE_INTEGER }, {
    // checkpoint/rewind exist on the Yuj surface only, whose todo tool takes write_todos' arguments.
    after(call) {
      if (!conv.roles.todos.has(call.name)) return undefined;
      try {
        const parsed = writeTodosSchema.safeParse(JSON.parse(call.args));
        return parsed.success ? todosFromArgs(parsed.data) : undefined;
      } catch {
        return undefined;
      }
    },
  });
  return { ...result, current: [...current] };
}

export const rewindTool: ToolHandler<typeof rewindSchema> = {
  id: "rewind",
  schema: rewindSchema,
  effects: CONVERSES,
  role: "rewind",
  view: { card: "foldable" },
  async run(_args, ctx) {
    if (!ctx.conversation) return fail("ERROR: no_active_checkpoint: rewind requires an active checkpoint (this call has no conversation to rewind)");
    const { checkpoints, state, current } = activeCheckpoints(ctx.conversation, ctx.callId);
    const mark = checkpoints[checkpoints.length - 1];
    if (!mark) {
      const sameTurn = current.some((h) => h.role === "assistant" && h.toolCalls.some((c) => ctx.conversation!.roles.checkpoint.has(c.name)));
      return fail(
        sameTurn
          ? "ERROR: rewind: the checkpoint of this turn is not active yet; it becomes active once every result of its turn is in, so call rewind in a later turn"
          : "ERROR: no_active_checkpoint: rewind requires an active checkpoint; call checkpoint(goal) before an exploration and rewind(report) in a later turn",
      );
    }
    // The todo list goes back to what it was at the checkpoint.
    if (JSON.stringify(state ?? []) !== JSON.stringify(mark.state ?? [])) ctx.emit({ type: "todo_updated", todos: mark.state ?? [] });
    return ok(
      `Rewound to the checkpoint "${mark.goal}": from the next request on, the exploration after it is no longer in your context and your report is what you keep. ` +
        "Files were not restored: changes made since the checkpoint remain on disk.",
    );
  },
};
