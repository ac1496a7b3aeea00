import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doneTool } from "../../tools/yuj/done.js";
import { builtinHandlers } from "../../tools/registry.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

describe("done", () => {
  it("returns the literal `done` and asks the loop to finish", async () => {
    expect(await doneTool.run({ message: "fixed the bug" }, t.ctx)).toEqual({
      ok: true,
      modelText: "done",
      finish: { message: "fixed the bug" },
    });
    expect(await doneTool.run({}, t.ctx)).toEqual({ ok: true, modelText: "done", finish: {} });
  });
});

describe("builtin handlers", () => {
  it("registers each handler under its id", () => {
    const handlers = builtinHandlers();
    expect([...handlers.keys()].sort()).toEqual([
      "apply_patch", "ask_user", "bash", "bash_kill", "bash_poll", "checkpoint", "chord_apply_patch",
      "chord_delete", "chord_done", "chord_edit", "chord_glob", "chord_grep", "chord_read", "chord_write", "done", "edit", "exit_plan_mode", "glob", "grep", "job_kill", "job_list", "job_output",
      "list_definitions", "lsp", "notebook_edit", "question", "read", "read_artifact", "rewind", "run_tests", "save_artifact", "shell", "skill", "structural_edit", "structural_search", "task",
      "terminal_io", "terminal_start", "think", "todo_write", "udiff", "view_image", "web_fetch", "write", "write_todos",
    ]);
    for (const [id, h] of handlers) expect(h.id).toBe(id);
    const readOnly = Object.fromEntries([...handlers].map(([id, h]) => [id, h.readOnly]));
    expect(readOnly).toEqual({
      apply_patch: false,
      ask_user: false,
      bash: false,
      bash_kill: false,
      bash_poll: true,
      checkpoint: false,
      chord_apply_patch: false,
      chord_delete: false,
      chord_done: false,
      chord_edit: false,
      chord_glob: true,
      chord_grep: true,
      chord_read: true,
      chord_write: false,
      done: true,
      edit: false,
      exit_plan_mode: true,
      glob: true,
      grep: true,
      job_kill: false,
      job_list: true,
      job_output: true,
      list_definitions: true,
      lsp: true,
      notebook_edit: false,
      question: false,
      read: true,
      read_artifact: true,
      rewind: false,
      run_tests: false,
      save_artifact: false,
      shell: false,
      skill: true,
      structural_edit: false,
      structural_search: true,
      task: false,
      terminal_io: false,
      terminal_start: false,
      think: true,
      todo_write: false,
      udiff: false,
      view_image: true,
      web_fetch: true,
      write: false,
      write_todos: false,
    });
  });

  it("uses the spec's parameter names and integer types", () => {
    const h = builtinHandlers();
    const keys = (id: string) => Object.keys(h.get(id)!.schema.shape).sort();
    expect(keys("read")).toEqual(["limit", "offset", "path"]);
    expect(keys("write")).toEqual(["content", "path"]);
    expect(keys("edit")).toEqual(["new_str", "old_str", "path"]);
    expect(keys("glob")).toEqual(["page", "path", "pattern"]);
    expect(keys("grep")).toEqual(["glob", "page", "path", "pattern"]);
    expect(keys("bash")).toEqual(["background", "cmd"]);
    expect(keys("done")).toEqual(["message"]);
    expect(h.get("read")!.schema.safeParse({ path: "a", offset: 1.5 }).success).toBe(false);
    expect(h.get("glob")!.schema.safeParse({ pattern: "*" }).success).toBe(true);
    expect(h.get("edit")!.schema.safeParse({ path: "a", old_str: "x" }).success).toBe(false);
  });
});
