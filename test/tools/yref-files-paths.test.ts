// Path spellings that name no project file as written get an answer saying
// so: an empty path, a `~/…` path (not expanded on the Yuj surface), and a
// file standing where write needs a folder.

import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { discoverSkills } from "../../core/skills/discover.js";
import { SkillSession } from "../../core/skills/session.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../tools/yuj/edit.js";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";
import { readTool } from "../../tools/yuj/read.js";
import { writeTool } from "../../tools/yuj/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "a.txt": "alpha\n" });
});
afterEach(() => t.cleanup());

const REQUIRED = "ERROR: path is required: name the file relative to the project (e.g. src/app.py)";

describe("an empty path", () => {
  it.each(["", "  "])("is refused by read, write, edit and notebook_edit (%j)", async (p) => {
    const refused = { ok: false, modelText: REQUIRED };
    expect(await readTool.run({ path: p }, t.ctx)).toEqual(refused);
    expect(await writeTool.run({ path: p, content: "x" }, t.ctx)).toEqual(refused);
    expect(await editTool.run({ path: p, old_str: "a", new_str: "b" }, t.ctx)).toEqual(refused);
    expect(await notebookEditTool.run({ path: p, cell_index: 0, old_source: "", new_source: "" }, t.ctx)).toEqual(refused);
    expect((await fsp.readdir(t.cwd)).sort()).toEqual(["a.txt"]);
  });
});

describe("a path starting with ~", () => {
  it("is refused, naming the project-relative spelling, and creates no `~` folder", async () => {
    expect(await writeTool.run({ path: "~/notes.txt", content: "x" }, t.ctx)).toEqual({
      ok: false,
      modelText:
        "ERROR: ~/notes.txt starts with ~, which the file tools do not expand: they work inside the project only. " +
        "Name the file relative to the project (e.g. notes.txt)",
    });
    expect((await readTool.run({ path: "~/.bashrc" }, t.ctx)).modelText).toBe(
      "ERROR: ~/.bashrc starts with ~, which the file tools do not expand: they work inside the project only. " +
        "Name the file relative to the project (e.g. .bashrc)",
    );
    expect(await fsp.readdir(t.cwd)).toEqual(["a.txt"]);
  });

  it("is taken as written when the project has a `~` folder", async () => {
    await t.put({ "~/kept.txt": "k\n" });
    expect((await readTool.run({ path: "~/kept.txt" }, t.ctx)).modelText).toBe("1: k");
    expect((await writeTool.run({ path: "~/new.txt", content: "n" }, t.ctx)).modelText).toBe("OK: wrote 1 bytes to ~/new.txt");
  });
});

describe("~/ naming an enabled skill's folder", () => {
  it("is expanded by read there, and only there", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-home-"));
    try {
      const dir = path.join(home, ".agents", "skills", "notes");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: notes\ndescription: Take notes.\n---\n\nNOTES BODY\n");
      fs.writeFileSync(path.join(home, "private.txt"), "PRIVATE\n");
      const found = discoverSkills({ projectDir: t.cwd, userConfigDir: path.join(home, "none"), home, packageDir: path.join(home, "none"), paths: [path.dirname(dir)] });
      t.ctx.skills = new SkillSession(found.skills);
      t.ctx.services = { ...t.ctx.services, env: { ...t.ctx.services.env, HOME: home } };
      expect((await readTool.run({ path: "~/.agents/skills/notes/SKILL.md" }, t.ctx)).modelText).toContain("NOTES BODY");
      // Elsewhere in home: the ordinary refusal; nothing outside the skill's folder opens.
      expect((await readTool.run({ path: "~/private.txt" }, t.ctx)).modelText).toMatch(/^ERROR: ~\/private\.txt starts with ~/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("write over a file standing where a folder must be", () => {
  it("names that file and changes nothing", async () => {
    expect(await writeTool.run({ path: "a.txt/b.txt", content: "x" }, t.ctx)).toEqual({
      ok: false,
      modelText: "ERROR: cannot write a.txt/b.txt: a.txt is a file, not a directory; choose another path or remove a.txt first",
    });
    expect(await writeTool.run({ path: "a.txt/deep/b.txt", content: "x" }, t.ctx)).toMatchObject({
      modelText: "ERROR: cannot write a.txt/deep/b.txt: a.txt is a file, not a directory; choose another path or remove a.txt first",
    });
    expect(await fsp.readFile(path.join(t.cwd, "a.txt"), "utf8")).toBe("alpha\n");
  });
});
