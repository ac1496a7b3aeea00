// Watching delegated workers in the real TUI (tmux): the scripted model plays
// the main agent and each worker its own turns. A person delegates to two
// workers, reads each one's own transcript with Shift+Tab, sees them in the
// side panel with their states, answers one worker's approval from the main
// view, and reads its completion there.

import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv } from "../support/cli.js";
import { delegationProject } from "../support/delegation.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

const delegate = (description: string, file: string) => ({
  name: "delegate",
  arguments: { description, agent_type: "builder", expected_write_scope: { files: [file] } },
});

/** Two builders: task-1 runs a command the rules make it ask for, task-2 reports at once. */
function twoWorkers(): string {
  return delegationProject(
    {
      turns: [{ tool_calls: [delegate("write one.txt", "one.txt"), delegate("check two", "two.txt")] }],
      agents: {
        "task-1": {
          turns: [
            { text: "Writing the first part.", tool_calls: [{ name: "shell", arguments: { command: "echo from-one > one.txt", description: "write one" } }] },
            { tool_calls: [{ name: "complete", arguments: { summary: "**First part** written: `one.txt` holds from-one.", files_changed: ["one.txt"] } }] },
          ],
        },
        "task-2": {
          turns: [
            {
              text: "Checking the second part.",
              tool_calls: [{ name: "complete", arguments: { summary: "Second part **checked**, nothing to change." } }],
              usage: { input: 1200, output: 300 },
            },
          ],
        },
      },
    },
    { rules: '[[permissions.rules]]\ntool = "delegate"\naction = "allow"\n[[permissions.rules]]\ntool = "shell"\naction = "ask"\n' },
  );
}

/** The rows of the screen's right-hand column (the side panel) that mention `text`. */
const panelRows = (screen: string, text: string) => screen.split("\n").map((l) => l.slice(-34)).filter((l) => l.includes(text));

describe("TUI agent views", () => {
  it("Shift+Tab shows each worker's own cards; the side panel lists the agents; a worker's approval is answered from the main view and its completion read there", async () => {
    const cwd = twoWorkers();
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args: ["--config", "chord.toml"], columns: 150, rows: 45 });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("split the work");

    // task-1's ask waits in the main view, named after the worker.
    let screen = await app.waitFor(/task-1 \(builder\) asks: shell/, 30_000);
    // task-2 finished on its own: both are listed, each with its state, time and tokens.
    screen = await app.waitFor(/AGENT COMPLETE #\d+[^\n]*\n\s*task-2 \(builder\)/, 15_000);
    expect(panelRows(screen, "AGENTS 2").length).toBe(1);
    expect(screen).toMatch(/task-1 \(builder\)[\s\S]*waiting \(approval\) \d/);
    expect(screen).toMatch(/task-2 \(builder\)[\s\S]*done \d[^\n]* 1\.5k tok/);
    // The delegate cards follow their tasks in place.
    expect(screen).toMatch(/● task-2 done/);
    expect(screen).not.toContain("VIEW task-");

    // Shift+Tab: task-1's own transcript, numbered from 1, its call waiting; the ask is still there to answer.
    app.keys("BTab");
    screen = await app.waitFor(/VIEW task-1 \(builder\) · waiting \(approval\)/);
    expect(screen).toMatch(/USER #1/);
    expect(screen).toContain("You are task-1, a builder worker");
    expect(screen).toContain("Writing the first part.");
    expect(screen).toContain("task-1 (builder) asks: shell");
    expect(screen).not.toContain("split the work");
    expect(screen).toMatch(/view task-1/);

    // Again: task-2's, with its completion as a control card rendered as Markdown.
    app.keys("BTab");
    await app.waitFor(/VIEW task-2 \(builder\) · done [^\n]*1\.5k tok/);
    // The complete card's report is Markdown once the renderer has it.
    screen = await app.waitFor("Second part checked, nothing to change.");
    expect(screen).toContain("Checking the second part.");
    expect(screen).not.toContain("**checked**");
    expect(screen).not.toContain("Writing the first part.");

    // Again: back to the main view.
    app.keys("BTab");
    // The prompt takes keys once typing has paused (the Shift+Tab presses count as typing).
    screen = await app.waitFor(/view main[^\n]*y allow/);
    expect(screen).not.toContain("VIEW task-");
    expect(screen).toContain("split the work");

    // Allowing the call lets task-1 go on: it runs the command and completes; its completion shows in the main view.
    app.keys("y");
    await app.waitFor(/AGENT COMPLETE #\d+[^\n]*\n\s*task-1 \(builder\)/, 30_000);
    // Its report, as Markdown.
    screen = await app.waitFor(/task-1 \(builder\)\s*\n\s*First part written: one\.txt holds from-one\./);
    await app.waitFor(/● task-1 done/);
    expect(readFileSync(join(cwd, "one.txt"), "utf8")).toBe("from-one\n");
    screen = await app.waitFor(/task-1 \(builder\)[\s\S]*done \d/);
    expect(screen).not.toMatch(/asks: shell/);

    // task-1's own view now holds the rest of its run: the command's card and its complete card.
    app.keys("BTab");
    await app.waitFor(/VIEW task-1 \(builder\) · done/);
    // Its complete card, rendered as Markdown, under the command it ran.
    screen = await app.waitFor("First part written: one.txt holds from-one.");
    expect(screen).toMatch(/shell[\s\S]*complete/);
  }, 120_000);

  it("a terminal too narrow for the side panel lists the agents in the s overlay", async () => {
    const cwd = twoWorkers();
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args: ["--config", "chord.toml"], columns: 100, rows: 40 });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("split the work");
    await app.waitFor(/task-1 \(builder\) asks: shell/, 30_000);
    await app.waitFor(/AGENT COMPLETE #\d+[^\n]*\n\s*task-2 \(builder\)/, 15_000);
    // The one-line summary counts them; the approval has the keys, so it is answered first.
    let screen = await app.waitFor(/agents 1\/2 running/);
    await app.waitFor("[y/A] allow once");
    app.keys("y");
    await app.waitFor(/AGENT COMPLETE #\d+[^\n]*\n\s*task-1 \(builder\)/, 30_000);
    app.keys("Escape");
    await app.waitFor(/NORMAL/);
    app.keys("s");
    screen = await app.waitFor(/TODOS, JOBS AND AGENTS/);
    expect(screen).toMatch(/AGENTS 2/);
    expect(screen).toMatch(/task-1 \(builder\)\s*\n\s*done \d/);
    expect(screen).toMatch(/task-2 \(builder\)\s*\n\s*done \d/);
    expect(existsSync(join(cwd, "one.txt"))).toBe(true);
  }, 120_000);

  it("a Yuj task child has its own view too: its cards, its role and done once it answered", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-agents-")));
    writeFileSync(join(cwd, "notes.txt"), "the answer is 42\n");
    const turns = [
      { tool_calls: [{ name: "task", arguments: { agent: "explorer", prompt: "What is the answer in notes.txt?" } }] },
      { tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }], usage: { input: 2000, output: 100 } },
      { text: "notes.txt line 1 says 42." },
      { text: "The explorer found it: 42." },
    ];
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(join(cwd, "scripted.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ntask_enabled = true\n`);
    app = startTui({ cwd, env: { ...isolatedEnv(), TERM: "xterm-256color" }, args: ["--config", "scripted.toml"], columns: 150, rows: 45 });
    await app.waitFor(/INSERT/, 15_000);
    await app.submit("ask the explorer");
    let screen = await app.waitFor("The explorer found it: 42.", 30_000);
    expect(screen).toMatch(/task-1 \(explorer\)[\s\S]*done \d[^\n]* 2\.1k tok/);
    app.keys("BTab");
    screen = await app.waitFor(/VIEW task-1 \(explorer\) · done/);
    expect(screen).toMatch(/USER #1\s*\n\s*What is the answer in notes.txt\?/);
    expect(screen).toMatch(/read notes\.txt/);
    expect(screen).toContain("notes.txt line 1 says 42.");
    expect(screen).not.toContain("The explorer found it");
  }, 120_000);
});
