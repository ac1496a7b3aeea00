// structural_search's rewrite preview and structural_edit on real files with
// the real Python grammar. A preview writes nothing; an edit writes exactly
// the previewed change (checked against the expected bytes written out by
// hand); and every refusal leaves the file as it was: its bytes, its mtime
// (set to a day ago before the call) and its inode (an atomic write would
// replace it).

import { statSync, readFileSync, utimesSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { structuralEditTool } from "../../tools/yuj/structural_edit.js";
import { structuralSearchTool } from "../../tools/yuj/structural_search.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const Q = '((identifier) @match (#eq? @match "old_name"))';
const SOURCE = 'greeting = "héllo 👋"\nold_name = 1\nprint(old_name)  # old_name stays in this comment\n';
const REWRITTEN = 'greeting = "héllo 👋"\nnew_näme = 1\nprint(new_näme)  # old_name stays in this comment\n';

type Rewrite = { path: string; language: string; query: string; replacement: string };
const base: Rewrite = { path: "app.py", language: "python", query: Q, replacement: "new_näme" };

const preview = (args: Rewrite) => structuralSearchTool.run(args, t.ctx);
const edit = (args: Rewrite & { expected_sha256: string }) => structuralEditTool.run(args, t.ctx);
const hashOf = (text: string) => /preview_sha256="([0-9a-f]{64})"/.exec(text)?.[1];

const abs = (rel: string) => path.join(t.cwd, rel);

/** Puts the file with an mtime a day old, so any write shows. */
async function putOld(rel: string, content: string): Promise<void> {
  await t.put({ [rel]: content });
  const old = new Date(Date.now() - 86_400_000);
  utimesSync(abs(rel), old, old);
}

function state(rel: string) {
  const st = statSync(abs(rel));
  return { bytes: readFileSync(abs(rel)).toString("hex"), mtimeMs: st.mtimeMs, ino: st.ino };
}

describe("structural rewrite: preview, then edit", () => {
  it("previews every changed location and a diff, returns preview_sha256, and writes nothing", async () => {
    await putOld("app.py", SOURCE);
    const before = state("app.py");
    const r = await preview(base);
    expect(r.ok, r.modelText).toBe(true);
    expect(state("app.py")).toEqual(before);
    expect(r.modelText).toMatch(/^<structural_search status="ok" mode="preview" path="app.py" language="python" changes="2" preview_sha256="[0-9a-f]{64}" v="1">$/m);
    // Byte offsets: the first line holds é (2 bytes) and an emoji (4 bytes).
    const line2 = Buffer.byteLength('greeting = "héllo 👋"\n');
    const line3 = line2 + Buffer.byteLength("old_name = 1\n");
    expect(r.modelText).toContain(`app.py:2:1 bytes=[${line2},${line2 + 8}) old_name → new_näme`);
    expect(r.modelText).toContain(`app.py:3:7 bytes=[${line3 + 6},${line3 + 14}) old_name → new_näme`);
    expect(r.modelText).toContain(
      "@@ -1,3 +1,3 @@\n" +
        ' greeting = "héllo 👋"\n' +
        "-old_name = 1\n-print(old_name)  # old_name stays in this comment\n" +
        "+new_näme = 1\n+print(new_näme)  # old_name stays in this comment\n",
    );
  });

  it("applies exactly the previewed change", async () => {
    await putOld("app.py", SOURCE);
    const hash = hashOf((await preview(base)).modelText)!;
    const r = await edit({ ...base, expected_sha256: hash });
    expect(r.ok, r.modelText).toBe(true);
    expect(readFileSync(abs("app.py"), "utf8")).toBe(REWRITTEN);
    expect(r.modelText).toContain('changes="2"');
    // The person sees the change as a diff of the file, never the envelope.
    expect(r.display?.kind).toBe("diff");
    const hunks = r.display?.kind === "diff" ? r.display.files[0]!.hunks : "";
    expect(hunks).toMatch(/^@@ /);
    expect(hunks).toContain("+new_näme = 1");
    expect(r.display?.kind === "diff" && r.display.files[0]!.path).toBe("app.py");
  });

  it("puts each capture's text in place of ${name}", async () => {
    await putOld("calls.py", "log(a, 1)\nlog(b, 2)\nother(c, 3)\n");
    const args = {
      path: "calls.py",
      language: "python",
      query: '((call function: (identifier) @fn arguments: (argument_list (identifier) @x (integer) @n)) @match (#eq? @fn "log"))',
      replacement: 'log(${n}, ${x}, "${fn}", "$${kept}")',
    };
    const hash = hashOf((await preview(args)).modelText)!;
    const r = await edit({ ...args, expected_sha256: hash });
    expect(r.ok, r.modelText).toBe(true);
    expect(readFileSync(abs("calls.py"), "utf8")).toBe('log(1, a, "log", "${kept}")\nlog(2, b, "log", "${kept}")\nother(c, 3)\n');
  });
});

describe("structural_edit refusals change no byte", () => {
  /** Runs the edit and checks the file is untouched and the error is of `kind`. */
  async function refused(args: Rewrite & { expected_sha256: string }, kind: string, words: RegExp, file = args.path): Promise<void> {
    const before = state(file);
    const r = await edit(args);
    expect(r.ok).toBe(false);
    expect(r.modelText).toContain(`error_kind="${kind}"`);
    expect(r.modelText).toMatch(words);
    expect(r.modelText).toContain("Nothing was changed.");
    expect(state(file)).toEqual(before);
  }

  it("a file changed since the preview", async () => {
    await putOld("app.py", SOURCE);
    const hash = hashOf((await preview(base)).modelText)!;
    await putOld("app.py", `${SOURCE}old_name += 1\n`);
    await refused({ ...base, expected_sha256: hash }, "file_changed", /app\.py changed since the preview/);
  });

  it("a changed query, a changed replacement, another path, another language", async () => {
    await putOld("app.py", SOURCE);
    await putOld("twin.py", SOURCE);
    const hash = hashOf((await preview(base)).modelText)!;
    await refused({ ...base, query: `${Q} `, expected_sha256: hash }, "query_changed", /the query differs from the preview's/);
    await refused({ ...base, replacement: "other", expected_sha256: hash }, "replacement_changed", /the replacement differs/);
    await refused({ ...base, path: "twin.py", expected_sha256: hash }, "path_changed", /that preview was for app\.py/);
    // Python this simple also parses as JavaScript; a file without an extension names no language.
    await putOld("script", "old_name = 1\n");
    const pyHash = hashOf((await preview({ ...base, path: "script" })).modelText)!;
    await refused({ ...base, path: "script", language: "javascript", expected_sha256: pyHash }, "language_changed", /used language python/);
    await refused({ ...base, language: "javascript", expected_sha256: hash }, "language_mismatch", /app\.py is a python file, not javascript/);
  });

  it("a stale hash, and one that is no hash at all", async () => {
    await putOld("app.py", SOURCE);
    await refused({ ...base, expected_sha256: "0".repeat(64) }, "stale_hash", /stale hash/);
    await refused({ ...base, expected_sha256: "abc" }, "bad_hash", /64-hex-digit preview_sha256/);
  });

  it("overlapping matches", async () => {
    await putOld("nest.py", "f(f(x))\n");
    const args = { path: "nest.py", language: "python", query: "(call) @match", replacement: "g()" };
    const p = await preview(args);
    expect(p.modelText).toContain('error_kind="overlap"');
    await refused({ ...args, expected_sha256: "1".repeat(64) }, "overlap", /nest\.py:1:1 and the match at nest\.py:1:3 overlap/);
  });

  it("a missing capture: unknown, absent from a match, or held twice", async () => {
    await putOld("m.py", "f()\ng(a, b)\n");
    const h = "2".repeat(64);
    await refused({ path: "m.py", language: "python", query: "(call) @match", replacement: "${nope}", expected_sha256: h }, "missing_capture", /has no capture @nope \(its captures: @match\)/);
    await refused(
      { path: "m.py", language: "python", query: "(call arguments: (argument_list (identifier)? @arg)) @match", replacement: "${arg}", expected_sha256: h },
      "missing_capture",
      /the match at m\.py:1:1 has no @arg capture/,
    );
    await refused(
      { path: "m.py", language: "python", query: "(call arguments: (argument_list (identifier) @arg (identifier) @arg)) @match", replacement: "${arg}", expected_sha256: h },
      "missing_capture",
      /the match at m\.py:2:1 holds @arg 2 times/,
    );
  });

  it("a file that does not parse, and a result that would not", async () => {
    await putOld("broken.py", "def f(:\n    return old_name\n");
    const h = "3".repeat(64);
    await refused({ ...base, path: "broken.py", expected_sha256: h }, "parse_error", /broken\.py does not parse as python \(syntax error at line 1/);
    await putOld("app.py", SOURCE);
    await refused({ ...base, replacement: "(", expected_sha256: h }, "result_parse_error", /would leave app\.py unparseable/);
  });

  it("an unsupported language, a bad query, a query without @match", async () => {
    await putOld("app.py", SOURCE);
    const h = "4".repeat(64);
    await refused({ ...base, language: "cobol", expected_sha256: h }, "unsupported_language", /unsupported language 'cobol'/);
    await refused({ ...base, query: "(identifer) @match", expected_sha256: h }, "query_error", /does not compile/);
    await refused({ ...base, query: "(identifier) @x", expected_sha256: h }, "match_capture", /exactly one @match capture/);
  });
});

describe("structural_edit through the dispatcher and the guards", () => {
  let s: GuardedSession | undefined;
  afterEach(async () => {
    await s?.cleanup();
    s = undefined;
  });

  it("block mode: the preview is not a read; after a read the edit applies", async () => {
    s = await guardedSession((c) => {
      c.tools.structural_enabled = true;
      c.tools.stale_file = "block";
    });
    await s.put({ "app.py": SOURCE });
    const p = await s.call("structural_search", base);
    const hash = hashOf(p.modelText)!;
    const blocked = await s.call("structural_edit", { ...base, expected_sha256: hash });
    expect(blocked.ok).toBe(false);
    expect(blocked.modelText).toBe("ERROR: stale_file: read app.py first");
    expect(readFileSync(path.join(s.cwd, "app.py"), "utf8")).toBe(SOURCE);
    expect((await s.call("read", { path: "app.py" })).ok).toBe(true);
    const done = await s.call("structural_edit", { ...base, expected_sha256: hash });
    expect(done.ok, done.modelText).toBe(true);
    expect(readFileSync(path.join(s.cwd, "app.py"), "utf8")).toBe(REWRITTEN);
    // Its own change refreshed the record: a second rewrite needs no new read.
    const again = { ...base, query: '((identifier) @match (#eq? @match "new_näme"))', replacement: "third" };
    const h2 = hashOf((await s.call("structural_search", again)).modelText)!;
    expect((await s.call("structural_edit", { ...again, expected_sha256: h2 })).ok).toBe(true);
  });

  it("the formatter runs after it, and a done guard counts it as a change", async () => {
    const scripts = mkdtempSync(path.join(tmpdir(), "yuj-structural-fmt-"));
    const fmt = path.join(scripts, "mark.mjs");
    writeFileSync(fmt, 'import { appendFileSync } from "node:fs";\nappendFileSync(process.argv[2], "# formatted\\n");\n');
    try {
      s = await guardedSession((c) => {
        c.tools.structural_enabled = true;
        c.formatter.command = [process.execPath, fmt, "{path}"];
        c.formatter.extensions = ["py"];
        c.loop.done_guard_enabled = true;
        c.loop.done_require_mutation = true;
      });
      await s.put({ "app.py": SOURCE });
      const early = await s.call("done", {});
      expect(early.ok).toBe(false);
      const hash = hashOf((await s.call("structural_search", base)).modelText)!;
      const r = await s.call("structural_edit", { ...base, expected_sha256: hash });
      expect(r.modelText).toContain("[formatter] app.py: ok");
      expect(readFileSync(path.join(s.cwd, "app.py"), "utf8")).toBe(`${REWRITTEN}# formatted\n`);
      expect((await s.call("done", {})).ok).toBe(true);
    } finally {
      rmSync(scripts, { recursive: true, force: true });
    }
  });
});


describe("structural_edit in an approval prompt", () => {
  it("names the file and shows the query and the replacement", () => {
    expect(structuralEditTool.view.describe!({ ...base, expected_sha256: "f".repeat(64) }, { cwd: "/repo", name: "structural_edit" })).toEqual({
      summary: "structural_edit: app.py",
      detail: `query:\n${Q}\nreplacement:\nnew_näme`,
    });
  });
});
