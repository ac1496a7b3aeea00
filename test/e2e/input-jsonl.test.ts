// `yuj code --input jsonl`: a script is the session's operator. It reads the
// events from stdout as they come and writes operations to stdin — approve,
// reject with a message, answer the model's question, cancel, send another
// message — against a real local server speaking the OpenAI Chat wire
// format, the built bundle, and real commands in a real repository.

import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startJsonlSession, type Event } from "../support/jsonl-session.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(turns: unknown[]) {
  server = await startSseServer({ scenario: parseScenario({ turns }) });
  const cwd = tempDemoRepo();
  mkdirSync(join(cwd, "build"));
  writeFileSync(join(cwd, "build", "out.js"), "x");
  writeFileSync(join(cwd, "important.txt"), "keep me");
  const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-not-a-key" });
  const provider = ["--provider", "openai-chat", "--model", "test-model", "--base-url", server.baseUrlFor("openai-chat")];
  return { cwd, env, provider };
}

const bash = (cmd: string) => ({ tool_calls: [{ name: "bash", arguments: { cmd } }] });
const done = (message: string) => ({ tool_calls: [{ name: "done", arguments: { message } }] });
const is = (type: string, fields: Record<string, unknown> = {}) => (e: Event) =>
  e.type === type && Object.entries(fields).every(([k, v]) => e[k] === v);

function stateOf(env: Record<string, string>) {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const [id] = readdirSync(root).filter((d) => !d.startsWith("."));
  return JSON.parse(readFileSync(join(root, id!, "state.json"), "utf8"));
}

describe("yuj code --input jsonl", () => {
  it("approves, answers, rejects with a message, takes a second message, and skips bad lines saying why", async () => {
    const { cwd, env, provider } = await setup([
      bash("rm -rf build"),
      { tool_calls: [{ name: "ask_user", arguments: { question: "Which port should the server use?" } }] },
      bash("rm -f important.txt"),
      { text: "Cleaned up; important.txt stays." },
      { tool_calls: [{ name: "write", arguments: { path: "note.txt", content: "port 8080\n" } }] },
      done("noted"),
    ]);
    const s = startJsonlSession(["code", "clean up", ...provider, "--input", "jsonl", "--output", "jsonl"], { cwd, env });

    const ask = await s.waitFor(is("approval_requested", { summary: "bash: rm -rf build" }), "the first ask");
    expect(existsSync(join(cwd, "build"))).toBe(true);
    s.send("this is not json");
    s.send({ type: "approve" } as never);
    s.send('{"type":"approval_answer","decision":"allow_once","scope":"session"}');
    s.send(`{"type":"user_message","text":"${"x".repeat(1024 * 1024 + 10)}"}`);
    await s.waitFor((e) => e.type === "error" && /^stdin line 4: /.test(e.message), "the problem with line 4");
    s.send({ type: "approval_answer", callId: ask.callId, decision: "allow_once" });

    const question = await s.waitFor(is("question_asked"), "the question");
    expect(question.question).toBe("Which port should the server use?");
    expect(existsSync(join(cwd, "build"))).toBe(false);
    s.send({ type: "question_answer", answer: "8080" });

    await s.waitFor(is("approval_requested", { summary: "bash: rm -f important.txt" }), "the second ask");
    s.send({ type: "approval_answer", decision: "reject_with_message", message: "keep important.txt" });
    const first = await s.waitFor(is("run_finished"), "the end of the first run");
    expect(first).toMatchObject({ reason: "answered", message: "Cleaned up; important.txt stays." });
    // Reported only once saved: the session says so the moment the event is read.
    expect(stateOf(env)).toMatchObject({ status: "done", lastReason: "answered", lastMessage: "Cleaned up; important.txt stays." });

    s.send({ type: "user_message", text: "write the port down" });
    const second = await s.waitFor(is("run_finished"), "the end of the second run", s.events.indexOf(first) + 1);
    expect(second).toMatchObject({ reason: "done", message: "noted" });
    s.end();
    const res = await s.done;
    expect(res.code).toBe(0);
    expect(res.schemaProblems).toEqual([]);

    const problems = s.events.filter((e) => e.type === "error").map((e) => [e.code, e.message]);
    expect(problems).toEqual([
      ["bad_operation", expect.stringMatching(/^stdin line 1: not JSON \(.*\); each line must be one JSON object such as \{"type":"cancel"\}$/)],
      ["bad_operation", 'stdin line 2: unknown operation (type "approve"); the types are user_message, approval_answer, question_answer, cancel, kill_job, switch_model, compact, set_main_role, set_yolo, rename_session, edit_message, set_mcp_server, set_loop, loop_answer, list_rules, remove_rule'],
      ["bad_operation", "stdin line 3: approval_answer: scope goes only with allow_always, not allow_once"],
      ["bad_operation", "stdin line 4: longer than 1048576 bytes; skipped (one operation is one line of JSON)"],
    ]);
    const results = s.events.filter((e) => e.type === "tool_result").map((e) => [e.name, e.ok, e.modelText]);
    expect(results).toEqual([
      ["bash", true, expect.any(String)],
      ["ask_user", true, "The operator answered: 8080"],
      ["bash", false, "ERROR: the user rejected this call (bash: rm -f important.txt): keep important.txt"],
      ["write", true, expect.any(String)],
      ["done", true, expect.any(String)],
    ]);
    expect(readFileSync(join(cwd, "important.txt"), "utf8")).toBe("keep me");
    expect(readFileSync(join(cwd, "note.txt"), "utf8")).toBe("port 8080\n");
    // The model saw the answer and the rejection as the calls' results.
    const last = server!.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    expect(JSON.stringify(last)).toContain("The operator answered: 8080");
    expect(stateOf(env)).toMatchObject({ status: "done", lastReason: "done", lastMessage: "noted", question: { answer: "8080", delivered: true } });
  });

  it("cancels the running turn and goes on with the next message", async () => {
    const { cwd, env, provider } = await setup([bash("sleep 30"), done("after the cancel")]);
    const s = startJsonlSession(["code", "wait", ...provider, "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    const job = await s.waitFor(is("job_started"), "the command");
    s.send({ type: "cancel" });
    await s.waitFor(is("run_finished", { reason: "cancelled" }), "the cancelled run");
    await s.waitFor(is("job_exited", { jobId: job.jobId }), "the command's end");
    expect(stateOf(env)).toMatchObject({ status: "paused", lastReason: "cancelled" });
    s.send({ type: "user_message", text: "go on" });
    await s.waitFor(is("run_finished", { reason: "done" }), "the second run");
    s.end();
    const res = await s.done;
    expect(res.code).toBe(0);
    expect(res.schemaProblems).toEqual([]);
    const result = s.events.find(is("tool_result", { name: "bash" }))!;
    expect(result.cancelled).toBe(true);
    expect(stateOf(env)).toMatchObject({ status: "done", lastMessage: "after the cancel" });
  });

  it("pauses as a run without input does when stdin closes while an ask waits; yuj resume --input jsonl asks again", async () => {
    const { cwd, env, provider } = await setup([bash("rm -rf build"), done("cleaned")]);
    const s = startJsonlSession(["code", "clean", ...provider, "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    await s.waitFor(is("approval_requested"), "the ask");
    s.end();
    const paused = await s.done;
    expect(paused.code).toBe(3);
    expect(paused.stderr).toMatch(/^yuj: approval required \(session [\w-]+\): bash: rm -rf build\n/);
    expect(stateOf(env)).toMatchObject({ status: "approval_required", pending: { request: { summary: "bash: rm -rf build" } } });
    expect(existsSync(join(cwd, "build"))).toBe(true);

    // Without input the session still waits for yuj approve; with it, the call asks again.
    const refused = await runCli(["resume"], { cwd, env });
    expect(refused.code).toBe(2);
    const r = startJsonlSession(["resume", "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    await r.waitFor(is("approval_requested", { summary: "bash: rm -rf build" }), "the ask again");
    r.send({ type: "approval_answer", decision: "allow_always", scope: "project" });
    await r.waitFor(is("run_finished", { reason: "done" }), "the end");
    r.end();
    const res = await r.done;
    expect(res.code).toBe(0);
    expect(res.schemaProblems).toEqual([]);
    expect(existsSync(join(cwd, "build"))).toBe(false);
    expect(readFileSync(join(cwd, ".yuj", "config.toml"), "utf8")).toContain('pattern = "rm -rf build"');
  });

  it("saves the question that waits when stdin closes (exit 4); yuj answer --input jsonl goes on with an operator", async () => {
    const { cwd, env, provider } = await setup([
      { tool_calls: [{ name: "ask_user", arguments: { question: "Which port?" } }] },
      bash("rm -rf build"),
      done("configured"),
    ]);
    const s = startJsonlSession(["code", "configure", ...provider, "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    await s.waitFor(is("question_asked"), "the question");
    s.end();
    const paused = await s.done;
    expect(paused.code).toBe(4);
    expect(paused.stderr).toContain("yuj: input required");
    expect(stateOf(env)).toMatchObject({ status: "input_required", question: { question: "Which port?" } });

    const a = startJsonlSession(["answer", "9090", "--input", "jsonl", "--output", "jsonl"], { cwd, env });
    await a.waitFor(is("approval_requested"), "the ask after the answer");
    a.send({ type: "approval_answer", decision: "allow_once" });
    await a.waitFor(is("run_finished", { reason: "done" }), "the end");
    a.end();
    const res = await a.done;
    expect(res.code).toBe(0);
    expect(a.events.find(is("tool_result", { name: "ask_user" }))?.modelText).toBe("The operator answered: 9090");
  });

  it("with the text transcript, shows what waits and the call to name; with stdin closed at once it runs as without input", async () => {
    const { cwd, env, provider } = await setup([bash("rm -rf build"), done("cleaned")]);
    const s = startJsonlSession(["code", "clean", ...provider, "--input", "jsonl"], { cwd, env, text: true });
    const shown = await s.waitForText(/answer on stdin: .*\n/, "the ask");
    expect(shown).toContain("⏸ approval required (call call_0_0): bash: rm -rf build");
    expect(shown).toContain('answer on stdin: {"type":"approval_answer","callId":"call_0_0","decision":"allow_once"}');
    s.send({ type: "approval_answer", callId: "call_0_0", decision: "allow_once" });
    await s.waitForText(/✓ done: cleaned/, "the end");
    s.end();
    expect((await s.done).code).toBe(0);

    // Nothing on stdin: the ask pauses as it does without --input, with the same words.
    const again = await setup([bash("rm -rf build"), done("cleaned")]);
    const closed = await runCli(["code", "clean", ...again.provider, "--input", "jsonl"], { cwd: again.cwd, env: again.env });
    expect(closed.code).toBe(3);
    expect(closed.stdout).not.toContain("answer on stdin");
    expect(closed.stderr).toMatch(/^yuj: approval required \(session [\w-]+\): bash: rm -rf build\n/);
  });

  it("is refused where no run reads it", async () => {
    const { cwd, env } = await setup([done("x")]);
    const res = await runCli(["sessions", "--input", "jsonl"], { cwd, env });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("yuj: --input jsonl goes with yuj code, yuj resume and yuj answer (operations for the run on stdin)\n");
    const wrong = await runCli(["code", "x", "--input", "json"], { cwd, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('yuj: --input must be one of jsonl; got "json"\n');
  });
});
