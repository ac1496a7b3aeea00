// The Codex apply_patch scenarios (../shared/conformance/apply-patch, copied
// into fixtures/) run against both surfaces' apply_patch: a real temp dir
// from `input/`, the patch as written, and the whole tree compared byte for
// byte with `expected/`. Yuj's all-or-nothing rule refuses the partial-success
// case and Chord and Yuj both refuse an Add over an existing file: for those
// the tree must be exactly the input.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { chordApplyPatchTool } from "../../tools/chord/apply_patch.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const ROOT = path.join(import.meta.dirname, "../../fixtures/apply-patch-scenarios");

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

type Tree = Record<string, string>;

async function snapshot(dir: string): Promise<Tree> {
  const out: Tree = {};
  async function walk(abs: string, rel: string): Promise<void> {
    let entries;
    try {
      entries = await fsp.readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const a = path.join(abs, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out[`${r}/`] = "<dir>";
        await walk(a, r);
      } else out[r] = (await fsp.readFile(a)).toString("base64");
    }
  }
  await walk(dir, "");
  return out;
}

async function copyInput(name: string): Promise<void> {
  const input = path.join(ROOT, name, "input");
  try {
    await fsp.cp(input, t.cwd, { recursive: true, dereference: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

const cases = (await fsp.readdir(ROOT, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();

const REFUSED = {
  yuj: new Set(["011_add_overwrites_existing_file", "015_failure_after_partial_success_leaves_changes"]),
  chord: new Set(["011_add_overwrites_existing_file"]),
};

const tools = {
  yuj: (patch: string) => applyPatchTool.run({ patch }, t.ctx),
  chord: (patch: string) => chordApplyPatchTool.run({ patch }, t.ctx),
};

describe.each(["yuj", "chord"] as const)("the Codex apply_patch scenarios on the %s surface", (surface) => {
  it("finds the scenarios", () => {
    expect(cases.length).toBe(23);
  });
  it.each(cases)("%s", async (name) => {
    await copyInput(name);
    const before = await snapshot(t.cwd);
    const patch = await fsp.readFile(path.join(ROOT, name, "patch.txt"), "utf8");
    await tools[surface](patch);
    const after = await snapshot(t.cwd);
    if (REFUSED[surface].has(name)) expect(after).toEqual(before);
    else expect(after).toEqual(await snapshot(path.join(ROOT, name, "expected")));
  });
});
