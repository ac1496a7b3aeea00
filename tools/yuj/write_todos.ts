// Yuj `write_todos`: replaces the whole session todo list on every call. The
// list is harness state, not a file: the todo_updated event carries it to the
// TUI and the trace, and nothing on disk changes. At most one item may be
// in_progress and at most [tools].todos_max_items items; an empty list clears.

import { z } from "zod";
import type { TodoItem } from "../../core/events.js";
import { CONVERSES, fail, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { todoLines } from "../lib/todo-list.js";

export const YUJ_TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled", "blocked"] as const;

const todoItem = z.object({
  description: z.string().trim().min(1, "description must be a non-empty string"),
  status: z.enum(YUJ_TODO_STATUSES),
});

// "At most one in_progress" is part of the schema the model is sent, as
// JSON Schema says it (reject mode checks it there, core/schema-contains.ts);
// the handler checks it again for the default mode.
export const writeTodosSchema = z.object({
  todos: z.array(todoItem).meta({
    contains: { type: "object", properties: { status: { const: "in_progress" } }, required: ["status"] },
    minContains: 0,
    maxContains: 1,
  }),
});

const WRITE_TODOS_DISABLED = "ERROR: write_todos tool is disabled (tools.todos_enabled=false)";

/** The list as the model sends it, for the card while the call runs (unchecked: only what reads as items). */
function todosPreview(args: Record<string, unknown>): ToolDisplay | undefined {
  if (!Array.isArray(args.todos)) return undefined;
  const todos = args.todos.flatMap((t): TodoItem[] => {
    const o = t && typeof t === "object" ? (t as Record<string, unknown>) : {};
    const status = YUJ_TODO_STATUSES.find((s) => s === o.status) ?? "pending";
    return typeof o.description === "string" ? [{ description: o.description, status }] : [];
  });
  return { kind: "todos", todos };
}

/** The list a successful call sets (rewind uses it to restore the checkpoint's list). */
export function todosFromArgs(args: z.infer<typeof writeTodosSchema>): TodoItem[] {
  return args.todos.map((t) => ({ description: t.description, status: t.status }));
}

export const writeTodosTool: ToolHandler<typeof writeTodosSchema> = {
  id: "write_todos",
  schema: writeTodosSchema,
  // Calls replace one shared list: they run alone, in the order sent.
  effects: CONVERSES,
  role: "todos",
  view: { card: "expanded", preview: (args) => todosPreview(args) },
  async run(args, ctx) {
    // The dispatcher never offers it while off; a direct call (a cell, a test) is refused in the reference's words.
    if (!ctx.config.tools.todos_enabled) return fail(WRITE_TODOS_DISABLED);
    const max = ctx.config.tools.todos_max_items;
    // The reference's words: "write_todos validation failed", the setting by its dotted name.
    if (args.todos.length > max) {
      return fail(`ERROR: write_todos validation failed: the list has ${args.todos.length} items and tools.todos_max_items is ${max}; merge or drop items`);
    }
    const active = args.todos.flatMap((t, i) => (t.status === "in_progress" ? [i + 1] : []));
    if (active.length > 1) {
      return fail(`ERROR: write_todos validation failed: at most one in_progress item is allowed; items ${active.join(", ")} are in_progress`);
    }
    const todos = todosFromArgs(args);
    ctx.emit({ type: "todo_updated", todos });
    const head = `OK: replaced todo list with ${todos.length} ${todos.length === 1 ? "item" : "items"}`;
    return ok([head, ...todoLines(todos)].join("\n"), { kind: "todos", todos });
  },
};
