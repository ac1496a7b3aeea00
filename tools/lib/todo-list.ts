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

/** Yuj's list: one marked line per item, in order (`[>] a: Write the parser`). */
export function todoLines(todos: readonly TodoItem[]): string[] {
  return todos.map((t) => `${MARK[t.status]} ${t.id === undefined ? "" : `${t.id}: `}${t.description}`);
}

/**
 * Chord's list, as Chord renders it: a Markdown checklist by id
 * (`- [ ] 1. Write the parser`), done items `[x]`, cancelled `[-]`, the
 * in_progress ones in bold with their active_form on an indented line below.
 */
export function chordTodoMarkdown(todos: readonly TodoItem[]): string {
  return todos
    .map((t, i) => {
      const check = t.status === "completed" ? "x" : t.status === "cancelled" ? "-" : " ";
      const label = `${t.id ?? String(i + 1)}. ${t.description}`;
      if (t.status !== "in_progress") return `- [${check}] ${label}\n`;
      return `- [${check}] **${label}**\n${t.activeForm ? `  - active: ${t.activeForm}\n` : ""}`;
    })
    .join("");
}
