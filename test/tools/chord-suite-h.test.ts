// Chord's workflow tools as Chord's own tests pin what a model sees (eighth
// set): question takes label-only options and treats the header's 30
// characters as guidance, a single question object runs as a list of one;
// done refuses a missing or blank report and counts the trimmed report;
// escalate needs a known kind and a reason; read_artifact pages by 1-based
// line with the whole artifact's digest, refuses a changed snapshot and any
// symbolic link on the way, and keeps an oversized first line's prefix;
// save_artifact's result mode is canonical, idempotent, typed and exclusive
// of the file shape.

import { createHash } from "node:crypto";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMainRoles } from "../../core/orchestration/main-roles.js";
import { chordDoneSchema, chordDoneTool } from "../../tools/chord/done.js";
import { escalateSchema } from "../../tools/chord/escalate.js";
import { READ_BUDGET_BYTES } from "../../tools/chord/read.js";
import type { QuestionRequest } from "../../core/tool-types.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("chord question: what a model may send", () => {
  const asked: QuestionRequest[] = [];
  const ask = async (q: QuestionRequest) => {
    asked.push(q);
    return q.options?.[0]?.label ?? "ok";
  };
  beforeEach(() => {
    asked.length = 0;
  });

  it("options with a label alone are complete choices", async () => {
    const r = await chordCall(t, "question", { questions: [{ question: "Which strategy should be used?", header: "Strategy", options: [{ label: "Additive" }, { label: "Replace" }] }] }, { ask });
    expect(r.ok).toBe(true);
    expect(r.text).toBe('{"answers":[{"header":"Strategy","question":"Which strategy should be used?","answer":"Additive"}]}');
    expect(asked[0]!.options).toEqual([{ label: "Additive" }, { label: "Replace" }]);
  });

  it("the label stays required and a description must still be text", async () => {
    const missing = await chordCall(t, "question", { questions: [{ question: "q", header: "h", options: [{ description: "d" }] }] }, { ask });
    expect(missing.text).toBe("ERROR: bad arguments for question: questions[0].options[0].label is required (string)");
    const wrongType = await chordCall(t, "question", { questions: [{ question: "q", header: "h", options: [{ label: "a", description: 7 }] }] }, { ask });
    expect(wrongType.ok).toBe(false);
    expect(wrongType.text).toContain("questions[0].options[0].description");
    expect(asked).toEqual([]);
  });

  it("a header and labels longer than the guidance are still asked", async () => {
    const header = "Choose how to organize the generated report";
    const r = await chordCall(t, "question", { questions: [{ question: "Which option should be selected?", header, options: [{ label: "Keep all related items in one report", description: "Group the related items together." }] }] }, { ask });
    expect(r.ok).toBe(true);
    expect(asked[0]!.header).toBe(header);
    expect(JSON.parse(r.text)).toEqual({ answers: [{ header, question: "Which option should be selected?", answer: "Keep all related items in one report" }] });
  });

  it("a header no dialog can show is refused as too large, nothing asked", async () => {
    const r = await chordCall(t, "question", { questions: [{ question: "q?", header: "h".repeat(257) }] }, { ask });
    expect(r.ok).toBe(false);
    expect(r.text).toBe("questions[0]: size limit exceeded: the header is 257 bytes, at most 256 (aim for 30 characters or fewer)");
    expect(asked).toEqual([]);
  });

  it("a single question object is asked as a list of one and answered as a list", async () => {
    const r = await chordCall(t, "question", { questions: { header: "h", question: "q?" } }, { ask });
    expect(r.ok).toBe(true);
    expect(asked.map((q) => q.header)).toEqual(["h"]);
    expect(JSON.parse(r.text).answers).toEqual([{ header: "h", question: "q?", answer: "ok" }]);
  });

  it("more than three questions are refused", async () => {
    const q = { question: "q?", header: "h" };
    const r = await chordCall(t, "question", { questions: [q, q, q, q] }, { ask });
    expect(r.text).toBe("questions must contain 1 to 3 items (got 4); ask the most important ones first");
    expect(asked).toEqual([]);
  });
});

describe("chord todo_write: refusals in Chord's words, nothing stored on a refusal", () => {
  const todo = (id: string, content: string, status: string, active_form?: string) => ({ id, content, status, ...(active_form ? { active_form } : {}) });
  const stored = () => t.events.filter((e) => e.type === "todo_updated");

  it("an empty list and a missing list are refused", async () => {
    expect(await chordCall(t, "todo_write", { todos: [] })).toMatchObject({
      ok: false,
      text: "todo_write: todos must contain at least one item; an empty list is invalid. Provide id, content, and status for each task, or omit todo_write when no task list is needed",
    });
    expect(await chordCall(t, "todo_write", {})).toMatchObject({ ok: false, text: "ERROR: bad arguments for todo_write: todos is required (array)" });
    expect(stored()).toEqual([]);
  });

  it("an item without an id or content is named by its place", async () => {
    expect(await chordCall(t, "todo_write", { todos: [todo("1", "A", "pending"), todo("", "B", "pending")] })).toMatchObject({ ok: false, text: "todos[1]: id is required" });
    expect(await chordCall(t, "todo_write", { todos: [todo("1", "  ", "pending")] })).toMatchObject({ ok: false, text: "todos[0]: content is required" });
    expect(stored()).toEqual([]);
  });

  it("a minimal list is stored and listed by number", async () => {
    const r = await chordCall(t, "todo_write", { todos: [todo("1", "A", "pending")] });
    expect(r.text).toBe("- [ ] 1. A\n");
    expect(stored()).toHaveLength(1);
  });

  it("the list comes back as Chord's Markdown checklist: done [x], cancelled [-], in_progress in bold with its active_form", async () => {
    const r = await chordCall(t, "todo_write", {
      todos: [todo("1", "Read the code", "completed"), todo("2", "Write the parser", "in_progress", "writing the parser"), todo("3", "Old idea", "cancelled"), todo("adhoc-1", "Test it", "pending")],
    });
    expect(r.text).toBe("- [x] 1. Read the code\n- [ ] **2. Write the parser**\n  - active: writing the parser\n- [-] 3. Old idea\n- [ ] adhoc-1. Test it\n");
  });

  it("a field old calls still send (priority) is ignored", async () => {
    const r = await chordCall(t, "todo_write", { todos: [{ ...todo("1", "A", "pending"), priority: "high" }] });
    expect(r.ok).toBe(true);
    expect(stored()).toHaveLength(1);
  });

  it("a repeated id names the item that repeats it", async () => {
    const r = await chordCall(t, "todo_write", { todos: [todo("1", "A", "pending"), todo("1", "B", "pending")] });
    expect(r).toMatchObject({ ok: false, text: 'todos[1]: duplicate id "1"' });
    expect(stored()).toEqual([]);
  });

  it("several in_progress items need an active_form each, all different", async () => {
    const none = await chordCall(t, "todo_write", { todos: [todo("1", "A", "in_progress"), todo("2", "B", "in_progress")] });
    expect(none).toMatchObject({ ok: false, text: "todos[0]: active_form is required when multiple in_progress items are used" });
    const same = await chordCall(t, "todo_write", { todos: [todo("1", "A", "in_progress", "editing"), todo("2", "B", "in_progress", "editing")] });
    expect(same).toMatchObject({
      ok: false,
      text: 'todos[1]: active_form "editing" duplicates in_progress todo "1"; use distinct active_form values for distinct workstreams',
    });
    expect(stored()).toEqual([]);
    expect((await chordCall(t, "todo_write", { todos: [todo("1", "A", "in_progress", "editing a"), todo("2", "B", "in_progress", "editing b")] })).ok).toBe(true);
  });

  it("a status outside the four is refused, naming them", async () => {
    const r = await chordCall(t, "todo_write", { todos: [todo("1", "A", "done")] });
    expect(r.ok).toBe(false);
    expect(r.text).toContain('"pending", "in_progress", "completed", "cancelled"');
    expect(stored()).toEqual([]);
  });
});

describe("chord done: the report", () => {
  it("null, an empty object and no report at all are refused by the schema", () => {
    for (const args of [null, {}, { report: "" }]) expect(chordDoneSchema.safeParse(args).success).toBe(false);
  });

  it("a blank report is refused with nothing finished", async () => {
    const r = await chordDoneTool.run({ report: "   " }, t.ctx);
    expect(r).toMatchObject({ ok: false, modelText: "missing required argument: report" });
    expect(r.finish).toBeUndefined();
  });

  it("a report is counted and handed on trimmed", async () => {
    const r = await chordDoneTool.run({ report: "## Completion status\nDone\n\n## Verification\n- tested" }, t.ctx);
    expect(r.modelText).toBe("Done requested: report received (51 chars)");
    const padded = await chordDoneTool.run({ report: "  final report  " }, t.ctx);
    expect(padded.finish).toEqual({ message: "final report" });
  });
});

describe("chord escalate: kind and reason", () => {
  it("a missing or unknown kind and a missing or blank reason are refused", () => {
    for (const args of [{ reason: "need help" }, { kind: "maybe", reason: "need help" }, { kind: "needs_repair" }, { kind: "blocked", reason: "   " }]) {
      expect(escalateSchema.safeParse(args).success).toBe(false);
    }
  });

  it("both kinds with a reason are accepted", () => {
    for (const kind of ["needs_repair", "blocked"]) expect(escalateSchema.safeParse({ kind, reason: "need a decision" }).success).toBe(true);
  });
});

describe("chord read_artifact: pages, digests and links", () => {
  const put = async (rel: string, text: string) => {
    const abs = join(t.ctx.sessionDir, rel);
    await fsp.mkdir(join(abs, ".."), { recursive: true });
    await fsp.writeFile(abs, text);
    return abs;
  };

  it("offset is the 1-based first line; the header gives the range, the total and the whole artifact's digest", async () => {
    const content = "one\ntwo\nthree\nfour\n";
    await put("artifacts/reports/report.txt", content);
    const r = await chordCall(t, "read_artifact", { path: "artifacts/reports/report.txt", offset: 2, limit: 2, expected_sha256: sha(content) });
    expect(r.ok).toBe(true);
    expect(r.text).toBe(`ARTIFACT_RESULT lines=2-3 total=4 sha256=${sha(content)}\ntwo\nthree\n`);
  });

  it("a ref made before an overwrite is refused as a digest mismatch", async () => {
    const old = JSON.parse((await chordCall(t, "save_artifact", { filename: "report.md", content: "old", mode: "create" })).text);
    expect(old.sha256).toBe(sha("old\n"));
    expect((await chordCall(t, "save_artifact", { filename: "report.md", content: "new", mode: "overwrite" })).ok).toBe(true);
    const r = await chordCall(t, "read_artifact", { path: old.rel_path, expected_sha256: old.sha256 });
    expect(r.ok).toBe(false);
    expect(r.text).toBe(`artifact digest mismatch: expected ${sha("old\n")}, got ${sha("new\n")}`);
  });

  it("a huge single line comes back bounded, marked truncated=budget", async () => {
    await put("artifacts/huge.txt", "x".repeat(READ_BUDGET_BYTES * 4));
    const r = await chordCall(t, "read_artifact", { path: "artifacts/huge.txt" });
    expect(r.ok).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(READ_BUDGET_BYTES + 256);
    expect(r.text.split("\n")[0]).toContain("lines=1-1 total=1");
    expect(r.text.split("\n")[0]).toContain("truncated=budget");
  });

  it("an oversized first line shows only its prefix, never the next line; the next page starts at line 2", async () => {
    const first = "x".repeat(READ_BUDGET_BYTES * 2);
    await put("artifacts/oversized-first-line.txt", `${first}\nsecond\n`);
    const r = await chordCall(t, "read_artifact", { path: "artifacts/oversized-first-line.txt" });
    const [header, body] = [r.text.slice(0, r.text.indexOf("\n")), r.text.slice(r.text.indexOf("\n") + 1)];
    expect(header).toContain("lines=1-1 total=2");
    expect(header).toContain("truncated=budget");
    expect(body).not.toContain("second");
    expect(body.length).toBeGreaterThan(0);
    expect(first.startsWith(body.replace(/\n$/, ""))).toBe(true);
    const page = await chordCall(t, "read_artifact", { path: "artifacts/oversized-first-line.txt", offset: 2, limit: 1 });
    expect(page.text).toBe(`ARTIFACT_RESULT lines=2-2 total=2 sha256=${sha(`${first}\nsecond\n`)}\nsecond\n`);
  });

  it("an artifact that is a symbolic link out of the session is refused", async () => {
    const outside = join(t.cwd, "secret.txt");
    await fsp.writeFile(outside, "secret");
    await fsp.mkdir(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.symlink(outside, join(t.ctx.sessionDir, "artifacts", "link.txt"));
    const r = await chordCall(t, "read_artifact", { path: "artifacts/link.txt" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("symbolic link");
    expect(r.text).not.toContain("secret\n");
  });

  it("an artifacts folder that is itself a symbolic link is refused", async () => {
    await fsp.mkdir(join(t.cwd, "elsewhere"));
    await fsp.writeFile(join(t.cwd, "elsewhere", "secret.txt"), "secret");
    await fsp.symlink(join(t.cwd, "elsewhere"), join(t.ctx.sessionDir, "artifacts"));
    const r = await chordCall(t, "read_artifact", { path: "artifacts/secret.txt" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("must not be a symbolic link");
  });
});

describe("chord save_artifact: filenames and modes", () => {
  it("keeps only the filename's last component, so a way out is just a name", async () => {
    const r = await chordCall(t, "save_artifact", { filename: "../../escape.md", content: "x" });
    expect(JSON.parse(r.text)).toMatchObject({ id: "escape", rel_path: "artifacts/escape.md", path: "artifacts/escape.md", type: "handoff_note", mime_type: "text/markdown", size_bytes: 2 });
    expect(await fsp.readFile(join(t.ctx.sessionDir, "artifacts", "escape.md"), "utf8")).toBe("x\n");
    expect(await chordCall(t, "save_artifact", { filename: "notes/..", content: "x" })).toMatchObject({ ok: false, text: "filename is required" });
  });

  it("create refuses an existing artifact; append adds a block after a blank line", async () => {
    await chordCall(t, "save_artifact", { filename: "log.md", content: "one" });
    expect(await chordCall(t, "save_artifact", { filename: "log.md", content: "two" })).toMatchObject({ ok: false, text: "artifact already exists; use mode=append or mode=overwrite to update it" });
    await chordCall(t, "save_artifact", { filename: "log.md", content: "two", mode: "append" });
    expect(await fsp.readFile(join(t.ctx.sessionDir, "artifacts", "log.md"), "utf8")).toBe("one\n\ntwo\n");
  });
});

describe("chord save_artifact: immutable results", () => {
  it("stores the canonical object once and returns the same ref for the same type and content", async () => {
    const args = { result_type: "application/vnd.test+json", result: { b: 2, a: 1 } };
    const first = await chordCall(t, "save_artifact", args);
    expect(first.ok).toBe(true);
    const ref = JSON.parse(first.text);
    expect(ref.id).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(ref.result_type).toBe("application/vnd.test+json");
    expect(ref.rel_path).toBe(`artifacts/results/${ref.id}.json`);
    expect(ref.sha256).toBe(sha('{"a":1,"b":2}\n'));
    expect(ref.size_bytes).toBe(14);
    expect(await fsp.readFile(join(t.ctx.sessionDir, ref.rel_path), "utf8")).toBe('{"a":1,"b":2}\n');
    expect((await chordCall(t, "save_artifact", args)).text).toBe(first.text);
  });

  it("the same payload under two result types is two results", async () => {
    const a = await chordCall(t, "save_artifact", { result_type: "type/a", result: { value: 1 } });
    const b = await chordCall(t, "save_artifact", { result_type: "type/b", result: { value: 1 } });
    expect(JSON.parse(a.text).id).not.toBe(JSON.parse(b.text).id);
  });

  it("a result that is not an object, half a pair, or mixed with the file shape is refused by name", async () => {
    const cases: [unknown, string][] = [
      [{ result_type: "test", result: [1, 2] }, "result must be a JSON object, not an array"],
      [{ result_type: "test", result: "text" }, "result must be a JSON object, not a string"],
      [{ result_type: "test", result: null }, "result must be a JSON object, not null"],
      [{ result_type: "type/test" }, "result is required when result_type is provided"],
      [{ result: { value: 1 } }, "result_type is required when result is provided"],
      [{ result_type: "type/test", result: { value: 1 }, filename: "report.md", content: "body" }, "result_type/result cannot be combined with filename, content, or mode"],
      [{ result_type: "type/test", result: { value: 1 }, mode: "overwrite" }, "result_type/result cannot be combined with filename, content, or mode"],
    ];
    for (const [args, text] of cases) expect(await chordCall(t, "save_artifact", args)).toMatchObject({ ok: false, text });
    await expect(fsp.readdir(join(t.ctx.sessionDir, "artifacts", "results"))).rejects.toThrow();
  });
});

describe("chord handoff: the plan file must be there", () => {
  const planner = () => {
    const none = join(t.cwd, "no-agents");
    return createMainRoles({ agentDirs: { project: none, user: none, builtin: none }, cwd: t.cwd, initial: "planner", save: () => {}, emit: t.ctx.emit });
  };

  it("a missing plan is not found, and the planner is told to write it first; the role stays", async () => {
    const roles = planner();
    const r = roles.handoff(".chord/plans/plan-001.md", t.cwd);
    expect(r).toMatchObject({ ok: false, modelText: "handoff refused: plan file .chord/plans/plan-001.md not found; write the plan before calling handoff (e.g. plans/plan-001.md)" });
    expect(roles.current()).toBe("planner");
  });

  it("a directory is refused as not a file", async () => {
    await fsp.mkdir(join(t.cwd, "plans", "draft"), { recursive: true });
    const roles = planner();
    expect(roles.handoff("plans/draft", t.cwd)).toMatchObject({ ok: false, modelText: "handoff refused: plan_path plans/draft is a directory; expected a file" });
    expect(roles.current()).toBe("planner");
  });

  it("an existing plan hands over to the builder with the plan's text", async () => {
    await t.put({ "plans/plan-001.md": "# Plan\n1. build\n" });
    const roles = planner();
    const r = roles.handoff("plans/plan-001.md", t.cwd);
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("Carry out this plan now:\n\n# Plan\n1. build\n");
    expect(roles.current()).toBe("builder");
  });
});
