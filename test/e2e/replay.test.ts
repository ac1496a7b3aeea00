// `yuj replay`: a session recorded with the built yuj against the local SSE
// server (or the scripted model) runs again from its trace alone and sends
// the same requests; a tampered recording is reported at the request that
// differs; the source session and the user's repository are left as they were.

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScenario, parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, startCli, waitUntil } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const scenario = loadScenario(join(repoRoot, "fixtures/scenarios/four-step.json"));

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const GIT_ID = ["-c", "user.name=yuj test", "-c", "user.email=test@example.invalid"];

/** The demo repo under git: committed, then changed and given an untracked file, as a working repo is. */
function gitRepo(commit: boolean): string {
  const dir = tempDemoRepo();
  execFileSync("git", ["init", "-q"], { cwd: dir });
  if (commit) {
    execFileSync("git", ["add", "-A"], { cwd: dir });
    execFileSync("git", [...GIT_ID, "commit", "-q", "-m", "start"], { cwd: dir });
  }
  writeFileSync(join(dir, "NOTES.md"), "untracked notes\n");
  return dir;
}

/** sha256 of every file under `dir` by relative path (the .git dir included). */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

function sessionsRoot(env: Record<string, string>): string {
  return join(env.XDG_STATE_HOME!, "yuj", "sessions");
}

function sessionIds(env: Record<string, string>): string[] {
  return readdirSync(sessionsRoot(env)).sort();
}

/** A copy of a session under another id (its files say the new id too). */
function copySession(env: Record<string, string>, id: string, newId: string): string {
  const dir = join(sessionsRoot(env), newId);
  cpSync(join(sessionsRoot(env), id), dir, { recursive: true });
  for (const file of ["session.json", "state.json"]) {
    writeFileSync(join(dir, file), readFileSync(join(dir, file), "utf8").split(id).join(newId));
  }
  return dir;
}

/** Rewrites the trace rows of a session dir through `change`. */
function editTrace(dir: string, change: (row: any, index: { request: number }) => void): void {
  const file = join(dir, "trace.jsonl");
  const index = { request: 0 };
  const rows = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => {
    const row = JSON.parse(l);
    change(row, index);
    if (row.type === "provider_request") index.request++;
    return JSON.stringify(row);
  });
  writeFileSync(file, `${rows.join("\n")}\n`);
}

const KEY_VAR = { anthropic: "ANTHROPIC_API_KEY", "openai-chat": "OPENAI_API_KEY" } as const;

describe.each(["anthropic", "openai-chat"] as const)("yuj replay of a session recorded over %s", (provider) => {
  it("sends the same requests, changes neither the source session nor the repo, and finds a tampered request", async () => {
    server = await startSseServer({ scenario });
    const cwd = gitRepo(provider === "anthropic");
    const env = isolatedEnv({ [KEY_VAR[provider]]: "sk-test-key-for-the-local-server" });
    const recorded = await runCli(
      ["code", "Fix the greeting so the tests pass.", "--provider", provider, "--model", "test-model", "--base-url", server.baseUrlFor(provider)],
      { cwd, env },
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    const [id] = sessionIds(env);
    const sourceDir = join(sessionsRoot(env), id!);
    const trace = readFileSync(join(sourceDir, "trace.jsonl"), "utf8");
    expect(trace).toContain('"type":"workspace_snapshot"');
    await server.close();
    server = undefined; // the replay needs no server of the test's

    const repoBefore = hashTree(cwd);
    const sessionBefore = hashTree(sourceDir);
    const replay = await runCli(["replay", id!.slice(0, 18)], { cwd, env });
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain(`replay of ${id}: 4 requests, no difference`);
    expect(replay.code).toBe(0);
    expect(hashTree(cwd)).toEqual(repoBefore);
    expect(hashTree(sourceDir)).toEqual(sessionBefore);
    const ids = sessionIds(env);
    expect(ids).toHaveLength(2);
    const replayId = ids.find((x) => x !== id)!;
    expect(replay.stdout).toContain(`replayed as session ${replayId}`);
    // The replay ran the tools for real: its trace has the same four results.
    const replayRows = readFileSync(join(sessionsRoot(env), replayId, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(replayRows.filter((e) => e.type === "tool_result").map((e) => [e.name, e.ok])).toEqual([
      ["read", true], ["edit", true], ["bash", true], ["done", true],
    ]);

    // One byte of request 2 changed in a copy: the report names it and shows both sides.
    const copy = copySession(env, id!, "20000101-000000-tamper");
    editTrace(copy, (row, index) => {
      if (row.type === "provider_request" && index.request === 1) {
        row.body = row.body.replace("Hello", "Hellp");
      }
    });
    const tampered = await runCli(["replay", "20000101-000000-tamper"], { cwd, env });
    expect(tampered.code, tampered.stderr).toBe(1);
    expect(tampered.stdout, tampered.stderr).toMatch(/^replay of 20000101-000000-tamper: request 2 of 4 differs \(turn 1\), at character \d+\n/);
    expect(tampered.stdout).toMatch(/\n {2}recorded: .*Hellp/);
    expect(tampered.stdout).toMatch(/\n {2}replayed: .*Hello/);
    // Going on past it: the later requests are served and compared too, and only request 2 differs.
    const onwards = await runCli(["replay", "20000101-000000-tamper", "--allow-divergence"], { cwd, env });
    expect(onwards.code, onwards.stderr).toBe(1);
    expect(onwards.stdout.match(/request \d of 4 differs/g)).toEqual(["request 2 of 4 differs"]);
    expect(onwards.stdout).not.toMatch(/the replay made/);
    expect(hashTree(sourceDir)).toEqual(sessionBefore);
  });
});

describe("yuj replay of a session killed with SIGKILL and resumed", () => {
  // The kill-and-resume steps of test/e2e/sessions.test.ts, in a git work tree.
  it("stops each run where its process was killed, closes the killed call as the resume did, and sends the same requests", async () => {
    server = await startSseServer({
      scenario: parseScenario({
        turns: [
          { tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo run' >> marker.txt; sleep 30" } }] },
          { tool_calls: [{ name: "write", arguments: { path: "notes.txt", content: "written once\n" } }] },
          { text: "Now the second step.", tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo two' >> marker.txt" } }] },
          { tool_calls: [{ name: "done", arguments: { message: "all steps done" } }] },
        ],
      }),
    });
    const cwd = gitRepo(true);
    writeFileSync(join(cwd, "yuj.toml"), '[sandbox]\nmode = "off"\n');
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-key-for-the-local-server" });
    const flags = ["--provider", "openai-chat", "--model", "test-model", "--base-url", server.baseUrlFor("openai-chat"), "--config", "yuj.toml"];
    const marker = join(cwd, "marker.txt");

    // 1. Mid-tool: the command has appended to the marker and sleeps.
    const first = startCli(["code", "do the steps", ...flags], { cwd, env });
    await waitUntil(() => existsSync(marker), "the bash call to touch the marker");
    first.child.kill("SIGKILL");
    await first.done;
    // 2. After the write, with the next request received (it is never answered).
    server.faults.push({ none: true }, { hang: true });
    const second = startCli(["resume"], { cwd, env });
    await waitUntil(() => server!.stalled() === 1, "the request after the write to arrive");
    second.child.kill("SIGKILL");
    await second.done;
    // 3. Mid-stream: part of the response has been sent, the rest never comes.
    server.faults.push({ stallAfterEvents: 4 });
    const third = startCli(["resume"], { cwd, env });
    await waitUntil(() => server!.stalled() === 2, "the response to stall mid-stream");
    third.child.kill("SIGKILL");
    await third.done;
    // 4. The last resume runs to the end.
    const last = await runCli(["resume"], { cwd, env });
    expect(last.code, last.stderr).toBe(0);
    expect(server.requests).toHaveLength(6);
    await server.close();
    server = undefined;

    // The request killed before its response began is not in the trace; the one killed
    // mid-stream is when the SDK had parsed a first event (it depends on timing).
    const [id] = sessionIds(env);
    const made = readFileSync(join(sessionsRoot(env), id!, "trace.jsonl"), "utf8").split('"type":"provider_request"').length - 1;
    expect(made).toBeGreaterThanOrEqual(4);
    const replay = await runCli(["replay", id!], { cwd, env });
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toContain(`replay of ${id}: ${made} requests, no difference`);
    expect(replay.stdout).toMatch(/note: call call_0_0 \(bash\) was killed before it finished in the recording; the replay did not run it/);
    expect(replay.stdout).toMatch(/note: a request was in flight when a recorded process was killed, before any of its response came/);
    expect(existsSync(join(cwd, "notes.txt"))).toBe(true); // the original's, untouched by the replay
    expect(replay.code).toBe(0);
    // The killed call got the interrupted result without running; the others ran for real.
    const replayId = sessionIds(env).find((x) => x !== id)!;
    const rows = readFileSync(join(sessionsRoot(env), replayId, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(rows.filter((e) => e.type === "tool_result").map((e) => [e.callId, e.ok])).toEqual([
      ["call_0_0", false], ["call_1_0", true], ["call_2_0", true], ["call_3_0", true],
    ]);
    expect(rows.at(-1)).toMatchObject({ type: "run_finished", reason: "done" });
  }, 90_000);
});

describe("yuj replay of scripted sessions", () => {
  function scriptedRepo(turns: unknown[], git: boolean) {
    const cwd = git ? gitRepo(true) : tempDemoRepo();
    writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
    writeFileSync(join(cwd, "scripted.toml"), '[provider]\nname = "scripted"\nscenario = "scenario.json"\n');
    return { cwd, env: isolatedEnv() };
  }

  it("replays a scripted session, its approval decision included, with no difference", async () => {
    const { cwd, env } = scriptedRepo(
      [
        { tool_calls: [{ name: "read", arguments: { path: "src/greet.js" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "rm -f NOTES.md" } }] },
        { tool_calls: [{ name: "done", arguments: { message: "cleaned" } }] },
      ],
      true,
    );
    expect((await runCli(["code", "tidy up", "--config", "scripted.toml"], { cwd, env })).code).toBe(3);
    expect((await runCli(["approve"], { cwd, env })).code).toBe(0);
    const resumed = await runCli(["resume"], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const [id] = sessionIds(env);

    const replay = await runCli(["replay", id!], { cwd, env });
    expect(replay.stdout).toContain(`replay of ${id}: 3 requests, no difference`);
    expect(replay.code, replay.stderr).toBe(0);
    const replayId = sessionIds(env).find((x) => x !== id)!;
    const rows = readFileSync(join(sessionsRoot(env), replayId, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(rows.find((e) => e.type === "approval_resolved")).toMatchObject({ decision: "allow_once" });
  });

  it("refuses a session started outside git, saying why", async () => {
    const { cwd, env } = scriptedRepo([{ text: "nothing to do" }], false);
    expect((await runCli(["code", "look", "--config", "scripted.toml"], { cwd, env })).code).toBe(0);
    const [id] = sessionIds(env);
    const replay = await runCli(["replay", id!], { cwd, env });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/cannot be replayed: it has no workspace snapshot \(.* is not inside a git work tree\)/);
  });

  it("names an unknown session", async () => {
    const { cwd, env } = scriptedRepo([{ text: "x" }], false);
    const replay = await runCli(["replay", "19990101"], { cwd, env });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/no session 19990101/);
  });
});
