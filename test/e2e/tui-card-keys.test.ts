// Keys on cards and approvals in a real terminal (tmux), against the
// scripted model: `E` edits a call's arguments before allowing it (bad JSON
// and arguments the tool refuses keep the prompt open, on both surfaces),
// there or in $EDITOR (Ctrl+X Ctrl+E),
// /rules lists the session's and project's rules and `x` removes one for
// good, `yy` copies the focused card with OSC 52 (read from the raw pty
// stream), `e` edits a sent message and forks the conversation, Ctrl+E
// lists the recent errors.

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSession } from "../../core/session-state.js";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let app: TmuxApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
});

async function open(
  turns: unknown[],
  extraConfig = "",
  args: string[] = [],
  at: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ a: TmuxApp; cwd: string; env: Record<string, string> }> {
  const cwd = at.cwd ?? tempDemoRepo();
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n${extraConfig}`);
  const env = { ...isolatedEnv(), TERM: "xterm-256color", ...at.env };
  app = startTui({ cwd, env, columns: 160, rows: 40, args });
  // A project config that loosens a rule is asked about first: trusted here.
  if (/Trust this project/.test(await app.waitFor(/INSERT|Trust this project/, 15_000))) {
    app.type("y");
    await app.waitFor(/INSERT/, 15_000);
  }
  return { a: app, cwd, env };
}

async function until(ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The one session's folder under the isolated state directory. */
function sessionDir(env: Record<string, string>): string {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const ids = readdirSync(root).filter((n) => !n.startsWith("."));
  expect(ids).toHaveLength(1);
  return join(root, ids[0]!);
}

/** Waits past the prompt's arming pause, then sends keys. */
async function armed(a: TmuxApp): Promise<void> {
  await a.waitFor(/\[y\/A\] allow once/);
}

describe("editing a call's arguments before allowing it (E)", () => {
  for (const surface of ["_base", "chord"] as const) {
    it(`on ${surface}: bad JSON and bad arguments keep the prompt open; good ones run`, async () => {
      const write = surface === "chord" ? { name: "write", arguments: { path: "a.txt", content: "from the model" } } : { name: "bash", arguments: { cmd: "touch from-the-model.txt" } };
      const config = `[[permissions.rules]]\ntool = "${surface === "chord" ? "write" : "bash"}"\naction = "ask"\n`;
      const { a, cwd } = await open([{ tool_calls: [write] }, { text: "finished" }], config, ["--profile", surface]);
      await a.submit("make the file");
      await armed(a);
      a.type("E");
      await a.waitFor(/Edit the arguments as JSON/);
      // Replace the whole text: Ctrl+U clears the composer.
      a.keys("C-u");
      a.type("{not json");
      a.keys("Enter");
      await a.waitFor(/not valid JSON/);
      a.keys("C-u");
      a.type(surface === "chord" ? '{"path": 5}' : '{"cmd": 5}');
      a.keys("Enter");
      await a.waitFor(/do not fit/);
      expect(a.screen()).toMatch(/Edit the arguments as JSON/);
      a.keys("C-u");
      a.type(surface === "chord" ? '{"path":"a.txt","content":"edited by me"}' : '{"cmd":"touch edited-by-me.txt"}');
      a.keys("Enter");
      await a.waitFor(/finished/);
      if (surface === "chord") expect(readFileSync(join(cwd, "a.txt"), "utf8")).toMatch(/^edited by me/);
      else {
        expect(existsSync(join(cwd, "edited-by-me.txt"))).toBe(true);
        expect(existsSync(join(cwd, "from-the-model.txt"))).toBe(false);
      }
    }, 60_000);
  }
});

describe("editing a call's arguments in $EDITOR (E, then Ctrl+X Ctrl+E)", () => {
  for (const surface of ["_base", "chord"] as const) {
    it(`on ${surface}: the editor gets the JSON; invalid JSON back is said and the prompt stays; valid JSON is allowed with Enter`, async () => {
      const call = surface === "chord" ? { name: "write", arguments: { path: "a.txt", content: "from the model" } } : { name: "bash", arguments: { cmd: "touch from-the-model.txt" } };
      const edited = surface === "chord" ? '{"path":"a.txt","content":"from the editor"}' : '{"cmd":"touch from-the-editor.txt"}';
      const config = `[[permissions.rules]]\ntool = "${call.name}"\naction = "ask"\n`;
      const cwd = tempDemoRepo();
      const dir = join(cwd, ".editor");
      mkdirSync(dir);
      const script = join(dir, "edit.sh");
      // The first run leaves broken JSON, the second the edited arguments; each keeps what it was given.
      writeFileSync(
        script,
        `#!/bin/sh\nn=$(cat ${dir}/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${dir}/count\ncp "$1" ${dir}/seen-$n\n` +
          `if [ $n = 1 ]; then printf '{"oops": ' > "$1"; else printf '%s\\n' '${edited}' > "$1"; fi\n`,
      );
      chmodSync(script, 0o755);
      const { a } = await open([{ tool_calls: [call] }, { text: "finished" }], config, ["--profile", surface], { cwd, env: { EDITOR: script } });
      await a.submit("make the file");
      await armed(a);
      a.type("E");
      await a.waitFor(/Ctrl\+X Ctrl\+E\] in \$EDITOR/);
      a.keys("C-x", "C-e");
      await a.waitFor(/the editor's text: not valid JSON/);
      expect(JSON.parse(readFileSync(join(dir, "seen-1"), "utf8"))).toEqual(call.arguments);
      // The prompt stays, with the editor's text in it to fix.
      expect(a.screen()).toMatch(/Edit the arguments as JSON/);
      expect(a.screen()).toContain('{"oops":');
      a.keys("C-x", "C-e");
      await until(() => existsSync(join(dir, "seen-2")));
      await a.waitFor(edited);
      expect(a.screen()).not.toMatch(/not valid JSON/);
      a.keys("Enter");
      await a.waitFor(/finished/);
      if (surface === "chord") expect(readFileSync(join(cwd, "a.txt"), "utf8")).toMatch(/^from the editor/);
      else {
        expect(existsSync(join(cwd, "from-the-editor.txt"))).toBe(true);
        expect(existsSync(join(cwd, "from-the-model.txt"))).toBe(false);
      }
    }, 60_000);
  }
});

describe("/rules", () => {
  it("lists the session's and the project's rules; x removes one, in force at once and for good", async () => {
    const project = '[[permissions.rules]]\ntool = "bash"\npattern = "ls *"\naction = "allow"\n';
    const { a, cwd, env } = await open([{ tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf build" } }] }, { text: "done one" }], project);
    mkdirSync(join(cwd, "build"));
    await a.submit("clean");
    await armed(a);
    a.type("a");
    await a.waitFor(/Enter/);
    a.keys("Enter");
    await a.waitFor(/done one/);
    await a.submit("/rules");
    await a.waitFor(/Permission rules/);
    const listed = await a.waitFor(/session +allow +bash "rm -rf build"/);
    expect(listed).toMatch(/project +allow +bash "ls \*"/);
    // The project rule is the second row.
    a.type("j");
    a.type("x");
    await until(() => !/project +allow +bash "ls \*"/.test(a.screen()));
    expect(readFileSync(join(cwd, ".yuj/config.toml"), "utf8")).not.toContain("ls *");
    a.type("k");
    a.type("x");
    await until(() => !/session +allow +bash "rm -rf build"/.test(a.screen()));
    await a.waitFor(/No session or project rules/);
    const state = JSON.parse(readFileSync(join(sessionDir(env), "state.json"), "utf8")) as { sessionRules: unknown[] };
    expect(state.sessionRules).toEqual([]);
  }, 60_000);
});

describe("card keys", () => {
  it("yy copies the focused card to the clipboard with OSC 52", async () => {
    const { a } = await open([{ text: "the answer text" }]);
    await a.submit("copy me please ✓");
    await a.waitFor(/the answer text/);
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    // The newest card is the answer; k focuses the message before it.
    a.type("k");
    a.type("yy");
    await a.waitFor(/copied card #\d+ to the clipboard/);
    const b64 = Buffer.from("copy me please ✓", "utf8").toString("base64");
    expect(a.raw()).toContain(`\x1b]52;c;${b64}\x07`);
  }, 60_000);

  it("e edits a sent message and forks: the later turns leave the model's context, the log keeps them", async () => {
    const { a, env } = await open([{ text: "reply one" }, { text: "reply two" }, { text: "reply three" }]);
    await a.submit("first msg");
    await a.waitFor(/reply one/);
    await a.submit("second msg");
    await a.waitFor(/reply two/);
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    a.type("k");
    a.type("e");
    await a.waitFor(/editing message #\d+/);
    await a.waitFor(/› second msg/);
    a.keys("C-u");
    await a.submit("changed msg");
    await a.waitFor(/reply three/);
    await a.waitFor(/Edited message: the conversation goes on from before "second msg"; 2 later items left the model's context/);
    const dir = sessionDir(env);
    const state = readSession(dir)!.state;
    expect(state.history.map((h) => (h.role === "user" || h.role === "assistant" ? h.text : h.role))).toEqual(["first msg", "reply one", "changed msg", "reply three"]);
    expect(readFileSync(join(dir, "history.jsonl"), "utf8")).toContain("second msg");
  }, 60_000);

  it("e on a card that is not a message says what it edits", async () => {
    const { a } = await open([{ text: "reply one" }]);
    await a.submit("first msg");
    await a.waitFor(/reply one/);
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    a.type("e");
    await a.waitFor(/e edits a message you sent/);
  }, 60_000);

  it("Ctrl+E lists the recent errors", async () => {
    const { a } = await open([{ tool_calls: [{ name: "no_such_tool", arguments: {} }] }, { text: "moving on" }]);
    await a.submit("try it");
    await a.waitFor(/moving on/);
    a.keys("Escape");
    await a.waitFor(/ NORMAL /);
    a.keys("C-e");
    const panel = await a.waitFor(/Recent errors/);
    expect(panel).toMatch(/no_such_tool: ERROR: unknown tool 'no_such_tool'/);
    a.keys("Escape");
    await until(() => !a.screen().includes("Recent errors"));
  }, 60_000);
});

describe("background jobs", () => {
  it("a finished job is one JOB RESULT card: command, how it ended, the output's tail and the saved path", async () => {
    const command = "sleep 0.5; echo hello-from-job; echo second-line; exit 3";
    const { a } = await open(
      [{ tool_calls: [{ name: "shell", arguments: { command, description: "a short job", run_in_background: true } }] }, { text: "started it" }, { text: "saw it end" }],
      '[[permissions.rules]]\ntool = "shell"\naction = "allow"\n',
      ["--profile", "chord"],
    );
    await a.submit("run it");
    await a.waitFor(/started it/);
    const shown = await a.waitFor(/JOB RESULT #\d+ +j1 +exit 3/, 20_000);
    expect(shown).toContain("hello-from-job");
    expect(shown).toContain("second-line");
    expect(shown).toMatch(/full output: /);
    expect(shown).not.toMatch(/job j1 started/);
    expect(shown).not.toMatch(/job j1 exited with code/);
  }, 60_000);
});
