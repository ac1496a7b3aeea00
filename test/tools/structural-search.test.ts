// structural_search with the real grammars on real files. Every position the
// tool reports is checked against one computed here from the file's bytes
// alone (Buffer.indexOf, counting newline bytes), so a UTF-16 column or
// offset leaking through fails: each fixture has multibyte text before and
// inside its matches.

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { structuralSearchTool } from "../../tools/yuj/structural_search.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const FIXTURES = path.join(import.meta.dirname, "..", "..", "fixtures", "structural");

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

type Args = { path: string; language: string; query: string; glob?: string; replacement?: string; page?: number };
const search = (args: Args) => structuralSearchTool.run(args, t.ctx);

/** 1-based line and byte column of a byte offset, from the bytes alone. */
function lineCol(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function offsetsOf(bytes: Buffer, needle: string): number[] {
  const n = Buffer.from(needle, "utf8");
  const out: number[] = [];
  for (let at = bytes.indexOf(n); at >= 0; at = bytes.indexOf(n, at + 1)) out.push(at);
  return out;
}

const digest = (s: string) => createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex").slice(0, 12);

/** The result's match lines as [path, line, column, start, end, digest, node type]. */
function parsed(text: string): Array<[string, number, number, number, number, string, string]> {
  return [...text.matchAll(/^(\S+):(\d+):(\d+) bytes=\[(\d+),(\d+)\) digest=([0-9a-f]{12}) \((\w+)\) /gm)].map((m) => [
    m[1]!, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), m[6]!, m[7]!,
  ]);
}

const LANGS: Array<{ language: string; file: string; stringNode: string }> = [
  { language: "python", file: "sample.py", stringNode: "string" },
  { language: "javascript", file: "sample.js", stringNode: "string" },
  { language: "typescript", file: "sample.ts", stringNode: "string" },
  { language: "tsx", file: "sample.tsx", stringNode: "string" },
  { language: "go", file: "sample.go", stringNode: "interpreted_string_literal" },
  { language: "rust", file: "sample.rs", stringNode: "string_literal" },
  { language: "java", file: "Sample.java", stringNode: "string_literal" },
];

describe("structural_search: positions in UTF-8 bytes, every language", () => {
  for (const { language, file, stringNode } of LANGS) {
    it(`${language}: each identifier named target, at its byte position`, async () => {
      const bytes = await fsp.readFile(path.join(FIXTURES, file));
      await t.put({ [file]: bytes });
      const r = await search({ path: file, language, query: '((identifier) @match (#eq? @match "target"))' });
      expect(r.ok, r.modelText).toBe(true);
      const expected = offsetsOf(bytes, "target").map((o) => {
        const { line, column } = lineCol(bytes, o);
        return [file, line, column, o, o + 6, digest("target"), "identifier"];
      });
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(parsed(r.modelText)).toEqual(expected);
      expect(r.modelText).toContain(`total="${expected.length}"`);
    });

    it(`${language}: a string literal holding é and an emoji: byte range and columns`, async () => {
      const bytes = await fsp.readFile(path.join(FIXTURES, file));
      await t.put({ [file]: bytes });
      const literal = '"héllo 👋"';
      const r = await search({ path: file, language, query: `((${stringNode}) @match (#eq? @match "\\"héllo 👋\\""))` });
      expect(r.ok, r.modelText).toBe(true);
      const [at] = offsetsOf(bytes, literal);
      const { line, column } = lineCol(bytes, at!);
      expect(parsed(r.modelText)).toEqual([[file, line, column, at, at! + Buffer.byteLength(literal), digest(literal), stringNode]]);
      // The preview is the matched text itself.
      expect(r.modelText).toContain(`(${stringNode}) ${literal}`);
    });
  }
});

describe("structural_search: directories", () => {
  async function repo(files: Record<string, string | Buffer>): Promise<void> {
    await t.put(files);
    execFileSync("git", ["init", "-q"], { cwd: t.cwd });
  }

  it("searches only the language's files, honours .gitignore and glob, and sorts by path", async () => {
    await repo({
      ".gitignore": "build/\n",
      "b.py": "x = old\n",
      "a/c.py": "old = 2\n",
      "build/gen.py": "old = 3\n",
      "notes.txt": "old\n",
      "a/d.js": "old;\n",
    });
    const q = { path: ".", language: "python", query: '((identifier) @match (#eq? @match "old"))' };
    const all = await search(q);
    expect(parsed(all.modelText).map((m) => `${m[0]}:${m[1]}:${m[2]}`)).toEqual(["a/c.py:1:1", "b.py:1:5"]);
    expect(all.modelText).toContain('files="2"');
    const globbed = await search({ ...q, glob: "a/**" });
    expect(parsed(globbed.modelText).map((m) => m[0])).toEqual(["a/c.py"]);
  });

  it("pages with next_page and counts the total", async () => {
    await repo(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`m${i}.py`, `v = ${i}\nv = v + 1\n`])));
    t.ctx.config.tools.grep_max_matches_per_page = 5;
    const q = { path: ".", language: "python", query: '((identifier) @match (#eq? @match "v"))' };
    const first = await search(q);
    expect(first.modelText).toMatch(/total="21" shown="5" page="1" next_page="2"/);
    const last = await search({ ...q, page: 5 });
    expect(last.modelText).toMatch(/total="21" shown="1" page="5" next_page="0"/);
    expect(parsed(last.modelText).map((m) => `${m[0]}:${m[1]}:${m[2]}`)).toEqual(["m6.py:2:5"]);
    // The view gets the matches as data, not the envelope.
    expect(last.display).toEqual({ kind: "matches", matches: [{ path: "m6.py", line: 2, text: "(identifier) v" }], total: 21, page: 5, nextPage: 0 });
    const past = await search({ ...q, page: 9 });
    expect(past.modelText).toContain("past the last page of 21 matches");
  });

  it("shows every match on one page when pagination is off", async () => {
    await repo(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`m${i}.py`, `v = ${i}\nv = v + 1\n`])));
    t.ctx.config.tools.search_pagination_enabled = false;
    const r = await search({ path: ".", language: "python", query: '((identifier) @match (#eq? @match "v"))' });
    expect(r.modelText).toMatch(/total="21" shown="21" page="1" next_page="0"/);
    expect(parsed(r.modelText)).toHaveLength(21);
  });

  it("leaves out files a path rule keeps from being read", async () => {
    await repo({ "open.py": "k = 1\n", "secret.py": "k = 2\n" });
    t.ctx.hiddenByRules = (p) => p === "secret.py";
    const r = await search({ path: ".", language: "python", query: '((identifier) @match (#eq? @match "k"))' });
    expect(parsed(r.modelText).map((m) => m[0])).toEqual(["open.py"]);
    const direct = await search({ path: "secret.py", language: "python", query: "(identifier) @match" });
    expect(direct.ok).toBe(false);
    expect(direct.modelText).toContain("permission denied");
  });

  it("skips a file that is not UTF-8 and says how many were skipped", async () => {
    await repo({ "ok.py": "z = 1\n", "latin1.py": Buffer.from([0x7a, 0x20, 0x3d, 0x20, 0x22, 0xe9, 0x22, 0x0a]) });
    const r = await search({ path: ".", language: "python", query: '((identifier) @match (#eq? @match "z"))' });
    expect(r.modelText).toContain('skipped="1"');
    expect(parsed(r.modelText).map((m) => m[0])).toEqual(["ok.py"]);
  });
});

describe("structural_search: refusals name what is wrong", () => {
  beforeEach(() => t.put({ "a.py": "name = 1\n" }));

  it("a query without @match names the rule", async () => {
    const r = await search({ path: "a.py", language: "python", query: "(identifier) @name" });
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain('error_kind="match_capture"');
    expect(r.modelText).toContain("every query match must contain exactly one @match capture");
  });

  it("a @match that may capture several nodes, and one pattern of two without it", async () => {
    const many = await search({ path: "a.py", language: "python", query: "(module (expression_statement)+ @match)" });
    expect(many.modelText).toContain("pattern 1 (line 1) can capture zero or several @match nodes");
    const second = await search({ path: "a.py", language: "python", query: "(identifier) @match\n(integer) @n" });
    expect(second.modelText).toContain("pattern 2 (line 2) has no @match capture");
  });

  it("a query that does not compile, with where", async () => {
    const r = await search({ path: "a.py", language: "python", query: "(identifer) @match" });
    expect(r.modelText).toContain('error_kind="query_error"');
    expect(r.modelText).toMatch(/does not compile for python at line 1, column \d+: .*identifer/);
  });

  it("a predicate tree-sitter would ignore", async () => {
    const r = await search({ path: "a.py", language: "python", query: '((identifier) @match (#starts-with? @match "n"))' });
    expect(r.modelText).toContain("unsupported predicate #starts-with?");
  });

  it("an unsupported language lists the shipped ones", async () => {
    const r = await search({ path: "a.py", language: "ruby", query: "(identifier) @match" });
    expect(r.modelText).toContain('error_kind="unsupported_language"');
    expect(r.modelText).toContain("python, javascript, typescript, tsx, go, rust, java");
  });

  it("a replacement over a directory, a missing path, a path outside", async () => {
    const dir = await search({ path: ".", language: "python", query: "(identifier) @match", replacement: "x" });
    expect(dir.modelText).toContain('error_kind="needs_file"');
    const missing = await search({ path: "nope.py", language: "python", query: "(identifier) @match" });
    expect(missing.modelText).toContain('error_kind="not_found"');
    const outside = await search({ path: "../x.py", language: "python", query: "(identifier) @match" });
    expect(outside.modelText).toContain('error_kind="path_outside_cwd"');
  });
});
