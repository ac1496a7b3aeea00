// Post-edit checks through the real dispatcher and guards: real check
// scripts run as the session's commands on the real files the edit tools
// changed; a blocking check's undo is checked byte for byte.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { guardCallOf } from "../../core/tool-facts.js";
import { createGuards } from "../../tools/guards/index.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { chordWriteTool } from "../../tools/chord/write.js";
import { guardedSession, type GuardedSession } from "./session.js";

type Check = Config["post_edit_check"]["checks"][number];

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

// Fails (exit 3) when the file holds the word FORBIDDEN, printing where.
const NO_FORBIDDEN = `grep -n FORBIDDEN {path} && { echo "forbidden word in" {path}; exit 3; } || exit 0`;

function check(over: Partial<Check>): Check {
  return { name: "lint", trigger: "edit|write", when: "*", cmd: NO_FORBIDDEN, on_fail: "append", ...over };
}

async function session(checks: Check[], adjust: (c: Config) => void = () => undefined): Promise<GuardedSession> {
  s = await guardedSession((c) => {
    c.post_edit_check = { enabled: true, timeout: 10, checks };
    adjust(c);
  });
  return s;
}

const read = (rel: string) => fs.readFileSync(path.join(s!.cwd, rel));

describe("on_fail = block", () => {
  it("an edit the check rejects is undone to the exact previous bytes, and the call fails with the check's output", async () => {
    const t = await session([check({ name: "no-forbidden", on_fail: "block" })]);
    // CRLF, a BOM, no final newline: any rewrite would show.
    const original = Buffer.from("\ufeffkeep\r\nthis \u00e9\r\nend", "utf8");
    await t.put({ "a.txt": original });
    const r = await t.call("edit", { path: "a.txt", old_str: "this", new_str: "FORBIDDEN" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toMatch(/^ERROR: edit blocked by post-edit check 'no-forbidden' for a\.txt: exit code 3\n2:FORBIDDEN/);
    expect(r.modelText).toContain("forbidden word in a.txt");
    expect(read("a.txt").equals(original)).toBe(true);
  });

  it("a file the call created is removed", async () => {
    const t = await session([check({ on_fail: "block" })]);
    const r = await t.call("write", { path: "sub/new.txt", content: "FORBIDDEN\n" });
    expect(r.modelText).toMatch(/^ERROR: write blocked by post-edit check 'lint' for sub\/new\.txt/);
    expect(fs.existsSync(path.join(t.cwd, "sub/new.txt"))).toBe(false);
  });

  it("a change the check accepts stays, with the result untouched", async () => {
    const t = await session([check({ on_fail: "block" })]);
    await t.put({ "a.txt": "one\n" });
    const r = await t.call("edit", { path: "a.txt", old_str: "one", new_str: "two" });
    expect(r.ok).toBe(true);
    expect(r.modelText).not.toContain("post-edit");
    expect(read("a.txt").toString()).toBe("two\n");
  });

  it("apply_patch over two files: both are put back", async () => {
    const t = await session([check({ on_fail: "block" })], (c) => (c.tools.edit_format = "apply_patch"));
    await t.put({ "x.txt": "alpha\n", "y.txt": "beta\n" });
    const patch = ["*** Begin Patch", "*** Update File: x.txt", "@@", "-alpha", "+gamma", "*** Update File: y.txt", "@@", "-beta", "+FORBIDDEN", "*** Add File: z.txt", "+new", "*** End Patch"].join("\n");
    const r = await t.call("apply_patch", { patch });
    expect(r.modelText).toMatch(/^ERROR: edit blocked by post-edit check 'lint' for y\.txt/);
    expect(read("x.txt").toString()).toBe("alpha\n");
    expect(read("y.txt").toString()).toBe("beta\n");
    expect(fs.existsSync(path.join(t.cwd, "z.txt"))).toBe(false);
  });
});

describe("append and warn", () => {
  it("append adds the failing check's output to the successful result", async () => {
    const t = await session([check({})]);
    const r = await t.call("write", { path: "b.txt", content: "ok\nFORBIDDEN\n" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("[post-edit check] post-edit check 'lint' failed for b.txt (exit code 3):\n2:FORBIDDEN\nforbidden word in b.txt");
    expect(read("b.txt").toString()).toBe("ok\nFORBIDDEN\n");
  });

  it("warn appends like append, and emits a notice too", async () => {
    const t = await session([check({ on_fail: "warn" })]);
    const r = await t.call("write", { path: "c.txt", content: "FORBIDDEN\n" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe(
      "OK: wrote 10 bytes to c.txt\n\n[post-edit check] post-edit check 'lint' failed for c.txt (exit code 3):\n1:FORBIDDEN\nforbidden word in c.txt",
    );
    const notices = t.events.filter((e) => e.type === "notice").map((e) => (e as { text: string }).text);
    expect(notices.some((n) => n.startsWith("post-edit check 'lint' failed for c.txt (exit code 3)"))).toBe(true);
  });

  it("a check past its timeout counts as failed and its process is stopped", async () => {
    const t = await session([check({ cmd: "echo started; sleep 30", timeout: 1 })]);
    const began = Date.now();
    const r = await t.call("write", { path: "d.txt", content: "x\n" });
    expect(Date.now() - began).toBeLessThan(15_000);
    expect(r.modelText).toContain("post-edit check 'lint' failed for d.txt (timed out after 1 s):\nstarted");
  });

  it("the check's environment has no secrets", async () => {
    process.env.OPENAI_API_KEY = "sk-pec-secret-value";
    try {
      const t = await session([check({ cmd: 'echo "key=[$OPENAI_API_KEY]"; exit 1' })]);
      const r = await t.call("write", { path: "e.txt", content: "x\n" });
      expect(r.modelText).toContain("key=[]");
      expect(r.modelText).not.toContain("sk-pec-secret-value");
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });
});

describe("which checks run", () => {
  it("trigger: a write-only check skips an edit, an edit-only one skips a write", async () => {
    const t = await session([check({ name: "w", trigger: "write" }), check({ name: "e", trigger: "edit" })]);
    const w = await t.call("write", { path: "f.txt", content: "FORBIDDEN\n" });
    expect(w.modelText).toContain("check 'w' failed");
    expect(w.modelText).not.toContain("check 'e' failed");
    const e = await t.call("edit", { path: "f.txt", old_str: "FORBIDDEN", new_str: "FORBIDDEN!" });
    expect(e.modelText).toContain("check 'e' failed");
    expect(e.modelText).not.toContain("check 'w' failed");
  });

  it("when: a glob over the path; without a slash it matches the file name", async () => {
    const t = await session([check({ name: "py", when: "*.py" }), check({ name: "src", when: "src/**/*.txt" })]);
    const txt = await t.call("write", { path: "deep/g.txt", content: "FORBIDDEN\n" });
    expect(txt.modelText).not.toContain("post-edit");
    const py = await t.call("write", { path: "deep/g.py", content: "FORBIDDEN\n" });
    expect(py.modelText).toContain("check 'py' failed for deep/g.py");
    const src = await t.call("write", { path: "src/a/h.txt", content: "FORBIDDEN\n" });
    expect(src.modelText).toContain("check 'src' failed for src/a/h.txt");
  });

  it("{path} reaches the command as one shell-quoted word", async () => {
    const t = await session([check({ cmd: "printf '<%s>' {path}; exit 1" })]);
    const r = await t.call("write", { path: "it's a $(file).txt", content: "x\n" });
    expect(r.modelText).toContain("<it's a $(file).txt>");
  });

  it("a failed call runs no check, and a disabled section builds no guard", async () => {
    const t = await session([check({ cmd: "echo ran; exit 1" })]);
    const r = await t.call("edit", { path: "missing.txt", old_str: "a", new_str: "b" });
    expect(r.ok).toBe(false);
    expect(r.modelText).not.toContain("ran");
    const config = structuredClone(t.config);
    config.post_edit_check.enabled = false;
    expect(createGuards(config).map((g) => g.name)).not.toContain("post-edit-check");
  });
});

describe("the Chord surface", () => {
  async function chordCall(t: GuardedSession, handler: ToolHandler, args: Record<string, unknown>, id: string) {
    const guard = t.guards.find((g) => g.name === "post-edit-check")!;
    const call = guardCallOf(handler, id, args, { cwd: t.cwd, name: handler.id });
    const gctx = { cwd: t.cwd, config: t.config, activeTools: new Set<string>(), handlers: new Map() };
    await guard.before!(call, gctx);
    return guard.after!(call, await handler.run(args as never, t.ctx), gctx);
  }

  it("Chord's write and edit run the checks too, and a block undoes them", async () => {
    const t = await session([check({ on_fail: "block" })]);
    await t.put({ "k.txt": "calm\n" });
    const edit = await chordCall(t, chordEditTool as ToolHandler, { path: "k.txt", old_string: "calm", new_string: "FORBIDDEN" }, "c1");
    expect(edit.modelText).toMatch(/^ERROR: edit blocked by post-edit check 'lint' for k\.txt/);
    expect(read("k.txt").toString()).toBe("calm\n");
    const write = await chordCall(t, chordWriteTool as ToolHandler, { path: "m.txt", content: "FORBIDDEN\n" }, "c2");
    expect(write.modelText).toMatch(/^ERROR: write blocked by post-edit check 'lint' for m\.txt/);
    expect(fs.existsSync(path.join(t.cwd, "m.txt"))).toBe(false);
  });
});
