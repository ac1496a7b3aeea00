import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../tools/yuj/edit.js";
import { findCandidates, formatCandidates, similarity } from "../../tools/lib/edit-candidates.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const edit = (p: string, old_str: string, new_str: string) => editTool.run({ path: p, old_str, new_str }, t.ctx);
const bytesOf = (p: string) => fsp.readFile(path.join(t.cwd, p));
const textOf = async (p: string) => (await bytesOf(p)).toString("utf8");

describe("edit", () => {
  it("refuses an old_str found more than once, listing the copies, and changes nothing", async () => {
    await t.put({ "a.py": "x = 1\ny = 0\nx = 1\n" });
    const r = await edit("a.py", "x = 1", "x = 2");
    expect(r).toEqual({
      ok: false,
      modelText: [
        "ERROR: old_str matches more than once in a.py. No changes made. Include unique surrounding text in old_str.",
        '<candidates total="2" cause_hint="multiple_matches" path="a.py">',
        '  <candidate rank="1" strategy="exact" similarity="1.00" line="1">',
        "x = 1",
        "  </candidate>",
        '  <candidate rank="2" strategy="exact" similarity="1.00" line="3">',
        "x = 1",
        "  </candidate>",
        "</candidates>",
      ].join("\n"),
    });
    expect(await textOf("a.py")).toBe("x = 1\ny = 0\nx = 1\n");
    // Unique surrounding text picks one copy.
    expect((await edit("a.py", "y = 0\nx = 1", "y = 0\nx = 2")).modelText).toBe("OK");
    expect(await textOf("a.py")).toBe("x = 1\ny = 0\nx = 2\n");
  });

  it("shows a small diff in the view only", async () => {
    await t.put({ "a.py": "a\nb\nc\nd\ne\n" });
    const r = await edit("a.py", "c", "C");
    expect(r.modelText).toBe("OK");
    expect(r.display).toEqual({ kind: "diff", files: [{ path: "a.py", op: "update", hunks: "@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e" }], note: "OK" });
  });

  it("inserts new_str literally ($ patterns are not special)", async () => {
    await t.put({ "a.js": "let a = 1;\n" });
    await edit("a.js", "1", "$& $1 $$");
    expect(await textOf("a.js")).toBe("let a = $& $1 $$;\n");
  });

  it("refuses an empty old_str", async () => {
    await t.put({ "a.txt": "x" });
    expect(await edit("a.txt", "", "y")).toEqual({
      ok: false,
      modelText:
        "ERROR: old_str must be non-empty — an empty old_str would silently prepend new_str to the file. " +
        "Use `write` to create or replace whole-file content.",
    });
  });

  it("reports a missing file with the did-you-mean hint", async () => {
    expect((await edit("missing.py", "a", "b")).modelText).toBe("ERROR: file not found: missing.py");
    await t.put({ "pkg/m.py": "a" });
    expect((await edit("./.pkg/m.py", "a", "b")).modelText).toBe(
      "ERROR: file not found: ./.pkg/m.py (did you mean 'pkg/m.py'?)",
    );
  });

  it("refuses non-UTF-8 files", async () => {
    await t.put({ "b.bin": Buffer.from([0xff, 0xfe, 0x41]) });
    expect((await edit("b.bin", "A", "B")).modelText).toBe(
      "ERROR: cannot edit b.bin: file is not valid UTF-8 (likely a binary file). " +
        "Use `write` to overwrite or `apply_patch` for byte-level changes.",
    );
  });

  it("refuses forbidden path characters", async () => {
    expect((await edit("a\nb", "a", "b")).modelText).toBe(
      "ERROR: path contains forbidden character (newline or NUL)",
    );
  });

  it("matches CRLF files on LF text and writes CRLF back", async () => {
    await t.put({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
    expect((await edit("w.txt", "one\ntwo", "uno\ndos\nextra")).modelText).toBe("OK");
    expect(await textOf("w.txt")).toBe("uno\r\ndos\r\nextra\r\nthree\r\n");
  });

  it("keeps a UTF-8 BOM", async () => {
    await t.put({ "bom.cs": "\ufeffclass A {}\n" });
    expect((await edit("bom.cs", "class A", "class B")).ok).toBe(true);
    const bytes = await bytesOf("bom.cs");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe("class B {}\n");
  });

  it("keeps the file mode", async () => {
    await t.put({ "x.sh": "echo a\n" });
    await fsp.chmod(path.join(t.cwd, "x.sh"), 0o755);
    await edit("x.sh", "a", "b");
    expect((await fsp.stat(path.join(t.cwd, "x.sh"))).mode & 0o777).toBe(0o755);
  });

  it("answers a miss with ranked candidates and a cause hint", async () => {
    const file = "def f():\n    return 1\n\n\ndef g():\n    return 2\n";
    await t.put({ "m.py": file });
    const r = await edit("m.py", "def g():\n  return 2", "def g():\n  return 3");
    expect(r.ok).toBe(false);
    expect(r.modelText).toBe(
      [
        "ERROR: old_str not found in m.py",
        // Several strategies find this span; whitespace drift, tried first, names it.
        '<candidates total="1" cause_hint="whitespace_drift" path="m.py">',
        '  <candidate rank="1" strategy="whitespace_normalized" similarity="0.90" line="5">',
        "def g():\n    return 2",
        "  </candidate>",
        "</candidates>",
      ].join("\n"),
    );
    expect(await textOf("m.py")).toBe(file);
  });

  it("names each drift with its cause hint", async () => {
    const cases: Array<[string, string, string]> = [
      ["a  =  1\n", "a = 1", "whitespace_drift"],
      // The same span found by line_trimmed too: whitespace drift names it first.
      ["x = 1   \ny = 2\n", "x = 1\ny = 2", "whitespace_drift"],
      ['say("hi\\n")\n', 'say("hi\\\\n")', "escape_artifact"],
      ['print("a")\n', 'print("b")', ""],
      ["start\nmiddle\nend\n", "start\nMIDDLE\nend", "interior_drift"],
      ["foo()\n", "\n  foo()  \n", "boundary_whitespace"],
    ];
    for (const [file, old, hint] of cases) {
      await t.put({ "c.txt": file });
      const r = await edit("c.txt", old, "z");
      expect(r.ok).toBe(false);
      if (hint) expect(r.modelText).toContain(`cause_hint="${hint}"`);
      else expect(r.modelText).toBe("ERROR: old_str not found in c.txt");
    }
  });

  it("shows at most edit_candidate_count candidates, best first", async () => {
    await t.cleanup();
    t = await makeToolContext((c) => {
      c.tools.edit_candidate_count = 2;
    });
    await t.put({ "k.txt": "  a  b\n a b\n\ta\tb\n  a b  \n" });
    const r = await edit("k.txt", "a   b", "c");
    const ranks = [...r.modelText.matchAll(/rank="(\d)"/g)].map((m) => m[1]);
    expect(ranks).toEqual(["1", "2"]);
    expect(r.modelText).toContain('total="2"');
  });

  it("shows no candidates block when the count is 0", async () => {
    await t.cleanup();
    t = await makeToolContext((c) => {
      c.tools.edit_candidate_count = 0;
    });
    await t.put({ "k.txt": "a  b\n" });
    expect((await edit("k.txt", "a b", "c")).modelText).toBe("ERROR: old_str not found in k.txt");
  });

  it("applies a unique near match when the fuzzy cascade is on", async () => {
    await t.cleanup();
    t = await makeToolContext((c) => {
      c.tools.edit_fuzzy_cascade_enabled = true;
    });
    await t.put({ "f.py": "class A:\n    def f(self):\n        return 1\n" });
    const r = await edit("f.py", "def f(self):\n    return 1", "def f(self):\n    return 2");
    // Named as whitespace drift, applied as whole lines shifted to the file's indent.
    expect(r).toMatchObject({ ok: true, modelText: "OK (whitespace-normalized)" });
    expect(await textOf("f.py")).toBe("class A:\n    def f(self):\n        return 2\n");

    await t.put({ "g.txt": "x = 1   \n" });
    expect((await edit("g.txt", "x = 1\n", "x = 2\n")).modelText).toBe("OK (whitespace-normalized)");
    expect(await textOf("g.txt")).toBe("x = 2\n");

    await t.put({ "h.txt": "a\\tb\n" });
    expect((await edit("h.txt", "a\\\\tb", "c")).modelText).toBe("OK (escape-normalized)");
  });
});

describe("candidate search", () => {
  it("scores similarity between 0 and 1", () => {
    expect(similarity("abc", "abc")).toBe(1);
    expect(similarity("abc", "xyz")).toBe(0);
    expect(similarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7);
  });

  it("deduplicates spans found by several strategies", () => {
    const c = findCandidates("  foo  bar\n", "foo bar");
    expect(c).toHaveLength(1);
  });

  it("escapes attribute values", () => {
    const c = findCandidates("a  b\n", "a b");
    expect(formatCandidates('x"<&>.txt', c)).toContain('path="x&quot;&lt;&amp;&gt;.txt"');
  });
});
