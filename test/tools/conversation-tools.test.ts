// The conversation tools' handlers: write_todos, todo_write, think,
// checkpoint/rewind (handler side), question, Chord's loop done, and where
// the profiles switch them on. The request shaping of think and rewind is in
// conversation-shaping.test.ts; artifacts in artifacts.test.ts.

import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import type { HistoryItem } from "../../core/history.js";
import { activateTools } from "../../core/profiles/activate.js";
import { checkProfile, loadProfile } from "../../core/profiles/load.js";
import { checkpointTool } from "../../tools/yuj/checkpoint.js";
import { chordDoneSchema, chordDoneTool } from "../../tools/chord/done.js";
import { questionSchema, questionTool } from "../../tools/chord/question.js";
import { todoWriteSchema, todoWriteTool } from "../../tools/chord/todo_write.js";
import { builtinHandlers } from "../../tools/registry.js";
import { rewindTool } from "../../tools/yuj/rewind.js";
import { THINK_RESULT, thinkSchema, thinkTool } from "../../tools/yuj/think.js";
import { writeTodosSchema, writeTodosTool } from "../../tools/yuj/write_todos.js";
import { repoRoot } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  // write_todos answers only with its setting on, as the session offers it.
  t = await makeToolContext((c) => (c.tools.todos_enabled = true));
});
afterEach(() => t.cleanup());

describe("write_todos (Yuj)", () => {
  it("replaces the list, shows it back and emits todo_updated", async () => {
    const todos = [
      { description: "Reproduce the bug", status: "completed" as const },
      { description: "Fix greet()", status: "in_progress" as const },
      { description: "Run the tests", status: "pending" as const },
      { description: "Ask about i18n", status: "blocked" as const },
    ];
    const r = await writeTodosTool.run({ todos }, t.ctx);
    expect(r).toMatchObject({
      ok: true,
      modelText:
        "OK: replaced todo list with 4 items\n" +
        "[x] Reproduce the bug\n[>] Fix greet()\n[ ] Run the tests\n[!] Ask about i18n",
    });
    expect(t.events).toEqual([{ type: "todo_updated", todos }]);
  });

  it("clears the list with an empty one", async () => {
    expect((await writeTodosTool.run({ todos: [] }, t.ctx)).modelText).toBe("OK: replaced todo list with 0 items");
    expect(t.events).toEqual([{ type: "todo_updated", todos: [] }]);
  });

  it("allows one in_progress item at most, and changes nothing when refused", async () => {
    const r = await writeTodosTool.run(
      { todos: [{ description: "a", status: "in_progress" }, { description: "b", status: "pending" }, { description: "c", status: "in_progress" }] },
      t.ctx,
    );
    expect(r).toMatchObject({ ok: false, modelText: "ERROR: write_todos validation failed: at most one in_progress item is allowed; items 1, 3 are in_progress" });
    expect(t.events).toEqual([]);
  });

  it("keeps to todos_max_items", async () => {
    t.ctx.config.tools.todos_max_items = 2;
    const three = ["a", "b", "c"].map((description) => ({ description, status: "pending" as const }));
    expect(await writeTodosTool.run({ todos: three }, t.ctx)).toMatchObject({
      ok: false,
      modelText: "ERROR: write_todos validation failed: the list has 3 items and tools.todos_max_items is 2; merge or drop items",
    });
    expect((await writeTodosTool.run({ todos: three.slice(0, 2) }, t.ctx)).ok).toBe(true);
  });

  it("takes exactly description and status, with the five statuses", () => {
    const parse = (todos: unknown) => writeTodosSchema.safeParse({ todos }).success;
    for (const status of ["pending", "in_progress", "completed", "cancelled", "blocked"]) expect(parse([{ description: "x", status }])).toBe(true);
    expect(parse([{ description: "x", status: "done" }])).toBe(false);
    expect(parse([{ description: " ", status: "pending" }])).toBe(false);
    expect(parse([{ content: "x", status: "pending" }])).toBe(false);
  });
});

describe("todo_write (Chord)", () => {
  it("maps {id, content, status, active_form} to the shared todo event", async () => {
    const r = await todoWriteTool.run(
      { todos: [{ id: "1", content: "Write the parser", status: "in_progress", active_form: "Writing the parser" }, { id: "2", content: "Test it", status: "pending" }] },
      t.ctx,
    );
    expect(r.modelText).toBe("- [ ] **1. Write the parser**\n  - active: Writing the parser\n- [ ] 2. Test it\n");
    expect(t.events).toEqual([
      {
        type: "todo_updated",
        todos: [
          { id: "1", description: "Write the parser", status: "in_progress", activeForm: "Writing the parser" },
          { id: "2", description: "Test it", status: "pending" },
        ],
      },
    ]);
  });

  it("allows several in_progress items only with unique active_forms", async () => {
    const two = (a?: string, b?: string) => ({
      todos: [
        { id: "a", content: "A", status: "in_progress" as const, ...(a ? { active_form: a } : {}) },
        { id: "b", content: "B", status: "in_progress" as const, ...(b ? { active_form: b } : {}) },
      ],
    });
    expect(await todoWriteTool.run(two(), t.ctx)).toMatchObject({ ok: false, modelText: "todos[0]: active_form is required when multiple in_progress items are used" });
    expect(await todoWriteTool.run(two("Doing A", "Doing A"), t.ctx)).toMatchObject({
      ok: false,
      modelText: 'todos[1]: active_form "Doing A" duplicates in_progress todo "a"; use distinct active_form values for distinct workstreams',
    });
    expect((await todoWriteTool.run(two("Doing A", "Doing B"), t.ctx)).ok).toBe(true);
  });

  it("refuses duplicate ids and Yuj's blocked status", async () => {
    expect(
      await todoWriteTool.run({ todos: [{ id: "1", content: "A", status: "pending" }, { id: "1", content: "B", status: "pending" }] }, t.ctx),
    ).toMatchObject({ ok: false, modelText: 'todos[1]: duplicate id "1"' });
    expect(todoWriteSchema.safeParse({ todos: [{ id: "1", content: "A", status: "blocked" }] }).success).toBe(false);
    expect(todoWriteSchema.safeParse({ todos: [{ content: "A", status: "pending" }] }).success).toBe(false);
  });
});

describe("think", () => {
  it("returns the empty success envelope and shows the thought", async () => {
    expect(THINK_RESULT).toBe('<tool_result tool_name="think" status="ok" v="1"></tool_result>');
    expect(await thinkTool.run({ thought: "check the edge case first" }, t.ctx)).toMatchObject({
      ok: true,
      modelText: THINK_RESULT,
      display: { kind: "text", text: "check the edge case first" },
    });
    expect(t.events).toEqual([]);
    expect(thinkSchema.safeParse({ thought: "" }).success).toBe(false);
  });
});

describe("checkpoint and rewind handlers", () => {
  const call = (id: string, name: string, args: object) => ({ id, name, args: JSON.stringify(args) });
  const roles = { think: new Set<string>(), checkpoint: new Set(["checkpoint"]), rewind: new Set(["rewind"]), todos: new Set(["write_todos", "todo_write"]) };

  it("sets a checkpoint and says how it works", async () => {
    const r = await checkpointTool.run({ goal: "find the config loader" }, t.ctx);
    expect(r.modelText).toBe(
      'Checkpoint set: "find the config loader". It becomes active once every result of this turn is in. ' +
        "When the exploration is done, call rewind(report) with a short findings report: your context returns here and keeps the report. Files are never restored.",
    );
  });

  it("refuses a rewind with no checkpoint", async () => {
    const history: HistoryItem[] = [{ role: "user", text: "task" }, { role: "assistant", text: "", toolCalls: [call("r1", "rewind", { report: "x" })] }];
    expect(await rewindTool.run({ report: "x" }, { ...t.ctx, callId: "r1", conversation: { history, roles } })).toMatchObject({
      ok: false,
      modelText: "ERROR: no_active_checkpoint: rewind requires an active checkpoint; call checkpoint(goal) before an exploration and rewind(report) in a later turn",
    });
  });

  it("refuses a rewind in the checkpoint's own turn, even when the checkpoint's result is already in", async () => {
    const history: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "", toolCalls: [call("c1", "checkpoint", { goal: "g" }), call("r1", "rewind", { report: "x" })] },
      { role: "tool", callId: "c1", name: "checkpoint", text: "Checkpoint set", isError: false },
    ];
    expect((await rewindTool.run({ report: "x" }, { ...t.ctx, callId: "r1", conversation: { history, roles } })).modelText).toBe(
      "ERROR: rewind: the checkpoint of this turn is not active yet; it becomes active once every result of its turn is in, so call rewind in a later turn",
    );
  });

  it("rewinds to the active checkpoint and puts the todo list back as it was there", async () => {
    const history: HistoryItem[] = [
      { role: "user", text: "task" },
      { role: "assistant", text: "", toolCalls: [call("w0", "write_todos", { todos: [{ description: "plan", status: "pending" }] })] },
      { role: "tool", callId: "w0", name: "write_todos", text: "ok", isError: false },
      { role: "assistant", text: "", toolCalls: [call("c1", "checkpoint", { goal: "find it" })] },
      { role: "tool", callId: "c1", name: "checkpoint", text: "Checkpoint set", isError: false },
      { role: "assistant", text: "", toolCalls: [call("w1", "write_todos", { todos: [{ description: "explore", status: "in_progress" }] })] },
      { role: "tool", callId: "w1", name: "write_todos", text: "ok", isError: false },
      { role: "assistant", text: "", toolCalls: [call("r1", "rewind", { report: "found it" })] },
    ];
    const r = await rewindTool.run({ report: "found it" }, { ...t.ctx, callId: "r1", conversation: { history, roles } });
    expect(r).toMatchObject({
      ok: true,
      modelText:
        'Rewound to the checkpoint "find it": from the next request on, the exploration after it is no longer in your context and your report is what you keep. ' +
        "Files were not restored: changes made since the checkpoint remain on disk.",
    });
    expect(t.events).toEqual([{ type: "todo_updated", todos: [{ description: "plan", status: "pending" }] }]);
  });
});

describe("question (Chord)", () => {
  const q1 = { question: "Which database should the migration target?", header: "Database", options: [{ label: "PostgreSQL", description: "the production DB" }, { label: "SQLite", description: "tests only" }] };
  const q2 = { question: "Anything else?", header: "Notes" };

  it("asks each question through ctx.ask and returns the answers as JSON", async () => {
    const asked: unknown[] = [];
    const ctx = { ...t.ctx, ask: async (q: { question: string }) => (asked.push(q), q.question.startsWith("Which") ? "PostgreSQL" : "no") };
    const r = await questionTool.run({ questions: [q1, q2] }, ctx);
    expect(asked).toEqual([
      { callId: t.ctx.callId, question: q1.question, header: "Database", options: q1.options },
      { callId: t.ctx.callId, question: q2.question, header: "Notes" },
    ]);
    expect(r).toMatchObject({
      ok: true,
      modelText: JSON.stringify({ answers: [{ header: "Database", question: q1.question, answer: "PostgreSQL" }, { header: "Notes", question: q2.question, answer: "no" }] }),
    });
  });

  it("tolerates a single question object and passes multiple on", async () => {
    const asked: Array<{ multiple?: boolean }> = [];
    const ctx = { ...t.ctx, ask: async (q: { multiple?: boolean }) => (asked.push(q), "PostgreSQL, SQLite") };
    const parsed = questionSchema.parse({ questions: { ...q1, multiple: true } });
    const r = await questionTool.run(parsed, ctx);
    expect(asked[0]!.multiple).toBe(true);
    expect(JSON.parse(r.modelText)).toEqual({ answers: [{ header: "Database", question: q1.question, answer: "PostgreSQL, SQLite" }] });
  });

  it("validates headers, options and the list", () => {
    const ok = (questions: unknown) => questionSchema.safeParse({ questions }).success;
    expect(ok([{ ...q2, header: "x".repeat(30) }])).toBe(true);
    // 30 characters is guidance, as Chord has it; the size bound is checked when the call runs.
    expect(ok([{ ...q2, header: "x".repeat(31) }])).toBe(true);
    expect(ok([{ question: "Why?" }])).toBe(false);
    // A label alone is a choice; a description without a label is not.
    expect(ok([{ ...q2, options: [{ label: "A" }] }])).toBe(true);
    expect(ok([{ ...q2, options: [{ description: "A" }] }])).toBe(false);
    expect(ok([])).toBe(false);
  });

  it("says so when the user cancels, and when nobody can answer", async () => {
    const cancelled = await questionTool.run({ questions: [q2] }, { ...t.ctx, ask: () => Promise.reject(new Error("esc")) });
    expect(cancelled).toMatchObject({ ok: false, modelText: "question cancelled by the user: dismissed without an answer" });
    expect(await questionTool.run({ questions: [q2] }, t.ctx)).toMatchObject({
      ok: false,
      modelText: "question: nobody can answer in this session (no interactive user); decide from what the repository shows, and name the open question in your final answer",
    });
    expect((await questionTool.run({ questions: { ...q2, multiple: true } }, t.ctx)).modelText).toBe("questions[0]: multiple needs options to choose from");
  });

  it("pauses a headless session that can wait, with the questions as one text", async () => {
    const r = await questionTool.run({ questions: [q1, q2] }, { ...t.ctx, pauseForAnswer: true });
    expect(r).toMatchObject({
      ok: true,
      modelText: "",
      question:
        "[Database] Which database should the migration target?\nChoose one:\n- PostgreSQL: the production DB\n- SQLite: tests only\n\n[Notes] Anything else?",
    });
  });
});

describe("done", () => {
  it("Yuj's done keeps its optional message", async () => {
    const done = builtinHandlers().get("done")!;
    expect(done.schema.safeParse({}).success).toBe(true);
    expect(done.schema.safeParse({ message: 1 }).success).toBe(false);
  });

  it("Chord's loop done requires a report and finishes with it", async () => {
    const r = await chordDoneTool.run({ report: "  ## Done\nAll green.  " }, t.ctx);
    expect(r).toMatchObject({ ok: true, modelText: "Done requested: report received (18 chars)", finish: { message: "## Done\nAll green." } });
    expect(await chordDoneTool.run({ report: "   " }, t.ctx)).toMatchObject({ ok: false, modelText: "missing required argument: report" });
    expect(chordDoneSchema.safeParse({}).success).toBe(false);
    expect(chordDoneSchema.safeParse({ report: "" }).success).toBe(false);
  });
});

describe("profiles", () => {
  const registry = builtinHandlers();
  const profiles = join(repoRoot, "profiles");
  const base = loadProfile(profiles, "_base");
  const chord = loadProfile(profiles, "chord");
  checkProfile(base, registry, "minimal");
  checkProfile(chord, registry, "minimal");
  const names = (profile = base, config: Config = defaultConfig(), opts = {}) =>
    activateTools(profile, registry, config, { topLevel: true, ...opts }).specs.map((s) => s.name);

  it("keeps the Yuj conversation tools off by default and switches each on by its setting", () => {
    const off = names();
    for (const n of ["write_todos", "think", "checkpoint", "rewind"]) expect(off).not.toContain(n);
    const roomy = { ...base, maxTools: 100 };
    const on = (set: (c: Config) => void) => {
      const c = defaultConfig();
      set(c);
      return names(roomy, c);
    };
    expect(on((c) => (c.tools.todos_enabled = true))).toContain("write_todos");
    expect(on((c) => (c.tools.think_enabled = true))).toContain("think");
    const pair = on((c) => (c.tools.checkpoint_enabled = true));
    expect(pair).toContain("checkpoint");
    expect(pair).toContain("rewind");
  });

  it("shows checkpoint and rewind, once enabled, under the shipped max_tools", () => {
    const c = defaultConfig();
    c.tools.checkpoint_enabled = true;
    c.tools.think_enabled = true;
    const shipped = names(base, c);
    expect(shipped).toContain("checkpoint");
    expect(shipped).toContain("rewind");
  });

  it("keeps a pair together under max_tools: both or neither", () => {
    const c = defaultConfig();
    c.tools.checkpoint_enabled = true;
    c.tools.think_enabled = true;
    const all = names({ ...base, maxTools: 100 }, c);
    // done and ask_user ride outside the cap.
    const others = all.filter((n) => !["checkpoint", "rewind", "think", "ask_user", "done"].includes(n)).length;
    const oneSlot = names({ ...base, maxTools: others + 1 }, c);
    expect(oneSlot).not.toContain("checkpoint");
    expect(oneSlot).not.toContain("rewind");
    // The room the pair could not use goes to the next tool.
    expect(oneSlot).toContain("think");
    const twoSlots = names({ ...base, maxTools: others + 2 }, c);
    expect(twoSlots).toContain("checkpoint");
    expect(twoSlots).toContain("rewind");
  });

  it("mounts Chord's todo_write, question and artifacts, and done only while a loop runs", () => {
    const chordNames = names(chord);
    for (const n of ["todo_write", "question", "save_artifact", "read_artifact"]) expect(chordNames).toContain(n);
    expect(chordNames).not.toContain("done");
    expect(names(chord, defaultConfig(), { loopRunning: true })).toContain("done");
    expect(names(chord, defaultConfig(), { topLevel: false })).not.toContain("question");
    const done = activateTools(chord, registry, defaultConfig(), { topLevel: true, loopRunning: true }).tools.get("done")!;
    expect(done.spec.parameters).toMatchObject({ required: ["report"], properties: { report: { type: "string", minLength: 1 } } });
  });
});
