// Chord's skill tool as the reference's skill tests pin its schema: the
// `name` parameter lists every skill the session found (an enum), also
// those the bounded catalogue in the description leaves out, so a model can
// load any of them by name. Through the built `yuj` against a local model
// server: the first request's tool declaration is what is checked.

import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let model: SseServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

interface Declared {
  name: string;
  description: string;
  input_schema: { properties: Record<string, { enum?: string[]; type?: string }> };
}

/** A project with `count` skills of its own (names sample-000 …), run once on the Chord surface; the first request's skill declaration. */
async function skillDeclaration(count: number): Promise<Declared> {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-audit-skills-")));
  for (let i = 0; i < count; i++) {
    const name = `sample-${String(i).padStart(3, "0")}`;
    mkdirSync(join(cwd, ".yuj/skills", name), { recursive: true });
    writeFileSync(join(cwd, ".yuj/skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${"Z".repeat(400)}\n---\n\nBody ${i}.\n`);
  }
  model = await startSseServer({ scenario: parseScenario({ turns: [{ text: "done" }] }) });
  const args = ["code", "hi", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", model.baseUrlFor("anthropic"), "--yolo", "--profile", "chord"];
  const res = await runCli(args, { cwd, env: isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" }), timeoutMs: 60_000 });
  expect(res.code).toBe(0);
  const first = model.requests.find((r) => r.method === "POST")!;
  return (first.body.tools as Declared[]).find((t) => t.name === "skill")!;
}

describe("chord skill: the name parameter lists every skill", () => {
  it("the enum holds every skill the catalogue names, in its order", async () => {
    const skill = await skillDeclaration(2);
    const listed = skill.description
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .map((l) => l.slice(2, l.indexOf(":")));
    expect(listed).toContain("sample-000");
    expect(skill.input_schema.properties.name!.enum).toEqual(listed);
    expect(skill.input_schema.properties.name!.type).toBe("string");
  }, 60_000);

  it("names past the catalogue's 8 KiB are still in the enum", async () => {
    const skill = await skillDeclaration(25);
    expect(skill.description).toMatch(/\n\+\d+ more skills available$/);
    const names = skill.input_schema.properties.name!.enum!;
    expect(names).toContain("sample-024");
    expect(skill.description).not.toContain("- sample-024:");
    expect(names.filter((n) => n.startsWith("sample-")).length).toBe(25);
  }, 60_000);
});
