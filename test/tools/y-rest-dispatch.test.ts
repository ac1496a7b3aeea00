// The Yuj dispatcher and write_todos against the reference's own tests:
// an unknown tool name (plain, and under schema_validation = "reject" where
// it fails the check with the rule "tool"), arguments that are not JSON, the
// reference's table of invalid calls with the JSON path and schema rule each
// names, and the todo settings. Through the real dispatcher on the real
// _base profile; the text is what the model reads.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { loadConfig } from "../../core/config/load.js";
import { writeTodosTool } from "../../tools/yuj/write_todos.js";
import { baseToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { schemaRejectText, yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await t?.cleanup();
  t = await makeToolContext(adjust);
};
beforeEach(() => fresh());
afterEach(() => t.cleanup());

const send = (name: string, raw: string) => yujCall(t, name, raw, { raw: true });

const envelope = schemaRejectText;

const TOOLS = "bash, read, write, edit, glob, grep, ask_user, done";

describe("an unknown tool name", () => {
  it("is refused naming it and the tools there are; nothing runs", async () => {
    expect(await send("nonexistent_tool", "{}")).toEqual({ ok: false, text: `ERROR: unknown tool 'nonexistent_tool'. Available tools: ${TOOLS}.` });
  });

  it("under reject fails the schema check at $ with the rule 'tool', then names the tools there are", async () => {
    t.ctx.config.tools.schema_validation = "reject";
    const r = await send("invented_tool", "{}");
    expect(r.text).toBe(
      `${envelope("invented_tool", [{ actual: "unknown tool", expected: "active tool name", keyword: "tool", path: "$" }])}\n` +
        `unknown tool 'invented_tool'. Available tools: ${TOOLS}.`,
    );
    // The envelope is one JSON value on the first line, as every reject is.
    const payload = JSON.parse(r.text.split("\n")[0]!.replace(/^ERROR: /, "")) as { error: { type: string; errors: Array<{ keyword: string }> } };
    expect(payload.error.type).toBe("tool_schema_reject");
    expect(payload.error.errors.map((e) => e.keyword)).toEqual(["tool"]);
  });
});

describe("arguments the handler cannot take", () => {
  it("bash with no cmd names the missing field; arguments that are not JSON say so and what to send", async () => {
    expect(await send("bash", "{}")).toEqual({ ok: false, text: "ERROR: bad arguments for bash: cmd is required (string)" });
    const broken = await send("read", '{"path": "a.txt"');
    expect(broken.ok).toBe(false);
    expect(broken.text).toMatch(/^ERROR: bad arguments for read: arguments are not valid JSON \(.+\)\. Send the arguments as one JSON object\.$/);
    expect(await send("read", "[1]")).toEqual({ ok: false, text: "ERROR: bad arguments for read: expected a JSON object, got array" });
  });

  it("read routes through the dispatcher: a file's text back, a missing file named", async () => {
    fs.writeFileSync(path.join(t.cwd, "test.txt"), "hello");
    const r = await send("read", JSON.stringify({ path: "test.txt" }));
    expect(r.ok).toBe(true);
    expect(r.text).toContain("hello");
    expect(await send("read", JSON.stringify({ path: "nonexistent.txt" }))).toEqual({ ok: false, text: "ERROR: file not found: nonexistent.txt" });
  });
});

describe("schema_validation = reject: the reference's table of invalid calls, each with its path and rule", () => {
  const CASES: Array<[string, Record<string, unknown>, string, string, string, string]> = [
    // tool, arguments, path, rule, expected, actual
    ["bash", {}, "$.cmd", "required", "string", "missing"],
    ["bash", { cmd: 7 }, "$.cmd", "type", "string", "integer"],
    ["read", {}, "$.path", "required", "string", "missing"],
    ["read", { path: 7 }, "$.path", "type", "string", "integer"],
    ["read", { path: "x.py", offset: true }, "$.offset", "type", "integer", "boolean"],
    ["read", { path: "x.py", future: 1 }, "$.future", "additionalProperties", "no such field", "integer"],
    ["write", { path: "x.py" }, "$.content", "required", "string", "missing"],
    ["write", { path: "x.py", content: false }, "$.content", "type", "string", "boolean"],
    ["edit", { path: "x.py", old_str: "before" }, "$.new_str", "required", "string", "missing"],
    ["edit", { path: "x.py", old_str: "before", new_str: [] }, "$.new_str", "type", "string", "array"],
    ["glob", {}, "$.pattern", "required", "string", "missing"],
    ["glob", { pattern: "*.py", page: "one" }, "$.page", "type", "integer", "string"],
    ["grep", {}, "$.pattern", "required", "string", "missing"],
    ["grep", { pattern: "x", path: 3 }, "$.path", "type", "string", "integer"],
    ["done", { message: 1 }, "$.message", "type", "string", "integer"],
    ["run_tests", { last_failed: "false" }, "$.last_failed", "type", "boolean", "string"],
    ["list_definitions", {}, "$.path", "required", "string", "missing"],
    ["list_definitions", { path: null }, "$.path", "type", "string", "null"],
  ];
  beforeEach(() =>
    fresh((c) => {
      c.tools.schema_validation = "reject";
      c.tools.run_tests.enabled = true;
      c.tools.list_definitions.enabled = true;
    }),
  );

  it.each(CASES)("%s %j fails at %s with %s, nothing run", async (tool, args, at, rule, expected, actual) => {
    expect(await send(tool, JSON.stringify(args))).toEqual({ ok: false, text: envelope(tool, [{ actual, expected, keyword: rule, path: at }]) });
    expect(fs.readdirSync(t.cwd)).toEqual([]);
    expect(t.events).toEqual([]);
  });

  it("never echoes the value it refused", async () => {
    const r = await send("bash", JSON.stringify({ cmd: ["private-value-that-must-not-show"] }));
    expect(r.text).toBe(envelope("bash", [{ actual: "array", expected: "string", keyword: "type", path: "$.cmd" }]));
    expect(r.text).not.toContain("private-value");
  });
});

describe("write_todos settings and refusals", () => {
  const load = (toml: string) => {
    const file = path.join(t.cwd, "todos.toml");
    fs.writeFileSync(file, toml);
    return () => loadConfig({ cwd: t.cwd, env: { HOME: t.cwd }, home: t.cwd, configFiles: [file] }).config;
  };

  it("defaults off with 20 items at most; a file turns it on with its own bound; bad values name their key", () => {
    const defaults = load("")();
    expect([defaults.tools.todos_enabled, defaults.tools.todos_max_items]).toEqual([false, 20]);
    expect(baseToolset(defaults).tools.has("write_todos")).toBe(false);
    const on = load("[tools]\ntodos_enabled = true\ntodos_max_items = 7\n")();
    expect([on.tools.todos_enabled, on.tools.todos_max_items]).toEqual([true, 7]);
    expect(baseToolset(on).tools.has("write_todos")).toBe(true);
    expect(load("[tools]\ntodos_enabled = 1\n")).toThrow(/tools\.todos_enabled/);
    expect(load("[tools]\ntodos_max_items = 0\n")).toThrow(/tools\.todos_max_items/);
  });

  it("called while off, is refused with the setting that turns it on; no list is set", async () => {
    const todos = JSON.stringify({ todos: [{ description: "Step 1", status: "pending" }] });
    expect(await send("write_todos", todos)).toEqual({
      ok: false,
      text: `ERROR: the write_todos tool is disabled in this session ([tools].todos_enabled = true turns it on). Available tools: ${TOOLS}.`,
    });
    expect(t.events).toEqual([]);
  });

  it("with it on: one item reads 'item', an item without its fields is named by index", async () => {
    await fresh((c) => (c.tools.todos_enabled = true));
    expect(await send("write_todos", JSON.stringify({ todos: [{ description: "Only", status: "blocked" }] }))).toEqual({
      ok: true,
      text: "OK: replaced todo list with 1 item\n[!] Only",
    });
    expect(await send("write_todos", JSON.stringify({ todos: [{ status: "pending" }] }))).toEqual({
      ok: false,
      text: "ERROR: bad arguments for write_todos: todos[0].description is required (string)",
    });
    expect(await send("write_todos", JSON.stringify({ todos: [{ description: "a", status: "paused" }] }))).toEqual({
      ok: false,
      text: 'ERROR: bad arguments for write_todos: todos[0].status: expected one of "pending", "in_progress", "completed", "cancelled", "blocked", got string "paused"',
    });
    expect(t.events).toEqual([{ type: "todo_updated", todos: [{ description: "Only", status: "blocked" }] }]);
  });
});

describe("write_todos called past the dispatcher while off", () => {
  it("refuses in the reference's words, and sets no list", async () => {
    expect(await writeTodosTool.run({ todos: [{ description: "Step 1", status: "pending" }] }, t.ctx)).toMatchObject({
      ok: false,
      modelText: "ERROR: write_todos tool is disabled (tools.todos_enabled=false)",
    });
    expect(t.events).toEqual([]);
  });
});

describe("an undeclared field inside a todo item", () => {
  const withId = JSON.stringify({ todos: [{ description: "Step 1", status: "pending", id: "a" }, { description: "Step 2", status: "pending" }] });

  it("is refused under reject at its own path, as one at the top is; no list is set", async () => {
    await fresh((c) => {
      c.tools.todos_enabled = true;
      c.tools.schema_validation = "reject";
    });
    expect(await send("write_todos", withId)).toEqual({
      ok: false,
      text: envelope("write_todos", [{ actual: "string", expected: "no such field", keyword: "additionalProperties", path: "$.todos[0].id" }]),
    });
    expect(t.events).toEqual([]);
  });

  it("is let through with validation off (the list keeps description and status only)", async () => {
    await fresh((c) => (c.tools.todos_enabled = true));
    expect(await send("write_todos", withId)).toEqual({ ok: true, text: "OK: replaced todo list with 2 items\n[ ] Step 1\n[ ] Step 2" });
    expect(t.events).toEqual([{ type: "todo_updated", todos: [{ description: "Step 1", status: "pending" }, { description: "Step 2", status: "pending" }] }]);
  });
});

describe("a misnamed tool", () => {
  it.each([
    ["read_file", "read"],
    ["Read", "read"],
    ["grep_files", "grep"],
    ["file_write", "write"],
    ["gerp", "grep"],
    ["str-replace-edit", "edit"],
  ])("%s is refused with 'Did you mean %s?' before the list", async (name, meant) => {
    expect(await send(name, "{}")).toEqual({ ok: false, text: `ERROR: unknown tool '${name}'. Did you mean '${meant}'? Available tools: ${TOOLS}.` });
  });

  it("a name close to none gets the list alone", async () => {
    expect(await send("delete_everything", "{}")).toEqual({ ok: false, text: `ERROR: unknown tool 'delete_everything'. Available tools: ${TOOLS}.` });
    expect(await send("ls", "{}")).toEqual({ ok: false, text: `ERROR: unknown tool 'ls'. Available tools: ${TOOLS}.` });
  });
});
