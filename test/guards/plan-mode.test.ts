import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import type { Provider } from "../../core/providers/types.js";
import { createGuards, planText } from "../../tools/guards/index.js";
import { runScenario } from "../support/loop-harness.js";
import { guardedSession, type GuardedSession } from "./session.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const planning = async (maxTurns = 30) => {
  s = await guardedSession((c) => {
    c.loop.plan_mode = "required";
    c.loop.plan_max_turns = maxTurns;
  });
  await s.put({ "src/a.py": "x = 1\n" });
  return s;
};

const NEXT = "write your plan to .solver/plan.md, then call exit_plan_mode.";

describe("required plan mode", () => {
  it("shows only the planning tools, and after the plan everything but exit_plan_mode", async () => {
    const s = await planning();
    expect(s.visible()).toEqual(["bash", "read", "write", "glob", "grep", "exit_plan_mode", "ask_user"]);
    await s.put({ ".solver/plan.md": "1. change x\n" });
    expect((await s.call("exit_plan_mode")).ok).toBe(true);
    expect(s.hidden()).toEqual(["exit_plan_mode"]);
    expect(s.visible()).toEqual(["bash", "read", "write", "edit", "glob", "grep", "ask_user", "done"]);
  });

  it("refuses edits, mutating shell commands and done before they run", async () => {
    const s = await planning();
    const edit = await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" });
    expect(edit.modelText).toBe(`ERROR: plan_mode: edit is not available until the plan is accepted — ${NEXT}`);
    expect(readFileSync(join(s.cwd, "src/a.py"), "utf8")).toBe("x = 1\n");

    for (const cmd of ["touch made.txt", "echo hi > made.txt", "find . -name '*.py' -delete", "ls; rm src/a.py", "cat $(echo src/a.py)", "FOO=1 ls", "python3 -c 'print(1)'", "if true"]) {
      const out = await s.call("bash", { cmd });
      expect(out.modelText, cmd).toBe(planText.shell("bash"));
    }
    expect(existsSync(join(s.cwd, "made.txt"))).toBe(false);
    expect(existsSync(join(s.cwd, "src/a.py"))).toBe(true);

    expect((await s.call("done", { message: "finished" })).modelText).toBe(
      `ERROR: plan_mode: done is not available until the plan is accepted — ${NEXT}`,
    );
    expect((await s.call("write", { path: "src/a.py", content: "x = 3\n" })).modelText).toBe(
      `ERROR: plan_mode: write may only write .solver/plan.md until the plan is accepted — ${NEXT}`,
    );
  });

  it("refuses deferred-tool activation and code cells until the plan is accepted", async () => {
    s = await guardedSession((c) => {
      c.loop.plan_mode = "required";
      c.tools.lazy_loading_enabled = true;
    });
    expect(s.visible()).not.toContain("load_tools");
    expect((await s.call("load_tools", { names: ["grep"] })).modelText).toBe(planText.tool("load_tools"));
    await s.cleanup();
    s = await guardedSession((c) => {
      c.loop.plan_mode = "required";
      c.tools.code_mode = true;
    });
    // Planning comes first: the native tools, not the cell tools (the reference's plan surface).
    expect(s.visible()).toEqual(["bash", "read", "write", "glob", "grep", "exit_plan_mode", "ask_user"]);
    expect((await s.call("exec_cell", { source: "print(1)" })).modelText).toBe(planText.tool("exec_cell"));
  });

  it("allows inspection, read-only bash and the plan write", async () => {
    const s = await planning();
    expect((await s.call("read", { path: "src/a.py" })).ok).toBe(true);
    expect((await s.call("grep", { pattern: "x", path: "." })).ok).toBe(true);
    for (const cmd of ["ls -la", "cat src/a.py | wc -l", "grep -rn x . 2>/dev/null", "find . -name '*.py'", "head -n 1 src/a.py && tail -n 1 src/a.py", "sed -n '1,1p' src/a.py"]) {
      const out = await s.call("bash", { cmd });
      expect(out.ok, `${cmd}: ${out.modelText}`).toBe(true);
    }
    const write = await s.call("write", { path: "./.solver/plan.md", content: "1. change x to 2\n" });
    expect(write.ok).toBe(true);
  });

  it("leaves a notice for entering the phase, for each refused call and for leaving it", async () => {
    const s = await planning();
    s.visible();
    await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" });
    await s.call("read", { path: "src/a.py" });
    await s.put({ ".solver/plan.md": "1. change x\n" });
    await s.call("exit_plan_mode");
    await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" });
    const notices = s.events.filter((e) => e.type === "notice").map((e) => (e as { text: string }).text);
    expect(notices).toEqual([
      "plan mode: the planning phase begins: write .solver/plan.md, then call exit_plan_mode; until then only looking is allowed",
      "plan mode: refused edit: the plan is not accepted yet",
      "plan mode: the plan is accepted; the planning phase is over",
    ]);
  });

  it("exit_plan_mode fails without a plan or with an empty one, and succeeds on a real one", async () => {
    const s = await planning();
    const missing = await s.call("exit_plan_mode");
    expect(missing.ok).toBe(false);
    expect(missing.modelText).toBe(
      "ERROR: exit_plan_mode: .solver/plan.md does not exist — write your plan to .solver/plan.md with write, then call exit_plan_mode again.",
    );
    await s.call("write", { path: ".solver/plan.md", content: "  \n\n" });
    const empty = await s.call("exit_plan_mode");
    expect(empty.modelText).toBe(
      "ERROR: exit_plan_mode: .solver/plan.md is empty — write your plan into it with write, then call exit_plan_mode again.",
    );
    // Still in the phase.
    expect((await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" })).ok).toBe(false);

    await s.call("write", { path: ".solver/plan.md", content: "1. change x\n2. run the tests\n" });
    const accepted = await s.call("exit_plan_mode");
    expect(accepted.ok).toBe(true);
    expect(accepted.modelText).toMatch(/^OK: plan accepted \(\.solver\/plan\.md, 2 lines\)\. Implementation tools are unlocked/);
    s.hidden(); // the next model request: the acceptance has been read
    expect((await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" })).ok).toBe(true);
    expect((await s.call("bash", { cmd: "touch made.txt" })).ok).toBe(true);
    expect((await s.call("done")).ok).toBe(true);
  });

  it("after plan_max_turns requests leaves only the plan write and exit_plan_mode", async () => {
    const s = await planning(2);
    s.hidden();
    s.hidden();
    expect((await s.call("read", { path: "src/a.py" })).ok).toBe(true);
    expect(s.visible()).toEqual(["write", "exit_plan_mode", "ask_user"]); // the third request
    expect((await s.call("read", { path: "src/a.py" })).modelText).toBe(
      "ERROR: plan_mode: the planning phase has used its 2 turns ([loop].plan_max_turns) — write your plan to .solver/plan.md now, then call exit_plan_mode.",
    );
    expect((await s.call("write", { path: "src/a.py", content: "" })).ok).toBe(false);
    expect((await s.call("write", { path: ".solver/plan.md", content: "plan\n" })).ok).toBe(true);
    expect((await s.call("exit_plan_mode")).ok).toBe(true);
    s.hidden(); // the next model request
    expect((await s.call("read", { path: "src/a.py" })).ok).toBe(true);
  });

  it("is only set up when plan_mode is required", () => {
    const guards = (plan: "off" | "required") => {
      const c = defaultConfig();
      c.loop.plan_mode = plan;
      return createGuards(c).map((g) => g.name);
    };
    expect(guards("off")).toEqual([]);
    expect(guards("required")).toEqual(["plan_mode"]);
  });
});

describe("plan mode in the loop", () => {
  it("sends the planning tools until exit_plan_mode, then the normal set", async () => {
    const config = defaultConfig();
    config.loop.plan_mode = "required";
    const requests: string[][] = [];
    const scenario = parseScenario({
      turns: [
        { tool_calls: [{ name: "edit", arguments: { path: "src/greet.js", old_str: "x", new_str: "y" } }] },
        { tool_calls: [{ name: "write", arguments: { path: ".solver/plan.md", content: "Make greet add '!'.\n" } }, { name: "exit_plan_mode" }] },
        { tool_calls: [{ name: "edit", arguments: { path: "src/greet.js", old_str: '"Hello, " + name', new_str: '"Hello, " + name + "!"' } }] },
        { tool_calls: [{ name: "done", arguments: { message: "ok" } }] },
      ],
    });
    const inner = scriptedProvider(scenario);
    const provider: Provider = {
      name: "scripted",
      stream(request, signal) {
        requests.push(request.tools.map((t) => t.name));
        return inner.stream(request, signal);
      },
    };
    const run = await runScenario(null, { config, provider, guards: createGuards(config) });
    expect(run.outcome.reason).toBe("done");
    const texts = run.history.filter((h) => h.role === "tool").map((h) => (h.role === "tool" ? h.text : ""));
    expect(texts[0]).toMatch(/^ERROR: plan_mode: edit is not available/);
    expect(texts[2]).toMatch(/^OK: plan accepted/);
    expect(readFileSync(join(run.cwd, "src/greet.js"), "utf8")).toContain('"Hello, " + name + "!"');
    expect(requests[0]).toEqual(["bash", "read", "write", "glob", "grep", "exit_plan_mode", "ask_user"]);
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[2]).toEqual(["bash", "read", "write", "edit", "glob", "grep", "ask_user", "done"]);
  });
});
