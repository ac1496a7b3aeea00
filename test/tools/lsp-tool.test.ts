// The lsp tool over the real typescript-language-server: zero-based
// positions in and out, `path:line:col  preview` lines, files hidden by
// permission rules left out, and every bad input named.

import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspTool } from "../../tools/yuj/lsp.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { makeLspHarness, TS_CONFIG, type LspHarness } from "../lsp/support.js";

let t: TestToolContext;
let h: LspHarness;

beforeAll(async () => {
  t = await makeToolContext((c) => {
    c.lsp.tool_enabled = true;
    c.lsp.timeout_s = 60;
  });
  h = makeLspHarness((c) => (c.lsp.timeout_s = 60), fs.realpathSync(t.cwd));
  t.ctx.lsp = h.lsp;
  h.put({
    "tsconfig.json": TS_CONFIG,
    "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Box {\n  size = 1;\n  grow(): void {\n    this.size = add(this.size, 1);\n  }\n}\n",
    "src/b.ts": 'import { add } from "./a";\nconst n = add(1, 2);\nconsole.log(n);\n',
    "secret/c.ts": 'import { add } from "../src/a";\nadd(3, 4);\n',
  });
});
afterAll(async () => {
  await h.lsp.shutdown();
  await t.cleanup();
});

const lsp = (args: Record<string, unknown>) => lspTool.run(args as never, t.ctx);

describe("lsp", () => {
  it("references: every use, zero-based, with the source line", async () => {
    const r = await lsp({ kind: "references", path: "src/a.ts", line: 0, character: 16 });
    expect(r.ok).toBe(true);
    const [head, ...rest] = r.modelText.split("\n");
    expect(head).toBe("6 references of the symbol at src/a.ts:0:16 (line:character zero-based):");
    expect(rest.sort()).toEqual([
      'secret/c.ts:0:9  import { add } from "../src/a";',
      "secret/c.ts:1:0  add(3, 4);",
      "src/a.ts:0:16  export function add(a: number, b: number): number {",
      "src/a.ts:7:16  this.size = add(this.size, 1);",
      'src/b.ts:0:9  import { add } from "./a";',
      "src/b.ts:1:10  const n = add(1, 2);",
    ]);
  }, 90_000);

  it("definition: where the symbol at a use is declared, an answer that can be asked about again", async () => {
    const r = await lsp({ kind: "definition", path: "src/b.ts", line: 1, character: 10 });
    expect(r).toEqual({ ok: true, modelText: "1 definition of the symbol at src/b.ts:1:10 (line:character zero-based):\nsrc/a.ts:0:16  export function add(a: number, b: number): number {" });
  }, 60_000);

  it("document_symbols: the file's outline, nested by indentation", async () => {
    const r = await lsp({ kind: "document_symbols", path: "src/a.ts" });
    expect(r.modelText.split("\n")).toEqual([
      "4 symbols in src/a.ts (line:character zero-based):",
      "src/a.ts:0:16  function add",
      "src/a.ts:4:13  class Box",
      "src/a.ts:6:2    method grow",
      "src/a.ts:5:2    property size",
    ]);
  }, 60_000);

  it("leaves out the files permission rules keep from reading, and says how many", async () => {
    t.ctx.hiddenByRules = (p) => p.startsWith("secret/");
    try {
      const r = await lsp({ kind: "references", path: "src/a.ts", line: 0, character: 16 });
      expect(r.modelText).not.toContain("secret/");
      expect(r.modelText).toContain("(2 more in files your permission rules keep from reading)");
    } finally {
      delete t.ctx.hiddenByRules;
    }
  }, 60_000);

  it("names what is wrong with a call", async () => {
    expect((await lsp({ kind: "definition", path: "src/a.ts" })).modelText).toBe(
      "ERROR: lsp definition needs line and character: the zero-based position of the symbol in src/a.ts",
    );
    expect((await lsp({ kind: "references", path: "src/a.ts", line: 99, character: 0 })).modelText).toBe(
      "ERROR: line 99 is past the end of src/a.ts, which has lines 0 to 10 (zero-based)",
    );
    expect((await lsp({ kind: "document_symbols", path: "../outside.ts" })).modelText).toBe("ERROR: path escapes cwd: ../outside.ts");
    await t.put({ "notes.md": "# hi\n" });
    expect((await lsp({ kind: "document_symbols", path: "notes.md" })).modelText).toMatch(
      /^ERROR: no language server is configured for notes\.md; configured: pyright \(\.py \.pyi\), typescript \(\.ts .*\) \(add one under \[lsp\.servers\.NAME\]\)$/,
    );
    expect((await lsp({ kind: "document_symbols", path: "src/none.ts" })).modelText).toBe("ERROR: cannot read src/none.ts: no such file");
  });

  it("is refused while [lsp].tool_enabled is off", async () => {
    t.ctx.config.lsp.tool_enabled = false;
    try {
      expect(await lsp({ kind: "document_symbols", path: "src/a.ts" })).toEqual({ ok: false, modelText: "ERROR: the lsp tool is disabled (lsp.tool_enabled=false)" });
    } finally {
      t.ctx.config.lsp.tool_enabled = true;
    }
  });
});
