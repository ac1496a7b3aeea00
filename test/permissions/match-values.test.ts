// What each tool's calls are matched on, asked of the real handlers through
// the catalog the permission engine uses (the shipped profiles' tools).

import { describe, expect, it } from "vitest";
import { cleanPath } from "../../core/permissions/clean-path.js";
import { toolCatalog } from "../../core/permissions/catalog.js";
import { matchTarget } from "../../core/permissions/engine.js";
import type { ToolCatalog } from "../../core/permissions/types.js";
import { builtinHandlers } from "../../tools/registry.js";
import { catalogOf } from "./support.js";

const CWD = "/repo";
const CATALOGS = { yuj: catalogOf("_base"), chord: catalogOf("chord") };
const target = (tool: string, args: Record<string, unknown>, tools: ToolCatalog) => matchTarget({ tool, args, cwd: CWD }, tools);
const values = (tool: string, args: Record<string, unknown>, surface: "yuj" | "chord" = "chord") => target(tool, args, CATALOGS[surface]).values;

describe("match values per tool", () => {
  it.each<[string, Record<string, unknown>, string[], ("yuj" | "chord")?]>([
    ["bash", { cmd: "ls -la" }, ["ls -la"], "yuj"],
    ["shell", { command: "npm test", workdir: "sub" }, ["npm test"]],
    ["terminal_start", { cmd: "python3" }, ["python3"], "yuj"],
    ["terminal_io", { terminal_id: "t1", input: "rm x" }, ["rm x"], "yuj"],
    ["terminal_io", { terminal_id: "t1" }, ["*"], "yuj"],
    ["read", { path: "src/a.ts" }, ["src/a.ts"]],
    ["read", { path: "./src/../a.ts" }, ["a.ts"]],
    ["read", { path: "/repo/src/a.ts" }, ["src/a.ts"]],
    ["read", { path: "/etc/passwd" }, ["/etc/passwd"]],
    ["read", { path: "../other/x" }, ["/other/x"]],
    ["write", { path: "out/new.txt", content: "x" }, ["out/new.txt"]],
    ["edit", { path: "a.ts", old_string: "x", new_string: "y" }, ["a.ts"]],
    ["view_image", { path: "img/logo.png" }, ["img/logo.png"]],
    ["notebook_edit", { path: "n.ipynb" }, ["n.ipynb"], "yuj"],
    ["delete", { paths: ["a.txt", "./b/../c.txt"], reason: "x" }, ["a.txt", "c.txt"]],
    ["delete", { paths: "./secret.txt", reason: "x" }, ["secret.txt"]],
    ["grep", { pattern: "TODO", paths: ["src"] }, ["TODO"], "chord"],
    ["grep", { pattern: "TODO", path: "src/" }, ["src"], "yuj"],
    ["grep", { pattern: "TODO" }, ["."], "yuj"],
    ["glob", { patterns: ["**/*.ts", "*.md"] }, ["**/*.ts"]],
    ["glob", { patterns: "*.md" }, ["*.md"]],
    ["glob", { pattern: "src/**" }, ["src/**"], "yuj"],
    ["todo_write", { todos: [] }, ["*"]],
    ["question", { questions: [] }, ["*"]],
    ["done", { report: "ok" }, ["*"]],
    ["mcp_search_web", { q: "x" }, ["*"]],
  ])("%s %j → %j", (tool, args, expected, surface = "chord") => {
    expect(values(tool, args, surface)).toEqual(expected);
  });

  it("follows the handler behind the name, whatever the profile calls it", () => {
    const renamed = toolCatalog([{ name: "run", handler: "bash" }, { name: "look", handler: "chord_read" }], builtinHandlers());
    expect(target("run", { cmd: "make" }, renamed).values).toEqual(["make"]);
    expect(target("look", { path: "./a" }, renamed).values).toEqual(["a"]);
  });

  it("gives Chord apply_patch every Add/Update/Delete/Move path with its role", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: new/a.ts",
      "+x",
      "*** Update File: ./src/b.ts",
      "*** Move to: src/c.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File: old.ts",
      "*** Update File: src/d.ts",
      "@@",
      " x",
      "-y",
      "+z",
      "*** End Patch",
    ].join("\n");
    const t = target("apply_patch", { patch }, CATALOGS.chord);
    expect(t.values).toEqual(["new/a.ts", "src/b.ts", "src/c.ts", "old.ts", "src/d.ts"]);
    expect(t.ops?.map((o) => o.role)).toEqual(["add", "move_source", "move_target", "remove", "update"]);
  });

  it("gives a patch that does not parse (and so changes nothing) the value *", () => {
    expect(values("apply_patch", { patch: "garbage" })).toEqual(["*"]);
    expect(values("apply_patch", { patch: "*** Begin Patch\n*** End Patch" })).toEqual(["*"]);
    // Yuj's apply_patch requires the Begin marker; Chord's reads a patch that starts with an operation.
    expect(values("apply_patch", { patch: "*** Add File: a\n+x" }, "yuj")).toEqual(["*"]);
    expect(values("apply_patch", { patch: "*** Add File: a\n+x" })).toEqual(["a"]);
  });

  it("gives Yuj's apply_patch both paths of a move", () => {
    expect(values("apply_patch", { patch: "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch" }, "yuj")).toEqual(["a", "b"]);
  });

  it("reads CRLF envelopes", () => {
    expect(values("apply_patch", { patch: "*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** End Patch" })).toEqual(["a.txt"]);
  });

  it("gives udiff its ---/+++ paths with their roles", () => {
    const diff = [
      "--- a/src/x.ts\t2024-01-01",
      "+++ b/src/x.ts",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "--- /dev/null",
      "+++ b/new.ts",
      "@@ -0,0 +1 @@",
      "+n",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-g",
    ].join("\n");
    const t = target("udiff", { patch: diff }, CATALOGS.yuj);
    expect(t.values).toEqual(["src/x.ts", "new.ts", "gone.ts"]);
    expect(t.ops?.map((o) => o.role)).toEqual(["update", "add", "remove"]);
    // A rename is refused whole by udiff: nothing to fence.
    expect(values("udiff", { patch: "--- a/from.ts\n+++ b/to.ts\n@@ -1 +1 @@\n-a\n+b" }, "yuj")).toEqual(["*"]);
  });
});

describe("cleanPath", () => {
  it.each<[string, string, string]>([
    ["a/b", "/repo", "a/b"],
    ["a//b/./c/", "/repo", "a/b/c"],
    ["a/../../x", "/repo", "/x"],
    [".", "/repo", "."],
    ["/repo", "/repo", "."],
    ["/repo/", "/repo", "."],
    ["/repository/x", "/repo", "/repository/x"],
    ["~/secrets", "/repo", "~/secrets"],
    ["", "/repo", ""],
    ["x", "/", "x"],
    ["/etc/x", "/", "etc/x"],
  ])("%j in %s → %j", (p, cwd, expected) => {
    expect(cleanPath(p, cwd)).toBe(expected);
  });
});
