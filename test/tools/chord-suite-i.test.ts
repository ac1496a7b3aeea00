// Chord's glob and grep as Chord's own glob and grep tests pin what a model
// sees (ninth set): glob's required `patterns`, the legacy singular `pattern`
// and a bare string read as a list with a note, overlapping patterns listing a
// file once; grep's per-pattern literal fallback naming only the invalid
// patterns, an empty pattern matching nothing, inline flags scoped to their
// pattern, control bytes stripped from matched lines, binary files skipped,
// pipes and device paths refused, a space-joined path list answered with the
// array hint, a missing path among good ones skipped with a note, and
// includes globs over the path.

import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const NO_MATCHES =
  "No matches found. If the symbol or phrase is expected, try alternate naming, a narrower literal, or broaden the search scope (paths/includes) before assuming absence.";
const STALE =
  "The path may be stale or relative to a different working directory. Verify the current working directory or use a discovery tool (glob/grep from the repo root) to locate the target before retrying. Do not guess a similar-looking path.";
const SINGLE = 'Note: patterns was a single string and was treated as a one-item list. Use the documented array form, for example patterns: ["**/*.go"], in future calls.';

describe("chord glob arguments, as Chord's glob tests pin them", () => {
  beforeEach(() => t.put({ "a.go": "x\n", "sub/b.go": "package b\n" }));

  it("empty arguments say patterns is required", async () => {
    const r = await chordCall(t, "glob", {});
    expect(r.ok).toBe(false);
    expect(r.text).toBe("ERROR: bad arguments for glob: patterns is required (string | array)");
  });

  it("a bare string is one pattern, with a note; an array has no note", async () => {
    expect((await chordCall(t, "glob", { patterns: "**/*.go" })).text).toBe(`${SINGLE}\na.go\nsub/b.go`);
    expect((await chordCall(t, "glob", { patterns: ["**/*.go"], path: t.cwd })).text).toBe("a.go\nsub/b.go");
  });

  it("the legacy singular pattern is read as patterns", async () => {
    const r = await chordCall(t, "glob", { pattern: "**/*.go" });
    expect(r.ok).toBe(true);
    expect(r.text).toBe(`Note: glob has no parameter "pattern"; it was read as "patterns".\n${SINGLE}\na.go\nsub/b.go`);
  });

  it("overlapping patterns list a file once", async () => {
    expect((await chordCall(t, "glob", { patterns: ["**/*.go", "**/a.*"] })).text).toBe("a.go\nsub/b.go");
  });
});

describe("chord grep patterns, as Chord's grep tests pin them", () => {
  beforeEach(() => t.put({ "s.go": "func Foo(x int) {}\nfunc Bar(y int) {}\nplain line\nBAR upper\nbar lower\nfoo lower\n" }));

  it("an invalid pattern is searched as literal text, its neighbours keep regex meaning, and only it is named", async () => {
    const r = await chordCall(t, "grep", { patterns: ["func Foo(", "^bar"] });
    expect(r.text).toBe('Note: patterns "func Foo(" were invalid regex; searched as literal text.\ns.go:1:func Foo(x int) {}\ns.go:5:bar lower');
  });

  it("an empty pattern does not match every line", async () => {
    expect((await chordCall(t, "grep", { patterns: ["foo", ""] })).text).toBe("s.go:6:foo lower");
  });

  it("an inline flag applies to its own pattern only", async () => {
    expect((await chordCall(t, "grep", { patterns: ["(?i)foo", "bar"] })).text).toBe("s.go:1:func Foo(x int) {}\ns.go:5:bar lower\ns.go:6:foo lower");
  });

  it("a single invalid pattern with no match says it was searched literally", async () => {
    expect((await chordCall(t, "grep", { pattern: "func (" })).text).toBe(NO_MATCHES.replace("found.", "found. (pattern was invalid regex; searched as literal text)"));
  });
});

describe("chord grep files and paths, as Chord's grep tests pin them", () => {
  it("strips escape and control bytes from a matched line and skips a binary file", async () => {
    await t.put({ "log.txt": "normal\nmatch \x1b[31mred\x1b[0m a\x07c\x7fd end\n", "sample.pyc": "\x00header thinking\x00tail" });
    const r = await chordCall(t, "grep", { pattern: "match|thinking" });
    expect(r.text).toBe("log.txt:2:match [31mred[0m acd end");
  });

  it("refuses a named pipe and a device path", async () => {
    execFileSync("mkfifo", [`${t.cwd}/in.pipe`]);
    const pipe = await chordCall(t, "grep", { pattern: "FAIL", paths: ["in.pipe"] });
    expect(pipe.ok).toBe(false);
    expect(pipe.text).toBe(`all search paths failed: in.pipe is not a regular file. ${STALE}`);
    const dev = await chordCall(t, "grep", { pattern: "FAIL", paths: ["/dev/stdin"] });
    expect(dev.text).toBe(`all search paths failed: blocked device path: /dev/stdin (grep searches regular files only). ${STALE}`);
  });

  it("a space-joined list of existing paths is answered with the array hint", async () => {
    await t.put({ "cmd/c.go": "needle\n", "internal/i.go": "needle\n" });
    const r = await chordCall(t, "grep", { pattern: "needle", paths: ["cmd internal"] });
    expect(r.ok).toBe(false);
    expect(r.text).toBe(
      `all search paths failed: path not found: cmd internal. grep.paths accepts an array of file or directory paths; to search multiple directories, pass each path as a separate array item, e.g. paths: ["cmd","internal"]. ${STALE}`,
    );
    expect((await chordCall(t, "grep", { pattern: "needle", paths: ["cmd", "internal"] })).text).toBe("cmd/c.go:1:needle\ninternal/i.go:1:needle");
  });

  it("a missing path beside a good one is skipped with a note, not reported as all failed", async () => {
    await t.put({ "good/a.go": "nothing here\n" });
    const r = await chordCall(t, "grep", { pattern: "needle", paths: ["good", "missing"] });
    expect(r.ok).toBe(true);
    expect(r.text).toBe(`grep: skipped path: path not found: missing\n${NO_MATCHES}`);
  });

  it("includes match against the path below the search root", async () => {
    await t.put({ "internal/a.go": "needle\n", "cmd/a.go": "needle\n", "internal/a.md": "needle\n" });
    expect((await chordCall(t, "grep", { pattern: "needle", includes: ["internal/**/*.go"] })).text).toBe("internal/a.go:1:needle");
  });

  it("includes only narrow: a file the .gitignore hides stays hidden, with the legacy path and glob names too", async () => {
    execFileSync("git", ["init", "-q"], { cwd: t.cwd });
    await t.put({ ".gitignore": ".*\n", "pkg/code.go": "package pkg\n// needle here\n", ".hidden.go": "// needle hidden\n", "a.md": "needle\n" });
    expect((await chordCall(t, "grep", { pattern: "needle" })).text).toBe("a.md:1:needle\npkg/code.go:2:// needle here");
    expect((await chordCall(t, "grep", { pattern: "needle", includes: ["**/*.go"] })).text).toBe("pkg/code.go:2:// needle here");
    const legacy = await chordCall(t, "grep", { pattern: "needle", path: t.cwd, glob: "*.go" });
    expect(legacy.text.split("\n").filter((l) => !l.startsWith("Note: "))).toEqual(["pkg/code.go:2:// needle here"]);
    expect(legacy.text).toContain('Note: grep has no parameter "glob"; it was read as "includes".');
  });

  it("brace alternation in includes", async () => {
    await t.put({ "src/a.ts": "hit\n", "src/b.tsx": "hit\n", "src/c.go": "hit\n" });
    expect((await chordCall(t, "grep", { pattern: "hit", includes: ["**/*.{ts,tsx}"] })).text).toBe("src/a.ts:1:hit\nsrc/b.tsx:1:hit");
  });
});

describe("chord glob syntax errors, as Chord's glob tests pin them", () => {
  it("an unclosed class says patterns are globs, not regexes", async () => {
    const r = await chordCall(t, "glob", { patterns: ["["] });
    expect(r.ok).toBe(false);
    expect(r.text).toBe('glob error: invalid pattern "[" (unclosed [); patterns use glob syntax like **/*.go, not regex syntax');
  });
});
