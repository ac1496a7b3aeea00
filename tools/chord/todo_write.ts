// Chord `todo_write`: replaces the whole visible TODO list; the
// array order is the execution order. Items are {id, content, status,
// active_form?} with four statuses (no `blocked`, unlike Yuj's write_todos).
// Several items may be in_progress only when each has its own active_form,
// the text that says what is being done for each of them. The result is
// Chord's Markdown checklist by id (`- [ ] 1. Write the parser`).

import { z } from "zod";
import type { TodoItem } from "../../core/events.js";
import { CONVERSES, fail, ok, type ToolDisplay, type ToolHandler } from "../../core/tool-types.js";
import { chordTodoMarkdown } from "../lib/todo-list.js";

// Empty ids, empty content and an empty list are refused by the handler, in
// Chord's words naming the item; the schema only gives the shape.
const todo = z.object({
  id: z.string().trim(),
  content: z.string().trim(),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
  active_form: z.string().optional(),
});

export const todoWriteSchema = z.object({
  todos: z.array(todo),
});

const STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;

/** The list as the model sends it, for the card while the call runs (unchecked: only what reads as items). */
function todosPreview(given: unknown): ToolDisplay | undefined {
  if (!Array.isArray(given)) return undefined;
  const todos = given.flatMap((t): TodoItem[] => {
    const o = t && typeof t === "object" ? (t as Record<string, unknown>) : {};
    const status = STATUSES.find((s) => s === o.status) ?? "pending";
    return typeof o.content === "string" ? [{ description: o.content, status }] : [];
  });
  return { kind: "todos", todos };
}

export const todoWriteTool: ToolHandler<typeof todoWriteSchema> = {
  id: "todo_write",
  schema: todoWriteSchema,
  effects: CONVERSES,
  role: "todos",
  view: { card: "expanded", preview: (args) => todosPreview(args.todos) },
  async run(args, ctx) {
    // An empty list is refused, as Chord does: a finished plan is marked
    // completed or cancelled, not wiped.
    if (args.todos.length === 0) {
      return fail(
        "todo_write: todos must contain at least one item; an empty list is invalid. " +
          "Provide id, content, and status for each task, or omit todo_write when no task list is needed",
      );
    }
    // Refusals in Chord's words, each naming the item by its place in the list.
    const seen = new Set<string>();
    for (const [i, t] of args.todos.entries()) {
      if (t.id === "") return fail(`todos[${i}]: id is required`);
      if (t.content === "") return fail(`todos[${i}]: content is required`);
      if (seen.has(t.id)) return fail(`todos[${i}]: duplicate id ${JSON.stringify(t.id)}`);
      seen.add(t.id);
    }
    if (args.todos.filter((t) => t.status === "in_progress").length > 1) {
      const formOwner = new Map<string, string>();
      for (const [i, t] of args.todos.entries()) {
        if (t.status !== "in_progress") continue;
        const form = t.active_form?.trim() ?? "";
        if (form === "") return fail(`todos[${i}]: active_form is required when multiple in_progress items are used`);
        const other = formOwner.get(form);
        if (other !== undefined) {
          return fail(`todos[${i}]: active_form ${JSON.stringify(form)} duplicates in_progress todo ${JSON.stringify(other)}; use distinct active_form values for distinct workstreams`);
        }
        formOwner.set(form, t.id);
      }
    }
    const todos: TodoItem[] = args.todos.map((t) => ({
      id: t.id,
      description: t.content,
      status: t.status,
      ...(t.active_form?.trim() ? { activeForm: t.active_form.trim() } : {}),
    }));
    ctx.emit({ type: "todo_updated", todos });
    return ok(chordTodoMarkdown(todos), { kind: "todos", todos });
  },
};
