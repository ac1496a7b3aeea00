// Conformance suite for Yuj's apply_patch: real temp dirs, the
// exact envelopes, and all-or-nothing behaviour checked byte for byte.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../tools/yuj/apply_patch.js";
import { parseV4A } from "../../tools/lib/patch/v4a-parse.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const BOM = "\ufeff";

async function snapshot(): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  async function walk(dir: string): Promise<void> {
    for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) await walk(abs);
      else out[path.relative(t.cwd, abs).split(path.sep).join("/")] = await fsp.readFile(abs);
    }
  }
  await walk(t.cwd);
  return out;
}

interface Case {
  name: string;
  files?: Record<string, string | Buffer>;
  patch: string;
  /** Exact envelope, or substrings it must contain. */
  text: string | string[];
  ok: boolean;
  /** Expected file contents afterwards (null: absent). Failures always check "nothing changed". */
  after?: Record<string, string | null>;
}

const CASES: Case[] = [
  {
    name: "adds a file",
    patch: patch("*** Add File: src/new.ts", "+export const a = 1;", "+", "+export const b = 2;"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  added: src/new.ts (3 lines)\n</apply_patch>',
    after: { "src/new.ts": "export const a = 1;\n\nexport const b = 2;\n" },
  },
  {
    name: "deletes a file",
    files: { "old.txt": "bye\n" },
    patch: patch("*** Delete File: old.txt"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  deleted: old.txt\n</apply_patch>',
    after: { "old.txt": null },
  },
  {
    name: "updates a file with one hunk",
    files: { "a.py": "def f():\n    return 1\n\nprint(f())\n" },
    patch: patch("*** Update File: a.py", "@@", " def f():", "-    return 1", "+    return 2", "+    # two"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  updated: a.py (1 hunk, ~1/+2)\n</apply_patch>',
    after: { "a.py": "def f():\n    return 2\n    # two\n\nprint(f())\n" },
  },
  {
    name: "applies multiple hunks in order, blank line = empty context",
    files: { "m.txt": "one\ntwo\n\nthree\nfour\nfive\n" },
    patch: patch("*** Update File: m.txt", "@@", "-one", "+ONE", " two", "", "@@", " four", "-five", "+FIVE"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  updated: m.txt (2 hunks, ~2/+2)\n</apply_patch>',
    after: { "m.txt": "ONE\ntwo\n\nthree\nfour\nFIVE\n" },
  },
  {
    name: "nested @@ scopes pick the right occurrence",
    files: {
      "c.py": "class A:\n    def run(self):\n        return 0\n\nclass B:\n    def run(self):\n        return 0\n",
    },
    patch: patch("*** Update File: c.py", "@@ class B:", "@@     def run(self):", "-        return 0", "+        return 1"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  updated: c.py (1 hunk, ~1/+1)\n</apply_patch>',
    after: { "c.py": "class A:\n    def run(self):\n        return 0\n\nclass B:\n    def run(self):\n        return 1\n" },
  },
  {
    name: "End of File pins the hunk to the tail",
    files: { "e.txt": "x\nend\nx\nend\n" },
    patch: patch("*** Update File: e.txt", "@@", " x", "-end", "+END", "*** End of File"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  updated: e.txt (1 hunk, ~1/+1)\n</apply_patch>',
    after: { "e.txt": "x\nend\nx\nEND\n" },
  },
  {
    name: "keeps CRLF line endings",
    files: { "w.txt": "a\r\nb\r\nc\r\n" },
    patch: patch("*** Update File: w.txt", "@@", " a", "-b", "+B", "+B2"),
    ok: true,
    text: ["updated: w.txt (1 hunk, ~1/+2)"],
    after: { "w.txt": "a\r\nB\r\nB2\r\nc\r\n" },
  },
  {
    name: "keeps a UTF-8 BOM",
    files: { "b.txt": `${BOM}first\nsecond\n` },
    patch: patch("*** Update File: b.txt", "@@", "-first", "+FIRST"),
    ok: true,
    text: ["updated: b.txt (1 hunk, ~1/+1)"],
    after: { "b.txt": `${BOM}FIRST\nsecond\n` },
  },
  {
    name: "falls back to one unique whitespace-normalised match, keeping the file's context",
    files: { "n.js": "if (x) {\n\treturn  y;\n}\n" },
    patch: patch("*** Update File: n.js", "@@", " if (x) {", "-    return y;", "+\treturn z;", " }"),
    ok: true,
    text: ["updated: n.js (1 hunk, ~1/+1)"],
    after: { "n.js": "if (x) {\n\treturn z;\n}\n" },
  },
  {
    name: "ambiguous hunk changes nothing and lists the matches",
    files: { "d.txt": "a\nfoo\nb\nfoo\nc\n", "other.txt": "keep\n" },
    patch: patch("*** Update File: other.txt", "@@", "-keep", "+changed", "*** Update File: d.txt", "@@", "-foo", "+bar"),
    ok: false,
    text: ['<apply_patch ok="false" error_kind="hunk_ambiguous" v="1">\nERROR: d.txt: hunk 1', "lines 2-2:", "    2| foo", "lines 4-4:", "    4| foo"],
  },
  {
    name: "missing hunk changes nothing and lists the closest spans",
    files: { "f.ts": "function add(a, b) {\n  return a + b;\n}\n" },
    patch: patch("*** Update File: f.ts", "@@", " function add(a, c) {", "-  return a + c;", "+  return a - c;", " }"),
    ok: false,
    text: ['error_kind="hunk_not_found"', "ERROR: f.ts: hunk 1 (patch line 3): old lines not found", "closest spans in f.ts", "lines 1-3", "    2|   return a + b;"],
  },
  {
    name: "scope not found",
    files: { "s.py": "def a():\n    pass\n" },
    patch: patch("*** Update File: s.py", "@@ def b():", "-    pass", "+    return"),
    ok: false,
    text: ['error_kind="scope_not_found"', "s.py: hunk 1 (patch line 3): @@ scope header not found: '@@ def b():'"],
  },
  {
    name: "a multi-file patch whose last op fails leaves every file as it was",
    files: { "one.txt": "1\n", "two.txt": "2\n", "gone.txt": "bye\n" },
    patch: patch(
      "*** Update File: one.txt",
      "@@",
      "-1",
      "+one",
      "*** Delete File: gone.txt",
      "*** Add File: dir/three.txt",
      "+3",
      "*** Update File: two.txt",
      "@@",
      "-nope",
      "+two",
    ),
    ok: false,
    text: ['error_kind="hunk_not_found"', "two.txt: hunk 1"],
  },
  {
    name: "Add over an existing file is refused",
    files: { "x.txt": "x\n" },
    patch: patch("*** Add File: x.txt", "+y"),
    ok: false,
    text: '<apply_patch ok="false" error_kind="file_exists" v="1">\nERROR: Add File: x.txt already exists; use Update File to change it\n</apply_patch>',
  },
  {
    name: "Update of a missing file is refused",
    patch: patch("*** Update File: nope.txt", "@@", "-a", "+b"),
    ok: false,
    text: ['error_kind="file_not_found"', "Update File: file not found: nope.txt"],
  },
  {
    name: "Delete of a missing file is refused",
    patch: patch("*** Delete File: nope.txt"),
    ok: false,
    text: ['error_kind="file_not_found"', "Delete File: file not found: nope.txt"],
  },
  {
    name: "a path escaping cwd is refused",
    files: { "ok.txt": "1\n" },
    patch: patch("*** Update File: ok.txt", "@@", "-1", "+2", "*** Add File: ../escape.txt", "+x"),
    ok: false,
    text: ['error_kind="path_outside_cwd"', "path escapes cwd: ../escape.txt"],
  },
  {
    name: "Move to renames the updated file",
    files: { "a.txt": "a\n" },
    patch: patch("*** Update File: a.txt", "*** Move to: sub/b.txt", "@@", "-a", "+b"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  moved: a.txt -> sub/b.txt (1 hunk, ~1/+1)\n</apply_patch>',
    after: { "a.txt": null, "sub/b.txt": "b\n" },
  },
  {
    name: "Move to onto an existing file replaces it",
    files: { "a.txt": "a\n", "b.txt": "old b\n" },
    patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-a", "+b"),
    ok: true,
    text: '<apply_patch ok="true" ops="1" v="1">\n  moved: a.txt -> b.txt (1 hunk, ~1/+1)\n</apply_patch>',
    after: { "a.txt": null, "b.txt": "b\n" },
  },
  {
    name: "a move in a patch whose other hunk fails changes nothing (all or nothing)",
    files: { "a.txt": "a\n", "c.txt": "c\n" },
    patch: patch("*** Update File: a.txt", "*** Move to: b.txt", "@@", "-a", "+b", "*** Update File: c.txt", "@@", "-nope", "+x"),
    ok: false,
    text: [
      '<apply_patch ok="false" error_kind="hunk_not_found" v="1">\nERROR: c.txt: hunk 1 (patch line 8): old lines not found\n',
    ],
  },
  {
    name: "an unknown op kind is named",
    patch: patch("*** Rename File: a.txt"),
    ok: false,
    text: ['error_kind="unknown_op_kind"', "line 2: unknown operation '*** Rename File'"],
  },
  {
    name: "parse error: missing Begin Patch",
    patch: "*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch",
    ok: false,
    text: '<apply_patch ok="false" error_kind="parse" v="1">\nERROR: line 1: expected \'*** Begin Patch\', found \'*** Update File: a.txt\'\n</apply_patch>',
  },
  {
    name: "parse error: missing End Patch",
    patch: "*** Begin Patch\n*** Add File: a.txt\n+a",
    ok: false,
    text: ['error_kind="parse"', "line 3: the patch must end with '*** End Patch'"],
  },
  {
    name: "parse error: bad hunk line is named",
    files: { "a.txt": "a\n" },
    patch: patch("*** Update File: a.txt", "@@", "-a", "+b", "oops"),
    ok: false,
    text: ['error_kind="parse"', "line 6: a hunk line must start with ' ', '-' or '+', found 'oops'"],
  },
  {
    name: "parse error: Add body line without +",
    patch: patch("*** Add File: a.txt", "+a", "b"),
    ok: false,
    text: ['error_kind="parse"', "line 4: every line of an added file must start with '+'"],
  },
  {
    name: "parse error: Update without hunks",
    patch: patch("*** Update File: a.txt", "*** Delete File: b.txt"),
    ok: false,
    text: ['error_kind="parse"', "line 2: '*** Update File: a.txt' has no hunks"],
  },
  {
    name: "chained ops: add, update and delete across files, reported per op",
    files: { "keep.txt": "k1\nk2\n", "rm.txt": "x\n" },
    patch: patch(
      "*** Add File: new.txt",
      "+n",
      "*** Update File: keep.txt",
      "@@",
      " k1",
      "-k2",
      "+K2",
      "*** Delete File: rm.txt",
    ),
    ok: true,
    text: '<apply_patch ok="true" ops="3" v="1">\n  added: new.txt (1 line)\n  updated: keep.txt (1 hunk, ~1/+1)\n  deleted: rm.txt\n</apply_patch>',
    after: { "new.txt": "n\n", "keep.txt": "k1\nK2\n", "rm.txt": null },
  },
];

describe("apply_patch conformance", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      if (c.files) await t.put(c.files);
      const before = await snapshot();
      const r = await applyPatchTool.run({ patch: c.patch }, t.ctx);
      if (typeof c.text === "string") expect(r.modelText).toBe(c.text);
      else for (const part of c.text) expect(r.modelText).toContain(part);
      expect(r.ok).toBe(c.ok);
      if (!c.ok) {
        expect(r.modelText).toMatch(/^<apply_patch ok="false" error_kind="[a-z_]+" v="1">\nERROR: [^]*\n<\/apply_patch>$/);
        expect(await snapshot()).toEqual(before);
      }
      for (const [rel, want] of Object.entries(c.after ?? {})) {
        const abs = path.join(t.cwd, rel);
        if (want === null) await expect(fsp.stat(abs)).rejects.toThrow();
        else expect((await fsp.readFile(abs)).toString("utf8")).toBe(want);
      }
    });
  }

  it("restores files already written when a later write fails", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "b\n" });
    const before = await snapshot();
    const real = t.ctx.services.fs;
    let renames = 0;
    t.ctx.services = {
      ...t.ctx.services,
      fs: {
        ...real,
        rename: (async (from: string, to: string) => {
          // The first rename (a.txt) succeeds; the second (b.txt) fails; restoring a.txt succeeds.
          if (++renames === 2) throw new Error("disk full");
          return real.rename(from, to);
        }) as typeof real.rename,
      },
    };
    const r = await applyPatchTool.run(
      { patch: patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Add File: sub/new.txt", "+n", "*** Update File: b.txt", "@@", "-b", "+B") },
      t.ctx,
    );
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain('error_kind="write_failed"');
    expect(r.modelText).toContain("disk full");
    expect(r.modelText).toContain("no file changed");
    expect(await snapshot()).toEqual(before);
    await expect(fsp.stat(path.join(t.cwd, "sub"))).rejects.toThrow();
  });

  it("writes nothing when a file changes on disk between the check and the write", async () => {
    await t.put({ "a.txt": "a\n", "b.txt": "b\n" });
    const real = t.ctx.services.fs;
    t.ctx.services = {
      ...t.ctx.services,
      fs: {
        ...real,
        // Another writer changes b.txt right after the patch has read it (the
        // patch reads a file through a handle it opened and checked).
        open: (async (file: string, ...rest: unknown[]) => {
          const handle = await (real.open as (...a: unknown[]) => ReturnType<typeof real.open>)(file, ...rest);
          if (path.basename(file) !== "b.txt" || rest[0] === "wx") return handle;
          const readFile = async () => {
            const data = await handle.readFile();
            await fsp.writeFile(file, "someone else's b\n");
            return data;
          };
          return new Proxy(handle, { get: (h, key) => (key === "readFile" ? readFile : (Reflect.get(h, key) as unknown)) });
        }) as typeof real.open,
      },
    };
    const r = await applyPatchTool.run({ patch: patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: b.txt", "@@", "-b", "+B") }, t.ctx);
    expect(r).toMatchObject({
      ok: false,
      modelText:
        '<apply_patch ok="false" error_kind="verify" v="1">\n' +
        "ERROR: b.txt changed on disk after the patch was checked (source changed after planning); no file changed: read it again and resend the patch\n</apply_patch>",
    });
    expect(await fsp.readFile(path.join(t.cwd, "a.txt"), "utf8")).toBe("a\n");
    expect(await fsp.readFile(path.join(t.cwd, "b.txt"), "utf8")).toBe("someone else's b\n");
  });

  it("parses hunks, scopes and End of File with line numbers", () => {
    const r = parseV4A(patch("*** Update File: a", "@@ class A", "@@ def f", " x", "-y", "+z", "*** End of File", "@@", "+w"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const op = r.ops[0]!;
    expect(op.kind).toBe("update");
    if (op.kind !== "update") return;
    expect(op.hunks.map((h) => ({ scopes: h.scopes, eof: h.eof, line: h.line, n: h.lines.length }))).toEqual([
      { scopes: ["class A", "def f"], eof: true, line: 3, n: 3 },
      { scopes: [], eof: false, line: 9, n: 1 },
    ]);
  });
});
