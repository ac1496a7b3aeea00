// The behaviour the Chord reference system pins in its own tests, checked
// case by case against the Chord surface: each row puts real files in a
// fresh project, calls one tool through the real dispatcher and the real
// `chord` profile (so argument aliases and validation apply), and checks the
// result text and what is on disk afterwards.

import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import iconv from "iconv-lite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../components/cards/markdown.js";
import { renderCard } from "../../components/cards/render.js";
import { chordTool, opts, plain } from "../components/cards/helpers.js";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(() => t.cleanup());

const call = (tool: string, args: unknown) => chordCall(t, tool, args);

interface Case {
  name: string;
  files?: Record<string, string | Buffer>;
  /** Files created with a mode (octal). */
  modes?: Record<string, number>;
  setup?: (cwd: string) => Promise<void> | void;
  tool: string;
  args: unknown | ((cwd: string) => unknown);
  ok: boolean;
  has?: string[];
  not?: string[];
  /** The result text, whole. */
  exact?: string;
  /** File contents afterwards (null: the file is gone). */
  after?: Record<string, string | Buffer | null>;
  afterModes?: Record<string, number>;
}

const P = (body: string) => `*** Begin Patch\n${body}*** End Patch`;
const gb = (s: string) => iconv.encode(s, "gb18030");

async function check(c: Case): Promise<void> {
  if (c.files) await t.put(c.files);
  for (const [name, mode] of Object.entries(c.modes ?? {})) await fsp.chmod(join(t.cwd, name), mode);
  await c.setup?.(t.cwd);
  const args = typeof c.args === "function" ? (c.args as (cwd: string) => unknown)(t.cwd) : c.args;
  const res = await call(c.tool, args);
  const seen = `${res.ok ? "ok" : "error"}: ${res.text}`;
  expect(res.ok, seen).toBe(c.ok);
  if (c.exact !== undefined) expect(res.text).toBe(c.exact);
  for (const s of c.has ?? []) expect(res.text, seen).toContain(s);
  for (const s of c.not ?? []) expect(res.text, seen).not.toContain(s);
  for (const [name, want] of Object.entries(c.after ?? {})) {
    const got = await fsp.readFile(join(t.cwd, name)).catch(() => null);
    if (want === null) expect(got, `${name} should be gone`).toBeNull();
    else expect(got, name).toEqual(typeof want === "string" ? Buffer.from(want) : want);
  }
  for (const [name, mode] of Object.entries(c.afterModes ?? {})) {
    expect(((await fsp.stat(join(t.cwd, name))).mode & 0o777).toString(8), `${name} mode`).toBe(mode.toString(8));
  }
}

const fifo = (name: string) => (cwd: string) => void execFileSync("mkfifo", [join(cwd, name)]);

const READ: Case[] = [
  { name: "CRLF is shown as LF, UTF-8 names no encoding", files: { "s.csv": 'col1,col2\r\n"a","b"\r\n' }, tool: "read", args: { path: "s.csv" }, ok: true, exact: 'READ_RESULT lines=1-2 total=2\ncol1,col2\n"a","b"\n' },
  { name: "bare CRs and mixed endings are lines", files: { "m.txt": "a\r\nb\rc\n" }, tool: "read", args: { path: "m.txt" }, ok: true, exact: "READ_RESULT lines=1-3 total=3\na\nb\nc\n" },
  { name: "a limit past the end stops at the last line, not truncated", files: { "s.txt": "a\nb\nc\nd\ne\n" }, tool: "read", args: { path: "s.txt", offset: 4, limit: 50 }, ok: true, exact: "READ_RESULT lines=4-5 total=5\nd\ne\n" },
  { name: "an offset past the end names the valid offsets", files: { "s.txt": "a\nb\nc\n" }, tool: "read", args: { path: "s.txt", offset: 11, limit: 5 }, ok: false, has: ["exceeds this file length (3 lines)", "reads the last 3 lines with limit=5", "is valid but returns no lines"] },
  { name: "UTF-16LE with a BOM is decoded and named", files: { "u.txt": Buffer.from([0xff, 0xfe, 0x68, 0, 0x69, 0]) }, tool: "read", args: { path: "u.txt" }, ok: true, has: ['encoding="utf-16le"', "\nhi"] },
  { name: "GB18030 is decoded and named", files: { "g.txt": gb("第一行\n第二行\n") }, tool: "read", args: { path: "g.txt" }, ok: true, has: ['encoding="gb18030"', "第一行\n第二行\n"] },
  { name: "a named pipe is not read", setup: fifo("in.pipe"), tool: "read", args: { path: "in.pipe" }, ok: false, has: ["not a regular file"] },
  { name: "a device path is blocked", tool: "read", args: { path: "/dev/stdin" }, ok: false, has: ["blocked device path"] },
  { name: "the filePath spelling is read as path", files: { "a.txt": "x\n" }, tool: "read", args: { filePath: "a.txt" }, ok: true, has: ["READ_RESULT lines=1-1 total=1\nx\n"] },
];

const WRITE: Case[] = [
  { name: "reports lines and bytes written", tool: "write", args: { path: "out.txt", content: "ab" }, ok: true, exact: "Successfully wrote 1 line, 2 bytes", after: { "out.txt": "ab" } },
  { name: "empty content is zero lines", tool: "write", args: { path: "empty.txt", content: "" }, ok: true, exact: "Successfully wrote 0 lines, 0 bytes", after: { "empty.txt": "" } },
  { name: "several lines and one byte are counted", tool: "write", args: { path: "n.txt", content: "a\nb\n" }, ok: true, exact: "Successfully wrote 3 lines, 4 bytes" },
];

const EDIT: Case[] = [
  { name: "one replacement reports the byte sizes, no encoding for UTF-8", files: { "u.txt": "hello\n" }, tool: "edit", args: { path: "u.txt", old_string: "hello", new_string: "hi" }, ok: true, exact: "Replaced 1 occurrence (6 bytes -> 3 bytes)", after: { "u.txt": "hi\n" } },
  { name: "a non-UTF-8 file names its encoding and keeps it", files: { "g.txt": gb("第一行\n第二行\n") }, tool: "edit", args: { path: "g.txt", old_string: "第二行", new_string: "第三行" }, ok: true, has: ["Replaced 1 occurrence (", ", encoding=gb18030"], after: { "g.txt": gb("第一行\n第三行\n") } },
  { name: "a binary file is refused", files: { "b.bin": Buffer.from("prefix\0\x01\x02") }, tool: "edit", args: { path: "b.bin", old_string: "prefix", new_string: "fixed" }, ok: false, has: ["binary file"] },
  { name: "two matches without replace_all are refused", files: { "d.txt": "same\nsame\n" }, tool: "edit", args: { path: "d.txt", old_string: "same", new_string: "x" }, ok: false, has: ["old_string found 2 times, provide more context or set replace_all to true"], after: { "d.txt": "same\nsame\n" } },
  { name: "replace_all replaces every match", files: { "d.txt": "same\nsame\n" }, tool: "edit", args: { path: "d.txt", old_string: "same", new_string: "x", replace_all: true }, ok: true, has: ["Replaced 2 occurrences ("], after: { "d.txt": "x\nx\n" } },
  { name: "identical strings change nothing", files: { "a.txt": "one\n" }, tool: "edit", args: { path: "a.txt", old_string: "one", new_string: "one" }, ok: false, has: ["old_string and new_string are identical, no change needed"] },
  { name: "an empty old_string is refused", files: { "a.txt": "one\n" }, tool: "edit", args: { path: "a.txt", old_string: "", new_string: "x" }, ok: false, has: ["old_string is required"] },
  { name: "text not in the file says tolerance was tried", files: { "a.txt": "alpha\nbeta\n" }, tool: "edit", args: { path: "a.txt", old_string: "gamma", new_string: "delta" }, ok: false, has: ["old_string not found in file, even after punctuation/whitespace tolerance"] },
  { name: "a match that differs only in indentation is named", files: { "m.go": '\tif true {\n\t\tfmt.Println("hi")\n\t}\n' }, tool: "edit", args: { path: "m.go", old_string: '  if true {\n\t\tfmt.Println("hi")\n\t}', new_string: '  if false {\n\t\tfmt.Println("hi")\n\t}' }, ok: false, has: ["old_string not found", "Indentation mismatch"] },
  { name: "CRLF endings are kept", files: { "c.txt": "one\r\ntwo\r\n" }, tool: "edit", args: { path: "c.txt", old_string: "one", new_string: "ONE" }, ok: true, after: { "c.txt": "ONE\r\ntwo\r\n" } },
  { name: "a trailing newline the file lacks is tolerated", files: { "n.txt": "alpha\nbeta" }, tool: "edit", args: { path: "n.txt", old_string: "beta\n", new_string: "gamma\n" }, ok: true, has: ["Replaced 1 occurrence ("], after: { "n.txt": "alpha\ngamma" } },
  { name: "straight quotes match curly ones and the file's quotes stay", files: { "q.txt": "quote “x”\n" }, tool: "edit", args: { path: "q.txt", old_string: 'quote "x"', new_string: 'quote "y"' }, ok: true, has: ["punctuation/whitespace-tolerant"], after: { "q.txt": "quote “y”\n" } },
  { name: "a leaked variation selector and a full-width comma still match", files: { "v.md": "ab,cd\n" }, tool: "edit", args: { path: "v.md", old_string: "ab\uFE0F\uFF0C cd\n", new_string: "ab;cd\n" }, ok: true, has: ["punctuation/whitespace-tolerant"], after: { "v.md": "ab;cd\n" } },
  { name: "an orphan combining mark in old_string is folded", files: { "h.md": "## 3.2.1 Heading\nbody\n" }, tool: "edit", args: { path: "h.md", old_string: "## \u03043.2.1 Heading\n", new_string: "## 3.2.1 Renamed\n" }, ok: true, has: ["punctuation/whitespace-tolerant"], after: { "h.md": "## 3.2.1 Renamed\nbody\n" } },
  { name: "an orphan combining mark in new_string is not written", files: { "h.md": "## 3.2.1 Heading\nbody\n" }, tool: "edit", args: { path: "h.md", old_string: "## 3.2.1 Heading\n", new_string: "## \u03043.2.1 Renamed\n" }, ok: true, has: ["cleaned 1 invisible character"], after: { "h.md": "## 3.2.1 Renamed\nbody\n" } },
  { name: "the filePath spelling is read as path", files: { "a.txt": "one\n" }, tool: "edit", args: { filePath: "a.txt", old_string: "one", new_string: "two" }, ok: true, after: { "a.txt": "two\n" } },
  { name: "a missing file is named", tool: "edit", args: { path: "nope.txt", old_string: "a", new_string: "b" }, ok: false, has: ["file not found: nope.txt"] },
];

const DELETE: Case[] = [
  { name: "a file is deleted and listed", files: { "remove.txt": "hello\n" }, tool: "delete", args: { paths: ["remove.txt"], reason: "cleanup" }, ok: true, has: ["Deleted (1):\n- remove.txt"], after: { "remove.txt": null } },
  { name: "a symlink goes, its target stays", files: { "target.txt": "hello" }, setup: (cwd) => fsp.symlink(join(cwd, "target.txt"), join(cwd, "link.txt")), tool: "delete", args: { paths: ["link.txt"], reason: "x" }, ok: true, has: ["Deleted (1):"], after: { "link.txt": null, "target.txt": "hello" } },
  { name: "a missing path is reported as already absent", tool: "delete", args: { paths: ["absent.txt"], reason: "cleanup" }, ok: true, has: ["Already absent (1):\n- absent.txt"] },
  { name: "a directory stops the call before anything is removed", files: { "keep.txt": "k", "dir/x.txt": "x" }, tool: "delete", args: { paths: ["keep.txt", "dir"], reason: "cleanup" }, ok: false, has: ["failed before execution", "Blocked (1):", "dir"], after: { "keep.txt": "k", "dir/x.txt": "x" } },
  { name: "several files are deleted, sorted", files: { "a.txt": "a", "b.txt": "b" }, tool: "delete", args: { paths: ["b.txt", "a.txt"], reason: "temp" }, ok: true, has: ["Deleted (2):\n- a.txt\n- b.txt"], after: { "a.txt": null, "b.txt": null } },
];

const many = (n: number, name = (i: number) => `f${i}.txt`) => Object.fromEntries(Array.from({ length: n }, (_, i) => [name(i), "x"]));

const GLOB: Case[] = [
  { name: "no patterns: patterns is required", tool: "glob", args: {}, ok: false, has: ["patterns is required"] },
  { name: "a bare string pattern works with a note", files: { "a.go": "x" }, tool: "glob", args: { patterns: "**/*.go" }, ok: true, has: ["patterns was a single string", "a.go"] },
  { name: "the legacy singular pattern works", files: { "a.go": "x" }, tool: "glob", args: { pattern: "**/*.go" }, ok: true, has: ["a.go"] },
  { name: "an array gives no note", files: { "a.go": "x" }, tool: "glob", args: { patterns: ["**/*.go"] }, ok: true, exact: "a.go" },
  { name: "overlapping patterns list a file once", files: { "a.go": "x" }, tool: "glob", args: { patterns: ["**/*.go", "**/a.*"] }, ok: true, exact: "a.go" },
  { name: "several patterns", files: { "a.go": "x", "b.md": "x", "c.txt": "x" }, tool: "glob", args: { patterns: ["*.go", "*.md"] }, ok: true, exact: "a.go\nb.md" },
  { name: "an invalid pattern explains glob syntax", tool: "glob", args: { patterns: ["["] }, ok: false, has: ["glob error", "patterns use glob syntax like **/*.go, not regex syntax"] },
  { name: "over 250 results: capped, with the full list saved", files: many(255), tool: "glob", args: { patterns: ["*.txt"] }, ok: true, has: ["(showing first 250 results within 16 KiB; full results saved to ", "; refine pattern/path to narrow results)"] },
  { name: "long paths are capped by bytes", files: many(200, (i) => `${"nested".repeat(35)}${i}.txt`), tool: "glob", args: { patterns: ["*.txt"] }, ok: true, has: ["within 16 KiB", "refine pattern/path"] },
];

const GREP: Case[] = [
  { name: "a binary file is skipped", files: { "s.pyc": "\0header\x1b[31mthinking\0tail", "notes.txt": "line1\nthinking here\nline3\n" }, tool: "grep", args: { pattern: "thinking" }, ok: true, exact: "notes.txt:2:thinking here" },
  { name: "control bytes are stripped from lines, tabs kept", files: { "log.txt": "normal\nmatch \x1b[31mred\x1b[0m\tend\x07\x7f\nother\n" }, tool: "grep", args: { pattern: "match" }, ok: true, exact: "log.txt:2:match [31mred[0m\tend" },
  { name: "invalid UTF-8 shows as U+FFFD", files: { "b.txt": Buffer.from("ok\xffend needle\n", "latin1") }, tool: "grep", args: { pattern: "needle" }, ok: true, exact: "b.txt:1:ok\uFFFDend needle" },
  { name: "a named pipe is not searched", setup: fifo("in.pipe"), tool: "grep", args: { pattern: "FAIL", paths: ["in.pipe"] }, ok: false, has: ["not a regular file"] },
  { name: "a device path is blocked", tool: "grep", args: { pattern: "FAIL", paths: ["/dev/stdin"] }, ok: false, has: ["blocked device path"] },
  { name: "an invalid regex is searched as literal text", files: { "args.txt": "Args []byte\nArgs string\n" }, tool: "grep", args: { pattern: "Args []byte" }, ok: true, has: ["searched as literal text", "args.txt:1:Args []byte"], not: ["Args string"] },
  { name: "two paths joined by a space are named, with the array hint", files: { "cmd/.keep": "", "internal/.keep": "" }, tool: "grep", args: (cwd: string) => ({ pattern: "needle", paths: [`${cwd}/cmd ${cwd}/internal`] }), ok: false, has: ["path not found: ", "grep.paths accepts an array", "separate array item"] },
  { name: "several roots are searched", files: { "cmd/cmd.go": "needle\n", "internal/internal.go": "needle\n" }, tool: "grep", args: { pattern: "needle", paths: ["cmd", "internal"] }, ok: true, exact: "cmd/cmd.go:1:needle\ninternal/internal.go:1:needle" },
  { name: "one missing root of two is a note, not a failure", files: { "good/a.go": "nothing here\n" }, tool: "grep", args: { pattern: "needle", paths: ["good", "does-not-exist"] }, ok: true, has: ["grep: skipped path:", "No matches found.", "try alternate naming"], not: ["all search paths failed"] },
  { name: "every root missing is one error with recovery advice", tool: "grep", args: { pattern: "needle", paths: ["missing-a", "missing-b"] }, ok: false, has: ["all search paths failed", "Verify the current working directory", "Do not guess a similar-looking path"] },
  { name: "includes filter by path glob", files: { "internal/a.go": "needle\n", "cmd/a.go": "needle\n", "internal/a.md": "needle\n" }, tool: "grep", args: { pattern: "needle", includes: ["internal/**/*.go"] }, ok: true, exact: "internal/a.go:1:needle" },
  { name: "includes expand braces", files: { "src/a.ts": "hit\n", "src/b.tsx": "hit\n", "src/c.go": "hit\n" }, tool: "grep", args: { pattern: "hit", includes: ["**/*.{ts,tsx}"] }, ok: true, exact: "src/a.ts:1:hit\nsrc/b.tsx:1:hit" },
  { name: "a directory with spaces is searched", files: { "dir with spaces/notes.txt": "needle\n" }, tool: "grep", args: { pattern: "needle", paths: ["dir with spaces"] }, ok: true, has: ["notes.txt", "needle"] },
  { name: "over 120 matches: capped with the refine hint", files: many(125), tool: "grep", args: { pattern: "x" }, ok: true, has: ["(showing first 120 matches within 12 KiB; narrow paths/includes/pattern for more precise results)"] },
  { name: "long lines are capped by bytes", files: { "long.txt": `needle ${"x".repeat(6144)}\n`.repeat(10) }, tool: "grep", args: { pattern: "needle", paths: ["long.txt"] }, ok: true, has: ["within 12 KiB", "narrow paths/includes/pattern"] },
  { name: "a first line longer than the budget keeps its prefix", files: { "first.txt": `needle ${"界".repeat(12 * 1024)}\n` }, tool: "grep", args: { pattern: "needle" }, ok: true, has: ["first.txt:1:needle 界", "...", "within 12 KiB"] },
  { name: "a .gitignore of dotfiles does not hide the root", files: { ".gitignore": ".*\n", "pkg/code.go": "package pkg\n// needle here\n", ".hidden.go": "// needle hidden\n" }, tool: "grep", args: { pattern: "needle" }, ok: true, exact: "pkg/code.go:2:// needle here" },
  { name: "bare strings for paths and includes, with notes showing the array form", files: { "a.go": "hello world\n" }, tool: "grep", args: { pattern: "hello", paths: ".", includes: "**/*.go" }, ok: true, has: ["paths was a string and was treated as a one-item list", 'paths: ["internal/tui"]', "includes was a string and was treated as a one-item list", 'includes: ["**/*.go"]', "a.go:1:hello world"] },
  { name: "arrays give no note", files: { "a.go": "hello\n" }, tool: "grep", args: { pattern: "hello", paths: ["."], includes: ["**/*.go"] }, ok: true, exact: "a.go:1:hello" },
  { name: "the legacy path and glob spellings work", files: { "d/a.go": "needle\n", "d/a.md": "needle\n" }, tool: "grep", args: { pattern: "needle", path: "d", glob: "**/*.go" }, ok: true, has: ["d/a.go:1:needle"], not: ["a.md"] },
  { name: "plural patterns: an invalid element is literal, the others stay regex", files: { "s.go": "func Foo(x int) {}\nfunc Bar(y int) {}\nbar lower\n" }, tool: "grep", args: { patterns: ["func Foo(", "^bar"] }, ok: true, has: ["func Foo(x int)", "bar lower", 'searched as literal text', '"func Foo("'], not: ["func Bar(y int)", '"^bar"'] },
  { name: "plural patterns: an empty element does not match every line", files: { "s.go": "foo lower\nplain line\n" }, tool: "grep", args: { patterns: ["foo", ""] }, ok: true, has: ["foo lower"], not: ["plain line"] },
  { name: "plural patterns: inline flags stay with their element", files: { "s.go": "BAR upper\nbar lower\nfoo lower\n" }, tool: "grep", args: { patterns: ["(?i)foo", "bar"] }, ok: true, has: ["foo lower", "bar lower"], not: ["BAR upper"] },
];

const APPLY_PATCH: Case[] = [
  { name: "update, add and delete in one patch", files: { "update.txt": "one\ntwo\n", "delete.txt": "obsolete\n" }, tool: "apply_patch", args: { patch: P("*** Update File: update.txt\n@@\n-two\n+TWO\n*** Add File: added.txt\n+created\n*** Delete File: delete.txt\n") }, ok: true, exact: "Applied patch:\nA added.txt\nD delete.txt\nM update.txt", after: { "update.txt": "one\nTWO\n", "added.txt": "created\n", "delete.txt": null } },
  { name: "a pure insertion fills an empty file", files: { "empty.txt": "" }, tool: "apply_patch", args: { patch: P("*** Update File: empty.txt\n@@\n+hello\n") }, ok: true, after: { "empty.txt": "hello\n" } },
  { name: "a pure insertion without context appends", files: { "e.txt": "existing\n" }, tool: "apply_patch", args: { patch: P("*** Update File: e.txt\n@@\n+ambiguous\n") }, ok: true, after: { "e.txt": "existing\nambiguous\n" } },
  { name: "a context-only hunk is refused", files: { "u.md": "## 5. Related docs\n" }, tool: "apply_patch", args: { patch: P("*** Update File: u.md\n@@\n ## 5. Related docs\n") }, ok: false, has: ["at least one added or removed line is required", "whitespace-only lines are not omission placeholders"] },
  { name: "a lone context line between two @@ anchors the next hunk", files: { "a.go": "package x\n\nfunc TestDegraded(t *testing.T) {\n\tif true {\n\t}\n}\n" }, tool: "apply_patch", args: { patch: P("*** Update File: a.go\n@@\n func TestDegraded(t *testing.T) {\n@@\n \t}\n }\n+\n+func TestAdded(t *testing.T) {}\n") }, ok: true, after: { "a.go": "package x\n\nfunc TestDegraded(t *testing.T) {\n\tif true {\n\t}\n}\n\nfunc TestAdded(t *testing.T) {}\n" } },
  { name: "a missing file is named relative to the project", files: { "internal/agent/.keep": "" }, tool: "apply_patch", args: (cwd: string) => ({ patch: P(`*** Update File: ${cwd}/internal/agent/missing.go\n@@\n-old\n+new\n`) }), ok: false, has: ["internal/agent/missing.go"], not: ["/internal/agent/missing.go"] },
  { name: "delete then re-add is a modification with a fresh mode", files: { "run.sh": "#!/bin/sh\necho ok\n" }, modes: { "run.sh": 0o755 }, tool: "apply_patch", args: { patch: P("*** Delete File: run.sh\n*** Add File: run.sh\n+#!/bin/sh\n+echo ok\n") }, ok: true, exact: "Applied patch:\nM run.sh", afterModes: { "run.sh": 0o644 } },
  { name: "a move keeps the mode", files: { "old.txt": "old\n" }, modes: { "old.txt": 0o755 }, tool: "apply_patch", args: { patch: P("*** Update File: old.txt\n*** Move to: new.txt\n@@\n-old\n+new\n") }, ok: true, after: { "old.txt": null, "new.txt": "new\n" }, afterModes: { "new.txt": 0o755 } },
  { name: "a move is reported with both relative spellings", files: { "old.txt": "old\n" }, tool: "apply_patch", args: { patch: P("*** Update File: old.txt\n*** Move to: sub/new.txt\n@@\n-old\n+new\n") }, ok: true, exact: "Applied patch:\nR old.txt -> sub/new.txt" },
  { name: "move then re-create the source", files: { "plan.md": "# old\nbody\n" }, modes: { "plan.md": 0o600 }, tool: "apply_patch", args: { patch: P("*** Update File: plan.md\n*** Move to: archive/plan.md\n@@\n-# old\n+# archived\n*** Add File: plan.md\n+# new\n+replacement\n") }, ok: true, after: { "plan.md": "# new\nreplacement\n", "archive/plan.md": "# archived\nbody\n" }, afterModes: { "plan.md": 0o644, "archive/plan.md": 0o600 } },
  { name: "an add over an existing file is refused, the file untouched", files: { "file.txt": "original\n" }, tool: "apply_patch", args: { patch: P("*** Add File: file.txt\n+middle\n*** Update File: file.txt\n-middle\n+final\n") }, ok: false, has: ["cannot add file that already exists"], after: { "file.txt": "original\n" } },
  { name: "update then delete deletes", files: { "file.txt": "old\n" }, tool: "apply_patch", args: { patch: P("*** Update File: file.txt\n@@\n-old\n+new\n*** Delete File: file.txt\n") }, ok: true, after: { "file.txt": null } },
  { name: "a move chain folds to the last name", files: { "old.txt": "old\n" }, tool: "apply_patch", args: { patch: P("*** Update File: old.txt\n*** Move to: middle.txt\n@@\n-old\n+middle\n*** Update File: middle.txt\n*** Move to: final.txt\n@@\n-middle\n+final\n") }, ok: true, after: { "old.txt": null, "middle.txt": null, "final.txt": "final\n" } },
  { name: "a move over an existing file replaces it with the source's mode", files: { "old.txt": "old\n", "target.txt": "target\n" }, modes: { "old.txt": 0o700, "target.txt": 0o600 }, tool: "apply_patch", args: { patch: P("*** Update File: old.txt\n*** Move to: target.txt\n@@\n-old\n+new\n") }, ok: true, after: { "target.txt": "new\n", "old.txt": null }, afterModes: { "target.txt": 0o700 } },
  { name: "the first hunk may omit its @@", files: { "file.txt": "old\n" }, tool: "apply_patch", args: { patch: P("*** Update File: file.txt\n-old\n+new\n") }, ok: true, after: { "file.txt": "new\n" } },
  { name: "an update adds the missing final newline", files: { "file.txt": "old" }, tool: "apply_patch", args: { patch: P("*** Update File: file.txt\n@@\n-old\n+new\n") }, ok: true, after: { "file.txt": "new\n" } },
  { name: "ASCII punctuation matches full-width and the file's punctuation stays", files: { "p.md": "注册表保持配置数组顺序；旧字段，结尾。\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-注册表保持配置数组顺序;旧字段,结尾.\n+注册表保持配置数组顺序;新字段,结尾.\n") }, ok: true, has: ["used punctuation/whitespace-tolerant matching for 1 hunk"], after: { "p.md": "注册表保持配置数组顺序；新字段，结尾。\n" } },
  { name: "an ambiguous tolerant match names the lines and changes nothing", files: { "p.md": "相同；文本。\n中间\n相同；文本。\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-相同;文本.\n+不同;文本.\n") }, ok: false, has: ["punctuation/whitespace-tolerant matching is ambiguous at lines 1, 3"], after: { "p.md": "相同；文本。\n中间\n相同；文本。\n" } },
  { name: "separator spacing is folded", files: { "p.md": "说明：旧值。\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-说明: 旧值.\n+说明: 新值.\n") }, ok: true, has: ["used punctuation/whitespace-tolerant matching for 1 hunk"], after: { "p.md": "说明：新值。\n" } },
  { name: "text that is only part of a line asks for the whole line", files: { "p.md": "前缀；`pipeline_timeout_seconds` 是旧字段，后缀。\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-`pipeline_timeout_seconds` 是旧字段\n+`EXTERNAL_TIMEOUT_SECONDS` 是统一字段\n") }, ok: false, has: ["only part of current line 1", "include that complete line"] },
  { name: "a dropped inter-word space is tolerated", files: { "p.md": "diff and count\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-diffand count\n+diffand total\n") }, ok: true, has: ["punctuation/whitespace-tolerant"], after: { "p.md": "diff and total\n" } },
  { name: "shifted surrounding whitespace is not hidden", files: { "p.md": " 相同；文本。\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-相同;文本. \n+不同;文本. \n") }, ok: false, has: ["hunk not found (1/1)"] },
  { name: "hunks out of file order point at the earlier match", files: { "p.md": "first\nmiddle\nlast\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-last\n+LAST\n@@\n-first\n+FIRST\n") }, ok: false, has: ["hunk not found (2/2)", "matching context exists earlier at line 1", "hunks must follow file order"], after: { "p.md": "first\nmiddle\nlast\n" } },
  { name: "a line the file lacks is named as missing", files: { "p.md": "first\nmiddle\nlast\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-invented content line\n+replacement\n") }, ok: false, has: ["does not exist in the current file"] },
  { name: "a typo points at the closest file line", files: { "p.md": "first line\nmiddle line\nlast line\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-muddle line\n+replacement\n") }, ok: false, has: ["hunk not found (1/1)", "closest file line is 2", "middle line", "muddle line"] },
  { name: "whitespace-only context is explained", files: { "p.md": "first line\nmiddle line\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n \t\n-missing line\n+replacement\n") }, ok: false, has: ["whitespace-only context lines are literal source lines"] },
  { name: "an End of File hunk only looks at the tail", files: { "tail.md": "similar signature\n\n\n\ntail marker line\n" }, tool: "apply_patch", args: { patch: P("*** Update File: tail.md\n@@\n-similr signature\n+replacement\n*** End of File\n") }, ok: false, has: ["expected line does not exist"], not: ["closest file line is 1"] },
  { name: "the first diverging line is pinpointed", files: { "p.md": "first line\nmiddle line\nlast line\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n first line\n middle line\n-lastt line\n+new last line\n") }, ok: false, has: ["the first 2 line(s) of the hunk match at line 1"] },
  { name: "an orphan combining mark in an added line is cleaned", files: { "p.md": "### 3.2.1 Heading\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-### 3.2.1 Heading\n+### 3.2.1 Heading\n+## \u03043.2.1 Renamed\n") }, ok: true, has: ["cleaned 1 invisible character"], after: { "p.md": "### 3.2.1 Heading\n## 3.2.1 Renamed\n" } },
  { name: "a combining mark on a digit in an added line is kept", files: { "p.md": "### 3.2.1 Heading\n" }, tool: "apply_patch", args: { patch: P("*** Update File: p.md\n@@\n-### 3.2.1 Heading\n+### 3.2.1 Heading\n+value 3\u0305 stays\n") }, ok: true, not: ["cleaned"], after: { "p.md": "### 3.2.1 Heading\nvalue 3\u0305 stays\n" } },
];

const GO_DEMO = 'package demo\n\nfunc first() {\n\tprintln("x")\n}\n\nfunc second() {\n\tprintln("x")\n}\n';
const GO_DEMO_AFTER = GO_DEMO.replace('second() {\n\tprintln("x")\n', 'second() {\n\tprintln("x")\n\tprintln("y")\n');
const U = (file: string, body: string) => ({ patch: P(`*** Update File: ${file}\n${body}`) });

// The hunk forms the reference's edit tests pin, through apply_patch.
const PATCH_HUNKS: Case[] = [
  { name: "an @@ header anchors the hunk in the function it names", files: { "demo.go": GO_DEMO }, tool: "apply_patch", args: U("demo.go", '@@ func second() {\n \tprintln("x")\n+\tprintln("y")\n }\n'), ok: true, exact: "Applied patch:\nM demo.go", after: { "demo.go": GO_DEMO_AFTER } },
  { name: "a unified diff range header is ignored, its section text anchors", files: { "demo.go": GO_DEMO }, tool: "apply_patch", args: U("demo.go", '@@ -6,3 +6,4 @@ func second() {\n \tprintln("x")\n+\tprintln("y")\n }\n'), ok: true, after: { "demo.go": GO_DEMO_AFTER } },
  { name: "an indented section header anchors too", files: { "demo.py": "def first():\n    value = 1\n\ndef second():\n    value = 1\n" }, tool: "apply_patch", args: U("demo.py", "@@ -3,2 +3,3 @@     def second():\n     value = 1\n+    value = 2\n"), ok: true, after: { "demo.py": "def first():\n    value = 1\n\ndef second():\n    value = 1\n    value = 2\n" } },
  { name: "a bare range header is only a separator", files: { "demo.txt": "one\ntwo\nthree\n" }, tool: "apply_patch", args: U("demo.txt", "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"), ok: true, after: { "demo.txt": "one\nTWO\nthree\n" } },
  { name: "several range headers are several hunks", files: { "demo.txt": "one\ntwo\nthree\nfour\n" }, tool: "apply_patch", args: U("demo.txt", "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n@@ -3,2 +3,3 @@\n three\n four\n+five\n"), ok: true, after: { "demo.txt": "one\nTWO\nthree\nfour\nfive\n" } },
  { name: "replace and insert in two hunks", files: { "demo.txt": "one\ntwo\nthree\n" }, tool: "apply_patch", args: U("demo.txt", "@@\n one\n-two\n+TWO\n three\n@@\n three\n+four\n"), ok: true, has: ["Applied patch"], after: { "demo.txt": "one\nTWO\nthree\nfour\n" } },
  { name: "a bare empty line in a hunk is an empty context line", files: { "blank.txt": "a\n\nb\n" }, tool: "apply_patch", args: U("blank.txt", "@@\n a\n\n-b\n+B\n"), ok: true, after: { "blank.txt": "a\n\nB\n" } },
  { name: "CRLF endings are kept", files: { "demo.txt": "one\r\ntwo\r\n" }, tool: "apply_patch", args: U("demo.txt", "@@\n-one\n+ONE\n two\n"), ok: true, after: { "demo.txt": "ONE\r\ntwo\r\n" } },
  { name: "lines copied with their line numbers are named as such", files: { "demo.txt": "alpha\nbeta\n" }, tool: "apply_patch", args: U("demo.txt", "@@\n 1\talpha\n-2\tbeta\n+gamma\n"), ok: false, has: ["line numbers or the tab separator"], after: { "demo.txt": "alpha\nbeta\n" } },
  { name: "a header anchor the file lacks is named", files: { "demo_test.go": "package demo\n\nfunc TestActual(t *testing.T) {\n}\n" }, tool: "apply_patch", args: U("demo_test.go", "@@ func TestImagined(t *testing.T) {\n }\n+// added\n"), ok: false, has: ['@@ header anchor "TestImagined"', "was not found"] },
  { name: "stale text is named as missing from the current file", files: { "demo.txt": "alpha\nbeta\n" }, tool: "apply_patch", args: U("demo.txt", "@@\n-gamma\n+delta\n"), ok: false, has: ["hunk not found", "does not exist in the current file"] },
];

const TABLES: Array<[string, Case[]]> = [
  ["read", READ],
  ["write", WRITE],
  ["edit", EDIT],
  ["delete", DELETE],
  ["glob", GLOB],
  ["grep", GREP],
  ["apply_patch", APPLY_PATCH],
  ["apply_patch hunk forms", PATCH_HUNKS],
];

for (const [tool, cases] of TABLES) {
  describe(`chord ${tool}, as the reference pins it`, () => {
    for (const c of cases) it(c.name, () => check(c));
  });
}

// The person sees a card built from the handler's view data, never the
// model's markup: a command's output and status in words, matches and paths
// as lists.
describe("chord cards show plain text", () => {
  const card = async (tool: string, args: Record<string, unknown>) => {
    await loadMarkdown();
    const res = await call(tool, args);
    expect(res.display, `${tool} has a view: ${res.text}`).toBeDefined();
    const c = chordTool(tool, args, res.ok ? "ok" : "error", { modelText: res.text, display: res.display! });
    return { res, shown: plain(renderCard(c, opts({ cwd: t.cwd }))).join("\n") };
  };

  it("shell: the output and the exit status, not the bracketed status line", async () => {
    const { res, shown } = await card("shell", { command: "printf 'one\\ntwo\\n'; exit 3" });
    expect(res.text).toContain("[status: failed (exit code 3)]");
    expect(res.display).toMatchObject({ kind: "command", status: "exited", exitCode: 3, output: "one\ntwo" });
    expect(shown).toContain("one");
    expect(shown).not.toContain("[status:");
  });

  it("shell: a background start names its job", async () => {
    const { res } = await card("shell", { command: "sleep 0.1", run_in_background: true });
    expect(res.display).toMatchObject({ kind: "command", status: "background" });
    expect((res.display as { jobId?: string }).jobId).toMatch(/\S/);
  });

  it("grep: the matches as data, the notes as a hint", async () => {
    await t.put({ "a.txt": "needle one\nhay\nneedle two\n" });
    const { res, shown } = await card("grep", { pattern: "needle", paths: ["a.txt", "gone"] });
    expect(res.display).toEqual({
      kind: "matches",
      matches: [
        { path: "a.txt", line: 1, text: "needle one" },
        { path: "a.txt", line: 3, text: "needle two" },
      ],
      total: 2,
      hint: "grep: skipped path: path not found: gone",
    });
    expect(shown).toContain("needle two");
  });

  it("glob: the paths as a list", async () => {
    await t.put({ "a.go": "x", "b.go": "x" });
    const { res } = await card("glob", { patterns: ["*.go"] });
    expect(res.display).toEqual({ kind: "paths", paths: ["a.go", "b.go"], total: 2 });
  });
});
