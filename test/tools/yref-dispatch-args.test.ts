// The arguments models really send to the Yuj default surface, in the
// forgiving mode (schema_validation = "off"): a parameter the tool does not
// take still runs the call but is named in a note (an option the model
// believes applied must not silently vanish), a call that cannot run names
// it beside what is missing, the names other agents' tools use (`command`,
// `old_string`, `contents`, grep's `include`) are read as Yuj's, and quoted numbers and
// booleans as what they spell. Reject mode and the Chord surface are unchanged.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { prepareCall } from "../../core/dispatch.js";
import { baseToolset, chordToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { schemaRejectText } from "../support/yuj-call.js";

let t: TestToolContext;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await t?.cleanup();
  t = await makeToolContext(adjust);
  fs.writeFileSync(path.join(t.cwd, "a.txt"), "one\ntwo\nthree\n");
  fs.writeFileSync(path.join(t.cwd, "b.md"), "two\n");
};
beforeEach(() => fresh());
afterEach(() => t.cleanup());

/** The call through the dispatcher's checks and the handler, with the notes the model reads in front. */
async function call(name: string, args: unknown, surface: "yuj" | "chord" = "yuj"): Promise<{ ok: boolean; text: string }> {
  const tools = surface === "yuj" ? baseToolset(t.ctx.config) : chordToolset(t.ctx.config);
  const prepared = prepareCall({ id: "c1", name, args: JSON.stringify(args) }, tools, t.ctx.config);
  if (!prepared.ready) return { ok: false, text: prepared.text };
  const r = await prepared.tool.handler.run(prepared.args as never, t.ctx);
  return { ok: r.ok, text: [...(prepared.notes ?? []), r.modelText].join("\n") };
}

describe("a parameter the tool does not take", () => {
  it("runs the call without it and says so, naming what the tool accepts", async () => {
    expect(await call("grep", { pattern: "two", case_insensitive: true })).toEqual({
      ok: true,
      text:
        'Note: grep takes no "case_insensitive" parameter; it was ignored (accepted parameters: pattern, path, glob, page).\n' +
        '<search_result tool="grep" total="2" shown="2" page="1" next_page="0" pattern="two" scope=".">\n./a.txt:2:two\n./b.md:1:two\n</search_result>',
    });
    expect(await call("read", { path: "a.txt", Limit: 1 })).toEqual({
      ok: true,
      text: 'Note: read takes no "Limit" parameter (did you mean "limit"?); it was ignored (accepted parameters: path, offset, limit).\n1: one\n2: two\n3: three',
    });
    expect(await call("done", { summary: "fixed" })).toEqual({
      ok: true,
      text: 'Note: done takes no "summary" parameter; it was ignored (accepted parameters: message).\ndone',
    });
  });

  it("is named beside the missing field when the call cannot run; several share one list", async () => {
    expect(await call("grep", { query: "two" })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for grep: pattern is required (string); unknown parameter "query"; accepted parameters: pattern, path, glob, page',
    });
    expect(await call("edit", { path: "a.txt", before: "two", after: "2" })).toEqual({
      ok: false,
      text:
        "ERROR: bad arguments for edit: old_str is required (string); new_str is required (string); " +
        'unknown parameters "before", "after"; accepted parameters: path, old_str, new_str',
    });
  });

  it("a declared parameter the profile hides is still the handler's to refuse", async () => {
    t.ctx.config.tools.background_enabled = false;
    expect(await call("bash", { cmd: "echo hi", background: true })).toEqual({
      ok: false,
      text: "ERROR: background commands are disabled (set [tools].background_enabled = true)",
    });
  });

  it("under reject is the envelope, as before; nothing runs", async () => {
    await fresh((c) => (c.tools.schema_validation = "reject"));
    expect(await call("grep", { pattern: "two", case_insensitive: true })).toEqual({
      ok: false,
      text: schemaRejectText("grep", [{ actual: "boolean", expected: "no such field", keyword: "additionalProperties", path: "$.case_insensitive" }]),
    });
  });
});

describe("the parameter names other agents' tools use", () => {
  it("command, old_string/new_string and contents are read as cmd, old_str/new_str and content", async () => {
    expect(await call("bash", { command: "echo hi" })).toEqual({ ok: true, text: 'Note: bash has no parameter "command"; it was read as "cmd".\nhi' });
    expect(await call("edit", { path: "a.txt", old_string: "two", new_string: "TWO" })).toEqual({
      ok: true,
      text: 'Note: edit has no parameter "old_string"; it was read as "old_str".\nNote: edit has no parameter "new_string"; it was read as "new_str".\nOK',
    });
    expect(fs.readFileSync(path.join(t.cwd, "a.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    expect(await call("write", { path: "c.txt", contents: "x\n" })).toEqual({
      ok: true,
      text: 'Note: write has no parameter "contents"; it was read as "content".\nOK: wrote 2 bytes to c.txt',
    });
  });

  it("grep's include (the ripgrep-style name of its file filter) is read as glob, and filters", async () => {
    expect(await call("grep", { pattern: "two", include: "*.md" })).toEqual({
      ok: true,
      text:
        'Note: grep has no parameter "include"; it was read as "glob".\n' +
        '<search_result tool="grep" total="1" shown="1" page="1" next_page="0" pattern="two" scope=". glob=*.md">\n./b.md:1:two\n</search_result>',
    });
  });

  it("the given name wins when both are sent", async () => {
    expect(await call("bash", { cmd: "echo kept", command: "echo dropped" })).toEqual({
      ok: true,
      text: 'Note: bash has no parameter "command"; "cmd" was given too, so "command" was ignored.\nkept',
    });
  });

  it("are not read on the Chord surface, which refuses an undeclared name", async () => {
    const r = await call("write", { path: "c.txt", contents: "x\n" }, "chord");
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^ERROR: bad arguments for write: .*unknown parameter "contents"/);
    expect(fs.existsSync(path.join(t.cwd, "c.txt"))).toBe(false);
  });
});

describe("a number or boolean sent as a string", () => {
  it("is read as the value it spells, with a note", async () => {
    expect(await call("read", { path: "a.txt", offset: "1", limit: " 1 " })).toEqual({
      ok: true,
      text:
        'Note: offset was the string "1" and was read as the integer 1; send it unquoted in future calls.\n' +
        'Note: limit was the string " 1 " and was read as the integer 1; send it unquoted in future calls.\n' +
        "2: two\n<system-reminder>Read returned the first 1 lines of a.txt. The file is longer — re-read with a higher limit or a specific offset to see more.</system-reminder>",
    });
    expect((await call("glob", { pattern: "*.txt", page: "1" })).text).toBe(
      'Note: page was the string "1" and was read as the integer 1; send it unquoted in future calls.\n' +
        '<search_result tool="glob" total="1" shown="1" page="1" next_page="0" pattern="*.txt" scope=".">\na.txt\n</search_result>',
    );
  });

  it("a string that spells no number is refused as before", async () => {
    expect(await call("read", { path: "a.txt", offset: "first" })).toEqual({ ok: false, text: "ERROR: bad arguments for read: offset: expected integer, got string" });
  });

  it("booleans: \"false\" is false (never truthy)", async () => {
    await fresh((c) => (c.tools.run_tests.enabled = true));
    const prepared = prepareCall({ id: "c1", name: "run_tests", args: JSON.stringify({ last_failed: "false" }) }, baseToolset(t.ctx.config), t.ctx.config);
    expect(prepared.ready && prepared.args).toEqual({ last_failed: false });
    expect(prepared.ready && prepared.notes).toEqual(['Note: last_failed was the string "false" and was read as the boolean false; send it unquoted in future calls.']);
  });

  it("under reject is the envelope's type error", async () => {
    await fresh((c) => (c.tools.schema_validation = "reject"));
    expect((await call("read", { path: "a.txt", offset: "1" })).text).toBe(
      schemaRejectText("read", [{ actual: "string", expected: "integer", keyword: "type", path: "$.offset" }]),
    );
  });
});

describe("arguments of the wrong shape", () => {
  async function raw(name: string, text: string) {
    const prepared = prepareCall({ id: "c1", name, args: text }, baseToolset(t.ctx.config), t.ctx.config);
    if (!prepared.ready) return { ok: false, text: prepared.text };
    const r = await prepared.tool.handler.run(prepared.args as never, t.ctx);
    return { ok: r.ok, text: r.modelText };
  }

  it("read with an empty path asks for a path (never an empty name)", async () => {
    expect(await raw("read", '{"path": ""}')).toEqual({ ok: false, text: "ERROR: path is required: name the file relative to the project (e.g. src/app.py)" });
  });

  it("null for a call without parameters is read as no arguments (reject keeps it a type error)", async () => {
    expect(await raw("done", "null")).toEqual({ ok: true, text: "done" });
    await fresh((c) => (c.tools.schema_validation = "reject"));
    expect(await raw("done", "null")).toEqual({ ok: false, text: schemaRejectText("done", [{ actual: "null", expected: "object", keyword: "type", path: "$" }]) });
  });

  it("a bare string for a list of objects is named as the string it is, not as a bad first item", async () => {
    await fresh((c) => (c.tools.todos_enabled = true));
    expect(await raw("write_todos", '{"todos": "write the tests"}')).toEqual({ ok: false, text: "ERROR: bad arguments for write_todos: todos: expected array, got string" });
  });

  it("a field an item does not declare is named beside the missing one, with the item's fields", async () => {
    await fresh((c) => (c.tools.todos_enabled = true));
    expect(await raw("write_todos", '{"todos": [{"task": "a", "status": "pending"}]}')).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for write_todos: todos[0].description is required (string); todos[0] has no field "task"; its fields: description, status',
    });
    expect(t.events).toEqual([]);
  });
});

describe("a one-parameter tool sent its text alone", () => {
  async function raw(name: string, text: string) {
    const prepared = prepareCall({ id: "c1", name, args: text }, baseToolset(t.ctx.config), t.ctx.config);
    return prepared.ready ? { ready: true, args: prepared.args } : { ready: false, text: prepared.text };
  }

  it("done's message and think's thought, as bare text or one JSON string", async () => {
    await fresh((c) => (c.tools.think_enabled = true));
    expect(await raw("done", '"All tests pass."')).toEqual({ ready: true, args: { message: "All tests pass." } });
    expect(await raw("done", "All tests pass.")).toEqual({ ready: true, args: { message: "All tests pass." } });
    expect(await raw("think", "Check the parser first.")).toEqual({ ready: true, args: { thought: "Check the parser first." } });
  });

  it("under reject the bare text is the envelope's type error", async () => {
    await fresh((c) => (c.tools.schema_validation = "reject"));
    expect(await raw("done", '"All tests pass."')).toEqual({ ready: false, text: schemaRejectText("done", [{ actual: "string", expected: "object", keyword: "type", path: "$" }]) });
  });
});

describe("a todo item written the way other agents' todo tools write it", () => {
  it("content is read as description, with one note; an extra field of the item is let through as before", async () => {
    await fresh((c) => (c.tools.todos_enabled = true));
    const todos = [
      { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
      { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
    ];
    expect(await call("write_todos", { todos })).toEqual({
      ok: true,
      text: 'Note: write_todos\'s todos items have no field "content"; it was read as "description".\nOK: replaced todo list with 2 items\n[x] Read the parser\n[>] Fix the bug',
    });
    expect(t.events).toEqual([{ type: "todo_updated", todos: [{ description: "Read the parser", status: "completed" }, { description: "Fix the bug", status: "in_progress" }] }]);
  });

  it("under reject it is refused at the item's path", async () => {
    await fresh((c) => {
      c.tools.todos_enabled = true;
      c.tools.schema_validation = "reject";
    });
    const r = await call("write_todos", { todos: [{ content: "a", status: "pending" }] });
    expect(r.ok).toBe(false);
    expect(r.text).toContain('"keyword":"additionalProperties","path":"$.todos[0].content"');
  });
});

describe("an enum value under another system's name", () => {
  it("lsp kind symbols is read as document_symbols, with a note", async () => {
    await fresh((c) => (c.lsp.tool_enabled = true));
    const prepared = prepareCall({ id: "c1", name: "lsp", args: JSON.stringify({ kind: "symbols", path: "a.txt" }) }, baseToolset(t.ctx.config), t.ctx.config);
    expect(prepared.ready && prepared.args).toEqual({ kind: "document_symbols", path: "a.txt" });
    expect(prepared.ready && prepared.notes).toEqual(['Note: kind "symbols" was read as "document_symbols".']);
  });

  it("a value no alias names is refused with the accepted ones", async () => {
    await fresh((c) => (c.lsp.tool_enabled = true));
    expect(await call("lsp", { kind: "hover", path: "a.txt" })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for lsp: kind: expected one of "definition", "references", "document_symbols", got string "hover"',
    });
  });
});

describe("arguments a model wrapped in an envelope of its own", () => {
  it("are read from inside it, with a note", async () => {
    expect(await call("read", { arguments: { path: "a.txt", limit: 1 } })).toEqual({
      ok: true,
      text:
        'Note: read\'s arguments came wrapped in "arguments"; they were read from inside it. Send the parameters themselves.\n' +
        "1: one\n<system-reminder>Read returned the first 1 lines of a.txt. The file is longer — re-read with a higher limit or a specific offset to see more.</system-reminder>",
    });
    expect((await call("bash", { name: "bash", input: { cmd: "echo hi" } })).text).toBe(
      'Note: bash\'s arguments came wrapped in "input"; they were read from inside it. Send the parameters themselves.\nhi',
    );
  });

  it("not when a parameter is at the top, or the inner object holds other keys", async () => {
    expect((await call("read", { path: "a.txt", arguments: { limit: 1 } })).text).toBe(
      'Note: read takes no "arguments" parameter; it was ignored (accepted parameters: path, offset, limit).\n1: one\n2: two\n3: three',
    );
    expect((await call("read", { arguments: { path: "a.txt", mode: "fast" } })).text).toBe(
      'ERROR: bad arguments for read: path is required (string); unknown parameter "arguments"; accepted parameters: path, offset, limit',
    );
  });
});

describe("ask_user, whose schema takes no other field", () => {
  it("is not unwrapped: the envelope is refused by name", async () => {
    expect(await call("ask_user", { arguments: { question: "Which database?" } })).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for ask_user: question is required (string); unknown parameter "arguments"; accepted parameters: question',
    });
  });
});
