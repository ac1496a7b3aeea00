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
      "apply_patch", "apply_subagent", "ask_user", "bash", "bash_kill", "bash_poll", "cancel", "checkpoint",
      "chord_apply_patch", "chord_delete", "chord_done", "chord_edit", "chord_glob", "chord_grep", "chord_read",
      "chord_write", "complete", "delegate", "done", "edit", "escalate", "exec_cell", "exit_plan_mode",
      "get_function_details", "glob", "grep", "handoff", "job_kill", "job_list", "job_output", "list_definitions",
      "list_functions", "load_tools", "lsp", "notebook_edit", "notify", "question", "read", "read_artifact", "rewind",
      "run_tests", "save_artifact", "shell", "skill", "structural_edit", "structural_search", "subagent_changes",
      "task", "terminal_io", "terminal_start", "think", "todo_write", "udiff", "view_image", "web_fetch", "web_search", "write",
      "write_todos",
    ]);
    for (const [id, h] of handlers) expect(h.id).toBe(id);
    // What each tool says it may do, and the role the loop knows it by: the
    // facts parallel dispatch, plan mode, the done guard and YOLO act on.
    const facts = Object.fromEntries([...handlers].map(([id, h]) => [id, [[...h.effects].sort().join(","), h.role ?? ""].filter(Boolean).join(" ")]));
    expect(facts).toEqual({
      apply_patch: "mutate",
      apply_subagent: "mutate",
      ask_user: "converse ask",
      bash: "execute,inspect",
      bash_kill: "stop",
      bash_poll: "inspect read_output",
      cancel: "orchestrate,stop cancellation",
      checkpoint: "converse checkpoint",
      chord_apply_patch: "mutate",
      chord_delete: "mutate",
      chord_done: "converse finish",
      chord_edit: "mutate",
      chord_glob: "inspect",
      chord_grep: "inspect",
      chord_read: "inspect",
      chord_write: "mutate",
      complete: "converse",
      delegate: "orchestrate delegation",
      done: "converse finish",
      edit: "mutate",
      escalate: "converse",
      exec_cell: "execute",
      exit_plan_mode: "converse plan_exit",
      get_function_details: "inspect",
      glob: "inspect",
      grep: "inspect",
      handoff: "orchestrate",
      job_kill: "stop",
      job_list: "inspect",
      job_output: "inspect read_output",
      list_definitions: "inspect",
      list_functions: "inspect",
      load_tools: "converse load",
      lsp: "inspect",
      notebook_edit: "mutate",
      notify: "converse",
      question: "converse ask",
      read: "inspect",
      read_artifact: "inspect",
      rewind: "converse rewind",
      run_tests: "execute",
      save_artifact: "converse",
      shell: "execute,inspect",
      skill: "inspect skill",
      structural_edit: "mutate",
      structural_search: "inspect",
      subagent_changes: "inspect",
      task: "mutate",
      terminal_io: "execute",
      terminal_start: "execute",
      think: "converse think",
      todo_write: "converse todos",
      udiff: "mutate",
      view_image: "inspect",
      web_fetch: "network",
      web_search: "network hosted_search",
      write: "mutate",
      write_todos: "converse todos",
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
