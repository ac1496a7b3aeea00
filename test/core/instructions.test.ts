import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findInstructions } from "../../core/instructions.js";
import { buildSystemPrompt } from "../../core/system-prompt.js";

describe("project instructions", () => {
  it("reads AGENTS.md and CLAUDE.md from the git root down to the cwd, outermost first", () => {
    const outside = mkdtempSync(join(tmpdir(), "yuj-instr-"));
    const root = join(outside, "repo");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(join(root, "pkg/sub"), { recursive: true });
    writeFileSync(join(outside, "AGENTS.md"), "above the repo: never read");
    writeFileSync(join(root, "AGENTS.md"), "root rules");
    writeFileSync(join(root, "pkg/CLAUDE.md"), "pkg rules");
    writeFileSync(join(root, "pkg/sub/AGENTS.md"), "sub rules");
    const found = findInstructions(join(root, "pkg/sub"));
    expect(found.map((f) => f.text)).toEqual(["root rules", "pkg rules", "sub rules"]);
    const prompt = buildSystemPrompt({ cwd: join(root, "pkg/sub"), finishTool: "done", instructions: found, date: "2026-01-01" });
    expect(prompt).toContain("# Project instructions from ../../AGENTS.md\n\nroot rules");
    expect(prompt.indexOf("root rules")).toBeLessThan(prompt.indexOf("sub rules"));
    expect(prompt).not.toContain("never read");
    expect(prompt).toContain("call done");
  });

  it("reads only the cwd outside a git repository", () => {
    const outside = mkdtempSync(join(tmpdir(), "yuj-instr-"));
    const cwd = join(outside, "a");
    mkdirSync(cwd);
    writeFileSync(join(outside, "AGENTS.md"), "parent");
    writeFileSync(join(cwd, "AGENTS.md"), "here");
    expect(findInstructions(cwd).map((f) => f.text)).toEqual(["here"]);
  });
});
