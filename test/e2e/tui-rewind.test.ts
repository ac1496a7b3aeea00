// The operator's rewind in a real terminal (tmux), against the scripted
// model, in a real git repository: /rewind lists the messages with the files
// their steps changed, shows the patch a pick would apply and applies it on
// `y` (files and conversation together, the message back in the composer),
// and lists the undo afterwards; Esc Esc on a focused message does the same
// for that message.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSession } from "../../core/session-state.js";
import { isolatedEnv, waitUntil } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

const write = (path: string, content: string) => ({ tool_calls: [{ name: "write", arguments: { path, content } }] });
const TURNS = [write("a.txt", "one\n"), { text: "reply one" }, write("b.txt", "two\n"), { text: "reply two" }];

async function open(): Promise<{ a: TmuxApp; cwd: string; env: Record<string, string> }> {
  const cwd = tempDemoRepo();
  writeFileSync(join(cwd, "a.txt"), "zero\n");
  execFileSync("git", ["init", "-q"], { cwd });
  execFileSync("git", ["add", "-A"], { cwd });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "start"], { cwd });
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: TURNS }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n`);
  const env = { ...isolatedEnv(), TERM: "xterm-256color" };
  app = startTui({ cwd, env, columns: 160, rows: 40, args: ["--yolo"] });
  await app.waitFor(/INSERT/, 15_000);
  await app.submit("first msg");
  await app.waitFor(/reply one/);
  await app.submit("second msg");
  await app.waitFor(/reply two/);
  return { a: app, cwd, env };
}

function savedHistory(env: Record<string, string>): string[] {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const id = readdirSync(root).find((n) => !n.startsWith("."))!;
  return readSession(join(root, id))!.state.history.map((h) => (h.role === "user" || h.role === "assistant" ? h.text : h.role));
}

describe("the operator's rewind in the TUI", () => {
  it("/rewind lists the messages, shows the patch, applies on y, and undoes", async () => {
    const { a, cwd, env } = await open();
    await a.submit("/rewind");
    const list = await a.waitFor(/2\. second msg +\(1 file: b\.txt\)/);
    expect(list).toMatch(/1\. first msg +\(1 file: a\.txt\)/);
    a.type("j");
    a.keys("Enter");
    const plan = await a.waitFor(/D b\.txt/);
    expect(plan).toMatch(/diff --git a\/b\.txt b\/b\.txt/);
    // Nothing changes before y.
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("two\n");
    a.type("y");
    await a.waitFor(/Rewound to before "second msg"/);
    await a.waitFor(/› second msg/);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
    await waitUntil(() => !savedHistory(env).includes("second msg"), "the conversation cut before the second message");

    // The composer holds the message again: cleared, then /rewind offers the undo.
    a.keys("C-u");
    await a.submit("/rewind");
    await a.waitFor(/undo the last rewind/);
    a.type("jj");
    a.keys("Enter");
    await a.waitFor(/Undo the last rewind: y applies/);
    expect(a.screen()).toMatch(/A b\.txt/);
    a.type("y");
    await a.waitFor(/Rewind undone/);
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("two\n");
    await waitUntil(() => savedHistory(env).includes("second msg"), "the conversation put back");
  }, 90_000);

  it("Esc Esc on a focused message rewinds to before it", async () => {
    const { a, cwd, env } = await open();
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    // From the newest card: the write's card, then the message.
    a.type("kk");
    a.keys("Escape");
    await a.waitFor(/Esc again: rewind files and conversation to before this message/);
    a.keys("Escape");
    const plan = await a.waitFor(/D b\.txt/);
    expect(plan).toMatch(/Rewind files and conversation: y applies/);
    a.type("y");
    await a.waitFor(/Rewound to before "second msg"/);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
    await waitUntil(() => savedHistory(env).at(-1) === "reply one", "the conversation cut before the second message");
  }, 90_000);
});
