import { describe, expect, it } from "vitest";
import { cardHeader, displayPath, keyArgument } from "../../../components/cards/header.js";
import { formatDuration } from "../../../core/format.js";
import stringWidth from "string-width";
import { CWD, tool } from "./helpers.js";

const h = (card: Parameters<typeof cardHeader>[0], over: { folded?: boolean; width?: number; color?: boolean } = {}) =>
  cardHeader(card, { width: 100, folded: false, cwd: CWD, color: false, ...over });

describe("card headers", () => {
  it("numbers cards by kind", () => {
    expect(h({ kind: "user", num: 12, text: "hi" })).toBe("USER #12");
    expect(h({ kind: "assistant", num: 13, text: "hi", streaming: false })).toBe("ASSISTANT #13");
    expect(h({ kind: "notice", num: 3, level: "info", text: "x" })).toBe("NOTICE #3");
    expect(h({ kind: "notice", num: 4, level: "error", text: "x" })).toBe("NOTICE #4 error");
  });

  it("foldable tool: marker, name, key argument relative to cwd, status and duration", () => {
    const card = tool("read", { path: `${CWD}/src/a.ts` }, "ok", { durationMs: 42 });
    card.num = 14;
    expect(h(card, { folded: false })).toBe("TOOL CALL #14 ▾ read src/a.ts ✓ 42ms");
    // ▸ only when folding hides something.
    const long = { ...card, viewText: "x\n".repeat(30) };
    expect(h(long, { folded: true })).toBe("TOOL CALL #14 ▸ read src/a.ts ✓ 42ms");
  });

  it("always-expanded tool: the tool name only", () => {
    const card = tool("edit", { path: "src/a.ts", old_str: "a", new_str: "b" }, "ok", { durationMs: 1500 });
    card.num = 7;
    expect(h(card)).toBe("TOOL CALL #7 edit ✓ 1.5s");
    expect(h({ ...card, status: "running" })).toBe("TOOL CALL #7 edit ⠿");
  });

  it("status marks; duration only when finished", () => {
    const base = tool("shell", { command: "make test" }, "running", { durationMs: 5 });
    base.num = 1;
    expect(h(base)).toBe("TOOL CALL #1 ▾ shell make test ⠿");
    expect(h({ ...base, status: "error" })).toBe("TOOL CALL #1 ▾ shell make test ✗ 5ms");
    expect(h({ ...base, status: "cancelled" })).toBe("TOOL CALL #1 ▾ shell make test ⊘ 5ms");
    expect(h({ ...base, status: "streaming" })).toBe("TOOL CALL #1 ▾ shell make test ⋯");
  });

  it("error mark is red with colour, plain without", () => {
    const card = tool("grep", { pattern: "x" }, "error", { durationMs: 1 });
    expect(h(card, { color: true })).toContain("\x1b[31m✗\x1b[39m");
    expect(h(card, { color: false })).not.toContain("\x1b");
  });

  it("key arguments per tool", () => {
    expect(keyArgument(tool("grep", { pattern: "foo", path: "src" }), CWD)).toBe("foo in src");
    expect(keyArgument(tool("glob", { pattern: "**/*.ts" }), CWD)).toBe("**/*.ts");
    expect(keyArgument(tool("bash", { cmd: "ls\necho hi" }), CWD)).toBe("ls …");
    expect(keyArgument(tool("read", { path: "a.ts", offset: 10, limit: 20 }), CWD)).toBe("a.ts:11-30");
    expect(keyArgument(tool("bash_poll", { proc_id: "p1" }), CWD)).toBe("p1");
    expect(keyArgument(tool("mcp_x_y", { q: "hello", opts: { a: 1 }, list: [1, 2] }), CWD)).toBe(
      'q="hello", opts={1 fields}, list=[2 items]',
    );
  });

  it("names the file while the args still stream", () => {
    const card = tool("read", '{"path": "src/b.ts", "lim', "streaming");
    expect(keyArgument(card, CWD)).toBe("src/b.ts");
  });

  it("neutralises escapes in arguments and fits the width", () => {
    const card = tool("shell", { command: `echo \x1b]0;pwned\x07 ${"x".repeat(200)}` }, "ok", { durationMs: 3 });
    const line = h(card, { width: 40 });
    expect(line).not.toMatch(/[\x00-\x1f]/);
    expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(line).toMatch(/… ✓ 3ms$/);
    for (const w of [1, 5, 12, 20]) expect(stringWidth(h(card, { width: w, color: true }))).toBeLessThanOrEqual(w);
  });

  it("paths and durations", () => {
    expect(displayPath("/repo/a/b.ts", "/repo")).toBe("a/b.ts");
    expect(displayPath("/other/b.ts", "/repo")).toBe("/other/b.ts");
    expect(displayPath("rel.ts", "/repo")).toBe("rel.ts");
    expect(formatDuration(950)).toBe("950ms");
    expect(formatDuration(61_000)).toBe("1m01s");
  });
});
