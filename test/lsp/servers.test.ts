// The real typescript-language-server and pyright, started by yuj's LSP
// manager as a session starts them: diagnostics for exactly the text given
// (broken, then fixed, then broken again), reuse of one process per server
// and root, navigation requests, and no process left once it is stopped.

import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLspHarness, processesIn, states, TS_CONFIG, until, type LspHarness } from "./support.js";

const messages = (a: Awaited<ReturnType<LspHarness["check"]>>) =>
  a.kind === "ok" ? a.value.diagnostics.map((d) => `${d.range.start.line}:${d.severity}:${d.code}:${d.message.split("\n")[0]}`) : [`${a.kind}`];

describe("typescript-language-server", () => {
  let h: LspHarness;
  beforeAll(() => {
    h = makeLspHarness((c) => (c.lsp.timeout_s = 60));
    h.put({
      "tsconfig.json": TS_CONFIG,
      "src/a.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
      "src/b.ts": 'import { add } from "./a";\nconst n: string = add(1, 2);\nconsole.log(n);\n',
    });
  });
  afterAll(() => h.close());

  it("reports a type error across files on the first check, from a cold start", async () => {
    const first = await h.check("src/b.ts");
    expect(first).toMatchObject({ kind: "ok", server: "typescript" });
    expect(messages(first)).toEqual(["1:1:2322:Type 'number' is not assignable to type 'string'."]);
  }, 90_000);

  it("follows the text it is given: fixed, clean; broken again, the new error", async () => {
    h.put({ "src/b.ts": 'import { add } from "./a";\nconst n: number = add(1, 2);\nconsole.log(n);\n' });
    expect(messages(await h.check("src/b.ts"))).toEqual([]);
    // Clean to clean: a server that only republishes on change would say nothing here.
    h.put({ "src/b.ts": 'import { add } from "./a";\nconst n: number = add(2, 2);\nconsole.log(n);\n' });
    expect(messages(await h.check("src/b.ts"))).toEqual([]);
    h.put({ "src/b.ts": 'import { add } from "./a";\nadd("x", 2);\n' });
    expect(messages(await h.check("src/b.ts"))).toEqual([
      "1:1:2345:Argument of type 'string' is not assignable to parameter of type 'number'.",
    ]);
  }, 90_000);

  it("kept one server process for all of it", () => {
    expect(states(h.events, "typescript")).toEqual(["starting", "ready"]);
  });

  it("answers definition, references and document symbols", async () => {
    const a = fs.readFileSync(h.abs("src/a.ts"), "utf8");
    const refs = await h.lsp.query<Array<{ uri: string; range: { start: { line: number } } }>>(h.abs("src/a.ts"), a, "textDocument/references", {
      position: { line: 0, character: 16 },
      context: { includeDeclaration: true },
    });
    expect(refs.kind).toBe("ok");
    const where = refs.kind === "ok" ? refs.value.map((l) => `${l.uri.split("/").pop()}:${l.range.start.line}`).sort() : [];
    expect(where).toEqual(["a.ts:0", "b.ts:0", "b.ts:1"]);
    const symbols = await h.lsp.query<Array<{ name: string }>>(h.abs("src/a.ts"), a, "textDocument/documentSymbol", {});
    expect(symbols.kind === "ok" && symbols.value.map((s) => s.name)).toEqual(["add"]);
  }, 60_000);

  it("ends the server and tsserver with it when stopped", async () => {
    expect(processesIn(h.project).length).toBeGreaterThanOrEqual(2); // the server and its tsserver
    await h.lsp.shutdown();
    expect(await until(() => processesIn(h.project).length === 0)).toBe(true);
    expect(states(h.events, "typescript").at(-1)).toBe("stopped");
  }, 30_000);
});

describe("pyright", () => {
  let h: LspHarness;
  beforeAll(() => {
    h = makeLspHarness((c) => (c.lsp.timeout_s = 60));
    h.put({ "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n\n\ntotal: str = add(1, 2)\n" });
  });
  afterAll(() => h.close());

  it("reports the error of the text it is given, then none once fixed (workspace/configuration answered)", async () => {
    const first = await h.check("calc.py");
    expect(first).toMatchObject({ kind: "ok", server: "pyright" });
    expect(messages(first)).toEqual(['4:1:reportAssignmentType:Type "int" is not assignable to declared type "str"']);
    h.put({ "calc.py": "def add(a: int, b: int) -> int:\n    return a + b\n\n\ntotal: int = add(1, 2)\n" });
    expect(messages(await h.check("calc.py"))).toEqual([]);
    expect(states(h.events, "pyright")).toEqual(["starting", "ready"]);
  }, 90_000);

  it("finds a definition", async () => {
    const text = fs.readFileSync(h.abs("calc.py"), "utf8");
    const def = await h.lsp.query<Array<{ range: { start: { line: number; character: number } } }>>(h.abs("calc.py"), text, "textDocument/definition", {
      position: { line: 4, character: 14 },
    });
    expect(def.kind === "ok" && def.value.map((l) => l.range.start)).toEqual([{ line: 0, character: 4 }]);
  }, 60_000);
});
