// The Yuj surface's read, glob and grep against what the reference system's
// own tests pin: each row runs a handler on real files (real symlinks, a
// project reached through a symlink) and checks the exact text the model reads.

import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../tools/yuj/glob.js";
import { grepTool } from "../../tools/yuj/grep.js";
import { readTool } from "../../tools/yuj/read.js";
import { editTool } from "../../tools/yuj/edit.js";
import { writeTool } from "../../tools/yuj/write.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const envelope = (tool: string, attrs: string, lines: string[]) =>
  lines.length ? `<search_result tool="${tool}" ${attrs}>\n${lines.join("\n")}\n</search_result>` : `<search_result tool="${tool}" ${attrs}>\n\n</search_result>`;
const unpaged = () => {
  t.ctx.config.tools.search_pagination_enabled = false;
};

describe("read", () => {
  const fifty = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
  it.each<[string, string, { offset?: number; limit?: number }, string]>([
    ["numbers each line from 1", "line1\nline2\nline3\n", {}, "1: line1\n2: line2\n3: line3"],
    ["a file without a final newline", "hello", {}, "1: hello"],
    ["a limit the file fits in adds no reminder", "a\nb\nc", { limit: 100 }, "1: a\n2: b\n3: c"],
    [
      "a limit that cuts the file says so, with the count and the path",
      fifty,
      { limit: 10 },
      Array.from({ length: 10 }, (_, i) => `${i + 1}: line ${i}`).join("\n") +
        "\n<system-reminder>Read returned the first 10 lines of f.txt. The file is longer — re-read with a higher limit or a specific offset to see more.</system-reminder>",
    ],
    ["an empty file is a reminder alone, no leading newline", "", {}, "<system-reminder>File f.txt exists but is empty (0 bytes).</system-reminder>"],
    [
      "an offset past the end is a reminder alone",
      "a\nb\n",
      { offset: 5 },
      "<system-reminder>Read offset 5 is past EOF for f.txt (file has 2 lines). No content returned — call read with a smaller offset to inspect the file.</system-reminder>",
    ],
  ])("%s", async (_name, content, range, expected) => {
    await t.put({ "f.txt": content });
    expect(await readTool.run({ path: "f.txt", ...range }, t.ctx)).toMatchObject({ ok: true, modelText: expected });
  });

  it.each<[string, { path: string; offset?: number; limit?: number }, string]>([
    ["a missing file", { path: "nonexistent.txt" }, "ERROR: file not found: nonexistent.txt"],
    ["a negative offset", { path: "f.txt", offset: -1 }, "ERROR: offset must be >= 0, got -1"],
    ["a negative limit", { path: "f.txt", limit: -2 }, "ERROR: limit must be >= 0, got -2"],
    ["a directory", { path: "src" }, "ERROR: src is a directory — use glob to list contents."],
    ["bytes that are not UTF-8", { path: "bin.dat" }, "ERROR: file bin.dat is not UTF-8 text (use bash with `file bin.dat` or `xxd` to inspect bytes)."],
    ["a path above the project", { path: "../x" }, "ERROR: path escapes cwd: ../x"],
  ])("%s is an error naming it", async (_name, args, expected) => {
    await t.put({ "f.txt": "a\n", "src/m.py": "", "bin.dat": Buffer.from([0xff, 0xfe, 0x00, 0x41]) });
    expect(await readTool.run(args, t.ctx)).toMatchObject({ ok: false, modelText: expected });
  });
});

describe("write and edit: the path and the answer", () => {
  it.each(["a\nb.txt", "a\u0000b.txt"])("refuses a path with a newline or NUL (%j), writing nothing", async (bad) => {
    const forbidden = { ok: false, modelText: "ERROR: path contains forbidden character (newline or NUL)" };
    expect(await writeTool.run({ path: bad, content: "x" }, t.ctx)).toMatchObject(forbidden);
    expect(await editTool.run({ path: bad, old_str: "x", new_str: "y" }, t.ctx)).toMatchObject(forbidden);
    expect(await fsp.readdir(t.cwd)).toEqual([]);
  });

  it("counts characters written and refuses a directory", async () => {
    expect((await writeTool.run({ path: "new.txt", content: "héllo world" }, t.ctx)).modelText).toBe("OK: wrote 11 bytes to new.txt");
    expect(await fsp.readFile(path.join(t.cwd, "new.txt"), "utf8")).toBe("héllo world");
    await t.put({ "d/x.txt": "x" });
    expect(await writeTool.run({ path: "d", content: "x" }, t.ctx)).toMatchObject({
      ok: false,
      modelText: "ERROR: d is a directory — choose a different name or remove the directory first.",
    });
  });

  it("edits the one copy and answers OK; a missing file is named", async () => {
    await t.put({ "file.txt": "old text here" });
    expect((await editTool.run({ path: "file.txt", old_str: "old", new_str: "new" }, t.ctx)).modelText).toBe("OK");
    expect(await fsp.readFile(path.join(t.cwd, "file.txt"), "utf8")).toBe("new text here");
    expect(await editTool.run({ path: "gone.txt", old_str: "old", new_str: "new" }, t.ctx)).toMatchObject({ ok: false, modelText: "ERROR: file not found: gone.txt" });
  });
});

describe("glob: what it lists", () => {
  it("matches one directory level, sorted, in a plain list without pagination", async () => {
    await t.put({ "z.py": "", "a.py": "", "b.py": "", "c.txt": "" });
    unpaged();
    expect((await globTool.run({ pattern: "*.py" }, t.ctx)).modelText).toBe("a.py\nb.py\nz.py");
    expect((await globTool.run({ pattern: "*.rs" }, t.ctx)).modelText).toBe("No files found.");
  });

  it("pages: one match, a pointer to the next page, the last page, an empty result", async () => {
    for (let i = 0; i < 7; i++) await t.put({ [`f${i}.py`]: "" });
    t.ctx.config.tools.glob_max_matches_per_page = 3;
    expect((await globTool.run({ pattern: "f0.py" }, t.ctx)).modelText).toBe(
      envelope("glob", 'total="1" shown="1" page="1" next_page="0" pattern="f0.py" scope="."', ["f0.py"]),
    );
    expect((await globTool.run({ pattern: "*.py" }, t.ctx)).modelText).toBe(
      envelope("glob", 'total="7" shown="3" page="1" next_page="2" pattern="*.py" scope="."', ["f0.py", "f1.py", "f2.py"]),
    );
    expect((await globTool.run({ pattern: "*.py", page: 3 }, t.ctx)).modelText).toBe(
      envelope("glob", 'total="7" shown="1" page="3" next_page="0" pattern="*.py" scope="."', ["f6.py"]),
    );
    expect((await globTool.run({ pattern: "*.rs" }, t.ctx)).modelText).toBe(
      envelope("glob", 'total="0" shown="0" page="1" next_page="0" pattern="*.rs" scope="."', []),
    );
  });

  it("escapes the pattern in the envelope", async () => {
    expect((await globTool.run({ pattern: 'foo&bar"baz' }, t.ctx)).modelText).toBe(
      envelope("glob", 'total="0" shown="0" page="1" next_page="0" pattern="foo&amp;bar&quot;baz" scope="."', []),
    );
  });

  it("answers a whole-project `**/` glob with a sorted page and a hint to narrow it", async () => {
    await t.put({ "z.py": "", "a.py": "", "m.py": "" });
    t.ctx.config.tools.glob_max_matches_per_page = 2;
    const hint = 'hint="unscoped recursive glob; provide a path scope (e.g. src/) or narrow the pattern."';
    expect((await globTool.run({ pattern: "**/*.py" }, t.ctx)).modelText).toBe(
      envelope("glob", `total="3" shown="2" page="1" next_page="2" pattern="**/*.py" scope="." ${hint}`, ["a.py", "m.py"]),
    );
    expect((await globTool.run({ pattern: "**/*.py", page: 2 }, t.ctx)).modelText).toBe(
      envelope("glob", `total="3" shown="1" page="2" next_page="0" pattern="**/*.py" scope="." ${hint}`, ["z.py"]),
    );
  });
});

describe("glob and grep: links and a project reached through a link", () => {
  let tmp: string;
  let root: string;
  beforeEach(async () => {
    tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "yuj-ref-links-")));
    root = path.join(tmp, "project");
    const outside = path.join(tmp, "unrelated");
    await fsp.mkdir(path.join(root, "src"), { recursive: true });
    await fsp.mkdir(outside);
    await fsp.writeFile(path.join(outside, "private-result.txt"), "outside\n");
    await fsp.writeFile(path.join(root, "source.txt"), "inside\n");
    await fsp.writeFile(path.join(root, "src", "keep.txt"), "inside directory\n");
    await fsp.symlink("source.txt", path.join(root, "local.txt"));
    await fsp.symlink("local.txt", path.join(root, "chain.txt"));
    await fsp.symlink(path.join(outside, "private-result.txt"), path.join(root, "escape-file.txt"));
    await fsp.symlink("escape-file.txt", path.join(root, "escape-chain.txt"));
    await fsp.symlink(path.join(root, "source.txt"), path.join(outside, "private-alias.txt"));
    await fsp.symlink(path.join(root, "src"), path.join(outside, "private-dir"));
    await fsp.symlink("src", path.join(root, "link"));
    await fsp.symlink(outside, path.join(root, "escape"));
    await fsp.symlink(root, path.join(tmp, "workspace"));
  });
  afterEach(() => fsp.rm(tmp, { recursive: true, force: true }));

  const cases: Array<[string, string, string[]]> = [
    ["*.txt", ".", ["chain.txt", "local.txt", "source.txt"]],
    ["*/*.txt", ".", ["link/keep.txt", "src/keep.txt"]],
    ["*.txt", "link", ["src/keep.txt"]],
    ["escape/*.txt", ".", []],
    ["escape/*/*.txt", ".", []],
  ];

  for (const via of ["project", "workspace"]) {
    it(`lists only what lies in the project, page by page and unpaged (cwd: ${via})`, async () => {
      t.ctx.cwd = path.join(tmp, via);
      t.ctx.config.tools.glob_max_matches_per_page = 1;
      for (const [pattern, scope, expected] of cases) {
        for (let page = 1; page <= Math.max(1, expected.length); page++) {
          const next = page < expected.length ? page + 1 : 0;
          const attrs = `total="${expected.length}" shown="${expected.length ? 1 : 0}" page="${page}" next_page="${next}" pattern="${pattern}" scope="${scope}"`;
          const r = await globTool.run({ pattern, path: scope, page }, t.ctx);
          expect(r.modelText, `${pattern} in ${scope}, page ${page}`).toBe(envelope("glob", attrs, expected.slice(page - 1, page)));
        }
      }
      unpaged();
      for (const [pattern, scope, expected] of cases) {
        expect((await globTool.run({ pattern, path: scope }, t.ctx)).modelText).toBe(expected.join("\n") || "No files found.");
      }
      expect(await globTool.run({ pattern: "*.txt", path: "escape" }, t.ctx)).toMatchObject({ ok: false, modelText: "ERROR: path escapes cwd: escape" });
    });
  }

  it("grep prints `./` paths from a folder scope, never the project's real or linked path", async () => {
    t.ctx.cwd = path.join(tmp, "workspace");
    await fsp.writeFile(path.join(root, "a.py"), "needle\n");
    await fsp.writeFile(path.join(root, "z.py"), "needle\n");
    const r = await grepTool.run({ pattern: "needle" }, t.ctx);
    expect(r.modelText).toBe(envelope("grep", 'total="2" shown="2" page="1" next_page="0" pattern="needle" scope="."', ["./a.py:1:needle", "./z.py:1:needle"]));
    unpaged();
    expect((await grepTool.run({ pattern: "needle" }, t.ctx)).modelText).toBe("./a.py:1:needle\n./z.py:1:needle");
    expect((await grepTool.run({ pattern: "needle", path: "./" }, t.ctx)).modelText).toBe("./a.py:1:needle\n./z.py:1:needle");
    expect((await grepTool.run({ pattern: "keep|inside", path: "src" }, t.ctx)).modelText).toBe("./src/keep.txt:1:inside directory");
  });
});

describe("grep: pages", () => {
  it("counts every match, shows a page, points at the next", async () => {
    await t.put({ "a.py": Array.from({ length: 10 }, (_, i) => `match ${i}`).join("\n"), "b.py": "needle here\nother\nneedle too\n" });
    t.ctx.config.tools.grep_max_matches_per_page = 4;
    expect((await grepTool.run({ pattern: "needle" }, t.ctx)).modelText).toBe(
      envelope("grep", 'total="2" shown="2" page="1" next_page="0" pattern="needle" scope="."', ["./b.py:1:needle here", "./b.py:3:needle too"]),
    );
    expect((await grepTool.run({ pattern: "match" }, t.ctx)).modelText).toBe(
      envelope(
        "grep",
        'total="10" shown="4" page="1" next_page="2" pattern="match" scope="."',
        [0, 1, 2, 3].map((i) => `./a.py:${i + 1}:match ${i}`),
      ),
    );
    expect((await grepTool.run({ pattern: "match", page: 3 }, t.ctx)).modelText).toBe(
      envelope("grep", 'total="10" shown="2" page="3" next_page="0" pattern="match" scope="."', ["./a.py:9:match 8", "./a.py:10:match 9"]),
    );
    unpaged();
    expect((await grepTool.run({ pattern: "zebra" }, t.ctx)).modelText).toBe("No matches found.");
  });
});
