import { describe, expect, it } from "vitest";
import { escapeGlob, globMatch, globMatchesSome, HOLE, isLiteral, isUniversal, literalValue } from "../../core/permissions/glob.js";

describe("globMatch", () => {
  it.each<[string, string, boolean]>([
    // anchoring: the whole value, never a part
    ["ls", "ls", true],
    ["ls", "ls -la", false],
    ["ls", "xls", false],
    ["-la", "ls -la", false],
    // `*`: any run, empty included, across `/`, spaces and newlines
    ["*", "", true],
    ["*", "anything at/all\nreally", true],
    ["src/*", "src/a/b/c.ts", true],
    ["src/*", "src", false],
    ["src/*", "lib/src/a", false],
    ["*.ts", "a/b/c.ts", true],
    ["*.ts", "a/b/c.tsx", false],
    ["git * --force", "git push origin main --force", true],
    ["a*b*c", "aXXbYYc", true],
    ["a*b*c", "aXXbYY", false],
    ["**", "x/y", true],
    // `?`: exactly one character, `/` and space included, by code point
    ["?", "a", true],
    ["?", "", false],
    ["?", "ab", false],
    ["a?c", "a/c", true],
    ["a?c", "a c", true],
    ["?", "é", true],
    ["?", "😀", true],
    // the trailing ` *` rule: also matches without the suffix
    ["ls *", "ls", true],
    ["ls *", "ls -la", true],
    ["ls *", "ls ", true],
    ["ls *", "lsof", false],
    ["ls *", "xls", false],
    ["git checkout -- *", "git checkout --", true],
    ["git checkout -- *", "git checkout -- a.ts", true],
    ["git checkout -- *", "git checkout main", false],
    ["rm *", "rm", true],
    ["rm *", "rmdir x", false],
    // other characters are literal
    ["a.b", "axb", false],
    ["[ab]", "a", false],
    ["[ab]", "[ab]", true],
    // a backslash escapes `*`, `?` and itself; before anything else it is itself
    ["a\\*", "a*", true],
    ["a\\*", "a\\xyz", false],
    ["a\\*", "axyz", false],
    ["a\\?", "a?", true],
    ["a\\?", "ab", false],
    ["a\\\\*", "a\\xyz", true],
    ["a\\d", "a\\d", true],
    ["rm -f \\*.log", "rm -f *.log", true],
    ["rm -f \\*.log", "rm -f build.log", false],
    ["rm \\*", "rm", false],
    ["(x)+", "(x)+", true],
    // patterns with `/` and spaces
    ["npm run *", "npm run test -- --watch", true],
    ["/etc/*", "/etc/passwd", true],
    ["/etc/*", "etc/passwd", false],
    ["docs/* draft", "docs/a b draft", true],
  ])("%j vs %j → %s", (pattern, value, expected) => {
    expect(globMatch(pattern, value)).toBe(expected);
  });

  it("is case-sensitive", () => {
    expect(globMatch("README*", "readme.md")).toBe(false);
  });

  it("stays fast on patterns that would blow up a backtracking regex", () => {
    const start = Date.now();
    expect(globMatch("*a*a*a*a*a*a*a*a*a*b", "a".repeat(5000))).toBe(false);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe("isUniversal / isLiteral", () => {
  it("knows the universal patterns", () => {
    expect(isUniversal(undefined)).toBe(true);
    expect(isUniversal("*")).toBe(true);
    expect(isUniversal("**")).toBe(true);
    expect(isUniversal("* *")).toBe(false);
    expect(isUniversal("?")).toBe(false);
    expect(isUniversal("")).toBe(false);
  });
  it("knows literal names", () => {
    expect(isLiteral("edit")).toBe(true);
    expect(isLiteral("ed*")).toBe(false);
    expect(isLiteral("e?it")).toBe(false);
    expect(isLiteral("rm \\*.log")).toBe(true);
    expect(literalValue("rm \\*.log \\\\ \\?")).toBe("rm *.log \\ ?");
  });
});

describe("escapeGlob", () => {
  it.each(["rm -f *.log", "a?b", "back\\slash \\* mixed", "plain text", "*", "\\", "ls *"])("%j gives a pattern matching only itself", (value) => {
    const pattern = escapeGlob(value);
    expect(isLiteral(pattern)).toBe(true);
    expect(literalValue(pattern)).toBe(value);
    expect(globMatch(pattern, value)).toBe(true);
    expect(globMatch(pattern, `${value}x`)).toBe(false);
    expect(globMatch(pattern, value.replace(/[*?]/g, "Z"))).toBe(value.replace(/[*?]/g, "Z") === value);
  });
  it("keeps a trailing ` *` literal: `ls \\*` is not `ls` plus anything", () => {
    expect(globMatch(escapeGlob("ls *"), "ls")).toBe(false);
    expect(globMatch(escapeGlob("ls *"), "ls -la")).toBe(false);
  });
});

describe("globMatchesSome (values with unknown stretches)", () => {
  it.each<[string, Array<string | null>, boolean]>([
    ["rm *", ["rm ", HOLE], true],
    ["rm important.txt", ["rm ", HOLE], true],
    ["rm important.txt", ["rm imp", HOLE], true],
    ["rm important.txt", ["rm x", HOLE], false],
    ["rm *.log", ["rm ", HOLE, ".txt"], false],
    ["rm *.log", ["rm ", HOLE], true],
    ["git push *", ["git ", HOLE], true],
    ["git push *", ["git status"], false],
    ["ls", [HOLE], true],
    ["rm -rf /", ["rm -rf ", HOLE, "/x"], false],
    ["rm * /", ["rm -f ", HOLE], true],
    ["rm ?", ["rm ", HOLE], true],
    ["rm ??", ["rm ", HOLE, "abc"], false],
    ["rm \\*", ["rm ", HOLE], true],
    ["rm \\*", ["rm x"], false],
    ["ls *", ["ls"], true],
  ])("%j over %j → %s", (pattern, parts, expected) => {
    expect(globMatchesSome(pattern, parts)).toBe(expected);
  });
});
