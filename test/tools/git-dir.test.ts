// The file tools of both surfaces run on the host, outside the sandbox; a
// write into .git/config (core.fsmonitor) or .git/hooks would run at the
// user's next `git status` or `git commit`. Every file tool refuses paths
// inside .git, naming why. Real repository, real git afterwards.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import { builtinHandlers } from "../../tools/registry.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
let marker: string;
let configBefore: string;
beforeEach(async () => {
  t = await makeToolContext();
  execFileSync("git", ["init", "-q"], { cwd: t.cwd });
  await t.put({ "a.txt": "one\n", "nb.ipynb": "{}" });
  marker = path.join(t.ctx.sessionDir, "planted-ran");
  configBefore = fs.readFileSync(path.join(t.cwd, ".git", "config"), "utf8");
});
afterEach(() => t.cleanup());

const REASON = "is inside .git/, which holds git's config and hooks: git runs what they name outside the sandbox";
const handlers = builtinHandlers();
const call = (id: string, args: Record<string, unknown>) => (handlers.get(id) as ToolHandler).run(args as never, t.ctx);

function attempts(): Array<[string, Record<string, unknown>]> {
  const fsmonitor = `\tfsmonitor = "touch ${marker}; false"`;
  const hook = `#!/bin/sh\ntouch ${marker}\n`;
  return [
    ["write", { path: ".git/config", content: `[core]\n${fsmonitor}\n` }],
    ["write", { path: ".git/hooks/pre-commit", content: hook }],
    ["edit", { path: ".git/config", old_str: "[core]", new_str: `[core]\n${fsmonitor}` }],
    ["apply_patch", { patch: ["*** Begin Patch", "*** Update File: .git/config", "@@", " [core]", `+${fsmonitor}`, "*** End Patch"].join("\n") }],
    ["apply_patch", { patch: ["*** Begin Patch", "*** Add File: .git/hooks/post-commit", "+#!/bin/sh", "*** End Patch"].join("\n") }],
    ["udiff", { patch: ["--- a/.git/config", "+++ b/.git/config", "@@ -1 +1,2 @@", " [core]", `+${fsmonitor}`, ""].join("\n") }],
    ["notebook_edit", { path: ".git/nb.ipynb", old_source: "", new_source: "x", cell_index: 0 }],
    ["read", { path: ".git/config" }],
    ["glob", { pattern: "*", path: ".git" }],
    ["grep", { pattern: "core", path: ".git" }],
    ["chord_write", { path: ".git/config", content: `[core]\n${fsmonitor}\n` }],
    ["chord_write", { path: ".git", content: "gitdir: elsewhere\n" }],
    ["chord_edit", { path: ".git/config", old_string: "[core]", new_string: `[core]\n${fsmonitor}` }],
    ["chord_delete", { paths: [".git/config"], reason: "test" }],
    ["chord_apply_patch", { patch: ["*** Begin Patch", "*** Update File: .git/config", "@@", " [core]", `+${fsmonitor}`, "*** End Patch"].join("\n") }],
    ["chord_read", { path: ".git/config" }],
    ["chord_glob", { patterns: "*", path: ".git" }],
    ["chord_grep", { pattern: "core", paths: ".git/config" }],
    ["view_image", { path: ".git/x.png" }],
  ];
}

describe("file tools refuse paths inside .git (both surfaces)", () => {
  it.each(attempts().map(([id, args], i) => [`${id} #${i}`, id, args] as const))("%s", async (_name, id, args) => {
    const result = await call(id, args);
    expect(result.ok).toBe(false);
    expect(result.modelText).toContain(REASON);
    expect(result.modelText).toContain("use git commands through the shell instead");
    expect(fs.readFileSync(path.join(t.cwd, ".git", "config"), "utf8")).toBe(configBefore);
    expect(fs.existsSync(path.join(t.cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    execFileSync("git", ["status"], { cwd: t.cwd, stdio: "ignore" }); // the user's next look
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("also through a symlink into .git and a path spelled with ..", async () => {
    fs.symlinkSync(".git/config", path.join(t.cwd, "innocent"));
    for (const p of ["innocent", "sub/../.git/config", `${t.cwd}/.git/config`]) {
      const result = await call("write", { path: p, content: "[core]\n" });
      expect(result.modelText, p).toContain(REASON);
    }
    expect(fs.readFileSync(path.join(t.cwd, ".git", "config"), "utf8")).toBe(configBefore);
  });

  it("leaves ordinary dot-paths alone (.github, .gitignore)", async () => {
    expect((await call("write", { path: ".github/workflows/ci.yml", content: "on: push\n" })).ok).toBe(true);
    expect((await call("write", { path: ".gitignore", content: "dist\n" })).ok).toBe(true);
    expect((await call("chord_write", { path: ".gitattributes", content: "* text\n" })).ok).toBe(true);
  });
});
