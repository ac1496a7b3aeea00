// Yuj grep's lines as the reference's own local-search tests pin them: the
// reference searches the scope by its absolute path and writes the cwd as
// `.`, so a folder's matches all start `./` (also under a scope like `src`),
// a file searched alone is not named (`1:text`, as ripgrep prints one file),
// and a line that names no line number (the rest of a file name holding a
// newline) keeps no `./` and comes after the match lines. Through the real
// dispatcher on real files, paged and unpaged. An empty page is the opening
// tag, an empty body line and the closing tag, as the reference writes it.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { yujCall } from "../support/yuj-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  const body = "needle /dev/fd/10\nother\n";
  await t.put({ ".gitignore": "ignored.py\n", "code.py": body, "ignored.py": body, ".hidden.py": body, "text.txt": body });
  await fsp.mkdir(path.join(t.cwd, ".git"));
  await fsp.writeFile(path.join(t.cwd, "literal\nname.py"), body);
});
afterEach(() => t.cleanup());

const envelope = (attrs: string, lines: string[]) =>
  `<search_result tool="grep" ${attrs}>\n${lines.map((l) => `${l}\n`).join("")}</search_result>`;
const HIT = "needle /dev/fd/10";

describe("grep lines, as the reference's local grep prints them", () => {
  it("a `.` scope: ./ paths, ignore rules and hidden files as ripgrep's, the newline name's pieces after the matches", async () => {
    const r = await yujCall(t, "grep", { pattern: "needle", path: "." });
    expect(r.text).toBe(
      envelope('total="4" shown="4" page="1" next_page="0" pattern="needle" scope="."', [`./code.py:1:${HIT}`, `./text.txt:1:${HIT}`, `name.py:1:${HIT}`, "./literal"]),
    );
  });

  it("a `.` scope with glob *.py: the glob lets ignored and hidden files in, as ripgrep's --glob does", async () => {
    const r = await yujCall(t, "grep", { pattern: "needle", path: ".", glob: "*.py" });
    expect(r.text).toBe(
      envelope('total="5" shown="5" page="1" next_page="0" pattern="needle" scope=". glob=*.py"', [
        `./.hidden.py:1:${HIT}`,
        `./code.py:1:${HIT}`,
        `./ignored.py:1:${HIT}`,
        `name.py:1:${HIT}`,
        "./literal",
      ]),
    );
  });

  for (const scope of ["code.py", "ignored.py", ".hidden.py"]) {
    it(`one file (${scope}) searched alone is not named on its lines`, async () => {
      const r = await yujCall(t, "grep", { pattern: "needle", path: scope });
      expect(r.text).toBe(envelope(`total="1" shown="1" page="1" next_page="0" pattern="needle" scope="${scope}"`, [`1:${HIT}`]));
    });
  }

  it("a scope like src prints ./src/… paths, and unpaged output is the same lines", async () => {
    await t.put({ "src/deep/a.ts": "needle\n", "src/b.ts": "x\nneedle\n" });
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await yujCall(t, "grep", { pattern: "needle", path: "src" })).text).toBe("./src/b.ts:2:needle\n./src/deep/a.ts:1:needle");
    expect((await yujCall(t, "grep", { pattern: "needle", path: "src/deep/a.ts" })).text).toBe("1:needle");
    expect((await yujCall(t, "grep", { pattern: "absent", path: "src" })).text).toBe("No matches found.");
  });

  it("a binary file named alone says so without its name; in a folder it is skipped", async () => {
    await t.put({ "bin/blob.dat": Buffer.from("needle\0bytes\n") });
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await yujCall(t, "grep", { pattern: "needle", path: "bin/blob.dat" })).text).toBe('binary file matches (found "\\0" byte around offset 6)');
    expect((await yujCall(t, "grep", { pattern: "needle", path: "bin" })).text).toBe("No matches found.");
  });

  it("a file named with ./ is still one file, not named", async () => {
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await yujCall(t, "grep", { pattern: "needle", path: "./text.txt" })).text).toBe(`1:${HIT}`);
  });

  it("a file [sandbox].unreadable_paths hides is still left out of ./ paths", async () => {
    await t.put({ "secret/k.txt": "needle\n", "open/a.txt": "needle\n" });
    t.ctx.config.sandbox.unreadable_paths = ["secret"];
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await yujCall(t, "grep", { pattern: "needle", path: "." })).text).toBe(`./code.py:1:${HIT}\n./open/a.txt:1:needle\n./text.txt:1:${HIT}\nname.py:1:${HIT}\n./literal`);
  });

  it("an empty page keeps the reference's empty body line; glob's too", async () => {
    expect((await yujCall(t, "grep", { pattern: "absent" })).text).toBe(
      '<search_result tool="grep" total="0" shown="0" page="1" next_page="0" pattern="absent" scope=".">\n\n</search_result>',
    );
    expect((await yujCall(t, "glob", { pattern: "*.rs" })).text).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="*.rs" scope=".">\n\n</search_result>',
    );
  });
});
