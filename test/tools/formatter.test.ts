// Formatter results through the real dispatcher and guards:
// real formatter processes (small node scripts), real files, real git.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { nodeServices } from "../../core/services.js";
import { createFormatterGuard, createGuards } from "../../tools/guards/index.js";
import { defaultConfig } from "../../core/config/schema.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { guardCallOf } from "../../core/tool-facts.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";

const scripts = mkdtempSync(join(tmpdir(), "yuj-formatters-"));
const script = (name: string, body: string) => {
  writeFileSync(join(scripts, name), body);
  return join(scripts, name);
};

// Uppercases the file it is given.
const UPPER = script(
  "upper.mjs",
  `import { readFileSync, writeFileSync } from "node:fs";
const p = process.argv[2];
writeFileSync(p, readFileSync(p, "utf8").toUpperCase());
`,
);
// Uppercases the file, and, relative to its working directory (the project
// root), also touches a tracked file and an ignored one.
const SPREADING = script(
  "spreading.mjs",
  `import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
const p = process.argv[2];
writeFileSync(p, readFileSync(p, "utf8").toUpperCase());
appendFileSync("other.txt", "touched\\n");
mkdirSync("build", { recursive: true });
writeFileSync("build/cache.log", "ignored\\n");
`,
);
const FAILING = script(
  "failing.mjs",
  `process.stderr.write("line one\\nsyntax error at 3:1\\n");
process.exit(2);
`,
);
// Starts a grandchild that records its pid, then both sleep past any deadline.
const SLEEPING = script(
  "sleeping.mjs",
  `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const kid = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
writeFileSync(process.argv[3], String(kid.pid));
process.stderr.write("waiting forever\\n");
setInterval(() => {}, 1000);
`,
);

// Exits at once, leaving behind a process that holds its stderr open.
const LEAVING = script(
  "leaving.mjs",
  `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const kid = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: ["ignore", "ignore", "inherit"] });
writeFileSync(process.argv[3], String(kid.pid));
kid.unref();
`,
);

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const formatter = (command: string[], more: (c: Config) => void = () => undefined) => (c: Config) => {
  c.formatter.command = [process.execPath, ...command];
  c.formatter.extensions = [".ts", "py"];
  more(c);
};

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

const file = (rel: string) => readFileSync(join(s!.cwd, rel), "utf8");
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: s!.cwd, stdio: "pipe" }).toString();

describe("formatter guard", () => {
  it("is not there by default, nor without extensions", () => {
    expect(createGuards(defaultConfig()).map((g) => g.name)).toEqual([]);
    const c = defaultConfig();
    c.formatter.command = ["true"];
    expect(createGuards(c).map((g) => g.name)).toEqual([]);
    c.formatter.extensions = ["ts"];
    expect(createGuards(c).map((g) => g.name)).toEqual(["formatter"]);
  });

  it("formats a listed file after an edit and reports status, root, hashes and changed paths", async () => {
    s = await guardedSession(formatter([UPPER, "{path}"]));
    await s.put({ "src/a.ts": "const x = 1;\n" });
    const out = await s.call("edit", { path: "src/a.ts", old_str: "x = 1", new_str: "x = 2" });
    expect(out.ok).toBe(true);
    expect(file("src/a.ts")).toBe("CONST X = 2;\n");
    expect(out.modelText).toBe(
      [
        "OK",
        "",
        "[formatter] src/a.ts: ok",
        `root: ${realpathSync(s.cwd)}`,
        `sha256 before: ${sha("const x = 2;\n")}`,
        `sha256 after: ${sha("CONST X = 2;\n")}`,
        "changed paths: src/a.ts (not a git repository: only the target is checked)",
      ].join("\n"),
    );
  });

  it("leaves unlisted files, failed calls and deletions alone", async () => {
    s = await guardedSession(formatter([UPPER, "{path}"]));
    await s.put({ "notes.md": "hello\n", "b.ts": "one\n" });
    const md = await s.call("write", { path: "notes.md", content: "changed\n" });
    expect(md.modelText).not.toContain("[formatter]");
    expect(file("notes.md")).toBe("changed\n");
    const miss = await s.call("edit", { path: "b.ts", old_str: "absent", new_str: "x" });
    expect(miss.ok).toBe(false);
    expect(miss.modelText).not.toContain("[formatter]");
    expect(file("b.ts")).toBe("one\n");
  });

  it("formats a new file from write, matching the extension in any case and form", async () => {
    s = await guardedSession(formatter([UPPER, "{path}"]));
    const out = await s.call("write", { path: "pkg/mod.PY", content: "print('hi')\n" });
    expect(out.modelText).toContain("[formatter] pkg/mod.PY: ok");
    expect(file("pkg/mod.PY")).toBe("PRINT('HI')\n");
  });

  it("runs once per changed supported file of a patch", async () => {
    s = await guardedSession(formatter([UPPER, "{path}"], (c) => (c.tools.edit_format = "apply_patch")));
    await s.put({ "a.ts": "alpha\n", "gone.ts": "bye\n" });
    const patch = [
      "*** Begin Patch",
      "*** Update File: a.ts",
      "@@",
      "-alpha",
      "+beta",
      "*** Add File: new.ts",
      "+fresh",
      "*** Add File: readme.md",
      "+plain",
      "*** Delete File: gone.ts",
      "*** End Patch",
    ].join("\n");
    const out = await s.call("apply_patch", { patch });
    expect(out.ok).toBe(true);
    expect(file("a.ts")).toBe("BETA\n");
    expect(file("new.ts")).toBe("FRESH\n");
    expect(file("readme.md")).toBe("plain\n");
    expect(out.modelText.match(/^\[formatter\] /gm)).toHaveLength(2);
    expect(out.modelText).toContain("[formatter] a.ts: ok");
    expect(out.modelText).toContain("[formatter] new.ts: ok");
  });

  it("selects a notebook changed by notebook_edit by its .ipynb extension", async () => {
    // The guard on its own, after a notebook_edit call whose change is on disk.
    s = await guardedSession(() => undefined);
    await s.put({ "nb.ipynb": '{"cells": []}\n' });
    const services = nodeServices();
    const guard = createFormatterGuard({ fs: services.fs, services, command: [process.execPath, UPPER, "{path}"], extensions: ["ipynb"], timeoutS: 10 });
    const ctx = { cwd: s.cwd, config: s.config, activeTools: new Set<string>(), handlers: new Map() };
    const call = guardCallOf(notebookEditTool as ToolHandler, "c1", { path: "nb.ipynb", cell_index: 0 }, { cwd: s.cwd, name: "notebook_edit" });
    const out = await guard.after!(call, { ok: true, modelText: "OK" }, ctx);
    expect(out.modelText).toContain("[formatter] nb.ipynb: ok");
    expect(file("nb.ipynb")).toBe('{"CELLS": []}\n');
    const failed = await guard.after!(call, { ok: false, modelText: "ERROR: stale source" }, ctx);
    expect(failed).toEqual({ ok: false, modelText: "ERROR: stale source" });
  });

  it("keeps the edit and reports the exit code and stderr tail when the formatter fails", async () => {
    s = await guardedSession(formatter([FAILING, "{path}"]));
    await s.put({ "a.ts": "x\n" });
    const out = await s.call("write", { path: "a.ts", content: "y\n" });
    expect(out.ok).toBe(true);
    expect(file("a.ts")).toBe("y\n");
    expect(out.modelText).toContain("[formatter] a.ts: failed (exit code 2); the edit is kept");
    expect(out.modelText).toContain(`sha256 before: ${sha("y\n")}\nsha256 after: ${sha("y\n")}`);
    expect(out.modelText).toContain("changed paths: none");
    expect(out.modelText).toContain("output (tail):\n  line one\n  syntax error at 3:1");
  });

  it("reports a formatter that cannot start", async () => {
    s = await guardedSession((c) => {
      c.formatter.command = [join(scripts, "no-such-formatter"), "{path}"];
      c.formatter.extensions = ["ts"];
    });
    const out = await s.call("write", { path: "a.ts", content: "y\n" });
    expect(out.ok).toBe(true);
    expect(out.modelText).toMatch(/\[formatter\] a\.ts: failed \(could not start: .*ENOENT\); the edit is kept/);
  });

  it("kills the formatter's whole process group at the timeout and keeps the edit", async () => {
    const pidFile = join(scripts, "grandchild.pid");
    s = await guardedSession(formatter([SLEEPING, "{path}", pidFile], (c) => (c.formatter.timeout_s = 1)));
    const started = Date.now();
    const out = await s.call("write", { path: "a.ts", content: "y\n" });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(out.ok).toBe(true);
    expect(file("a.ts")).toBe("y\n");
    expect(out.modelText).toContain("[formatter] a.ts: timeout after 1 s (its process group was killed); the edit is kept");
    expect(out.modelText).toContain("output (tail):\n  waiting forever");
    const pid = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 40 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it("does not wait for a process the formatter left holding stderr", async () => {
    const pidFile = join(scripts, "leftover.pid");
    s = await guardedSession(formatter([LEAVING, "{path}", pidFile]));
    const started = Date.now();
    const out = await s.call("write", { path: "a.ts", content: "y\n" });
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      expect(Date.now() - started).toBeLessThan(5000);
      expect(out.modelText).toContain("[formatter] a.ts: ok");
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("attributes the other repository-visible files it changed in a git repository", async () => {
    s = await guardedSession(formatter([SPREADING, "{path}"]));
    await s.put({ "src/a.ts": "a\n", "other.txt": "o\n", "dirty.txt": "d\n", ".gitignore": "build/\n" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "init");
    writeFileSync(join(s.cwd, "dirty.txt"), "dirty before the edit\n"); // changed, but not by the formatter
    const out = await s.call("edit", { path: "src/a.ts", old_str: "a", new_str: "b" });
    expect(out.ok).toBe(true);
    expect(file("other.txt")).toBe("o\ntouched\n");
    expect(existsSync(join(s.cwd, "build/cache.log"))).toBe(true);
    expect(out.modelText.endsWith("changed paths: other.txt, src/a.ts")).toBe(true);

    // A second run: other.txt is already dirty, and is still seen changing.
    const again = await s.call("edit", { path: "src/a.ts", old_str: "B", new_str: "c" });
    expect(again.modelText.endsWith("changed paths: other.txt, src/a.ts")).toBe(true);
  });

  it("refreshes the stale-file hash with the formatted bytes", async () => {
    s = await guardedSession(formatter([UPPER, "{path}"], (c) => (c.tools.stale_file = "block")));
    await s.put({ "a.ts": "one two\n" });
    expect((await s.call("read", { path: "a.ts" })).ok).toBe(true);
    const first = await s.call("edit", { path: "a.ts", old_str: "one", new_str: "uno" });
    expect(first.ok).toBe(true);
    expect(file("a.ts")).toBe("UNO TWO\n");
    const second = await s.call("edit", { path: "a.ts", old_str: "TWO", new_str: "dos" });
    expect(second.ok).toBe(true);
    expect(file("a.ts")).toBe("UNO DOS\n");
  });
});
