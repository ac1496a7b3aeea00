// Sessions survive anything: the built yuj, driven against the local SSE
// server, is killed with SIGKILL at several points of a run and resumed each
// time; the ask_user cycle runs headless end to end; and every session
// command prints what it should, as text and as JSON.

import { readState } from "../../core/session-state.js";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, startCli, traceFiles, waitUntil } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Turn = { text?: string; tool_calls: Array<{ name: string; arguments: Record<string, unknown> }> };

async function setup(turns: Turn[]) {
  server = await startSseServer({ scenario: parseScenario({ turns }) });
  const cwd = tempDemoRepo();
  // Unsandboxed, so the commands write where the test looks; the orphan
  // reaper ends what a killed run leaves.
  writeFileSync(join(cwd, "yuj.toml"), '[sandbox]\nmode = "off"\n');
  const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-key-for-the-local-server" });
  const flags = ["--provider", "openai-chat", "--model", "test-model", "--base-url", server.baseUrlFor("openai-chat"), "--config", "yuj.toml"];
  return { cwd, env, flags, server };
}

/**
 * The shortest prefix of `id`, at least `min` characters, that starts no id
 * of `others`. Sessions started in the same second share their first 16
 * characters, and one pair in 36 the 17th too: a prefix cut at a fixed length
 * can name two sessions.
 */
function uniquePrefix(id: string, others: readonly string[], min = 10): string {
  for (let n = min; n < id.length; n++) if (!others.some((o) => o.startsWith(id.slice(0, n)))) return id.slice(0, n);
  return id;
}

/** A copy of session `from` under a new id that shares its first 17 characters with `like`. */
function plantNeighbour(env: Record<string, string>, from: string, like: string): string {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const id = `${like.slice(0, 17)}${like.slice(17) === "zzzzz" ? "yyyyy" : "zzzzz"}`;
  cpSync(join(root, from), join(root, id), { recursive: true });
  const metaFile = join(root, id, "session.json");
  writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, "utf8")), id }));
  return id;
}

/** Tool results per call id in an OpenAI Chat request body, and the ids the assistant messages hold. */
function resultsByCall(body: any): { calls: string[]; results: Map<string, string[]> } {
  const calls: string[] = [];
  const results = new Map<string, string[]>();
  for (const m of body.messages as any[]) {
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) calls.push(c.id);
    if (m.role === "tool") results.set(m.tool_call_id, [...(results.get(m.tool_call_id) ?? []), String(m.content)]);
  }
  return { calls, results };
}

/** Every tool call in the body has exactly one result. */
function expectValidHistory(body: any): Map<string, string[]> {
  const { calls, results } = resultsByCall(body);
  for (const id of calls) expect(results.get(id), `results of ${id}`).toHaveLength(1);
  expect([...results.keys()].sort()).toEqual([...calls].sort());
  return results;
}

function stateOf(env: Record<string, string>): any {
  const [trace] = traceFiles(env);
  // The conversation is in history.jsonl; readState puts it back in place.
  return readState(join(trace!, ".."));
}

function traceEvents(env: Record<string, string>): any[] {
  const [trace] = traceFiles(env);
  return readFileSync(trace!, "utf8").split("\n").filter((l) => l.trim()).flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return []; // a row torn by SIGKILL
    }
  });
}

async function statusJson(cwd: string, env: Record<string, string>): Promise<any> {
  const res = await runCli(["status", "--output", "json"], { cwd, env });
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

describe("a session killed with SIGKILL and resumed", () => {
  it("loses no completed step, repeats no side effect, and sends a valid history each time", async () => {
    const { cwd, env, flags, server } = await setup([
      { tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo run' >> marker.txt; sleep 30" } }] },
      { tool_calls: [{ name: "write", arguments: { path: "notes.txt", content: "written once\n" } }] },
      { text: "Now the second step.", tool_calls: [{ name: "bash", arguments: { cmd: "sh -c 'echo two' >> marker.txt" } }] },
      { tool_calls: [{ name: "done", arguments: { message: "all steps done" } }] },
    ]);
    const marker = join(cwd, "marker.txt");

    // 1. Mid-tool: the command has appended to the marker and sleeps.
    const first = startCli(["code", "do the steps", ...flags], { cwd, env });
    await waitUntil(() => existsSync(marker), "the bash call to touch the marker");
    first.child.kill("SIGKILL");
    await first.done;
    expect((await statusJson(cwd, env)).status).toBe("interrupted");
    const saved = stateOf(env);
    expect(saved.history.map((h: any) => h.role)).toEqual(["user", "assistant"]); // the call has no result yet

    // 2. After the write, with the next request received by the server (it never answers).
    server.faults.push({ none: true }, { hang: true });
    const second = startCli(["resume"], { cwd, env });
    await waitUntil(() => server.stalled() === 1, "the request after the write to arrive");
    second.child.kill("SIGKILL");
    await second.done;
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("written once\n");
    const afterWrite = expectValidHistory(server.requests.at(-1)!.body);
    expect(afterWrite.get("call_0_0")).toEqual([
      "ERROR: interrupted: yuj stopped before this call finished; check its effects before retrying",
    ]);
    expect(afterWrite.get("call_1_0")![0]).toMatch(/notes\.txt/);

    // 3. Mid-stream: part of the response has been sent, the rest never comes.
    server.faults.push({ stallAfterEvents: 4 });
    const third = startCli(["resume"], { cwd, env });
    await waitUntil(() => server.stalled() === 2, "the response to stall mid-stream");
    third.child.kill("SIGKILL");
    await third.done;
    expect(stateOf(env).status).toBe("running"); // stored as running, shown as interrupted
    expect((await statusJson(cwd, env)).next.command).toMatch(/^yuj resume \d{8}-\d{6}-[0-9a-z]{6}$/);

    // 4. The last resume runs to the end.
    const last = await runCli(["resume", "--output", "jsonl"], { cwd, env });
    expect(last.stderr).toBe("");
    expect(last.code).toBe(0);
    expect(last.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)).at(-1)).toMatchObject({
      type: "run_finished",
      reason: "done",
      message: "all steps done",
    });

    // No side effect twice: the first command ran once (and was not re-run), the second once.
    expect(readFileSync(marker, "utf8")).toBe("run\ntwo\n");
    const events = traceEvents(env);
    expect(events.filter((e) => e.type === "tool_result" && e.name === "write")).toHaveLength(1);
    // Every request the server got is a valid history; the final one holds every result once.
    for (const r of server.requests) expect(r.path).toBe("/v1/chat/completions");
    const final = expectValidHistory(server.requests.at(-1)!.body);
    expect([...final.keys()].sort()).toEqual(["call_0_0", "call_1_0", "call_2_0"]);
    // One session, one trace, its event numbers never reused across the four processes.
    expect(traceFiles(env)).toHaveLength(1);
    const seqs = events.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const store = stateOf(env);
    expect(store).toMatchObject({ version: 2, status: "done", lastReason: "done" });
    expect((await statusJson(cwd, env)).status).toBe("done");
  }, 90_000);
});

describe("ask_user headless", () => {
  const question = "Which database should the migration target?";
  const turns: Turn[] = [
    {
      tool_calls: [
        { name: "ask_user", arguments: { question } },
        { name: "bash", arguments: { cmd: "sh -c 'echo ran' >> after-question.txt" } },
      ],
    },
    { tool_calls: [{ name: "ask_user", arguments: { question: "And the schema?" } }] },
    { tool_calls: [{ name: "done", arguments: { message: "migrated" } }] },
  ];

  it("pauses with exit 4, shows the question and the command, and sends the answer once as the result", async () => {
    const { cwd, env, flags, server } = await setup(turns);
    const first = await runCli(["code", "migrate the user table", ...flags], { cwd, env });
    expect(first.code).toBe(4);
    const id = /session (\d{8}-\d{6}-[0-9a-z]{6})/.exec(first.stdout)![1]!;
    expect(first.stderr).toContain(`yuj: input required (session ${id}): the model asks:\n  | ${question}`);
    expect(first.stderr).toContain(`yuj answer ${id} "…"`);
    // No further request, and the call after the question was not run.
    expect(server.requests).toHaveLength(1);
    expect(existsSync(join(cwd, "after-question.txt"))).toBe(false);
    expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).toContain("ask_user");

    const status = await runCli(["status"], { cwd, env });
    expect(status.stdout).toContain(`status    input_required\n`);
    expect(status.stdout).toContain(`question  ${question}\n`);
    expect(status.stdout).toContain(`run       yuj answer ${id} "…"\n`);
    const json = await statusJson(cwd, env);
    expect(json).toMatchObject({ id, status: "input_required", question: { question, delivered: false }, next: { command: `yuj answer ${id} "…"` } });
    const show = await runCli(["show", id.slice(0, 12)], { cwd, env });
    expect(show.stdout).toContain(`question  ${question}`);
    expect(show.stdout).toContain(`yuj answer ${id} "…"`);
    const sessions = await runCli(["sessions", "--output", "json"], { cwd, env });
    expect(JSON.parse(sessions.stdout)).toMatchObject([{ id, status: "input_required", question }]);

    const early = await runCli(["resume"], { cwd, env });
    expect(early.code).toBe(2);
    expect(early.stderr).toContain(`waits for the answer to: ${question}\nanswer with: yuj answer ${id} "…"`);

    const answered = await runCli(["answer", "Postgres 16", "--output", "jsonl"], { cwd, env });
    expect(answered.code).toBe(0);
    expect(answered.stderr).toBe(`yuj: answer recorded for session ${id}; continuing\n`);
    const events = answered.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "question_answered")).toMatchObject({ callId: "call_0_0", answer: "Postgres 16" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "done", message: "migrated" });

    // The answer reached the model once, as the question's result, in every later request.
    for (const r of server.requests.slice(1)) {
      const results = expectValidHistory(r.body);
      expect(results.get("call_0_0")).toEqual(["The operator answered: Postgres 16"]);
      expect(r.rawBody.split("Postgres 16").length - 1).toBe(1);
    }
    // A second question gets an error result, not a second pause.
    const last = expectValidHistory(server.requests.at(-1)!.body);
    expect(last.get("call_1_0")![0]).toMatch(/^ERROR: ask_user: this session has already asked its one clarification question/);
    expect(last.get("call_0_1")![0]).toMatch(/^ERROR: not run: the model asked the operator a question/);
    expect(existsSync(join(cwd, "after-question.txt"))).toBe(false);

    // Nothing left to answer, nothing sent twice on a later resume.
    const again = await runCli(["answer", "MySQL"], { cwd, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is waiting for an answer/);
    const more = await runCli(["resume", id, "now add an index"], { cwd, env });
    expect(more.code).toBe(0);
    expect(server.requests.at(-1)!.rawBody.split("Postgres 16").length - 1).toBe(1);
    expect((await statusJson(cwd, env)).question).toMatchObject({ answer: "Postgres 16", delivered: true });
  }, 60_000);

  it("is never offered in a measurement run", async () => {
    const { cwd, env, flags, server } = await setup([{ tool_calls: [{ name: "done", arguments: { message: "ok" } }] }]);
    const res = await runCli(["code", "measure me", "--measure", ...flags], { cwd, env });
    expect(res.code).toBe(0);
    expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).not.toContain("ask_user");
  });
});

describe("session commands", () => {
  it("list, pick and describe sessions as text and JSON", async () => {
    const { cwd, env, flags } = await setup([{ text: "All good.", tool_calls: [] }]);
    const none = await runCli(["sessions"], { cwd, env });
    expect(none.stdout).toMatch(/^No sessions yet \(they are kept under .*sessions\)\.\n$/);
    expect((await runCli(["current"], { cwd, env })).code).toBe(2);

    expect((await runCli(["code", "first task\nwith a second line", ...flags], { cwd, env })).code).toBe(0);
    expect((await runCli(["code", "second task", ...flags], { cwd, env })).code).toBe(0);
    const list = await runCli(["sessions"], { cwd, env });
    const lines = list.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +STATUS +UPDATED \(UTC\) +CWD +TASK$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^\\d{8}-\\d{6}-[0-9a-z]{6}  done +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ${cwd}  second task$`));
    expect(lines[2]).toMatch(/ first task$/);

    const json = JSON.parse((await runCli(["sessions", "--output", "json"], { cwd, env })).stdout);
    expect(json.map((s: any) => s.task)).toEqual(["second task", "first task"]);
    const newest = json[0].id as string;
    expect((await runCli(["current"], { cwd, env })).stdout).toBe(`${newest}\n`);
    expect(JSON.parse((await runCli(["current", "--output", "json"], { cwd, env })).stdout)).toMatchObject({ id: newest, status: "done", cwd });

    const status = await runCli(["status", json[1].id], { cwd, env });
    expect(status.stdout).toContain(`session  ${json[1].id}\nstatus   done\ncwd      ${cwd}\ntask     first task\n`);
    expect(status.stdout).toContain(`run      yuj resume ${json[1].id} "…"\n`);
    const show = JSON.parse((await runCli(["show", "--output", "json"], { cwd, env })).stdout);
    expect(show).toMatchObject({ id: newest, status: "done", settings: { provider: "openai-chat", model: "test-model" } });
    expect(show.recent).toEqual(["user: second task", "assistant: All good."]);
    const showText = await runCli(["show"], { cwd, env });
    expect(showText.stdout).toContain("recent activity:\n  user: second task\n  assistant: All good.\n");
    expect(showText.stdout).toMatch(/settings  provider openai-chat\n +model test-model\n/);

    // Unknown and ambiguous ids are errors that say so.
    const unknown = await runCli(["status", "19990101"], { cwd, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^yuj: no session 19990101 under .*; `yuj sessions` lists them\n$/);
    const ambiguous = await runCli(["show", newest.slice(0, 1)], { cwd, env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/is ambiguous: it starts 2 sessions .*; give more of it/);

    // A finished session continues only with a new message.
    const bare = await runCli(["resume", newest], { cwd, env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`session ${newest} is finished (done); to go on, give it a new message: yuj resume ${newest} "…"`);
    const more = await runCli(["resume", "and one more thing"], { cwd, env });
    expect(more.code).toBe(0);
    expect(more.stdout).toContain("> and one more thing");

    // The TUI's --resume needs a terminal, and says how to go on without one.
    // Its id is a prefix that names one session even beside a neighbour that
    // shares the first 17 characters (as two started in the same second may).
    const neighbour = plantNeighbour(env, json[1].id, newest);
    const prefix = uniquePrefix(newest, [json[1].id, neighbour]);
    expect(prefix.length).toBeGreaterThan(17);
    const tui = await runCli(["--resume", prefix], { cwd, env });
    expect(tui.code).toBe(2);
    expect(tui.stderr).toBe(`yuj: the TUI needs a terminal; continue session ${newest} headless with: yuj resume ${newest}\n`);

    const badOutput = await runCli(["code", "x", "--output", "json"], { cwd, env });
    expect(badOutput.code).toBe(2);
    expect((await runCli(["code", "x", "--resume", newest], { cwd, env })).stderr).toMatch(/--resume opens a session in the terminal UI/);
  }, 60_000);

  it("stops with an error the user sees when the state cannot be written", async () => {
    const state = isolatedEnv().XDG_STATE_HOME!; // a path of the test's own choosing
    // The command puts a directory where state.json goes: the rename over it fails.
    const sessions = join(state, "yuj", "sessions");
    const cmd = `for d in ${sessions}/*/; do rm -f "$d/state.json"; mkdir -p "$d/state.json/blocker"; done`;
    const { cwd, env, flags } = await setup([
      { tool_calls: [{ name: "bash", arguments: { cmd } }] },
      { tool_calls: [{ name: "done", arguments: {} }] },
    ]);
    env.XDG_STATE_HOME = state;
    const res = await runCli(["code", "remove the store", ...flags, "--yolo", "--output", "jsonl"], { cwd, env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^yuj: could not save the session to \S+state\.json: E[A-Z]+: /);
    expect(res.stderr).toContain("Free disk space or fix the directory's permissions");
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "state_write" });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "error" });
  });
});
