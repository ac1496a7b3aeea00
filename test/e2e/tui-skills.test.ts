// The skills in the TUI, in a real terminal (tmux), with the scripted model:
// the side panel lists the skills found and marks one green and "loaded"
// only after its instructions were loaded (Chord's skill tool, and on the Yuj
// surface a read of its SKILL.md), and the card that loaded it says so. A
// failed load (no such skill) marks nothing.

import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

const SKILL = "---\nname: release-notes\ndescription: Write release notes from the git log\n---\nRead the log since the last tag and group the changes.\n";

async function open(turns: (skillFile: string) => unknown[], args: string[] = []) {
  const cwd = realpathSync(tempDemoRepo());
  const skillFile = join(cwd, ".agents/skills/release-notes/SKILL.md");
  mkdirSync(join(skillFile, ".."), { recursive: true });
  writeFileSync(skillFile, SKILL);
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: turns(skillFile) }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args, columns: 170, rows: 50 });
  await app.waitFor(/INSERT/, 15_000);
  return app;
}

describe("skills in the TUI", () => {
  it("Chord's skill tool: listed unloaded first, green and loaded after the call, and the card says it loaded; a failed load marks nothing", async () => {
    const a = await open(() => [{ tool_calls: [{ name: "skill", arguments: { name: "no-such-skill" } }] }, { text: "missed" }, { tool_calls: [{ name: "skill", arguments: { name: "release-notes" } }] }, { text: "skill read" }], ["--profile", "chord"]);
    const before = await a.waitFor(/SKILLS \d+/);
    expect(before).toMatch(/○ release-notes/);
    expect(before).not.toMatch(/release-notes loaded/);
    await a.submit("try a skill that is not there");
    await a.waitFor(/missed/, 20_000);
    expect(a.screen()).toMatch(/○ release-notes/);
    expect(a.screen()).not.toMatch(/loaded/);

    await a.submit("use the release notes skill");
    const after = await a.waitFor(/skill read/, 20_000);
    expect(after).toMatch(/● release-notes loaded/);
    expect(after).toMatch(/SKILLS \d+ · 1 loaded/);
    expect(after).toMatch(/✓ skill release-notes loaded: \d+ lines of instructions/);
  }, 60_000);

  it("Yuj: a read of the skill's SKILL.md marks it loaded, in the panel and in the read card", async () => {
    const a = await open((file) => [{ tool_calls: [{ name: "read", arguments: { path: file } }] }, { text: "read it" }]);
    await a.waitFor(/○ release-notes/);
    await a.submit("read the skill");
    const after = await a.waitFor(/read it/, 20_000);
    expect(after).toMatch(/● release-notes loaded/);
    expect(after).toMatch(/✓ skill release-notes loaded/);
  }, 60_000);
});
