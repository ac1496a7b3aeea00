// Language-server feedback after edits: the real edit tools change real
// files, the after-guard asks the real typescript-language-server and
// pyright, and the result carries the file's new diagnostics.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolHandler } from "../../core/tool-types.js";
import type { Guard } from "../../core/guards/types.js";
import { createGuards } from "../../tools/guards/index.js";
import { createLspDiagnosticsGuard } from "../../tools/guards/lsp-diagnostics.js";
import { editTool } from "../../tools/yuj/edit.js";
import { writeTool } from "../../tools/yuj/write.js";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { nodeServices } from "../../core/services.js";
import { guardCallOf } from "../../core/tool-facts.js";
import { displayText } from "../../core/display-text.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { makeLspHarness, TS_CONFIG, type LspHarness } from "../lsp/support.js";

let t: TestToolContext;
let h: LspHarness;
let guard: Guard;
let seq = 0;

beforeAll(async () => {
  t = await makeToolContext();
  h = makeLspHarness((c) => (c.lsp.timeout_s = 60), fs.realpathSync(t.cwd));
  t.ctx.config.lsp = h.config.lsp;
  guard = createLspDiagnosticsGuard({ fs: nodeServices().fs, lsp: h.lsp, severity: "error", timeoutS: 60 });
  h.put({
    "tsconfig.json": TS_CONFIG,
    "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "src/b.ts": 'import { add } from "./a";\nconst n: number = add(1, 2);\nconsole.log(n);\n',
    "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "notes.txt": "hello\n",
  });
});
afterAll(async () => {
  await h.lsp.shutdown();
  await t.cleanup();
});

async function call<S extends ToolHandler["schema"]>(handler: ToolHandler<S>, args: Record<string, unknown>, g: Guard = guard) {
  const result = await handler.run(args as never, t.ctx);
  const guardCall = guardCallOf(handler as ToolHandler, `c${++seq}`, args, { cwd: t.cwd, name: handler.id });
  return g.after!(guardCall, result, { cwd: t.cwd, config: t.ctx.config, activeTools: new Set(), handlers: new Map() });
}

describe("diagnostics after an edit", () => {
  it("edit: a type error the edit introduced, one-based, in the result the model gets and the view shows", async () => {
    const r = await call(editTool, { path: "src/b.ts", old_str: "const n: number", new_str: "const n: string" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain(
      "\n\nDiagnostics (typescript) src/b.ts: 1 at severity error or above\n[E] 2:7 [2322] Type 'number' is not assignable to type 'string'.",
    );
    expect(r.display && displayText(r.display)).toContain("[E] 2:7 [2322]");
  }, 90_000);

  it("edit that fixes it: none, said so", async () => {
    const r = await call(editTool, { path: "src/b.ts", old_str: "const n: string", new_str: "const n: number" });
    expect(r.modelText).toMatch(/Diagnostics \(typescript\) src\/b\.ts: none at severity error or above$/);
  }, 60_000);

  it("write of a Python file: pyright's error", async () => {
    const r = await call(writeTool, { path: "calc.py", content: "def add(a: int, b: int) -> int:\n    return a + b\n\n\ntotal: str = add(1, 2)\n" });
    expect(r.modelText).toMatch(/Diagnostics \(pyright\) calc\.py: 1 at severity error or above\n\[E\] 5:14 \[reportAssignmentType\] Type "int" is not assignable to declared type "str"/);
  }, 60_000);

  it("apply_patch over two files: one report for each", async () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/a.ts",
      "@@",
      "-  return a + b;",
      "+  return a + b + zzqNowhere;",
      "*** Update File: calc.py",
      "@@",
      "-total: str = add(1, 2)",
      "+total: int = add(1, 2)",
      "*** End Patch",
    ].join("\n");
    const r = await call(applyPatchTool, { patch });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("Diagnostics (typescript) src/a.ts: 1 at severity error or above\n[E] 2:18 [2304] Cannot find name 'zzqNowhere'.");
    expect(r.modelText).toContain("Diagnostics (pyright) calc.py: none at severity error or above");
  }, 60_000);

  it("Chord's edit gets them too", async () => {
    const r = await call(chordEditTool, { path: "src/a.ts", old_string: " + zzqNowhere", new_string: "" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toContain("Diagnostics (typescript) src/a.ts: none at severity error or above");
  }, 60_000);

  it("adds nothing to a failed edit or to a file no server serves", async () => {
    const failed = await call(editTool, { path: "src/a.ts", old_str: "not in the file", new_str: "x" });
    expect(failed.ok).toBe(false);
    expect(failed.modelText).not.toContain("Diagnostics");
    const txt = await call(writeTool, { path: "notes.txt", content: "bye\n" });
    expect(txt.modelText).not.toContain("Diagnostics");
  }, 60_000);

  it("shows warnings too when [lsp].severity says so", async () => {
    const warnings = createLspDiagnosticsGuard({ fs: nodeServices().fs, lsp: h.lsp, severity: "warning", timeoutS: 60 });
    const content = "import os\n\nx: int = 1\nx\n";
    const errorsOnly = await call(writeTool, { path: "w.py", content });
    expect(errorsOnly.modelText).toContain("Diagnostics (pyright) w.py: none at severity error or above");
    const all = await call(writeTool, { path: "w.py", content }, warnings);
    expect(all.modelText).toMatch(/Diagnostics \(pyright\) w\.py: 1 at severity warning or above\n\[W\] 4:1 \[reportUnusedExpression\]/);
  }, 60_000);
});

describe("the setting", () => {
  it("makes the guard exist only with [lsp].enabled = true", () => {
    const config = structuredClone(t.ctx.config);
    config.lsp.enabled = false;
    expect(createGuards(config, { lsp: h.lsp }).map((g) => g.name)).not.toContain("lsp-diagnostics");
    config.lsp.enabled = true;
    expect(createGuards(config, { lsp: h.lsp }).map((g) => g.name)).toContain("lsp-diagnostics");
  });

  it("leaves files the edit did not name alone", () => {
    expect(fs.existsSync(path.join(t.cwd, "written-by-server.txt"))).toBe(false);
  });
});
