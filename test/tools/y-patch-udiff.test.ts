// udiff's error kinds and refusals as the Yuj reference's unified-diff
// module names them, on real files: a file that is not UTF-8 is
// binary_file, a dialect the edit format did not select is refused as
// unavailable for that format (naming the setting that selects it), and the
// parse refusals change nothing. Two sections for one file apply in order
// (as git apply does) — a deliberate difference from the reference, which
// refuses them as duplicate_path.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig, type Config } from "../../core/config/schema.js";
import { prepareCall } from "../../core/dispatch.js";
import { udiffTool } from "../../tools/yuj/udiff.js";
import { baseToolset } from "../support/loop-harness.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "a.txt": "one\ntwo\nthree\n" });
});
afterEach(() => t.cleanup());

const read = (rel: string) => fsp.readFile(path.join(t.cwd, rel), "utf8");
const udiff = (...lines: string[]) => udiffTool.run({ patch: lines.join("\n") + "\n" }, t.ctx);

describe("udiff error kinds", () => {
  it("a file that is not UTF-8 text is binary_file, and stays as it was", async () => {
    const bytes = Buffer.from([0x61, 0xff, 0xfe, 0x0a]);
    await t.put({ "blob.dat": bytes });
    const r = await udiff("--- a/blob.dat", "+++ b/blob.dat", "@@ -1 +1 @@", "-a", "+b");
    expect(r.modelText).toMatch(/^ERROR: udiff binary_file: cannot update blob\.dat: /);
    expect((await fsp.readFile(path.join(t.cwd, "blob.dat"))).equals(bytes)).toBe(true);
  });

  it.each<[string, string[], string]>([
    ["a rename", ["--- a/a.txt", "+++ b/b.txt", "@@ -1 +1 @@", "-one", "+ONE"],
      "ERROR: udiff parse: line 1: renaming a.txt to b.txt is not supported; add the new file and delete the old one"],
    ["both sides /dev/null", ["--- /dev/null", "+++ /dev/null", "@@ -0,0 +1 @@", "+x"], "ERROR: udiff parse: line 1: both sides are /dev/null"],
    ["headers without hunks", ["--- a/a.txt", "+++ b/a.txt"], "ERROR: udiff parse: line 1: no hunks for a.txt"],
    ["a hunk before any header", ["@@ -1 +1 @@", "-one", "+ONE"], "ERROR: udiff parse: line 1: hunk lines before a '--- a/path' and '+++ b/path' file header"],
    ["--- without +++", ["--- a/a.txt", "@@ -1 +1 @@", "-one", "+ONE"], "ERROR: udiff parse: line 2: a '--- ' header must be followed by a '+++ ' header"],
    ["text after a hunk", ["--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-one", "+ONE", "garbage here"],
      "ERROR: udiff parse: line 6: a hunk line must start with ' ', '-' or '+', found 'garbage here'"],
    ["a malformed hunk header", ["--- a/a.txt", "+++ b/a.txt", "@@ -x +1 @@", "-one", "+ONE"],
      "ERROR: udiff parse: line 3: malformed hunk header '@@ -x +1 @@'; expected '@@ -a,b +c,d @@'"],
    ["an absolute path", ["--- a//etc/passwd", "+++ b//etc/passwd", "@@ -1 +1 @@", "-one", "+ONE"], "ERROR: udiff path_outside_cwd: path escapes cwd: /etc/passwd"],
  ])("%s is refused and nothing changes", async (_name, lines, expected) => {
    expect((await udiff(...lines)).modelText).toBe(expected);
    expect(await read("a.txt")).toBe("one\ntwo\nthree\n");
  });

  it("takes headers with a tab and timestamp, and hunk counts a model got wrong", async () => {
    const stamped = await udiff("--- a/a.txt\t2024-01-01 00:00:00", "+++ b/a.txt\t2024-01-01 00:00:00", "@@ -1,3 +1,3 @@", "-one", "+ONE");
    expect(stamped.modelText).toBe("OK: applied unified diff (1 file(s))");
    expect(await read("a.txt")).toBe("ONE\ntwo\nthree\n");
  });

  it("two sections for one file apply one after the other", async () => {
    const r = await udiff("--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-one", "+ONE", "--- a/a.txt", "+++ b/a.txt", "@@ -3 +3 @@", "-three", "+THREE");
    expect(r.modelText).toBe("OK: applied unified diff (1 file(s))");
    expect(await read("a.txt")).toBe("ONE\ntwo\nTHREE\n");
  });
});

describe("a patch dialect the edit format did not select", () => {
  const refusal = (format: Config["tools"]["edit_format"], tool: string) => {
    const config = defaultConfig();
    config.tools.edit_format = format;
    const prepared = prepareCall({ id: "c1", name: tool, args: JSON.stringify({ patch: "x" }) }, baseToolset(config), config);
    return prepared.ready ? "ready" : prepared.text;
  };

  it("is refused as unavailable for that format, naming the setting and the flag that select it", () => {
    expect(refusal("exact", "udiff")).toBe(
      'ERROR: the udiff tool is disabled in this session (it is unavailable for the selected edit format "exact"; ' +
        '[tools].edit_format = "udiff" or --edit-format udiff selects it). Available tools: bash, read, write, edit, glob, grep, ask_user, done.',
    );
    expect(refusal("udiff", "apply_patch")).toBe(
      'ERROR: the apply_patch tool is disabled in this session (it is unavailable for the selected edit format "udiff"; ' +
        '[tools].edit_format = "apply_patch" or --edit-format apply_patch selects it). Available tools: bash, read, write, udiff, glob, grep, ask_user, done.',
    );
    expect(refusal("udiff", "udiff")).toBe("ready");
  });
});
