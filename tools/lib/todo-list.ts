// The todo list as the model reads it back after write_todos / todo_write:
// one line per item in order, so the plan the model just replaced stays in
// front of it. The TUI gets the same list through the todo_updated event.

import type { TodoItem, TodoStatus } from "../../core/events.js";

const MARK: Record<TodoStatus, string> = {
  pending: "[ ]",
  in_progress: "[>]",
  completed: "[x]",
  cancelled: "[-]",
  blocked: "[!]",
};

const ORDER: TodoStatus[] = ["in_progress", "pending", "blocked", "completed", "cancelled"];

/**
 * "3 items: 1 in_progress, 2 pending" and one marked line per item: `[ ] a: …`
 * by id, or numbered by position (`[ ] 1. …`, the id added where it is not the
 * number), as Chord lists its todos.
 */
export function renderTodos(todos: readonly TodoItem[], opts: { numbered?: boolean } = {}): string {
  if (todos.length === 0) return "Todo list cleared.";
  const counts = ORDER.map((s) => [s, todos.filter((t) => t.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `Todo list updated (${todos.length} ${todos.length === 1 ? "item" : "items"}: ${counts.join(", ")}).\n${todoLines(todos, opts).join("\n")}`;
}

/** One marked line per item, in order. */
export function todoLines(todos: readonly TodoItem[], opts: { numbered?: boolean } = {}): string[] {
  return todos.map((t, i) =>
    opts.numbered
      ? `${MARK[t.status]} ${i + 1}. ${t.description}${t.id === undefined || t.id === String(i + 1) ? "" : ` (id ${t.id})`}`
      : `${MARK[t.status]} ${t.id === undefined ? "" : `${t.id}: `}${t.description}`,
  );
}
