// list_definitions on real files with the real grammars: a Python file's
// outline, exactly as the envelope spells it, and the repository-wide
// search of definitions and references in all seven languages.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDefinitionsTool } from "../../tools/yuj/list_definitions.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "structural");

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.list_definitions.enabled = true;
    c.tools.ast_search_enabled = true;
  });
});
afterEach(() => t.cleanup());

type Args = { path: string; symbol?: string; kind?: "def" | "ref"; repo_wide?: boolean; page?: number };
const list = (args: Args) => listDefinitionsTool.run(args, t.ctx);

describe("list_definitions: one Python file", () => {
  it("a single function, in the exact envelope", async () => {
    await t.put({ "one.py": "def alpha(value: int) -> int:\n    return value\n" });
    const r = await list({ path: "one.py" });
    expect(r.ok).toBe(true);
    expect(r.modelText).toBe(
      '<list_definitions status="ok" path="one.py" count="1" surface="0" v="1">\n' +
        "# definitions\n" +
        "[L   1] def alpha(value: int) -&gt; int\n" +
        "</list_definitions>",
    );
  });

  it("module surface, decorators, nesting, signatures without defaults, first docstring lines", async () => {
    await t.put({
      "mod.py": [
        '"""Module doc."""',
        "import os, a.b as c",
        "from . import x",
        "from ..m.n import (y as z,",
        "   w)",
        "from __future__ import annotations",
        "X: int = 3",
        "MAX_RETRIES = A_B = 5",
        "lower = 1",
        "__all__ = [\"K\", 'target']",
        "@dec",
        "@mod.d(1)",
        "class K(Base, metaclass=M):",
        '    """Klasse für Grüße.',
        "",
        '    More."""',
        "    async def f(self, a, /, b=2, *args: int, c: int = 3, **kw) -> None:",
        "        '''",
        "        First real line.",
        "        '''",
        "        def inner(): pass",
        "    @property",
        "    def p(self) -> 'K': ...",
        "def target(value: Dict[str,int], *, key) -> int:",
        "    r'''raw \\n stays'''",
        "    return target(value)",
        "",
      ].join("\n"),
    });
    const r = await list({ path: "mod.py" });
    expect(r.modelText).toBe(
      [
        '<list_definitions status="ok" path="mod.py" count="8" surface="8" v="1">',
        "# module surface",
        "[L   2] import os, a.b as c",
        "[L   3] from . import x",
        "[L   4] from ..m.n import y as z, w",
        "[L   6] from __future__ import annotations",
        "[L   7] X: int",
        "[L   8] MAX_RETRIES = ...",
        "[L   8] A_B = ...",
        "[L  10] __all__ = [\"K\", 'target']",
        "",
        "# definitions",
        "[L  11] @dec",
        "[L  12] @mod.d(1)",
        "[L  13] class K(Base)  # Klasse für Grüße.",
        "[L  17]   async def f(self, a, b, *args: int, c: int, **kw) -&gt; None  # First real line.",
        "[L  21]     def inner()",
        "[L  22]   @property",
        "[L  23]   def p(self) -&gt; 'K'",
        "[L  24] def target(value: Dict[str, int], *, key) -&gt; int  # raw \\n stays",
        "</list_definitions>",
      ].join("\n"),
    );
  });

  it("a docstring that would close the envelope is escaped", async () => {
    await t.put({ "x.py": 'def f():\n    "</list_definitions> & more"\n' });
    const r = await list({ path: "x.py" });
    expect(r.modelText).toContain("[L   1] def f()  # &lt;/list_definitions&gt; &amp; more");
    expect(r.modelText.match(/<\/list_definitions>/g)).toHaveLength(1);
  });

  it("refuses what it cannot outline, saying what to do", async () => {
    await t.put({ "bad.py": "def f(:\n  pass\n", "a.ts": "export const x = 1;\n", "empty.py": "pass\n" });
    expect((await list({ path: "bad.py" })).modelText).toContain('error_kind="syntax_error"');
    expect((await list({ path: "bad.py" })).modelText).toContain("SyntaxError in bad.py at line 1");
    const ts = await list({ path: "a.ts" });
    expect(ts.modelText).toContain('error_kind="unsupported_suffix"');
    expect(ts.modelText).toContain("repo_wide=true");
    expect((await list({ path: "gone.py" })).modelText).toContain('error_kind="not_found"');
    expect((await list({ path: "." })).modelText).toContain('error_kind="is_directory"');
    expect((await list({ path: "empty.py" })).modelText).toContain("(no module surface or definitions found)");
    expect((await list({ path: "empty.py", symbol: "x" })).modelText).toContain('error_kind="needs_repo_wide"');
  });
});

describe("list_definitions: repository-wide", () => {
  async function fixtures(): Promise<void> {
    for (const f of await fsp.readdir(FIXTURES)) await t.put({ [f]: await fsp.readFile(path.join(FIXTURES, f)) });
  }

  const rows = (text: string) => text.split("\n").filter((l) => /^\S+:\d+ (def|ref) /.test(l));

  it("finds the definition and the references of a symbol in all seven languages", async () => {
    await fixtures();
    const defs = await list({ path: ".", repo_wide: true, symbol: "target", kind: "def" });
    expect(rows(defs.modelText)).toEqual([
      "Sample.java:5 def target static String target(String name)",
      "sample.go:6 def target func target(name string) string",
      "sample.js:4 def target function target(name)",
      "sample.py:5 def target def target(name: str) -> str",
      "sample.rs:4 def target fn target(name: &str) -> &str",
      "sample.ts:4 def target function target(name: string): string",
      "sample.tsx:2 def target function target(name: string): string",
    ]);
    const refs = rows((await list({ path: ".", repo_wide: true, symbol: "target", kind: "ref" })).modelText);
    expect(refs.map((r) => r.split(" ")[0])).toEqual([
      "Sample.java:10", "Sample.java:13", "sample.go:13", "sample.go:16", "sample.js:10", "sample.js:14",
      "sample.py:12", "sample.py:15", "sample.rs:14", "sample.rs:19", "sample.ts:15", "sample.ts:19", "sample.tsx:7", "sample.tsx:10",
    ]);
    expect(refs).toContain('sample.py:12 ref target return target(who) + "é"');
    // The view's rows are the same rows as data.
    expect(defs.display).toMatchObject({ kind: "matches", total: 7, page: 1, nextPage: 0 });
    expect(defs.display?.kind === "matches" && defs.display.matches[3]).toEqual({ path: "sample.py", line: 5, text: "def target def target(name: str) -> str" });
  });

  it("lists the declarations each language has", async () => {
    await fixtures();
    const defs = rows((await list({ path: ".", repo_wide: true, kind: "def", page: 1 })).modelText);
    t.ctx.config.tools.search_pagination_enabled = false;
    const all = rows((await list({ path: ".", repo_wide: true, kind: "def" })).modelText);
    expect(defs.length).toBe(25);
    expect(all).toEqual(expect.arrayContaining([
      "sample.go:10 def Greeter type Greeter struct{ who string }",
      "sample.go:12 def Greet func (g Greeter) Greet() string",
      "sample.rs:8 def Greeter struct Greeter",
      "sample.ts:8 def Named interface Named",
      "sample.ts:12 def Greeter class Greeter implements Named",
      "sample.py:2 def GREETING GREETING = \"héllo 👋\"",
      "Sample.java:3 def GREETING static final String GREETING = \"héllo 👋\";",
      "sample.tsx:6 def Hello function Hello(props: { who: string })",
    ]));
  });

  it("pages, counts, keeps files a rule hides out, and caches unchanged files", async () => {
    await t.put({ "a.py": "def target():\n    return 1\ntarget()\n", "b.py": "def target():\n    return 2\ntarget()\n", "secret.py": "def target():\n    return 3\n" });
    t.ctx.config.tools.grep_max_matches_per_page = 1;
    t.ctx.hiddenByRules = (p) => p === "secret.py";
    const args: Args = { path: ".", repo_wide: true, symbol: "target", kind: "def", page: 1 };
    const first = await list(args);
    expect(first.modelText.startsWith('<list_definitions status="ok" mode="repository" path="." total="2" available="2" shown="1" page="1" next_page="2"')).toBe(true);
    expect(first.modelText).toContain("a.py:1 def target def target()");
    const second = await list({ ...args, page: 2 });
    expect(second.modelText).toContain('page="2" next_page="0"');
    expect(second.modelText).toContain('cache_hits="2"');
    expect(second.modelText + first.modelText).not.toContain("secret.py");
    await t.put({ "b.py": "def target():\n    return 22\n" });
    expect((await list({ ...args, page: 2 })).modelText).toContain('cache_hits="1"');
  });

  it("caps the rows and keeps whole rows under the output limit", async () => {
    await t.put(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`file_${i}.py`, `def symbol_${i}_with_a_long_descriptive_name(value: int) -> int:\n    return value\n`])));
    t.ctx.config.tools.search_pagination_enabled = false;
    t.ctx.config.tools.ast_search_max_rows = 5;
    const capped = await list({ path: ".", repo_wide: true, kind: "def" });
    expect(capped.modelText).toMatch(/total="12" available="5" shown="5"/);
    expect(capped.modelText).toContain('capped="true"');
    t.ctx.config.tools.ast_search_max_rows = 100;
    t.ctx.config.output.max_output_chars = 420;
    const cut = await list({ path: ".", repo_wide: true, kind: "def" });
    expect(cut.modelText.length).toBeLessThanOrEqual(420);
    expect(cut.modelText).toContain('char_limited="true"');
    expect(cut.modelText.endsWith("</list_definitions>")).toBe(true);
    for (const row of cut.modelText.split("\n").slice(1, -1)) expect(row).toMatch(/^file_\d+\.py:1 def symbol_\d+_with_a_long_descriptive_name def /);
  });

  it("needs ast_search_enabled as well", async () => {
    t.ctx.config.tools.ast_search_enabled = false;
    const r = await list({ path: ".", repo_wide: true, symbol: "x" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain('status="error" error_kind="ast_search_disabled"');
  });
});
