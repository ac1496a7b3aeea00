// glob's scope names a folder that must exist: a mistyped one is an error
// naming the folders meant, not an empty list the model would trust.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../tools/yuj/glob.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "src/app.py": "x\n", "tests/test_app.py": "y\n" });
});
afterEach(() => t.cleanup());

const glob = (args: { pattern: string; path?: string }) => globTool.run(args, t.ctx);

describe("glob scope", () => {
  it("refuses a scope that does not exist and suggests the folder meant", async () => {
    expect(await glob({ pattern: "*.py", path: "tets" })).toEqual({
      ok: false,
      modelText: "ERROR: path not found: tets (did you mean 'tests'?)",
    });
    expect(await glob({ pattern: "*.py", path: "nowhere/deep" })).toEqual({
      ok: false,
      modelText: "ERROR: path not found: nowhere/deep",
    });
  });

  it("still lists an existing scope, and answers an empty one with an empty page", async () => {
    const r = await glob({ pattern: "*.py", path: "src" });
    expect(r.modelText).toBe(
      '<search_result tool="glob" total="1" shown="1" page="1" next_page="0" pattern="*.py" scope="src">\nsrc/app.py\n</search_result>',
    );
    expect((await glob({ pattern: "*.rs", path: "src" })).modelText).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="*.rs" scope="src">\n\n</search_result>',
    );
  });

});

describe("an absolute path inside the project is echoed relative", () => {
  it("in glob's and grep's missing-scope errors", async () => {
    const { grepTool } = await import("../../tools/yuj/grep.js");
    const abs = `${t.cwd}/tets`;
    expect((await glob({ pattern: "*.py", path: abs })).modelText).toBe("ERROR: path not found: tets (did you mean 'tests'?)");
    expect((await grepTool.run({ pattern: "x", path: abs }, t.ctx)).modelText).toBe(
      "ERROR: grep failed: tets: No such file or directory (os error 2) (did you mean 'tests'?)",
    );
  });
});

describe("a brace list", () => {
  it("matches each choice, as grep's glob does, and still the literal name", async () => {
    await t.put({ "src/view.tsx": "", "src/note.md": "", "src/{odd}.py": "", "src/a,b.txt": "" });
    expect((await glob({ pattern: "*.{py,tsx}", path: "src" })).modelText).toBe(
      '<search_result tool="glob" total="3" shown="3" page="1" next_page="0" pattern="*.{py,tsx}" scope="src">\n' +
        "src/app.py\nsrc/view.tsx\nsrc/{odd}.py\n</search_result>",
    );
    expect((await glob({ pattern: "{src,tests}/*.py" })).modelText).toContain("\nsrc/app.py\nsrc/{odd}.py\ntests/test_app.py\n");
    expect((await glob({ pattern: "{odd}.py", path: "src" })).modelText).toContain("\nsrc/{odd}.py\n");
  });
});

describe("an empty answer says why, for the two common slips", () => {
  it("a pattern that repeats its scope", async () => {
    expect((await glob({ pattern: "src/*.py", path: "src" })).modelText).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="src/*.py" scope="src" ' +
        'hint="the pattern is matched inside path src; drop its leading src/ (pattern=&quot;*.py&quot;)">\n</search_result>',
    );
  });

  it("a bare name whose files sit in subfolders", async () => {
    expect((await glob({ pattern: "*.py" })).modelText).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="*.py" scope="." ' +
        'hint="no match at this level; 2 below it: pattern=&quot;**/*.py&quot; searches subfolders too">\n</search_result>',
    );
  });

  it("no hint when nothing matches deeper either, or unpaged", async () => {
    expect((await glob({ pattern: "*.rs" })).modelText).toBe(
      '<search_result tool="glob" total="0" shown="0" page="1" next_page="0" pattern="*.rs" scope=".">\n\n</search_result>',
    );
    t.ctx.config.tools.search_pagination_enabled = false;
    expect((await glob({ pattern: "*.py" })).modelText).toBe("No files found.");
  });
});

describe("a comma list of patterns", () => {
  it("matches any of them, as grep's glob does", async () => {
    expect((await glob({ pattern: "src/*.py, tests/*.py" })).modelText).toContain('total="2"');
    expect((await glob({ pattern: "*.py,*.md", path: "src" })).modelText).toContain("\nsrc/app.py\n");
  });
});

describe("the deeper-files hint for a list", () => {
  it("counts every choice of the list below the scope", async () => {
    await t.put({ "docs/guide.md": "" });
    expect((await glob({ pattern: "*.py,*.md" })).modelText).toContain('hint="no match at this level; 3 below it: pattern=&quot;**/*.py,**/*.md&quot; searches subfolders too"');
  });
});
