// What [sandbox].unreadable_paths hides stays hidden from list_definitions,
// structural_search, the patch tools and notebook_edit too, as it is from
// read and grep: a hidden file is never parsed, changed or offered as a
// repair candidate, a path naming it answers as an absent one
// (not_found / file_not_found) and no content comes back.

import * as fsp from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { listDefinitionsTool } from "../../tools/yuj/list_definitions.js";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { structuralSearchTool } from "../../tools/yuj/structural_search.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const SECRET = "TOKEN=abc\nline2\n";
let t: TestToolContext;
let real: string;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.list_definitions.enabled = true;
    c.tools.ast_search_enabled = true;
    c.tools.structural_enabled = true;
    c.sandbox.unreadable_paths = ["secret.py", "secret.txt", "private"];
  });
  await t.put({
    "secret.py": "def hidden_secret():\n    pass\n",
    "private/x.py": "def hidden_dir():\n    pass\n",
    "a.py": "def visible():\n    pass\n",
    "secret.txt": SECRET,
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
      '<list_definitions status="ok" mode="repository" path="." total="1" available="1" shown="1" page="1" next_page="0" kind="def" files="1" cache_hits="0" v="1">\n' +
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

describe("unreadable paths and the patch tools", () => {
  const secret = SECRET;
  const hiddenText = (rel: string, by: string) => `${rel} is hidden by [sandbox].unreadable_paths (${real}/${by}): file tools do not open it either`;

  it("apply_patch neither changes a hidden file nor shows its lines as candidates, and adds nothing in a hidden folder", async () => {
    const miss = await applyPatchTool.run({ patch: "*** Begin Patch\n*** Update File: secret.txt\n@@\n-TOKEN=xyz\n+TOKEN=new\n*** End Patch" }, t.ctx);
    expect(miss.ok).toBe(false);
    expect(miss.modelText).toBe(`<apply_patch ok="false" error_kind="file_not_found" v="1">\nERROR: ${hiddenText("secret.txt", "secret.txt")}\n</apply_patch>`);
    const add = await applyPatchTool.run({ patch: "*** Begin Patch\n*** Add File: private/new.txt\n+x\n*** End Patch" }, t.ctx);
    expect(add.modelText).toBe(`<apply_patch ok="false" error_kind="file_not_found" v="1">\nERROR: ${hiddenText("private/new.txt", "private")}\n</apply_patch>`);
    expect(await fsp.readFile(`${t.cwd}/secret.txt`, "utf8")).toBe(secret);
    await expect(fsp.stat(`${t.cwd}/private/new.txt`)).rejects.toThrow();
  });

  it("udiff refuses a hidden file as file_not_found and leaves it as it was", async () => {
    const r = await udiffTool.run({ patch: "--- a/secret.txt\n+++ b/secret.txt\n@@ -1 +1 @@\n-TOKEN=abc\n+TOKEN=new\n" }, t.ctx);
    expect(r.modelText).toBe(`ERROR: udiff file_not_found: ${hiddenText("secret.txt", "secret.txt")}`);
    expect(await fsp.readFile(`${t.cwd}/secret.txt`, "utf8")).toBe(secret);
  });

  it("notebook_edit does not open a hidden notebook", async () => {
    const nb = '{"cells": [{"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n';
    await t.put({ "private/nb.ipynb": nb });
    const r = await notebookEditTool.run({ path: "private/nb.ipynb", cell_index: 0, old_source: "x = 1", new_source: "x = 2" } as never, t.ctx);
    expect(r.modelText).toBe(`ERROR: ${hiddenText("private/nb.ipynb", "private")}`);
    expect(await fsp.readFile(`${t.cwd}/private/nb.ipynb`, "utf8")).toBe(nb);
  });
});
