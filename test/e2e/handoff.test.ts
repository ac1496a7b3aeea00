// handoff(plan_path) through the built `yuj` on the Chord surface, driven as
// a script drives it (--input jsonl): the operator switches the main role to
// planner, the planner writes its plan (and is refused any other change),
// hands it off, and the builder carries it out in the same run. The role is
// kept in the session's state; YOLO never waves handoff through.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { delegationProject, mainHistory, rowsOf, sessionDirOf } from "../support/delegation.js";
import { startJsonlSession, type Event } from "../support/jsonl-session.js";

const ALLOW_HANDOFF = '[[permissions.rules]]\ntool = "handoff"\naction = "allow"\n';
const PLAN = "# Plan\n\n1. Write src/x.txt with the word built.\n2. Check it with cat.\n";

const write = (path: string, content: string) => ({ tool_calls: [{ name: "write", arguments: { path, content } }] });
const handoff = (plan_path: string) => ({ tool_calls: [{ name: "handoff", arguments: { plan_path } }] });
const is = (type: string, fields: Record<string, unknown> = {}) => (e: Event) => e.type === type && Object.entries(fields).every(([k, v]) => e[k] === v);
const stateOf = (env: Record<string, string>) => JSON.parse(readFileSync(join(sessionDirOf(env), "state.json"), "utf8"));

describe("handoff: the planner's plan goes to the builder", () => {
  it("switches to planner on the operator's word, refuses the planner's change outside plans/, hands the plan over, and the builder carries it out", async () => {
    const cwd = delegationProject(
      {
        turns: [
          { text: "hello" },
          write("src/x.txt", "too early\n"),
          handoff("plans/missing.md"),
          write("plans/plan-001.md", PLAN),
          handoff("plans/plan-001.md"),
          write("src/x.txt", "built\n"),
          { text: "carried out" },
        ],
      },
      { rules: ALLOW_HANDOFF },
    );
    const env = isolatedEnv();
    const s = startJsonlSession(["code", "hi", "--config", "chord.toml", "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    const first = await s.waitFor(is("run_finished"), "the first run");
    s.send({ type: "set_main_role", role: "nobody" });
    await s.waitFor((e) => e.type === "error" && /no main role "nobody"; the roles are builder, planner/.test(e.message), "the refusal of an unknown role");
    s.send({ type: "set_main_role" });
    await s.waitFor(is("main_role_changed", { role: "planner", by: "operator" }), "the switch to planner");
    expect(stateOf(env).mainRole).toBe("planner");
    s.send({ type: "user_message", text: "plan x" });
    await s.waitFor(is("run_finished"), "the planner's run", s.events.indexOf(first) + 1);
    s.end();
    const res = await s.done;
    expect(res.code, res.stderr).toBe(0);
    expect(res.schemaProblems).toEqual([]);

    const results = s.events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.ok, e.modelText]);
    expect(results[0]).toEqual(["write", false, expect.stringContaining("the planner role changes only plan files under plans/; write would change src/x.txt")]);
    expect(results[1]).toEqual(["handoff", false, expect.stringContaining("plan file plans/missing.md not found; write the plan before calling handoff")]);
    expect(results[2]).toEqual(["write", true, expect.any(String)]);
    expect(results[3]).toEqual(["handoff", true, expect.stringContaining(`the main role is now builder`)]);
    expect(results[3]![2]).toContain(PLAN);
    expect(results[4]).toEqual(["write", true, expect.any(String)]);
    expect(readFileSync(join(cwd, "src/x.txt"), "utf8")).toBe("built\n");
    expect(s.events.filter((e) => e.type === "main_role_changed").map((e) => [e.role, e.by, e.planPath])).toEqual([
      ["planner", "operator", undefined],
      ["builder", "plan", "plans/plan-001.md"],
    ]);
    // The planner's first request carried the switch; the builder is the default again, so the state holds no role.
    const history = mainHistory(sessionDirOf(env));
    const note = history.findIndex((h) => h.role === "user" && h.text?.includes("The operator switched the main role to planner"));
    expect(note).toBeGreaterThan(history.findIndex((h) => h.role === "user" && h.text === "plan x"));
    expect(stateOf(env).mainRole).toBeUndefined();
  }, 90_000);

  it("keeps the role for a resume: the planner that a session was left in still may not change files", async () => {
    const cwd = delegationProject({ turns: [{ text: "hello" }, write("a.txt", "no\n"), { text: "ok" }] }, { rules: ALLOW_HANDOFF });
    const env = isolatedEnv();
    const s = startJsonlSession(["code", "hi", "--config", "chord.toml", "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    await s.waitFor(is("run_finished"), "the first run");
    s.send({ type: "set_main_role", role: "planner" });
    await s.waitFor(is("main_role_changed", { role: "planner" }), "the switch");
    s.end();
    expect((await s.done).code).toBe(0);
    const id = readdirSync(join(env.XDG_STATE_HOME!, "yuj", "sessions")).filter((d) => !d.startsWith("."))[0]!;
    const res = await runCli(["resume", id, "write a", "--output", "jsonl"], { cwd, env, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const refused = rowsOf(res.stdout).find((r) => r.type === "tool_result" && r.name === "write");
    expect(refused).toMatchObject({ ok: false, modelText: expect.stringContaining("the planner role changes only plan files") });
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  }, 90_000);

  it("is never waved through by YOLO: a broad allow does not offer it, while a rule naming it (ask included) does", async () => {
    const plan = { "plans/p.md": PLAN };
    const scenario = { turns: [handoff("plans/p.md"), { text: "end" }] };
    const runWith = async (rules: string) => {
      const cwd = delegationProject(scenario, { rules, files: plan, toml: "" });
      const res = await runCli(["code", "go", "--config", "chord.toml", "--yolo", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 60_000 });
      expect(res.code, res.stderr).toBe(0);
      return rowsOf(res.stdout).find((r) => r.type === "tool_result" && r.name === "handoff")!;
    };
    const broad = await runWith('[[permissions.rules]]\ntool = "*"\naction = "allow"\n');
    expect(broad.ok).toBe(false);
    expect(broad.modelText).toMatch(/handoff/);
    expect(broad.modelText).not.toContain("Handed off");
    // ask only makes it available: under YOLO and without YOLO alike it runs without a prompt (from the builder it is refused by the role, not the rules).
    const ask = await runWith('[[permissions.rules]]\ntool = "handoff"\naction = "ask"\n');
    expect(ask.modelText).toContain("you are already the builder");
  }, 120_000);
});
