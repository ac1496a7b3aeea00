// Skills through the built `yuj`: only names and descriptions in the request;
// Chord loads a body with the skill tool, Yuj reads the SKILL.md by its
// absolute path (outside the project); allowed-tools narrows the tools.

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

const BODY_MARK = "Count the apples twice before writing anything.";

function project(): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-skills-e2e-")));
  mkdirSync(join(cwd, ".yuj/skills/apples"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/skills/apples/SKILL.md"), `---\nname: apples\ndescription: Counting apples in a repository\nallowed-tools: read, glob\n---\n\n${BODY_MARK}\n`);
  writeFileSync(join(cwd, "a.txt"), "apple\n");
  return cwd;
}

async function run(cwd: string, turns: unknown[], extra: string[] = [], env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" })) {
  model = await startSseServer({ scenario: parseScenario({ turns }) });
  const args = ["code", "count apples", "--output", "jsonl", "--provider", "anthropic", "--model", "m", "--base-url", model.baseUrlFor("anthropic"), "--yolo", ...extra];
  const res = await runCli(args, { cwd, env, timeoutMs: 60_000 });
  const rows = res.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; name?: string; modelText?: string });
  const posts = model.requests.filter((r) => r.method === "POST");
  return { res, rows, first: posts[0]!, results: (name: string) => rows.filter((r) => r.type === "tool_result" && r.name === name).map((r) => r.modelText ?? "") };
}

describe("skills on the Chord surface", () => {
  it("the skill tool's description lists the catalogue, the body loads on demand, and allowed-tools narrows the tools", async () => {
    const cwd = project();
    const { res, first, results } = await run(
      cwd,
      [
        { tool_calls: [{ name: "skill", arguments: { name: "apples", args: "in a.txt" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "x" } }] },
        { text: "counted" },
      ],
      ["--profile", "chord"],
    );
    expect(res.code).toBe(0);
    const skillTool = (first.body.tools as Array<{ name: string; description: string }>).find((t) => t.name === "skill")!;
    expect(skillTool.description).toContain("- apples: Counting apples in a repository");
    expect(skillTool.description).toContain("- review-diff: ");
    expect(first.rawBody).not.toContain(BODY_MARK);
    const [loaded] = results("skill");
    expect(loaded).toContain(BODY_MARK);
    expect(loaded).toContain(`<name>apples</name>\n<path>${join(cwd, ".yuj/skills/apples/SKILL.md")}</path>\n<root>${join(cwd, ".yuj/skills/apples")}</root>\n`);
    expect(loaded).toContain(`<relative_paths_base>${join(cwd, ".yuj/skills/apples")}</relative_paths_base>\n<args>in a.txt</args>\n`);
    expect(results("write")[0]).toBe("ERROR: write is not among the tools the skill apples allows while it is in use (read, glob); use one of those, or load another skill");
  }, 60_000);
});

describe("skills on the Yuj surface", () => {
  it("the system prompt lists each skill's SKILL.md path, read reads it although it is outside the project, and the skill's allowed-tools apply", async () => {
    const cwd = project();
    const home = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test" });
    const userSkill = join(home.XDG_CONFIG_HOME!, "yuj", "skills", "pears");
    mkdirSync(userSkill, { recursive: true });
    writeFileSync(join(userSkill, "SKILL.md"), "---\nname: pears\ndescription: Pear counting\nallowed-tools: read\n---\n\nPears are counted one by one.\n");
    const { res, first, results } = await run(
      cwd,
      [
        { tool_calls: [{ name: "read", arguments: { path: join(userSkill, "SKILL.md") } }] },
        { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "x" } }] },
        { tool_calls: [{ name: "read", arguments: { path: "/etc/hostname" } }] },
        { text: "done" },
      ],
      [],
      home,
    );
    expect(res.code).toBe(0);
    const system = JSON.stringify(first.body.system);
    expect(system).toContain(`- pears: Pear counting (${join(userSkill, "SKILL.md")})`);
    expect(system).toContain("- apples: Counting apples in a repository");
    expect(first.rawBody).not.toContain("Pears are counted one by one.");
    const [readSkill, readOther] = results("read");
    expect(readSkill).toContain("Pears are counted one by one.");
    expect(results("write")[0]).toMatch(/^ERROR: write is not among the tools the skill pears allows/);
    // Only the skills' directories are opened up, nothing else outside the project.
    expect(readOther).toMatch(/^ERROR: path escapes cwd/);
  }, 60_000);
});
