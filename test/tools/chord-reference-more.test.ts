// More of what the Chord reference system pins in its own tests, checked
// on the Chord surface through the real dispatcher and profile: files grep
// and glob leave out (binary extensions, tool and build folders,
// .gitignore rules), edit's wording, Shift-JIS reads, command output
// cleaning, and artifacts read back in pages.

import * as fsp from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import iconv from "iconv-lite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { escalateSchema } from "../../tools/chord/escalate.js";
import { formatElapsed } from "../../tools/lib/job-format.js";
import { skillTool } from "../../tools/chord/skill.js";
import { discoverSkills } from "../../core/skills/discover.js";
import { SkillSession } from "../../core/skills/session.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

interface Case {
  name: string;
  files?: Record<string, string | Buffer>;
  git?: boolean;
  tool: string;
  args: unknown;
  ok: boolean;
  exact?: string;
  has?: string[];
  not?: string[];
  after?: Record<string, string>;
}

async function check(c: Case): Promise<void> {
  if (c.git) execFileSync("git", ["init", "-q", t.cwd]);
  if (c.files) await t.put(c.files);
  const res = await call(c.tool, c.args);
  const seen = `${res.ok ? "ok" : "error"}: ${res.text}`;
  expect(res.ok, seen).toBe(c.ok);
  if (c.exact !== undefined) expect(res.text).toBe(c.exact);
  for (const s of c.has ?? []) expect(res.text, seen).toContain(s);
  for (const s of c.not ?? []) expect(res.text, seen).not.toContain(s);
  for (const [name, want] of Object.entries(c.after ?? {})) expect(await fsp.readFile(join(t.cwd, name), "utf8"), name).toBe(want);
}

const BINARY_NAMES = ["x.pyc", "x.PYC", "foo.class", "lib.so", "app.exe", "archive.tar.gz", "pack.7z", "data.sqlite3", "photo.PNG", "clip.webm", "font.woff2", "report.pdf"];
const TEXT_NAMES = ["main.go", "README.md", "Makefile", "script", "icon.svg", "data.json", "style.css", "config.yaml", "lock.file"];
const SKIPPED_DIRS = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".pyre", ".pytype", ".venv", "venv", "env", "node_modules", "dist", "build", "target", "out", ".cache", ".idea"];
const KEPT_DIRS = [".chord", ".github", ".vscode", ".config"];
const each = (names: string[], body: string) => Object.fromEntries(names.map((n) => [n, body]));
const inDirs = (dirs: string[]) => Object.fromEntries(dirs.map((d) => [`${d}/hit.txt`, "needle\n"]));

const SEARCH: Case[] = [
  { name: "grep skips files by binary extension, any case, only the last one counts", files: each([...BINARY_NAMES, ...TEXT_NAMES], "needle\n"), tool: "grep", args: { pattern: "needle", paths: ["."] }, ok: true, has: TEXT_NAMES.map((n) => `${n}:1:needle`), not: BINARY_NAMES },
  { name: "grep leaves out tool, cache and build folders, keeps other dot folders", files: { ...inDirs(SKIPPED_DIRS.filter((d) => d !== ".git")), ...inDirs(KEPT_DIRS) }, tool: "grep", args: { pattern: "needle" }, ok: true, has: KEPT_DIRS.map((d) => `${d}/hit.txt`), not: SKIPPED_DIRS.map((d) => `${d}/hit.txt`) },
  { name: "glob leaves out tool, cache and build folders, keeps other dot folders", files: { ...inDirs(SKIPPED_DIRS.filter((d) => d !== ".git")), ...inDirs(KEPT_DIRS) }, tool: "glob", args: { patterns: ["**/hit.txt"] }, ok: true, has: KEPT_DIRS.map((d) => `${d}/hit.txt`), not: SKIPPED_DIRS.map((d) => `${d}/hit.txt`) },
  {
    name: "grep follows .gitignore: globs, negation, folder-only and anchored rules, **",
    git: true,
    files: { ".gitignore": "*.log\n!important.log\ndocs/\n/top/\nsrc/**/generated/\n", "app.log": "needle\n", "important.log": "needle\n", "docs/a.txt": "needle\n", "lib/docs": "needle\n", "top/a.txt": "needle\n", "src/top/a.txt": "needle\n", "src/generated/a.txt": "needle\n", "src/foo/bar/generated/a.txt": "needle\n", "generated/a.txt": "needle\n", "main.go": "needle\n" },
    tool: "grep",
    args: { pattern: "needle" },
    ok: true,
    has: ["important.log:1", "lib/docs:1", "src/top/a.txt:1", "generated/a.txt:1", "main.go:1"],
    not: ["app.log", "docs/a.txt", "\ntop/a.txt", "src/generated", "bar/generated"],
  },
  {
    name: "glob follows .gitignore the same way",
    git: true,
    files: { ".gitignore": "*.log\n!important.log\ndocs/\n/top/\nsrc/**/generated/\n", "app.log": "x", "important.log": "x", "docs/a.txt": "x", "lib/docs": "x", "top/a.txt": "x", "src/top/a.txt": "x", "src/generated/a.txt": "x", "src/foo/bar/generated/a.txt": "x", "generated/a.txt": "x", "main.go": "x" },
    tool: "glob",
    args: { patterns: ["**/*"] },
    ok: true,
    exact: [".gitignore", "generated/a.txt", "important.log", "lib/docs", "main.go", "src/top/a.txt"].join("\n"),
  },
  { name: "glob reads a .gitignore outside a git repository too", files: { ".gitignore": "*.log\n", "app.log": "x", "main.go": "x" }, tool: "glob", args: { patterns: ["*"] }, ok: true, exact: ".gitignore\nmain.go" },
  { name: "a .gitignore applies outside a git repository too", files: { ".gitignore": "*.log\n", "app.log": "needle\n", "main.go": "needle\n" }, tool: "grep", args: { pattern: "needle" }, ok: true, exact: "main.go:1:needle" },
  { name: "a .gitignore hiding dotfiles still searches the tree", git: true, files: { ".gitignore": ".*\n!.gitignore\n", ".hidden": "needle\n", "main.go": "needle\n" }, tool: "grep", args: { pattern: "needle" }, ok: true, has: ["main.go:1:needle"], not: [".hidden"] },
];

const EDIT: Case[] = [
  { name: "identical strings are named in snake case", files: { "demo.txt": "hello" }, tool: "edit", args: { path: "demo.txt", old_string: "hello", new_string: "hello" }, ok: false, has: ["old_string and new_string are identical"] },
  { name: "two matches name old_string and replace_all", files: { "demo.txt": "foo\nfoo\n" }, tool: "edit", args: { path: "demo.txt", old_string: "foo", new_string: "bar" }, ok: false, has: ["old_string found", "replace_all"] },
  { name: "a trailing newline on a file without one still edits, and none is added", files: { "demo.txt": "hello" }, tool: "edit", args: { path: "demo.txt", old_string: "hello\n", new_string: "world\n" }, ok: true, has: ["Replaced 1 occurrence"], after: { "demo.txt": "world" } },
  { name: "indentation that differs only in spaces vs tabs is named", files: { "main.go": '\tif true {\n\t\tfmt.Println("hi")\n\t}\n' }, tool: "edit", args: { path: "main.go", old_string: '  if true {\n\t\tfmt.Println("hi")\n\t}', new_string: "x" }, ok: false, has: ["Indentation mismatch"] },
];

const todo = (id: string, content: string, status: string, extra: Record<string, unknown> = {}) => ({ id, content, status, ...extra });
const TODOS: Case[] = [
  { name: "an empty list is refused", tool: "todo_write", args: { todos: [] }, ok: false, has: ["todos must contain at least one item; an empty list is invalid"] },
  { name: "no list is refused", tool: "todo_write", args: {}, ok: false, has: ["todos"] },
  { name: "one item is listed by its id", tool: "todo_write", args: { todos: [todo("1", "A", "pending")] }, ok: true, exact: "- [ ] 1. A\n" },
  { name: "an id that is not the position is the label", tool: "todo_write", args: { todos: [todo("a", "A", "completed"), todo("b", "B", "cancelled")] }, ok: true, exact: "- [x] a. A\n- [-] b. B\n" },
  { name: "two items in progress are refused", tool: "todo_write", args: { todos: [todo("1", "A", "in_progress"), todo("2", "B", "in_progress")] }, ok: false, has: ["in_progress"] },
  { name: "an old priority field on an item is ignored", tool: "todo_write", args: { todos: [todo("1", "A", "pending", { priority: "high" })] }, ok: true, has: ["1. A"] },
];

const upd = (name: string, ...hunks: string[]) => ({ patch: `*** Begin Patch\n*** Update File: ${name}\n${hunks.map((h) => `@@\n${h}`).join("")}*** End Patch` });
const PATCHES: Case[] = [
  { name: "deleting the only line leaves an empty file", files: { "f.txt": "a\n" }, tool: "apply_patch", args: upd("f.txt", "-a\n"), ok: true, after: { "f.txt": "" } },
  { name: "the first line replaced, a long tail kept", files: { "f.txt": "a\nb\nc\nd\n" }, tool: "apply_patch", args: upd("f.txt", "-a\n+z\n"), ok: true, after: { "f.txt": "z\nb\nc\nd\n" } },
  { name: "an insertion between context lines", files: { "f.txt": "a\nb\nc\n" }, tool: "apply_patch", args: upd("f.txt", " a\n+x\n b\n"), ok: true, after: { "f.txt": "a\nx\nb\nc\n" } },
  { name: "a pure deletion", files: { "f.txt": "a\nb\nc\n" }, tool: "apply_patch", args: upd("f.txt", "-b\n"), ok: true, after: { "f.txt": "a\nc\n" } },
  { name: "a last line without a newline gets one when replaced", files: { "f.txt": "a\nb" }, tool: "apply_patch", args: upd("f.txt", "-b\n+z\n"), ok: true, after: { "f.txt": "a\nz\n" } },
  { name: "an End of File hunk changes the tail", files: { "f.txt": "a\nb\nc\n" }, tool: "apply_patch", args: upd("f.txt", "-c\n+z\n*** End of File\n"), ok: true, after: { "f.txt": "a\nb\nz\n" } },
  { name: "CRLF is kept across hunks", files: { "f.txt": "a\r\nb\r\nc\r\n" }, tool: "apply_patch", args: upd("f.txt", "-a\n+x\n", "-c\n+y\n"), ok: true, after: { "f.txt": "x\r\nb\r\ny\r\n" } },
  { name: "a hunk that grows the file, then two that shrink it", files: { "f.txt": "a\nb\nc\nd\n" }, tool: "apply_patch", args: upd("f.txt", "-a\n+x\n+y\n+z\n", "-b\n", "-d\n"), ok: true, after: { "f.txt": "x\ny\nz\nc\n" } },
  { name: "an addition without context appends", files: { "f.txt": "a\nb\n" }, tool: "apply_patch", args: upd("f.txt", "+c\n"), ok: true, after: { "f.txt": "a\nb\nc\n" } },
];

describe("Chord reference: apply_patch hunk placement", () => {
  for (const c of PATCHES) it(c.name, () => check(c));

  it("sixty hunks in order over 5000 lines give the same bytes as applying each by hand", async () => {
    const line = (i: number) => `line ${String(i).padStart(6, "0")}`;
    const lines = Array.from({ length: 5000 }, (_, i) => line(i));
    const step = Math.floor(4800 / 60);
    const hunks: string[] = [];
    const want = [...lines];
    for (let h = 59; h >= 0; h--) {
      const pos = 100 + h * step;
      hunks.unshift(` ${line(pos)}\n-${line(pos + 1)}\n+${line(pos + 1)} changed\n+${line(pos + 1)} added\n`);
      want.splice(pos + 1, 1, `${line(pos + 1)} changed`, `${line(pos + 1)} added`);
    }
    await check({ name: "many", files: { "big.txt": `${lines.join("\n")}\n` }, tool: "apply_patch", args: upd("big.txt", ...hunks), ok: true, not: ["tolerant"], after: { "big.txt": `${want.join("\n")}\n` } });
  });
});

describe("Chord reference: skill", () => {
  it("names the skill, its file, its folder and the arguments, and fills in the placeholders", async () => {
    const dir = join(t.cwd, ".yuj", "skills", "go-expert");
    await t.put({ ".yuj/skills/go-expert/SKILL.md": "---\nname: go-expert\ndescription: Go language development expert\n---\n\nRun `${CHORD_SKILL_DIR}/scripts/check.sh` with `${CHORD_SKILL_ARGS}`.\n" });
    const found = discoverSkills({ projectDir: t.cwd, userConfigDir: join(t.cwd, "no-user"), home: t.cwd, packageDir: join(t.cwd, "no-package"), paths: [] });
    t.ctx.skills = new SkillSession(found.skills);
    const r = await skillTool.run({ name: "go-expert", args: "--fast" }, t.ctx);
    expect(r.ok, r.modelText).toBe(true);
    for (const want of ["<name>go-expert</name>", `<path>${join(dir, "SKILL.md")}</path>`, `<root>${dir}</root>`, `<relative_paths_base>${dir}</relative_paths_base>`, "<args>--fast</args>", "<notes>", `${dir}/scripts/check.sh`, "with `--fast`"]) {
      expect(r.modelText).toContain(want);
    }
    expect(r.modelText).not.toContain("${CHORD_SKILL_DIR}");
    expect(r.modelText).not.toContain("${CHORD_SKILL_ARGS}");
  });
});

// A 1×1 PNG, red.
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082", "hex");
const IMAGES: Case[] = [
  { name: "view_image names the label it was given", files: { "shot.png": PNG }, tool: "view_image", args: { path: "shot.png", label: "screenshot" }, ok: true, has: ["screenshot"] },
  { name: "view_image's label defaults to the file name", files: { "diagram.png": PNG }, tool: "view_image", args: { path: "diagram.png" }, ok: true, has: ["diagram.png"] },
  { name: "view_image without a path is refused", tool: "view_image", args: {}, ok: false, has: ["path"] },
  { name: "view_image of a missing file says file not found", tool: "view_image", args: { path: "nope.png" }, ok: false, has: ["file not found"] },
  { name: "view_image of a text file is refused", files: { "note.txt": "hi" }, tool: "view_image", args: { path: "note.txt" }, ok: false },
];

describe("Chord reference: view_image", () => {
  for (const c of IMAGES) it(c.name, () => check(c));
});

// escalate is offered to delegated workers only, so its arguments are checked on the handler's schema.
describe("Chord reference: escalate", () => {
  it.each([
    ["no kind", { reason: "need help" }],
    ["an unknown kind", { kind: "maybe", reason: "need help" }],
    ["no reason", { kind: "needs_repair" }],
    ["a blank reason", { kind: "blocked", reason: "   " }],
  ])("refuses %s", (_name, args) => {
    expect(escalateSchema.safeParse(args).success).toBe(false);
  });
  it.each(["needs_repair", "blocked"])("takes kind %s with a reason", (kind) => {
    expect(escalateSchema.safeParse({ kind, reason: "need a decision" }).success).toBe(true);
  });
});

describe("Chord reference: todo_write", () => {
  for (const c of TODOS) it(c.name, () => check(c));
});

describe("Chord reference: what grep and glob leave out", () => {
  for (const c of SEARCH) it(c.name, () => check(c));
});

describe("Chord reference: edit's wording", () => {
  for (const c of EDIT) it(c.name, () => check(c));
});

describe("Chord reference: reads in other encodings", () => {
  it("Shift-JIS is decoded and named", async () => {
    const text = "これは日本語のテキストです。設定ファイルを読み込み、必要な項目を確認してください。\nもう一行追加します。\n";
    await t.put({ "sj.txt": iconv.encode(text, "shift_jis") });
    const r = await call("read", { path: "sj.txt" });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain('encoding="shift-jis"');
    expect(r.text).toContain("日本語");
    expect(r.text).toContain("必要な項目");
  });
});

describe("Chord reference: job output as the model reads it", () => {
  it("CRLF endings, a leading CR and a cursor sequence", async () => {
    const r = await call("shell", { command: String.raw`printf 'line\r\nnext\r\n\033[2Kdone\nfirst\n\rlast\n'`, description: "print" });
    expect(r.text).toBe("line\nnext\ndone\nfirst\nlast\n[status: completed (exit code 0)]");
  });
});

describe("Chord reference: job_list's durations", () => {
  it.each([
    [300, "0s"],
    [45_000, "45s"],
    [1900, "2s"],
    [1500, "2s"],
    [60_000, "1m00s"],
    [185_000, "3m05s"],
    [3_600_000, "1h00m00s"],
    [3_723_000, "1h02m03s"],
    [3_725_000, "1h02m05s"],
  ])("%d ms reads %s", (ms, want) => expect(formatElapsed(ms)).toBe(want));

  it("a job row uses them", async () => {
    const started = await call("shell", { command: "sleep 5", description: "sleep", run_in_background: true });
    const list = await call("job_list", {});
    expect(list.text, started.text).toMatch(/\| elapsed \d+s \| no output for \d+s \|/);
    await call("job_kill", { job_id: /\bj\d+\b/.exec(started.text)?.[0] });
  });
});

describe("Chord reference: a job's process group", () => {
  it("a descendant's output after the command exited still reaches the job", async () => {
    const started = await call("shell", { command: "(sleep 1; echo DESCENDANT_LATE) & exit 0", description: "late output", run_in_background: true });
    const id = /\bj\d+\b/.exec(started.text)?.[0];
    expect(id, started.text).toBeDefined();
    const out = await call("job_output", { job_id: id, wait: "exit" });
    expect(out.text).toContain("DESCENDANT_LATE");
    expect(out.text).toContain("[status: completed (exit code 0)]");
  }, 20_000);
});

describe("Chord reference: artifacts", () => {
  const put = async (rel: string, body: string) => {
    await fsp.mkdir(join(t.ctx.sessionDir, rel, ".."), { recursive: true });
    await fsp.writeFile(join(t.ctx.sessionDir, rel), body);
  };

  it("a page names its lines, the total and the digest", async () => {
    const body = "one\ntwo\nthree\nfour\n";
    await put("artifacts/reports/report.txt", body);
    const r = await call("read_artifact", { path: "artifacts/reports/report.txt", offset: 2, limit: 2, expected_sha256: sha(body) });
    expect(r.ok, r.text).toBe(true);
    expect(r.text.startsWith(`ARTIFACT_RESULT lines=2-3 total=4 sha256=${sha(body)}`), r.text).toBe(true);
    expect(r.text.endsWith("two\nthree\n")).toBe(true);
  });

  it("an overwritten artifact no longer matches the old digest", async () => {
    const first = JSON.parse((await call("save_artifact", { filename: "report.md", content: "old", mode: "create" })).text);
    await call("save_artifact", { filename: "report.md", content: "new", mode: "overwrite" });
    const r = await call("read_artifact", { path: first.rel_path, expected_sha256: first.sha256 });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("digest mismatch");
  });

  it("a first line over the budget shows its prefix only", async () => {
    const first = "x".repeat(100 * 1024);
    await put("artifacts/wide.txt", `${first}\nsecond\n`);
    const r = await call("read_artifact", { path: "artifacts/wide.txt" });
    const [header, body] = [r.text.split("\n")[0]!, r.text.slice(r.text.indexOf("\n") + 1)];
    expect(header).toContain("lines=1-1 total=2");
    expect(header).toContain("truncated=budget");
    expect(body).not.toContain("second");
    expect(body.length).toBeGreaterThan(0);
    expect(first.startsWith(body.replace(/\n$/, ""))).toBe(true);
    const page2 = await call("read_artifact", { path: "artifacts/wide.txt", offset: 2, limit: 1 });
    expect(page2.text.split("\n")[0]).toContain("lines=2-2 total=2");
    expect(page2.text.endsWith("second\n")).toBe(true);
  });

  it("a symbolic link inside artifacts, or artifacts itself as a link, is refused", async () => {
    const outside = await fsp.mkdtemp(join(t.cwd, "..", "outside-"));
    await fsp.writeFile(join(outside, "secret.txt"), "secret");
    await fsp.mkdir(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.symlink(join(outside, "secret.txt"), join(t.ctx.sessionDir, "artifacts", "link.txt"));
    const a = await call("read_artifact", { path: "artifacts/link.txt" });
    expect(a.ok).toBe(false);
    expect(a.text).toContain("symbolic link");
    await fsp.rm(join(t.ctx.sessionDir, "artifacts"), { recursive: true });
    await fsp.symlink(outside, join(t.ctx.sessionDir, "artifacts"));
    const b = await call("read_artifact", { path: "artifacts/secret.txt" });
    expect(b.ok).toBe(false);
    expect(b.text).toContain("must not be a symbolic link");
    await fsp.rm(outside, { recursive: true });
  });

  it("a result is stored canonically, once per type and content", async () => {
    const args = { result_type: "application/vnd.test+json", result: { b: 2, a: 1 } };
    const first = await call("save_artifact", args);
    const ref = JSON.parse(first.text);
    expect(ref.id.startsWith("sha256-")).toBe(true);
    expect(ref.rel_path.startsWith("artifacts/results/")).toBe(true);
    expect(await fsp.readFile(join(t.ctx.sessionDir, ref.rel_path), "utf8")).toBe('{"a":1,"b":2}\n');
    expect((await call("save_artifact", args)).text).toBe(first.text);
    const other = await call("save_artifact", { result_type: "type/b", result: { b: 2, a: 1 } });
    expect(other.text).not.toBe(first.text);
  });

  it("a result that is not an object, a half pair and a mix with the file fields are refused", async () => {
    for (const result of [[1, 2], "text", null]) {
      const r = await call("save_artifact", { result_type: "test", result });
      expect(r.ok, JSON.stringify(result)).toBe(false);
      expect(r.text, JSON.stringify(result)).toContain("must be a JSON object");
    }
    expect((await call("save_artifact", { result_type: "type/test" })).text).toContain("result is required when result_type is provided");
    expect((await call("save_artifact", { result: { value: 1 } })).text).toContain("result_type is required when result is provided");
    for (const extra of [{ filename: "report.md", content: "body" }, { filename: "report.md", content: "body", mode: "create" }, { mode: "overwrite" }]) {
      const r = await call("save_artifact", { result_type: "type/test", result: { value: 1 }, ...extra });
      expect(r.text).toContain("cannot be combined with filename, content, or mode");
    }
  });
});
