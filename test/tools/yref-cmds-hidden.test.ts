// What [sandbox].unreadable_paths hides stays hidden from list_definitions
// and structural_search too, as it is from read and grep: a hidden file is
// never parsed, its definitions never listed, a path naming it answers as
// an absent one (error_kind="not_found") and no content comes back.

import * as fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDefinitionsTool } from "../../tools/yuj/list_definitions.js";
import { structuralSearchTool } from "../../tools/yuj/structural_search.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
let real: string;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.list_definitions.enabled = true;
    c.tools.ast_search_enabled = true;
    c.tools.structural_enabled = true;
    c.sandbox.unreadable_paths = ["secret.py", "private"];
  });
  await t.put({
    "secret.py": "def hidden_secret():\n    pass\n",
    "private/x.py": "def hidden_dir():\n    pass\n",
    "a.py": "def visible():\n    pass\n",
  });
  real = await fsp.realpath(t.cwd);
});
afterEach(() => t.cleanup());

type Args = { path: string; symbol?: string; kind?: "def" | "ref"; repo_wide?: boolean };
const list = (args: Args) => listDefinitionsTool.run(args, t.ctx);

describe("unreadable paths and the structural tools", () => {
  it("list_definitions of a hidden file, or a file in a hidden folder, is not_found and shows nothing of it", async () => {
    const file = await list({ path: "secret.py" });
    expect(file.ok).toBe(false);
    expect(file.modelText).toBe(
      '<list_definitions status="error" error_kind="not_found" path="secret.py" v="1">\n' +
        `ERROR: secret.py is hidden by [sandbox].unreadable_paths (${real}/secret.py): file tools do not open it either\n` +
        "</list_definitions>",
    );
    const inDir = await list({ path: "private/x.py" });
    expect(inDir.modelText).toContain('error_kind="not_found" path="private/x.py"');
    expect(inDir.modelText).not.toContain("hidden_dir");
  });

  it("repository-wide, hidden files are neither parsed nor counted, and a hidden scope is not_found", async () => {
    const all = await list({ path: ".", repo_wide: true });
    expect(all.modelText).toBe(
      '<list_definitions status="ok" mode="repository" path="." total="1" available="1" shown="1" page="1" next_page="0" files="1" cache_hits="0" v="1">\n' +
        "a.py:1 def visible def visible()\n" +
        "</list_definitions>",
    );
    const scoped = await list({ path: "private", repo_wide: true, symbol: "hidden_dir" });
    expect(scoped.ok).toBe(false);
    expect(scoped.modelText).toContain('error_kind="not_found" path="private"');
    expect(scoped.modelText).not.toContain("def hidden_dir");
  });

  it("structural_search skips hidden files in a directory and refuses one named", async () => {
    const query = "((identifier) @match (#match? @match \"^hidden_|^visible$\"))";
    const dir = await structuralSearchTool.run({ path: ".", language: "python", query }, t.ctx);
    expect(dir.ok).toBe(true);
    expect(dir.modelText).toContain("a.py");
    expect(dir.modelText).not.toContain("hidden_");
    const one = await structuralSearchTool.run({ path: "secret.py", language: "python", query }, t.ctx);
    expect(one.ok).toBe(false);
    expect(one.modelText).toContain('error_kind="not_found"');
    expect(one.modelText).toContain(`ERROR: secret.py is hidden by [sandbox].unreadable_paths (${real}/secret.py): file tools do not open it either`);
    expect(one.modelText).not.toContain("hidden_secret");
  });
});
