import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordGlobTool } from "../../tools/chord/glob.js";
import { CONTEXT_OMITTED_FOOTER, LITERAL_NOTE, chordGrepTool } from "../../tools/chord/grep.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

type GrepArgs = { pattern: string; paths?: string[] | string; includes?: string[] | string; context_lines?: number };
const grep = (a: GrepArgs) => chordGrepTool.run(a, t.ctx);
const glob = (patterns: string[] | string, p?: string) =>
  chordGlobTool.run(p === undefined ? { patterns } : { patterns, path: p }, t.ctx);
const NO_MATCH =
  "No matches found. If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";

describe("chord grep", () => {
  it("prints path:line:text sorted by path", async () => {
    await t.put({ "b.txt": "foo\nbar\n", "src/a.ts": "x\nfoo()\n" });
    expect((await grep({ pattern: "foo" })).modelText).toBe("b.txt:1:foo\nsrc/a.ts:2:foo()");
  });

  it("merges nearby windows and prints context as `| path-line-text`", async () => {
    await t.put({ "a.txt": "l1\nhit2\nl3\nhit4\nl5\nl6\nl7\nl8\nhit9\nl10\n" });
    expect((await grep({ pattern: "hit", context_lines: 1 })).modelText).toBe(
      ["| a.txt-1-l1", "a.txt:2:hit2", "| a.txt-3-l3", "a.txt:4:hit4", "| a.txt-5-l5", "| a.txt-8-l8", "a.txt:9:hit9", "| a.txt-10-l10"].join("\n"),
    );
  });

  it("clamps context_lines above 20 with a note", async () => {
    const body = Array.from({ length: 60 }, (_, i) => (i === 30 ? "needle" : `l${i + 1}`)).join("\n");
    await t.put({ "a.txt": body });
    const out = (await grep({ pattern: "needle", context_lines: 50 })).modelText.split("\n");
    expect(out[0]).toBe("Note: context_lines 50 exceeds the maximum of 20; using 20.");
    expect(out.slice(1)).toHaveLength(41);
    expect(out[1]).toBe("| a.txt-11-l11");
  });

  it("shortens long context lines and quotes ambiguous paths", async () => {
    await t.put({ "my dir/a b.txt": `${"y".repeat(300)}\nneedle\n`, "x-1-y.txt": "needle\n" });
    const out = (await grep({ pattern: "needle", context_lines: 1 })).modelText.split("\n");
    expect(out[0]).toBe(`| "my dir/a b.txt"-1-${"y".repeat(256)}...`);
    expect(out[1]).toBe('"my dir/a b.txt":2:needle');
    expect(out[2]).toBe('"x-1-y.txt":1:needle');
  });

  it("filters with includes (brace expansion) and multiple paths", async () => {
    await t.put({ "a/x.go": "hit\n", "a/x.ts": "hit\n", "a/x.md": "hit\n", "b/y.ts": "hit\n" });
    expect((await grep({ pattern: "hit", includes: "*.{go,ts}", paths: ["a"] })).modelText).toBe("a/x.go:1:hit\na/x.ts:1:hit");
    expect((await grep({ pattern: "hit", includes: ["*.ts"], paths: ["a", "b", "gone"] })).modelText).toBe(
      "grep: skipped path: path not found: gone\na/x.ts:1:hit\nb/y.ts:1:hit",
    );
    const res = await grep({ pattern: "hit", paths: ["gone"] });
    expect(res.ok).toBe(false);
    expect(res.modelText).toMatch(/^all search paths failed: path not found: gone\. The path may be stale/);
  });

  it("falls back to a literal search for an invalid regex", async () => {
    await t.put({ "a.txt": "call(x\n" });
    expect((await grep({ pattern: "call(" })).modelText).toBe(`${LITERAL_NOTE}\na.txt:1:call(x`);
    expect((await grep({ pattern: "nope(" })).modelText).toBe(
      NO_MATCH.replace("No matches found.", "No matches found. (pattern was invalid regex; searched as literal text)"),
    );
  });

  it("answers the no-match text", async () => {
    await t.put({ "a.txt": "abc\n" });
    expect(await grep({ pattern: "zzz" })).toMatchObject({ ok: true, modelText: NO_MATCH });
  });

  it("caps at 120 matches with the footer", async () => {
    await t.put({ "a.txt": Array.from({ length: 200 }, () => "hit").join("\n") });
    const out = (await grep({ pattern: "hit" })).modelText;
    expect(out.endsWith("\n\n(showing first 120 matches within 12 KiB; narrow paths/includes/pattern for more precise results)")).toBe(true);
    expect(out.split("\n\n")[0]!.split("\n")).toHaveLength(120);
  });

  it("caps at 12 KiB with the footer", async () => {
    await t.put({ "a.txt": Array.from({ length: 100 }, (_, i) => `hit ${i} ${"z".repeat(200)}`).join("\n") });
    const out = (await grep({ pattern: "hit" })).modelText;
    const [body, footer] = out.split("\n\n");
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(12 * 1024);
    const n = body!.split("\n").length;
    expect(n).toBeLessThan(100);
    expect(footer).toBe(`(showing first ${n} matches within 12 KiB; narrow paths/includes/pattern for more precise results)`);
  });

  it("drops context once the budget has no room, keeping later matches bare", async () => {
    const rows: string[] = [];
    for (let i = 0; i < 40; i++) rows.push(`ctx ${"c".repeat(240)}`, `hit${i}`, `ctx ${"c".repeat(240)}`, "gap", "gap");
    await t.put({ "a.txt": rows.join("\n") });
    const out = (await grep({ pattern: "^hit", context_lines: 1 })).modelText;
    expect(out.endsWith(CONTEXT_OMITTED_FOOTER)).toBe(true);
    const body = out.slice(0, -CONTEXT_OMITTED_FOOTER.length).split("\n");
    expect(body.filter((l) => l.startsWith("a.txt:"))).toHaveLength(40);
    expect(body.at(-1)).toBe("a.txt:197:hit39");
    expect(body.at(-2)).toBe("a.txt:192:hit38");
    expect(Buffer.byteLength(body.join("\n"))).toBeLessThanOrEqual(12 * 1024);
  });
});

describe("chord glob", () => {
  it("matches patterns relative to the base, sorted, and lists them relative to the base (as Chord's path text says)", async () => {
    await t.put({ "src/a.ts": "", "src/deep/b.ts": "", "src/c.js": "", "top.ts": "", ".git/x.ts": "" });
    expect((await glob("**/*.ts")).modelText).toBe("src/a.ts\nsrc/deep/b.ts\ntop.ts");
    expect((await glob(["*.ts", "*.js"], "src")).modelText).toBe("a.ts\nc.js");
    expect((await glob("**/*.{js,ts}", "src")).modelText).toBe("a.ts\nc.js\ndeep/b.ts");
  });

  it("answers the no-match text", async () => {
    expect(await glob("*.nothing")).toMatchObject({ ok: true, modelText: "No files matched the pattern." });
  });

  it("caps at 250 results with the footer", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    await t.put(files);
    const out = (await glob("*.txt")).modelText;
    const [body, footer] = out.split("\n\n");
    expect(body!.split("\n")).toHaveLength(250);
    expect(footer).toMatch(/^\(showing first 250 results within 16 KiB; full results saved to \S+glob-results-\S+\.log; refine pattern\/path to narrow results\)$/);
  });

  it("caps at 16 KiB with the footer", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`${"d".repeat(100)}/${String(i).padStart(3, "0")}.txt`] = "";
    await t.put(files);
    const [body, footer] = (await glob("**/*.txt")).modelText.split("\n\n");
    const n = body!.split("\n").length;
    expect(n).toBeLessThan(200);
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(16 * 1024);
    expect(footer).toMatch(new RegExp(`^\\(showing first ${n} results within 16 KiB; full results saved to \\S+; refine pattern/path to narrow results\\)$`));
  });
});

describe("chord grep and glob: a path with ~", () => {
  it("expands ~ to the home directory; the path must still lie in the project", async () => {
    await t.put({ "src/a.ts": "needle\n" });
    const saved = process.env.HOME;
    // The project's parent is home, so ~/<project>/src is the project's src.
    process.env.HOME = path.dirname(t.cwd);
    try {
      const viaHome = `~/${path.basename(t.cwd)}/src`;
      expect((await glob("*.ts", viaHome)).modelText).toBe("a.ts");
      expect((await grep({ pattern: "needle", paths: [viaHome] })).modelText).toBe("src/a.ts:1:needle");
      expect((await glob("*.ts", "~")).ok).toBe(false);
    } finally {
      process.env.HOME = saved;
    }
  });
});
