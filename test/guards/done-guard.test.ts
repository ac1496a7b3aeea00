import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createGuards, doneText } from "../../tools/guards/index.js";
import { runScenario } from "../support/loop-harness.js";
import { guardedSession, type GuardedSession } from "./session.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const NO_CHANGE =
  "ERROR: done_guard: no file has been changed yet — make the change the task asks for " +
  "(with the file tools, or a command that writes files) before calling done.";
const unchecked = (p: string) =>
  `ERROR: done_guard: nothing has checked the last change (${p}) — run the tests or a command that exercises it, then call done. ` +
  "Only a command whose exit status is its own counts: not piped into another, not after || or before a ; command.";

const guarded = async (mutation: boolean, verify: boolean) => {
  s = await guardedSession((c) => {
    c.loop.done_guard_enabled = true;
    c.loop.done_require_mutation = mutation;
    c.loop.done_require_verify = verify;
  });
  await s.put({ "src/a.js": "const x = 1;\nconsole.log(x);\n" });
  return s;
};

describe("done guard", () => {
  it("exports the texts it sends", () => {
    expect(doneText.noChange("done")).toBe(NO_CHANGE);
    expect(doneText.unchecked(["src/a.js"], "done")).toBe(unchecked("src/a.js"));
  });

  it("refuses done until a file changed, and the plan file does not count", async () => {
    const s = await guarded(true, false);
    expect((await s.call("done")).modelText).toBe(NO_CHANGE);
    expect((await s.call("write", { path: ".solver/plan.md", content: "plan\n" })).ok).toBe(true);
    expect((await s.call("done")).modelText).toBe(NO_CHANGE);
    // A failed change is no change.
    expect((await s.call("edit", { path: "src/a.js", old_str: "nope", new_str: "y" })).ok).toBe(false);
    expect((await s.call("done")).modelText).toBe(NO_CHANGE);
    expect((await s.call("edit", { path: "src/a.js", old_str: "x = 1", new_str: "x = 2" })).ok).toBe(true);
    const done = await s.call("done", { message: "changed x" });
    expect(done.ok).toBe(true);
    expect(done.finish).toEqual({ message: "changed x" });
  });

  it("refuses done until something checked the last change", async () => {
    const s = await guarded(true, true);
    expect((await s.call("done")).modelText).toBe(NO_CHANGE);
    await s.call("edit", { path: "./src/a.js", old_str: "x = 1", new_str: "x = 2" });
    expect((await s.call("done")).modelText).toBe(unchecked("src/a.js"));
    // Looking is not checking, and a failing command is not a check.
    for (const cmd of ["cat src/a.js", "ls -la src", "git status", "grep -n x src/a.js", "node -e 'process.exit(3)'"]) {
      await s.call("bash", { cmd });
      expect((await s.call("done")).modelText, cmd).toBe(unchecked("src/a.js"));
    }
    expect((await s.call("bash", { cmd: "node src/a.js" })).modelText).toBe("2");
    expect((await s.call("done")).ok).toBe(true);
  });

  it("asks for a new check after a later change, naming the files of that change", async () => {
    const s = await guarded(false, true);
    await s.call("edit", { path: "src/a.js", old_str: "x = 1", new_str: "x = 2" });
    await s.call("bash", { cmd: "node src/a.js" });
    await s.call("write", { path: "src/b.js", content: "console.log(1);\n" });
    expect((await s.call("done")).modelText).toBe(unchecked("src/b.js"));
    await s.call("bash", { cmd: "node src/b.js" });
    expect((await s.call("done")).ok).toBe(true);
  });

  it("with only done_require_verify, lets done through when nothing changed", async () => {
    const s = await guarded(false, true);
    expect((await s.call("done")).ok).toBe(true);
  });

  it("is off by default", () => {
    expect(createGuards(defaultConfig())).toEqual([]);
  });
});

describe("done guard in the loop", () => {
  it("makes the model change and check before it may finish", async () => {
    const config = defaultConfig();
    config.loop.done_guard_enabled = true;
    config.loop.done_require_mutation = true;
    config.loop.done_require_verify = true;
    const run = await runScenario(
      {
        turns: [
          { tool_calls: [{ name: "done" }] },
          { tool_calls: [{ name: "edit", arguments: { path: "src/greet.js", old_str: '"Hello, " + name', new_str: "`Hello, ${name}!`" } }] },
          { tool_calls: [{ name: "done" }] },
          { tool_calls: [{ name: "bash", arguments: { cmd: "node test.js" } }] },
          { tool_calls: [{ name: "done", arguments: { message: "fixed" } }] },
        ],
      },
      { config, guards: createGuards(config) },
    );
    expect(run.outcome).toMatchObject({ reason: "done", message: "fixed", turns: 5 });
    const texts = run.history.filter((h) => h.role === "tool").map((h) => (h.role === "tool" ? h.text : ""));
    expect(texts[0]).toBe(NO_CHANGE);
    expect(texts[2]).toBe(unchecked("src/greet.js"));
    expect(texts[3]).toContain("all tests passed");
  });
});
