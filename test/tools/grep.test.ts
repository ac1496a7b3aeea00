import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grepTool } from "../../tools/yuj/grep.js";
import { findRipgrep } from "../../tools/lib/grep/ripgrep.js";
import { grepFallback } from "../../tools/lib/grep/fallback.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({
    "b.py": "import os\ndef main():\n    os.exit(0)\n",
    "a.py": "x = 1\n# main entry\n",
    "src/deep/c.ts": "export function main() {}\n",
    "src/deep/d.md": "main docs\n",
    "notes.txt": "nothing here\n",
  });
});
afterEach(() => t.cleanup());

const grep = (args: { pattern: string; path?: string; glob?: string; page?: number }) => grepTool.run(args, t.ctx);

describe("grep", () => {
  it("finds a ripgrep binary", async () => {
    expect(await findRipgrep(t.ctx)).toBeTruthy();
  });

  it("prints path:line:content sorted by path then line, in the envelope", async () => {
    const r = await grep({ pattern: "main" });
    expect(r).toMatchObject({
      ok: true,
      modelText: [
        '<search_result tool="grep" total="4" shown="4" page="1" next_page="0" pattern="main" scope=".">',
        "./a.py:2:# main entry",
        "./b.py:2:def main():",
        "./src/deep/c.ts:1:export function main() {}",
        "./src/deep/d.md:1:main docs",
        "</search_result>",
      ].join("\n"),
    });
  });

  it("sorts line numbers numerically", async () => {
    await t.put({ "many.txt": Array.from({ length: 12 }, () => "hit").join("\n") + "\n" });
    const r = await grep({ pattern: "hit", path: "many.txt" });
    const lines = r.modelText.split("\n").slice(1, -1);
    // One file searched alone is not named on its lines, as ripgrep prints one file.
    expect(lines.map((l) => Number(l.split(":")[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(lines[0]).toBe("1:hit");
  });

  it("adds ` glob=G` to the scope and filters file names", async () => {
    const r = await grep({ pattern: "main", path: "src", glob: "*.ts" });
    expect(r.modelText).toBe(
      '<search_result tool="grep" total="1" shown="1" page="1" next_page="0" pattern="main" scope="src glob=*.ts">\n' +
        "./src/deep/c.ts:1:export function main() {}\n</search_result>",
    );
  });

  it("pages with next_page", async () => {
    t.ctx.config.tools.grep_max_matches_per_page = 3;
    const p1 = await grep({ pattern: "main" });
    expect(p1.modelText).toContain('total="4" shown="3" page="1" next_page="2"');
    const p2 = await grep({ pattern: "main", page: 2 });
    expect(p2.modelText).toContain('total="4" shown="1" page="2" next_page="0"');
    expect(p2.modelText).toContain("\n./src/deep/d.md:1:main docs\n");
  });

  it("returns an empty envelope, or `No matches found.` without pagination", async () => {
    expect((await grep({ pattern: "zebra" })).modelText).toBe(
      '<search_result tool="grep" total="0" shown="0" page="1" next_page="0" pattern="zebra" scope=".">\n\n</search_result>',
    );
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await grep({ pattern: "zebra" })).modelText).toBe("No matches found.");
    expect((await grep({ pattern: "os\\.exit" })).modelText).toBe("./b.py:3:    os.exit(0)");
  });

  it("reports rg errors as `ERROR: grep failed: ...`", async () => {
    const bad = await grep({ pattern: "(unclosed" });
    expect(bad.ok).toBe(false);
    expect(bad.modelText).toMatch(/^ERROR: grep failed: regex parse error/);
    expect(await grep({ pattern: "x", path: "missing" })).toMatchObject({
      ok: false,
      modelText: "ERROR: grep failed: missing: No such file or directory (os error 2)",
    });
    expect((await grep({ pattern: "x", path: "../.." })).modelText).toBe("ERROR: path escapes cwd: ../..");
  });

  it("treats a pattern starting with - as a pattern", async () => {
    await t.put({ "flags.txt": "--verbose\n" });
    expect((await grep({ pattern: "--verbose" })).modelText).toContain("flags.txt:1:--verbose");
  });

  it("times out, killing the search", async () => {
    t.ctx.config.tools.grep_timeout = 1;
    // Stand in a search that never finishes for the rg binary.
    const spawn = t.ctx.services.spawn;
    t.ctx.services = {
      ...t.ctx.services,
      spawn: ((_cmd: string, _args: string[], opts: object) => spawn("sleep", ["30"], opts)) as typeof spawn,
    };
    const started = Date.now();
    expect(await grep({ pattern: "x" })).toMatchObject({ ok: false, modelText: "ERROR: grep timed out after 1s" });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("stops on cancel", async () => {
    const spawn = t.ctx.services.spawn;
    t.ctx.services = {
      ...t.ctx.services,
      spawn: ((_cmd: string, _args: string[], opts: object) => spawn("sleep", ["30"], opts)) as typeof spawn,
    };
    setTimeout(() => t.abort.abort(), 100);
    expect(await grep({ pattern: "x" })).toMatchObject({ ok: false, modelText: "ERROR: grep cancelled" });
  });
});

describe("grep fallback", () => {
  const tree = {
    ".git/HEAD": "ref: main\n",
    ".gitignore": "ignored/\n*.log\n!keep.log\n",
    "ignored/x.py": "main\n",
    "run.log": "main\n",
    "keep.log": "main\n",
    ".hidden/h.py": "main\n",
    "sub/.ignore": "skip.py\n",
    "sub/skip.py": "main\n",
    "sub/ok.py": "main()\n  main  \n",
    "bin.dat": Buffer.from("main\0binary"),
    "crlf.txt": "main\r\nother\r\n",
    "nolf.txt": "main",
  };

  const both = async (pattern: string, scope = ".", glob?: string) => {
    const viaRg = await grepTool.run({ pattern, path: scope, ...(glob ? { glob } : {}) }, t.ctx);
    const where = path.join(await fsp.realpath(t.cwd), scope);
    const viaJs = await grepFallback({
      fs: t.ctx.services.fs,
      pattern,
      glob,
      scopeAbs: where,
      cwdReal: await fsp.realpath(t.cwd),
      signal: t.ctx.signal,
    });
    if (!viaJs.ok) throw new Error(viaJs.error);
    // The handler writes a folder's paths with `./` and leaves a lone file's name out; the engine prints paths from the root.
    const rgLines = viaRg.modelText.split("\n").slice(1, -1).map((l) => l.replace(/^\.\//, ""));
    const oneFile = (await fsp.stat(where)).isFile();
    const jsLines = viaJs.lines.map((l) => (oneFile ? l.slice(scope.length + 1) : l)).sort();
    return { rgLines: [...rgLines].sort(), jsLines };
  };

  it("prints the same lines as rg, with rg's default filters", async () => {
    await t.put(tree);
    for (const [pattern, scope, glob] of [
      ["main", "."],
      ["^main$", "."],
      ["(?i)MAIN", "."],
      ["main", "sub"],
      ["main", ".", "*.py"],
      ["main", ".", "!*.py"],
      ["main", "sub/skip.py"],
      ["main", "sub/skip.py", "*.md"],
    ] as Array<[string, string, string?]>) {
      const { rgLines, jsLines } = await both(pattern, scope, glob);
      expect(jsLines, `${pattern} ${scope} ${glob ?? ""}`).toEqual(rgLines);
    }
  });

  it("reports a bad regex", async () => {
    const r = await grepFallback({
      fs: t.ctx.services.fs,
      pattern: "(",
      scopeAbs: t.cwd,
      cwdReal: await fsp.realpath(t.cwd),
      signal: t.ctx.signal,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^regex parse error: /);
  });
});
