// A misnamed tool whose name has the words of an active tool in another
// order or number (other agents call their todo tool TodoWrite or
// todo_write) is pointed at that tool, not at the tool named by one of its
// words (`write`).

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.todos_enabled = true;
  });
});
afterEach(() => t.cleanup());

const TOOLS = "bash, read, write, edit, glob, grep, write_todos, ask_user, done";

describe("a tool name with an active tool's words reordered", () => {
  it.each([
    ["todo_write", "write_todos"],
    ["TodoWrite", "write_todos"],
    ["write_todo", "write_todos"],
    ["askUser", "ask_user"],
  ])("%s is refused with 'Did you mean %s?'", async (name, meant) => {
    expect(await yujCall(t, name, "{}", { raw: true })).toEqual({ ok: false, text: `ERROR: unknown tool '${name}'. Did you mean '${meant}'? Available tools: ${TOOLS}.` });
  });

  it("poll_bash means bash_poll when background commands are on", async () => {
    await t.cleanup();
    t = await makeToolContext((c) => (c.tools.background_enabled = true));
    expect((await yujCall(t, "poll_bash", "{}", { raw: true })).text).toBe(
      "ERROR: unknown tool 'poll_bash'. Did you mean 'bash_poll'? Available tools: bash, bash_poll, bash_kill, read, write, edit, glob, grep, ask_user, done.",
    );
  });

  it("a name built around one tool's name still means that tool", async () => {
    expect((await yujCall(t, "write_file", "{}", { raw: true })).text).toBe(`ERROR: unknown tool 'write_file'. Did you mean 'write'? Available tools: ${TOOLS}.`);
  });
});

describe("a misnamed call to a tool that is off", () => {
  it("is told that tool is off and what turns it on, not pointed at another tool", async () => {
    await t.cleanup();
    t = await makeToolContext();
    expect((await yujCall(t, "TodoWrite", "{}", { raw: true })).text).toBe(
      "ERROR: unknown tool 'TodoWrite'. Did you mean 'write_todos'? It is disabled in this session ([tools].todos_enabled = true turns it on). " +
        "Available tools: bash, read, write, edit, glob, grep, ask_user, done.",
    );
  });

  it("an active tool still wins a tie", async () => {
    await t.cleanup();
    t = await makeToolContext();
    expect((await yujCall(t, "Read", "{}", { raw: true })).text).toBe("ERROR: unknown tool 'Read'. Did you mean 'read'? Available tools: bash, read, write, edit, glob, grep, ask_user, done.");
  });
});

describe("a tool of one mode called outside it", () => {
  it("exit_plan_mode outside required plan mode names the mode it belongs to", async () => {
    expect((await yujCall(t, "exit_plan_mode", "{}", { raw: true })).text).toBe(
      `ERROR: the exit_plan_mode tool is disabled in this session (it is offered only when [loop].plan_mode = "required"). Available tools: ${TOOLS}.`,
    );
  });
});
