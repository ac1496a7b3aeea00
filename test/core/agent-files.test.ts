// Agent definition files on disk: TOML and Markdown with front matter, the
// project's folder over the user's over the built-in one, and bad files
// refused naming the file and the field.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findAgent, type AgentDirs } from "../../core/agents/find.js";
import { repoRoot } from "../support/loop-harness.js";

function dirs(files: { project?: Record<string, string>; user?: Record<string, string> }): AgentDirs {
  const root = mkdtempSync(join(tmpdir(), "yuj-agent-files-"));
  const d = { project: join(root, "project"), user: join(root, "user"), builtin: join(repoRoot, "agents") };
  for (const [where, set] of [["project", files.project], ["user", files.user]] as const) {
    mkdirSync(d[where], { recursive: true });
    for (const [name, text] of Object.entries(set ?? {})) writeFileSync(join(d[where], name), text);
  }
  return d;
}

describe("agent definition files", () => {
  it("reads Markdown front matter with the body as the system prompt, and Claude Code's comma list of tools", () => {
    const d = dirs({ project: { "rev.md": "---\nname: rev\ndescription: \"reviews\"\ntools: read, grep\nmax_turns: 5\nmode: sub_agent\n---\n\nReview carefully.\n" } });
    expect(findAgent("rev", d)).toMatchObject({ name: "rev", description: "reviews", tools: ["read", "grep"], maxTurns: 5, mode: "subagent", systemPrompt: "Review carefully.", readOnly: true, workspace: "shared" });
  });

  it("takes the project's file over the user's, the user's over the built-in explorer", () => {
    const d = dirs({ project: { "explorer.toml": 'description = "project"\n' }, user: { "explorer.toml": 'description = "user"\n', "solo.toml": 'description = "user only"\n' } });
    expect(findAgent("explorer", d).description).toBe("project");
    expect(findAgent("solo", d).description).toBe("user only");
    expect(findAgent("explorer", { ...d, project: join(d.project, "none"), user: join(d.user, "none") })).toMatchObject({ readOnly: true, file: join(repoRoot, "agents", "explorer.toml") });
  });

  it("names the file and the field that are wrong", () => {
    const d = dirs({
      project: {
        "typo.toml": 'description = "x"\nread_onyl = false\n',
        "turns.toml": 'description = "x"\nmax_turns = 0\n',
        "iso.toml": 'description = "x"\nworkspace = "isolated"\n',
        "other.md": "---\nname: different\ndescription: x\n---\n",
        "nested.md": "---\ndescription: x\npermission:\n  read: allow\n---\n",
        "bad.toml": "description = \n",
        "twice.toml": 'description = "x"\n',
        "twice.md": "---\ndescription: x\n---\n",
      },
    });
    const err = (name: string) => {
      try {
        findAgent(name, d);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error(`${name} loaded`);
    };
    expect(err("typo")).toBe(`agent file ${join(d.project, "typo.toml")}: field (file): unknown field read_onyl; the fields are name, description, mode, model, tools, system_prompt, max_turns, read_only, workspace`);
    expect(err("turns")).toContain("field max_turns: a positive whole number");
    expect(err("iso")).toContain('field workspace: "isolated" is for agents that write');
    expect(err("other")).toContain('field name: "different" differs from the file name "other"');
    expect(err("nested")).toContain("front matter line 4: expected `key: value`");
    expect(err("bad")).toMatch(/bad\.toml: not valid TOML \(line 1/);
    expect(err("twice")).toContain("both");
    expect(err("../etc")).toContain("not an agent name");
  });
});
