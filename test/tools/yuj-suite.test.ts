// The Yuj surface against more of the behaviour its reference's own tests
// pin, run on real files in a fresh project: the exact text the model reads
// and what is on disk afterwards.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import type { ToolHandler } from "../../core/tool-types.js";
import { prepareCall } from "../../core/dispatch.js";
import { discoverSkills } from "../../core/skills/discover.js";
import { SkillSession } from "../../core/skills/session.js";
import { bashTool } from "../../tools/yuj/bash.js";
import { editTool } from "../../tools/yuj/edit.js";
import { readTool } from "../../tools/yuj/read.js";
import { writeTool } from "../../tools/yuj/write.js";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";
import { structuralEditTool } from "../../tools/yuj/structural_edit.js";
import { structuralSearchTool } from "../../tools/yuj/structural_search.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { guardedSession } from "../guards/session.js";
import { baseToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
const fresh = async (adjust: (c: Config) => void = () => undefined) => {
  await t?.cleanup();
  t = await makeToolContext(adjust);
};
beforeEach(() => fresh());
afterEach(() => t.cleanup());

const call = <S extends ToolHandler>(tool: S, args: Record<string, unknown>) => tool.run(tool.schema.parse(args), t.ctx);
const text = (rel: string) => fs.readFileSync(path.join(t.cwd, rel), "utf8");

describe("bash read-side routing: a grep of one named file", () => {
  beforeEach(async () => {
    await fresh((c) => {
      c.tools.bash_redirect_read_side = true;
    });
    await t.put({ "src/app.py": "left|right && center\nother\n" });
  });

  it("goes to grep even when its pattern holds shell operators in quotes, with a call grep accepts", async () => {
    const r = await call(bashTool, { cmd: "grep 'left|right && center' src/app.py" });
    expect(r.ok).toBe(false);
    const suggested = /^ERROR: shell_routed: use the grep tool for this \(text search over files\);.* Try: grep (\{.*\})$/.exec(r.modelText)?.[1];
    expect(suggested).toBe('{"pattern":"left\\\\|right && center","path":"src/app.py"}');
    const found = await call(grepTool, JSON.parse(suggested!) as Record<string, unknown>);
    expect(found.modelText).toContain("\n1:left|right && center\n");
  });

  it("keeps a grep reading its standard input in the shell", async () => {
    expect(await call(bashTool, { cmd: "printf 'needle\\n' | grep needle" })).toMatchObject({ ok: true, modelText: "needle" });
    expect(await call(bashTool, { cmd: "grep -c center src/app.py" })).toMatchObject({ ok: true, modelText: "1" });
  });
});

describe("udiff: an added file under a path that is a file", () => {
  it("is refused before anything is written, naming the file in the way", async () => {
    await t.put({ "first.txt": "old\n", blocked: "not a directory\n" });
    const patch = "--- a/first.txt\n+++ b/first.txt\n@@ -1 +1 @@\n-old\n+new\n--- /dev/null\n+++ b/blocked/child.txt\n@@ -0,0 +1 @@\n+child\n";
    const r = await call(udiffTool, { patch });
    expect(r).toMatchObject({
      ok: false,
      modelText: "ERROR: udiff parent_not_directory: cannot add blocked/child.txt: blocked is a file, not a directory; no file was changed",
    });
    expect(text("first.txt")).toBe("old\n");
    expect(text("blocked")).toBe("not a directory\n");
  });
});

describe("edit format: each dialect, its tool plus write", () => {
  const EDIT_TOOLS = ["edit", "apply_patch", "udiff", "write"];
  it.each([
    ["exact", ["write", "edit"], "edit", "old_str"],
    ["apply_patch", ["write", "apply_patch"], "apply_patch", "*** Begin Patch"],
    ["udiff", ["write", "udiff"], "udiff", "standard unified diff"],
    ["whole", ["write"], "write", "overwrite a file"],
  ] as const)("%s: %j, the replacement tool's description names its dialect", (format, tools, tool, words) => {
    const config = defaultConfig();
    config.tools.edit_format = format;
    const specs = baseToolset(config).specs;
    expect(specs.map((s) => s.name).filter((n) => EDIT_TOOLS.includes(n))).toEqual(tools);
    expect(specs.find((s) => s.name === tool)?.description).toContain(words);
  });
});

describe("bash output: a traceback frame repeated", () => {
  const frame = '  File "sample.py", line 3, in step\n    step()\n';
  const show = async (content: string) => {
    await t.put({ "out.txt": content });
    return (await call(bashTool, { cmd: "cat out.txt" })).modelText;
  };

  it("is shown once with its count, and the folded text is left as it is", async () => {
    const folded = await show(frame.repeat(4) + "RecursionError: too deep\n");
    expect(folded).toBe(`${frame}  [the frame above ×4]\nRecursionError: too deep`);
    expect(await show(folded)).toBe(folded);
  });

  it("stays frame for frame when a line differs or other output stands between", async () => {
    const changed = frame + frame.replace("line 3", "line 4") + frame;
    expect(await show(changed)).toBe(changed.trimEnd());
    const separated = `${frame}other output\n${frame}other output\n${frame}`;
    expect(await show(separated)).toBe(separated.trimEnd());
  });
});

describe("notebook_edit", () => {
  const notebook = (id?: string) =>
    JSON.stringify({ cells: [{ cell_type: "code", ...(id ? { id } : {}), metadata: {}, outputs: [], source: "print('old')\n" }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1) + "\n";

  it("names the cell it changed as the reference does, by id or else by index", async () => {
    await fresh((c) => {
      c.tools.notebook_edit_enabled = true;
    });
    await t.put({ "a.ipynb": notebook("calc"), "b.ipynb": notebook() });
    const byId = await call(notebookEditTool, { path: "a.ipynb", cell_index: 0, old_source: "print('old')\n", new_source: "print('new')\n" });
    expect(byId.modelText).toBe("OK: updated code cell id='calc' in a.ipynb");
    const byIndex = await call(notebookEditTool, { path: "b.ipynb", cell_index: 0, old_source: "print('old')\n", new_source: "print('new')\n" });
    expect(byIndex.modelText).toBe("OK: updated code cell index=0 in b.ipynb");
    expect(text("b.ipynb")).toBe(notebook().replace("print('old')", "print('new')"));
  });

  it("called while off, is refused as disabled with the setting that turns it on, and nothing changes", async () => {
    await t.put({ "a.ipynb": notebook("calc") });
    const args = JSON.stringify({ path: "a.ipynb", cell_id: "calc", old_source: "print('old')\n", new_source: "x\n" });
    const prepared = prepareCall({ id: "c1", name: "notebook_edit", args }, baseToolset(), defaultConfig());
    expect(prepared).toMatchObject({
      ready: false,
      text:
        "ERROR: the notebook_edit tool is disabled in this session ([tools].notebook_edit_enabled = true turns it on). " +
        "Available tools: bash, read, write, edit, glob, grep, ask_user, done.",
    });
    expect(text("a.ipynb")).toBe(notebook("calc"));
  });
});

describe("structural tools: a file in another language than the one named", () => {
  const Q = '((identifier) @match (#eq? @match "old_name"))';
  it("is refused by search, preview and edit as language_mismatch, the file unchanged", async () => {
    await fresh((c) => {
      c.tools.structural_enabled = true;
    });
    await t.put({ "sample.py": "old_name = 1\n", "view.ts": "const old_name = 1;\n" });
    const mismatch =
      '<structural_search status="error" error_kind="language_mismatch" path="sample.py" language="javascript" v="1">\n' +
      'ERROR: language mismatch: sample.py is a python file, not javascript; pass language "python" (or a file written in javascript)\n' +
      "</structural_search>";
    expect((await call(structuralSearchTool, { path: "sample.py", language: "javascript", query: Q })).modelText).toBe(mismatch);
    expect((await call(structuralSearchTool, { path: "sample.py", language: "javascript", query: Q, replacement: "new_name" })).modelText).toBe(mismatch);
    const edit = await call(structuralEditTool, { path: "sample.py", language: "javascript", query: Q, replacement: "new_name", expected_sha256: "0".repeat(64) });
    expect(edit.modelText).toContain('error_kind="language_mismatch"');
    expect(text("sample.py")).toBe("old_name = 1\n");
    // A query that matches nothing leaves nothing to preview or apply.
    const none = '((identifier) @match (#eq? @match "missing"))';
    expect((await call(structuralSearchTool, { path: "sample.py", language: "python", query: none, replacement: "x" })).modelText).toBe(
      '<structural_search status="error" error_kind="no_match" path="sample.py" language="python" v="1">\n' +
        "ERROR: no match: the query matches nothing in sample.py, so there is nothing to rewrite. Run structural_search without replacement to check the query.\n" +
        "</structural_search>",
    );
    // One grammar family: a TypeScript file searched as tsx still parses.
    expect((await call(structuralSearchTool, { path: "view.ts", language: "tsx", query: Q })).ok).toBe(true);
  });
});

describe("a skill's folder outside the project", () => {
  it("is read by read, and write and edit refuse to change it or add to it", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-skill-home-"));
    try {
      const dir = path.join(home, "skills", "outside-skill");
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, "SKILL.md");
      const body = "---\nname: outside-skill\ndescription: Read-only external instructions.\n---\n\nEXTERNAL SKILL BODY\n";
      fs.writeFileSync(file, body);
      const found = discoverSkills({ projectDir: t.cwd, userConfigDir: path.join(home, "none"), home, packageDir: path.join(home, "none"), paths: [path.dirname(dir)] });
      expect(found.skills.map((s) => s.name)).toEqual(["outside-skill"]);
      t.ctx.skills = new SkillSession(found.skills);
      expect((await call(readTool, { path: file })).modelText).toContain("EXTERNAL SKILL BODY");
      expect(await call(writeTool, { path: file, content: "MUTATED" })).toMatchObject({ ok: false, modelText: `ERROR: skill path is read-only: ${file}` });
      const added = path.join(dir, "scripts", "new.sh");
      expect((await call(writeTool, { path: added, content: "x" })).modelText).toBe(`ERROR: skill path is read-only: ${added}`);
      expect((await call(editTool, { path: file, old_str: "EXTERNAL", new_str: "CHANGED" })).modelText).toBe(`ERROR: skill path is read-only: ${file}`);
      expect(fs.readFileSync(file, "utf8")).toBe(body);
      expect(fs.existsSync(added)).toBe(false);
      // What [sandbox].unreadable_paths hides stays hidden there.
      const secret = path.join(dir, "private.txt");
      fs.writeFileSync(secret, "PRIVATE RESOURCE");
      t.ctx.config.sandbox.unreadable_paths = [secret];
      const hidden = await call(readTool, { path: secret });
      expect(hidden.ok).toBe(false);
      expect(hidden.modelText).toBe(`ERROR: ${secret} is hidden by [sandbox].unreadable_paths (${fs.realpathSync(secret)}): file tools do not open it either`);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("stale-file guard: a search of one named file through bash", () => {
  it.each([
    ["grep -n 'needle' src/app.py", true],
    ["rg --line-number 'needle' src/app.py", true],
    ["grep -e needle -- src/app.py", true],
    ["grep -c needle src/app.py", false],
    ["rg --count needle src/app.py", false],
    ["grep -r needle src", false],
    ["rg needle .", false],
    ["grep -l needle src/app.py", false],
  ])("%j counts as a read of it: %s", async (cmd, credited) => {
    const s = await guardedSession((c) => (c.tools.stale_file = "block"));
    try {
      await s.put({ "src/app.py": "needle\n" });
      expect((await s.call("bash", { cmd })).ok).toBe(true);
      const w = await s.call("write", { path: "src/app.py", content: "new\n" });
      expect(w.modelText).toBe(credited ? "OK: wrote 4 bytes to src/app.py" : "ERROR: stale_file: read src/app.py first");
    } finally {
      await s.cleanup();
    }
  });

  it("warn mode opens its warning with the block text's words", async () => {
    const s = await guardedSession((c) => (c.tools.stale_file = "warn"));
    try {
      await s.put({ "src.py": "old\n" });
      const out = await s.call("edit", { path: "src.py", old_str: "old", new_str: "new" });
      expect(out.modelText).toContain("\nWARNING: stale_file: read src.py first: it changed since it was last read (or was never read);");
      expect(fs.readFileSync(path.join(s.cwd, "src.py"), "utf8")).toBe("new\n");
    } finally {
      await s.cleanup();
    }
  });
});

describe("plan mode: which commands count as read-only", () => {
  const planning = () =>
    guardedSession((c) => {
      c.loop.plan_mode = "required";
    });
  it.each(["jq '.items[]' data.json", "git status --short", "sed -n '1,40p' data.json", "find . -maxdepth 2 -type f", "ls -la | wc -l"])("%j runs", async (cmd) => {
    const s = await planning();
    try {
      await s.put({ "data.json": '{"items":[1]}\n' });
      expect((await s.call("bash", { cmd })).modelText).not.toMatch(/^ERROR: plan_mode/);
    } finally {
      await s.cleanup();
    }
  });
  it.each(["find . $ACTION", "find . {-print,-delete}", "git diff *", "/tmp/cat data.json", "printf -v SHELL_STATE x", "rg --pre ./x needle data.json"])(
    "%j is refused before it runs",
    async (cmd) => {
      const s = await planning();
      try {
        await s.put({ "data.json": '{"items":[1]}\n' });
        expect((await s.call("bash", { cmd })).modelText).toMatch(/^ERROR: plan_mode: bash may only run read-only commands/);
        expect(fs.existsSync(path.join(s.cwd, "data.json"))).toBe(true);
      } finally {
        await s.cleanup();
      }
    },
  );
});
