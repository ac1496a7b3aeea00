// Loop mode in a real terminal (tmux), against a local SSE server speaking
// the Anthropic API, on both tool surfaces: `/loop on TARGET` mounts `done`
// (on Chord only then), the status bar shows LOOP [↻], a run the model ends
// without done is followed by a continuation request, done's report waits
// for the user (V shows it whole in a scrollable viewer, n sends it back with
// a message, y confirms and ends the loop), the iteration limit stops the
// loop, and a report waiting when the TUI quits waits again after --resume.

import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import { startTui, type TmuxApp } from "../support/tmux.js";

let apps: TmuxApp[] = [];
let server: SseServer | undefined;
afterEach(async () => {
  for (const a of apps) a.kill();
  apps = [];
  await server?.close();
  server = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A project whose model is the SSE server playing `turns`; `config` goes into its .yuj/config.toml. */
async function project(turns: unknown[], config = "") {
  server = await startSseServer({ scenario: parseScenario({ turns }) });
  const cwd = tempDemoRepo();
  mkdirSync(join(cwd, ".yuj"), { recursive: true });
  writeFileSync(join(cwd, ".yuj/config.toml"), config);
  const env: Record<string, string> = { ...isolatedEnv(), TERM: "xterm-256color", ANTHROPIC_API_KEY: "sk-test-000000000" };
  return { cwd, env, args: ["--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")] };
}

async function open(p: { cwd: string; env: Record<string, string>; args: string[] }, extra: string[] = []): Promise<TmuxApp> {
  const a = startTui({ cwd: p.cwd, env: p.env, args: [...p.args, ...extra], columns: 150, rows: 40 });
  apps.push(a);
  await a.waitFor(/INSERT/, 15_000);
  return a;
}

/** The model requests the server took (the models list is not one). */
const modelRequests = () => server!.requests.filter((r) => r.method === "POST");
const toolsOf = (i: number): string[] => (modelRequests()[i]?.body?.tools ?? []).map((t: { name: string }) => t.name);
/** The text of the last user message of request `i`. */
function lastUserText(i: number): string {
  const messages = modelRequests()[i]!.body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  const last = [...messages].reverse().find((m) => m.role === "user")!;
  return typeof last.content === "string" ? last.content : last.content.map((c) => c.text ?? "").join("");
}

async function until(ok: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await sleep(50);
  }
}

/** The status bar: the screen's last non-empty line. */
const statusBar = (a: TmuxApp) => a.screen().trimEnd().split("\n").at(-1) ?? "";

const LONG_REPORT = ["# Loop report", "", "- **tests** pass now", "- `npm test` was run", "", ...Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the details.`), "", "THE LAST LINE"].join("\n");

describe.each([
  ["_base", "message"],
  ["chord", "report"],
] as const)("loop mode on the %s surface", (profile, reportField) => {
  it("/loop on TARGET continues until done; the report is viewed, sent back, then confirmed", async () => {
    const done = (report: string) => ({ tool_calls: [{ name: "done", arguments: { [reportField]: report } }] });
    const p = await project([
      { text: "a plain answer" },
      { text: "did the first part" },
      done(LONG_REPORT),
      done("second report: docs updated too"),
      { text: "after the loop" },
    ]);
    const a = await open(p, ["--profile", profile]);
    await a.submit("hello");
    await a.waitFor("a plain answer");
    // Yuj's done is always there; Chord's only while a loop runs.
    expect(toolsOf(0).includes("done")).toBe(profile === "_base");
    expect(statusBar(a)).not.toContain("LOOP");

    await a.submit("/loop on make the tests pass");
    // The model ends its first run without done ("did the first part", which
    // the long report then scrolls away): the loop goes on by itself.
    await a.waitFor(/LOOP DONE · iteration 2 of 10/);
    expect(lastUserText(1)).toBe("make the tests pass");
    expect(toolsOf(1)).toContain("done");
    expect(modelRequests()).toHaveLength(3);
    expect(lastUserText(2)).toMatch(/^\[loop iteration 2 of 10\] Keep working\. The target: make the tests pass/);
    expect(statusBar(a)).toMatch(/LOOP \[↻\] 2\/10/);
    await a.waitFor(/\[y\/A\] confirm/);

    // V: the whole report, as Markdown, scrolled with the keys; q closes it.
    a.type("V");
    const viewer = await a.waitFor(/Loop report · iteration 2 of 10 · lines 1-/);
    expect(viewer).toContain("tests pass now");
    expect(viewer).not.toContain("**tests**");
    expect(viewer).not.toContain("THE LAST LINE");
    a.type("G");
    await a.waitFor("THE LAST LINE");
    a.type("q");
    await a.waitFor(/\[y\/A\] confirm/);
    expect(a.screen()).not.toMatch(/Loop report · iteration/);

    // n: sent back with a message, which is the next iteration's.
    a.type("n");
    await a.waitFor("What is still to do");
    await a.submit("also update the docs");
    await a.waitFor(/LOOP DONE · iteration 3 of 10/);
    expect(lastUserText(3)).toBe("also update the docs");
    await a.waitFor(/\[y\/A\] confirm/);
    a.type("y");
    await a.waitFor("Loop finished: the report was confirmed");
    await until(() => !statusBar(a).includes("LOOP"), "the status bar drops LOOP");

    // Out of the loop, runs end as before: nothing follows the answer.
    await a.submit("anything else?");
    await a.waitFor("after the loop");
    await sleep(500);
    expect(modelRequests()).toHaveLength(5);
    expect(toolsOf(4).includes("done")).toBe(profile === "_base");
  }, 90_000);
});

describe("loop mode limits and state", () => {
  it("stops at [loop].max_iterations without done", async () => {
    const p = await project([{ text: "first go" }, { text: "second go" }, { text: "never asked for" }], "[loop]\nmax_iterations = 2\n");
    const a = await open(p, ["--profile", "chord"]);
    await a.submit("/loop on tidy up");
    await a.waitFor(/Loop stopped after 2 iterations without done/);
    await until(() => !statusBar(a).includes("LOOP"), "the status bar drops LOOP");
    await sleep(500);
    expect(modelRequests()).toHaveLength(2);
    expect(a.screen()).not.toContain("never asked for");
  }, 60_000);

  it("/loop shows the state, /loop off ends it, a bad argument says what it takes", async () => {
    const p = await project([{ text: "ok" }]);
    const a = await open(p);
    await a.submit("/loop");
    await a.waitFor("loop off: /loop on [TARGET]");
    await a.submit("/loop maybe");
    await a.waitFor("/loop takes on [TARGET] or off, not maybe");
    await a.submit("/loop on");
    await a.waitFor(/LOOP \[↻\] 0\/10/);
    await a.submit("/loop");
    await a.waitFor("loop on: iteration 0 of 10");
    await a.submit("/loop off");
    await a.waitFor("Loop off: runs end as usual again.");
    await until(() => !statusBar(a).includes("LOOP"), "the status bar drops LOOP");
    expect(modelRequests()).toHaveLength(0);
  }, 60_000);

  it("a report waiting when the TUI quits waits again after --resume", async () => {
    const p = await project([{ tool_calls: [{ name: "done", arguments: { report: "all finished" } }] }, { text: "later" }]);
    const a = await open(p, ["--profile", "chord"]);
    await a.submit("/loop on ship it");
    await a.waitFor(/LOOP DONE · iteration 1 of 10/);
    a.keys("C-c", "C-c");
    await until(() => a.paneDead(), "the TUI quits");
    const root = join(p.env.XDG_STATE_HOME!, "yuj", "sessions");
    const [id] = readdirSync(root).filter((n) => !n.startsWith("."));
    const b = await open(p, ["--profile", "chord", "--resume", id!]);
    await b.waitFor(/LOOP DONE · iteration 1 of 10/);
    expect(statusBar(b)).toMatch(/LOOP \[↻\] 1\/10/);
    await b.waitFor(/\[y\/A\] confirm/);
    b.type("y");
    await b.waitFor("Loop finished: the report was confirmed");
    await until(() => !statusBar(b).includes("LOOP"), "the status bar drops LOOP");
  }, 60_000);
});
