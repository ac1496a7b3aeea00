// notebook_edit against the expectations of the Yuj reference's own notebook
// tests, on real notebooks in a temp directory and through the real
// dispatcher and guards: the change results, every refusal leaving the bytes
// as they were, a negative cell_index named as out of range, the .ipynb rule
// said from the path, the post-edit block in the reference's words, a no-op
// that runs no check, and notebook_edit governed by edit-family rules.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../core/config/schema.js";
import { loadConfig } from "../../core/config/load.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";
import { action, call, rule, YUJ } from "../permissions/support.js";

/** A notebook with raw non-ASCII text, an array-source markdown cell and a string-source code cell. */
const NOTEBOOK = `{
  "cells": [
    {
      "cell_type": "markdown",
      "id": "overview",
      "metadata": {"tags": ["keep"]},
      "attachments": {"dot.png": {"image/png": "iVBO"}},
      "source": [
        "# Résumé\\n",
        "β values\\n"
      ]
    },
    {
      "cell_type": "code",
      "execution_count": 3,
      "id": "load",
      "metadata": {"collapsed": false},
      "outputs": [{"output_type": "stream", "name": "stdout", "text": ["loaded\\n"]}],
      "source": "total = 1\\n"
    }
  ],
  "metadata": {"kernelspec": {"name": "python3"}},
  "nbformat": 4,
  "nbformat_minor": 5
}
`;
const CODE_VALUE = `"source": "total = 1\\n"`;
const MD_SOURCE = "# Résumé\nβ values\n";

let s: GuardedSession | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

type Check = Config["post_edit_check"]["checks"][number];
const failingCheck: Check = { name: "nb-check", trigger: "edit", when: "*.ipynb", cmd: "echo check output; exit 1", on_fail: "block" };

async function session(adjust: (c: Config) => void = () => undefined): Promise<GuardedSession> {
  s = await guardedSession((c) => {
    c.tools.notebook_edit_enabled = true;
    adjust(c);
  });
  return s;
}
const bytes = (rel = "analysis.ipynb") => fsp.readFile(path.join(s!.cwd, rel));
const edit = (args: Record<string, unknown>) => s!.call("notebook_edit", { path: "analysis.ipynb", ...args });

describe("notebook_edit changes one source value, as the reference's tests pin", () => {
  it("a string source by cell_id: the reference's result, only that value's bytes change", async () => {
    await session();
    await s!.put({ "analysis.ipynb": NOTEBOOK });
    const r = await edit({ cell_id: "load", old_source: "total = 1\n", new_source: "total = 2 🚀\n" });
    expect(r.modelText).toBe("OK: updated code cell id='load' in analysis.ipynb");
    // Raw non-ASCII stays raw in a file that already holds it; the string stays a string.
    expect((await bytes()).toString("utf8")).toBe(NOTEBOOK.replace(CODE_VALUE, `"source": "total = 2 🚀\\n"`));
  });

  it("an array source by cell_index in a CRLF file: still an array, every byte around it the same, no bare LF", async () => {
    const original = NOTEBOOK.replaceAll("\n", "\r\n");
    await session();
    await s!.put({ "analysis.ipynb": original });
    const newSource = "## Results 🚀\nfirst line\nsecond line";
    const r = await edit({ cell_index: 0, old_source: MD_SOURCE, new_source: newSource });
    expect(r.modelText).toBe("OK: updated markdown cell id='overview' in analysis.ipynb");
    const text = (await bytes()).toString("utf8");
    const head = original.slice(0, original.indexOf('"source": [') + '"source": ['.length);
    const tail = original.slice(original.indexOf("]", original.indexOf('"β values')));
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toContain("\n");
    const cell = JSON.parse(text).cells[0];
    expect(Array.isArray(cell.source)).toBe(true);
    expect(cell.source.join("")).toBe(newSource);
  });
});

describe("notebook_edit refusals in the reference's terms leave the bytes as they were", () => {
  const dupIds = NOTEBOOK.replace('"id": "load"', '"id": "overview"');
  const rawFirst = NOTEBOOK.replace('"cell_type": "markdown"', '"cell_type": "raw"');
  it.each<[string, string, Record<string, unknown>, string]>([
    ["an id not there", NOTEBOOK, { cell_id: "missing", old_source: "total = 1\n" },
      `ERROR: cell id "missing" was not found in analysis.ipynb. Read the notebook again and copy the cell's id, or select it with cell_index.`],
    ["no selector", NOTEBOOK, { old_source: "total = 1\n" },
      "ERROR: notebook_edit needs exactly one cell selector: pass cell_index (0-based) or cell_id of the cell to change."],
    ["a negative cell_index (through the schema, to the range check)", NOTEBOOK, { cell_index: -1, old_source: "total = 1\n" },
      "ERROR: analysis.ipynb has no cell -1: cell_index -1 is outside the notebook cell range (it has 2 cells, cell_index 0 to 1). Read the notebook again to find the cell."],
    ["both selectors", NOTEBOOK, { cell_id: "load", cell_index: 1, old_source: "total = 1\n" },
      "ERROR: pass exactly one of cell_index or cell_id, not both. Use cell_id when the notebook has cell ids, else cell_index."],
    ["a duplicate id", dupIds, { cell_id: "overview", old_source: MD_SOURCE },
      'ERROR: ambiguous duplicate cell id "overview" in analysis.ipynb (cells 0, 1). Select the cell with cell_index instead.'],
    ["a raw cell", rawFirst, { cell_index: 0, old_source: MD_SOURCE },
      `ERROR: cell 0 (id "overview") of analysis.ipynb is a raw cell; notebook_edit edits only code and markdown cells. Use edit on the notebook's JSON for other cells.`],
  ])("%s", async (_name, original, args, expected) => {
    await session();
    await s!.put({ "analysis.ipynb": original });
    const r = await edit({ new_source: "replacement\n", ...args });
    expect(r).toMatchObject({ ok: false, modelText: expected });
    expect((await bytes()).toString("utf8")).toBe(original);
  });

  it("a stale old_source and text that is not JSON", async () => {
    await session();
    await s!.put({ "analysis.ipynb": NOTEBOOK, "broken.ipynb": "{broken" });
    const stale = await edit({ cell_id: "load", old_source: "not the current source", new_source: "x\n" });
    expect(stale.modelText).toBe(
      "ERROR: stale source: old_source does not match the current source of cell 1 (id \"load\") in analysis.ipynb. " +
        "Pass the cell's complete current source as old_source (read analysis.ipynb again if it may have changed).\n" +
        'Current source of cell 1 (id "load"):\ntotal = 1\n',
    );
    const broken = await s!.call("notebook_edit", { path: "broken.ipynb", cell_index: 0, old_source: "", new_source: "x" });
    expect(broken.modelText).toMatch(/^ERROR: broken\.ipynb is not a valid notebook: it is not valid JSON at line 1, column \d+/);
    expect((await bytes()).toString("utf8")).toBe(NOTEBOOK);
    expect((await bytes("broken.ipynb")).toString("utf8")).toBe("{broken");
  });

  it("a path outside the project, and a notebook's JSON under another name", async () => {
    await session();
    await s!.put({ "work/analysis.json": NOTEBOOK, "outside.ipynb": NOTEBOOK });
    const work = path.join(s!.cwd, "work");
    const args = { cell_id: "load", old_source: "total = 1\n", new_source: "changed\n" };
    // The session's cwd is the temp dir; ../ from it leaves the project.
    const escaped = await s!.call("notebook_edit", { path: "../outside.ipynb", ...args });
    expect(escaped.modelText).toBe("ERROR: path escapes cwd: ../outside.ipynb");
    const json = await s!.call("notebook_edit", { path: "work/analysis.json", ...args });
    expect(json.modelText).toBe(
      "ERROR: notebook_edit needs a .ipynb path: work/analysis.json is not a Jupyter notebook. Use edit to change other files.",
    );
    expect(await fsp.readFile(path.join(work, "analysis.json"), "utf8")).toBe(NOTEBOOK);
  });
});

describe("notebook_edit and post-edit checks", () => {
  it("a blocking check restores the exact bytes, in the reference's words: notebook edit blocked", async () => {
    const original = Buffer.from(NOTEBOOK.replaceAll("\n", "\r\n"), "utf8");
    await session((c) => (c.post_edit_check = { enabled: true, timeout: 10, checks: [failingCheck] }));
    await s!.put({ "analysis.ipynb": original });
    const r = await edit({ cell_id: "load", old_source: "total = 1\n", new_source: "broken(\n" });
    expect(r).toMatchObject({
      ok: false,
      modelText:
        "ERROR: notebook edit blocked by post-edit check 'nb-check' for analysis.ipynb: exit code 1\ncheck output\n" +
        "The change was undone: the file is as it was before this call.",
    });
    expect((await bytes()).equals(original)).toBe(true);
  });

  it("a new source equal to the current one writes nothing and runs no check", async () => {
    await session((c) => (c.post_edit_check = { enabled: true, timeout: 10, checks: [failingCheck] }));
    await s!.put({ "analysis.ipynb": NOTEBOOK });
    const r = await edit({ cell_id: "load", old_source: "total = 1\n", new_source: "total = 1\n" });
    expect(r).toMatchObject({
      ok: true,
      modelText: "OK: code cell id='load' in analysis.ipynb already has the requested source; no file change",
    });
    expect((await bytes()).toString("utf8")).toBe(NOTEBOOK);
  });

  it("a write the check blocks says write blocked, as the reference's write does", async () => {
    await session((c) => (c.post_edit_check = { enabled: true, timeout: 10, checks: [{ ...failingCheck, trigger: "write", when: "*" }] }));
    const r = await s!.call("write", { path: "new.txt", content: "x\n" });
    expect(r.modelText).toBe(
      "ERROR: write blocked by post-edit check 'nb-check' for new.txt: exit code 1\ncheck output\nThe change was undone: the file is as it was before this call.",
    );
  });
});

describe("notebook_edit is an edit to the permission rules", () => {
  const nb = call("notebook_edit", { path: "analysis.ipynb", cell_index: 0, old_source: "", new_source: "x" });
  it("an edit rule governs it while it has none of its own", () => {
    expect(action(nb, [rule("*", undefined, "allow"), rule("edit", undefined, "deny")], YUJ)).toBe("deny");
    expect(action(nb, [rule("*", undefined, "ask"), rule("edit", "*.ipynb", "allow")], YUJ)).toBe("allow");
    expect(action(nb, [rule("*", undefined, "allow"), rule("edit", "src/*", "deny")], YUJ)).toBe("allow");
  });
  it("its own rule wins over the family's", () => {
    expect(action(nb, [rule("edit", undefined, "deny"), rule("notebook_edit", undefined, "allow")], YUJ)).toBe("allow");
  });
});

describe("[tools].notebook_edit_enabled", () => {
  it("is off by default and a non-boolean is an error naming the key", async () => {
    const dir = await fsp.mkdtemp(path.join((await import("node:os")).tmpdir(), "yuj-nb-cfg-"));
    try {
      const env = { HOME: dir };
      expect(loadConfig({ cwd: dir, env, home: dir, configFiles: [] }).config.tools.notebook_edit_enabled).toBe(false);
      const file = path.join(dir, "notebooks.toml");
      await fsp.writeFile(file, "[tools]\nnotebook_edit_enabled = true\n");
      expect(loadConfig({ cwd: dir, env, home: dir, configFiles: [file] }).config.tools.notebook_edit_enabled).toBe(true);
      await fsp.writeFile(file, '[tools]\nnotebook_edit_enabled = "yes"\n');
      expect(() => loadConfig({ cwd: dir, env, home: dir, configFiles: [file] })).toThrow(/notebook_edit_enabled/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
