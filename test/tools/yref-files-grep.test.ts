// grep's glob takes a comma list of globs (`*.py,*.ts`) as "any of them":
// taken literally it matched no file name, and the search found nothing.

import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findRipgrep } from "../../tools/lib/grep/ripgrep.js";
import { globList } from "../../tools/lib/glob-list.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "a.py": "needle\n", "b.ts": "needle\n", "c.md": "needle\n" });
});
afterEach(() => t.cleanup());

const grep = (glob: string) => grepTool.run({ pattern: "needle", glob }, t.ctx);

describe("grep glob lists", () => {
  it.each(["*.py,*.ts", "*.py, *.ts", "{*.py,*.ts}"])("%j searches both kinds of file", async (glob) => {
    expect((await grep(glob)).modelText).toBe(
      `<search_result tool="grep" total="2" shown="2" page="1" next_page="0" pattern="needle" scope=". glob=${glob}">\n` +
        "./a.py:1:needle\n./b.ts:1:needle\n</search_result>",
    );
  });

  it("leaves a single glob, a brace or class with commas, and an exclusion as written", () => {
    expect(globList("*.py")).toBe("*.py");
    expect(globList("*.{py,ts}")).toBe("*.{py,ts}");
    expect(globList("[a,b].py")).toBe("[a,b].py");
    expect(globList("*.py,!*_test.py")).toBe("*.py,!*_test.py");
    expect(globList("*.py,")).toBe("*.py,");
  });
});

describe("look-around and backreferences", () => {
  it("are searched with PCRE2 when ripgrep's default engine refuses them", async () => {
    // The ripgrep yuj finds (the system's or the bundled one) is built with
    // PCRE2; without it this behaviour is gone, so the test says so rather
    // than skipping.
    const rg = await findRipgrep(t.ctx);
    expect(rg, "no ripgrep found").toBeDefined();
    expect(execFileSync(rg!, ["--pcre2-version"], { encoding: "utf8" }), "this ripgrep lacks PCRE2").toMatch(/is available/);
    await t.put({ "d.txt": "foobar\nfoobaz\nabab\n" });
    expect((await grepTool.run({ pattern: "foo(?=bar)", path: "d.txt" }, t.ctx)).modelText).toBe(
      '<search_result tool="grep" total="1" shown="1" page="1" next_page="0" pattern="foo(?=bar)" scope="d.txt">\n1:foobar\n</search_result>',
    );
    expect((await grepTool.run({ pattern: "(ab)\\1", path: "d.txt" }, t.ctx)).modelText).toContain("\n3:abab\n");
    // A pattern no engine accepts is still the default engine's error.
    expect((await grepTool.run({ pattern: "(unclosed" }, t.ctx)).modelText).toMatch(/^ERROR: grep failed: regex parse error/);
  });
});

describe("a pattern spanning lines", () => {
  it("is refused with the reason and what to search instead", async () => {
    expect(await grepTool.run({ pattern: "def f():\n    return" }, t.ctx)).toEqual({
      ok: false,
      modelText:
        "ERROR: grep failed: the literal '\"\\n\"' is not allowed in a regex; grep matches within one line, so search for one line of the text",
    });
  });
});
