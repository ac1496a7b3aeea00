import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { createGuards } from "../../tools/guards/index.js";
import { runScenario } from "../support/loop-harness.js";
import { guardedSession, type GuardedSession } from "./session.js";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const block = async () => {
  s = await guardedSession((c) => (c.tools.stale_file = "block"));
  await s.put({ "src/a.py": "x = 1\n", "b.txt": "one\n" });
  return s;
};
const file = (rel: string) => readFileSync(join(s!.cwd, rel), "utf8");

describe("stale-file guard, block mode", () => {
  it("refuses an edit of a file that was never read, and changes nothing", async () => {
    const s = await block();
    const out = await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" });
    expect(out.ok).toBe(false);
    expect(out.modelText).toBe("ERROR: stale_file: read src/a.py first");
    expect(file("src/a.py")).toBe("x = 1\n");
  });

  it("allows the edit after a read", async () => {
    const s = await block();
    expect((await s.call("read", { path: "src/a.py" })).ok).toBe(true);
    const out = await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" });
    expect(out.ok).toBe(true);
    expect(file("src/a.py")).toBe("x = 2\n");
  });

  it("refuses once the file changed after the read", async () => {
    const s = await block();
    await s.call("read", { path: "src/a.py" });
    writeFileSync(join(s.cwd, "src/a.py"), "x = 10\n");
    const out = await s.call("edit", { path: "./src/a.py", old_str: "x = 10", new_str: "x = 2" });
    expect(out.modelText).toBe("ERROR: stale_file: read src/a.py first");
    expect(file("src/a.py")).toBe("x = 10\n");
  });

  it("refreshes the hash after a successful edit, so a second edit needs no new read", async () => {
    const s = await block();
    await s.call("read", { path: "src/a.py" });
    expect((await s.call("edit", { path: "src/a.py", old_str: "x = 1", new_str: "x = 2" })).ok).toBe(true);
    const second = await s.call("edit", { path: "src/a.py", old_str: "x = 2", new_str: "x = 3" });
    expect(second.ok).toBe(true);
    expect(file("src/a.py")).toBe("x = 3\n");
  });

  it("counts `cat FILE` through bash as a read, but not a compound command", async () => {
    const s = await block();
    expect((await s.call("bash", { cmd: "cat b.txt | wc -l" })).ok).toBe(true);
    expect((await s.call("write", { path: "b.txt", content: "two\n" })).modelText).toBe("ERROR: stale_file: read b.txt first");
    expect((await s.call("bash", { cmd: "cat b.txt" })).ok).toBe(true);
    expect((await s.call("write", { path: "b.txt", content: "two\n" })).ok).toBe(true);
    expect(file("b.txt")).toBe("two\n");
  });

  it("needs no read to create a file, and a created file can be edited at once", async () => {
    const s = await block();
    expect((await s.call("write", { path: "new/c.py", content: "y = 1\n" })).ok).toBe(true);
    expect((await s.call("edit", { path: "new/c.py", old_str: "y = 1", new_str: "y = 2" })).ok).toBe(true);
  });

  it("does not record a read that failed or a path that escapes the task directory", async () => {
    const s = await block();
    expect((await s.call("read", { path: "../outside.txt" })).ok).toBe(false);
    expect((await s.call("read", { path: "missing.py" })).ok).toBe(false);
    const out = await s.call("edit", { path: "../outside.txt", old_str: "a", new_str: "b" });
    // Not the guard's to refuse: the handler reports the escape.
    expect(out.modelText).toMatch(/^ERROR: path escapes cwd/);
  });
});

describe("stale-file guard, warn mode", () => {
  it("applies the edit and appends the warning", async () => {
    s = await guardedSession((c) => (c.tools.stale_file = "warn"));
    await s.put({ "a.txt": "alpha\n" });
    const out = await s.call("edit", { path: "a.txt", old_str: "alpha", new_str: "beta" });
    expect(out.ok).toBe(true);
    expect(file("a.txt")).toBe("beta\n");
    expect(out.modelText.split("\n").at(-1)).toBe(
      "WARNING: stale_file: read a.txt first: it changed since it was last read (or was never read); " +
        "the change was applied to the current content — read it to check the result.",
    );
    // The edit refreshed the hash: the next one is quiet.
    const next = await s.call("edit", { path: "a.txt", old_str: "beta", new_str: "gamma" });
    expect(next.modelText).not.toContain("WARNING");
  });

  it("says to read again when the stale edit failed", async () => {
    s = await guardedSession((c) => (c.tools.stale_file = "warn"));
    await s.put({ "a.txt": "alpha\n" });
    const out = await s.call("edit", { path: "a.txt", old_str: "zeta", new_str: "beta" });
    expect(out.ok).toBe(false);
    expect(out.modelText.split("\n").at(-1)).toBe(
      "WARNING: stale_file: read a.txt first: it changed since it was last read (or was never read); read it again before retrying.",
    );
  });
});

describe("stale-file guard in the loop", () => {
  it("blocks an unread edit, then lets it through after the read", async () => {
    const config = defaultConfig();
    config.tools.stale_file = "block";
    const edit = { name: "edit", arguments: { path: "src/greet.js", old_str: '"Hello, " + name', new_str: "`Hello, ${name}!`" } };
    const run = await runScenario(
      {
        turns: [
          { tool_calls: [edit] },
          { tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }] },
          { tool_calls: [edit] },
          { text: "done" },
        ],
      },
      { config, guards: createGuards(config) },
    );
    const results = run.history.filter((h) => h.role === "tool").map((h) => (h.role === "tool" ? h.text : ""));
    expect(results[0]).toBe("ERROR: stale_file: read src/greet.js first");
    expect(results[2]).toMatch(/^OK/);
    expect(readFileSync(join(run.cwd, "src/greet.js"), "utf8")).toContain("`Hello, ${name}!`");
  });
});
