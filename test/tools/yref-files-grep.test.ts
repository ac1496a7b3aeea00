// grep's glob takes a comma list of globs (`*.py,*.ts`) as "any of them":
// taken literally it matched no file name, and the search found nothing.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
