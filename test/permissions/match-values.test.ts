import { describe, expect, it } from "vitest";
import {
  cleanPath,
  matchTarget,
  parsePatchEnvelope,
  parseUnifiedDiffPaths,
} from "../../core/permissions/match-values.js";

const CWD = "/repo";
const values = (tool: string, args: Record<string, unknown>, surface: "yuj" | "chord" = "chord", handler = tool) =>
  matchTarget({ tool, handler, args, cwd: CWD }, surface).values;

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
    ["web_fetch", { url: "https://docs.example.com/a" }, ["docs.example.com:443"]],
    ["skill", { name: "pdf" }, ["pdf"]],
    ["delegate", { agent_type: "reviewer", description: "x" }, ["reviewer"]],
    ["task", { agent: "explorer", prompt: "x" }, ["explorer"], "yuj"],
    ["todo_write", { todos: [] }, ["*"]],
    ["question", { questions: [] }, ["*"]],
    ["done", { report: "ok" }, ["*"]],
    ["mcp_search_web", { q: "x" }, ["*"]],
  ])("%s %j → %j", (tool, args, expected, surface = "chord") => {
    expect(values(tool, args, surface)).toEqual(expected);
  });

  it("looks up the handler before the exposed name", () => {
    expect(values("run", { cmd: "make" }, "yuj", "bash")).toEqual(["make"]);
    expect(values("read", { path: "a" }, "chord", "chord_read")).toEqual(["a"]);
  });

  it("gives apply_patch every Add/Update/Delete/Move path with its role", () => {
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
      "*** End Patch",
    ].join("\n");
    const t = matchTarget({ tool: "apply_patch", handler: "apply_patch", args: { patch }, cwd: CWD }, "chord");
    expect(t.values).toEqual(["new/a.ts", "src/b.ts", "src/c.ts", "old.ts", "src/d.ts"]);
    expect(t.ops?.map((o) => o.role)).toEqual(["add", "move_source", "move_target", "delete", "update"]);
  });

  it("gives an unparseable patch the value *", () => {
    expect(values("apply_patch", { patch: "garbage" })).toEqual(["*"]);
    expect(values("apply_patch", { patch: "*** Begin Patch\n*** End Patch" })).toEqual(["*"]);
  });

  it("gives udiff its ---/+++ paths", () => {
    const diff = [
      "--- a/src/x.ts\t2024-01-01",
      "+++ b/src/x.ts",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "--- /dev/null",
      "+++ b/new.ts",
      "--- a/gone.ts",
      "+++ /dev/null",
      "--- a/from.ts",
      "+++ b/to.ts",
    ].join("\n");
    expect(parseUnifiedDiffPaths(diff)).toEqual([
      { path: "src/x.ts", role: "update" },
      { path: "new.ts", role: "add" },
      { path: "gone.ts", role: "delete" },
      { path: "from.ts", role: "move_source" },
      { path: "to.ts", role: "move_target" },
    ]);
    expect(values("udiff", { patch: diff }, "yuj")).toEqual(["src/x.ts", "new.ts", "gone.ts", "from.ts", "to.ts"]);
  });

  it("needs *** Begin Patch to read an envelope", () => {
    expect(parsePatchEnvelope("*** Add File: a")).toBeUndefined();
    expect(parsePatchEnvelope("*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** End Patch")).toEqual([{ path: "a.txt", role: "add" }]);
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
