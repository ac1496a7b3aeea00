// Code mode end to end: the built yuj, the scripted model (or the local model
// server where the request itself is asserted), a real python3, real
// bubblewrap. A cell's functions go through yuj's dispatcher: each inner call
// leaves its own events (marked with the cell's call), meets the permission
// rules, and its text is what the function returns; the cell's printed text
// is the result. The whole-cell timeout kills the cell and what it started,
// with the sandbox on and off; a required sandbox that cannot start refuses
// the cell.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cell = (source: string) => ({ tool_calls: [{ name: "exec_cell", arguments: { source } }] });
const finish = { tool_calls: [{ name: "done", arguments: { message: "finished" } }] };

async function run(turns: unknown[], toml = "", setup: (cwd: string) => void = () => {}) {
  const cwd = tempDemoRepo();
  setup(cwd);
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns }));
  writeFileSync(join(cwd, "yuj.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ncode_mode = true\n${toml}`);
  const env = isolatedEnv();
  const res = await runCli(["code", "work", "--config", "yuj.toml", "--output", "jsonl"], { cwd, env, timeoutMs: 90_000 });
  const rows = res.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const results = rows.filter((r) => r.type === "tool_result");
  return { res, cwd, env, rows, cellResult: results.find((r) => r.name === "exec_cell"), inner: results.filter((r) => r.parentCallId !== undefined) };
}

/** Processes whose command line holds `marker`, from /proc. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").includes(marker)) found.push(Number(pid));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

describe("code mode", () => {
  it("replaces the catalogue with the three meta-tools, ask_user and done; secrets are redacted from inner and cell results", async () => {
    const key = "sk-test-key-for-the-local-server";
    const source = [
      "print('INNER', read('notes.txt'))",
      // What the function hands the program is already redacted, not only what the model gets.
      "print('INNER-SEES-KEY' if 'sk-test-key' in read('notes.txt') else 'INNER-REDACTED')",
      "print('OPENED', open('notes.txt').read())",
    ].join("\n");
    server = await startSseServer({ scenario: parseScenario({ turns: [cell(source), finish] }) });
    const cwd = tempDemoRepo();
    writeFileSync(join(cwd, "notes.txt"), `the key is ${key}\n`);
    writeFileSync(join(cwd, "yuj.toml"), "[tools]\ncode_mode = true\n");
    const env = isolatedEnv({ ANTHROPIC_API_KEY: key });
    const res = await runCli(["code", "hi", "--config", "yuj.toml", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")], { cwd, env });
    expect(res.code, res.stderr).toBe(0);
    const posts = server.requests.filter((r) => r.method === "POST");
    const tools = (posts[0]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).toEqual(["list_functions", "get_function_details", "exec_cell", "ask_user", "done"]);
    // The cell's result as the model got it: both lines, the key hidden in each.
    const sent = JSON.stringify(posts[1]!.body.messages);
    expect(sent).toContain("INNER 1: the key is [REDACTED]");
    expect(sent).toContain("OPENED the key is [REDACTED]");
    expect(sent).toContain("INNER-REDACTED");
    expect(sent).not.toContain(key);
    expect(readFileSync(traceFiles(env)[0]!, "utf8")).not.toContain(key);
  }, 60_000);

  it("a cell calls read, grep, glob, list_definitions and bash through the dispatcher and prints the result", async () => {
    const source = [
      "print('READ', read('src/greet.js', limit=2))",
      "print('GREP', grep(pattern='Hello', path='src'))",
      "print('GLOB', glob(pattern='*.js', path='src'))",
      "print('DEFS', list_definitions(path='tool.py'))",
      "print('BASH', bash(cmd='echo from-bash; exit 3'))",
    ].join("\n");
    const turns = [
      { tool_calls: [{ name: "list_functions", arguments: {} }] },
      { tool_calls: [{ name: "get_function_details", arguments: { names: ["grep"] } }] },
      cell(source),
      finish,
    ];
    const pythonFile = (cwd: string) => writeFileSync(join(cwd, "tool.py"), "def shout(text):\n    return text.upper()\n");
    const { res, rows, cellResult, inner, env } = await run(turns, "", pythonFile);
    expect(res.code, res.stderr).toBe(0);
    const listed = rows.find((r) => r.type === "tool_result" && r.name === "list_functions");
    expect(listed.modelText.split("\n").slice(0, 5).map((l: string) => l.split(":")[0])).toEqual(["read", "grep", "glob", "list_definitions", "bash"]);
    const details = rows.find((r) => r.type === "tool_result" && r.name === "get_function_details");
    const [grepSchema] = JSON.parse(details.modelText);
    expect(grepSchema.name).toBe("grep");
    expect(Object.keys(grepSchema.parameters.properties)).toEqual(["pattern", "path", "glob", "page"]);

    expect(inner.map((r) => r.name)).toEqual(["read", "grep", "glob", "list_definitions", "bash"]);
    expect(new Set(inner.map((r) => r.parentCallId))).toEqual(new Set([cellResult.callId]));
    const text: string = cellResult.modelText;
    expect(cellResult.ok).toBe(true);
    expect(text).toContain("READ 1: // Greets a person by name.\n2: export function greet(name) {");
    expect(text).toMatch(/GREP <search_result tool="grep"[^\n]*\n\.\/src\/greet\.js:3:/);
    expect(text).toMatch(/GLOB <search_result tool="glob"[\s\S]*src\/greet\.js/);
    expect(text).toMatch(/DEFS [^\n]*\n?[\s\S]*def shout\(text\)/);
    expect(text).toMatch(/BASH from-bash\n\[exit code: 3\]/);
    // The trace holds the inner calls as rows of their own, under the cell's call.
    const trace = readFileSync(traceFiles(env)[0]!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const started = trace.filter((r) => r.type === "tool_call_started" && r.parentCallId === cellResult.callId);
    expect(started.map((r) => r.name)).toEqual(["read", "grep", "glob", "list_definitions", "bash"]);
  }, 90_000);

  it("an inner call that needs approval pauses a headless run; approved, the cell runs again from its start", async () => {
    const source = "print('before')\nprint(bash(cmd='rm -rf build'))\nprint('after')";
    const setup = (cwd: string) => {
      mkdirSync(join(cwd, "build"));
      writeFileSync(join(cwd, "build", "out.js"), "x");
    };
    const asked = await run([cell(source), finish], "", setup);
    // Paused as for a call of the model's own: exit 3, the command that answers it, nothing removed.
    expect(asked.res.code, asked.res.stderr).toBe(3);
    expect(asked.res.stderr).toContain("yuj approve");
    expect(asked.rows.find((r) => r.type === "approval_requested")).toMatchObject({ tool: "bash" });
    expect(asked.rows.find((r) => r.type === "run_finished").reason).toBe("approval_required");
    expect(asked.cellResult).toBeUndefined();
    expect(existsSync(join(asked.cwd, "build", "out.js"))).toBe(true);

    const approved = await runCli(["approve"], { cwd: asked.cwd, env: asked.env });
    expect(approved.code, approved.stderr).toBe(0);
    const resumed = await runCli(["resume", "--output", "jsonl"], { cwd: asked.cwd, env: asked.env, timeoutMs: 90_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const rows = resumed.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const result = rows.find((r) => r.type === "tool_result" && r.name === "exec_cell");
    expect(result.ok).toBe(true);
    expect(result.modelText).toMatch(/^before\n[\s\S]*\nafter$/);
    // The recorded answer was the approval: nobody was asked again.
    expect(rows.find((r) => r.type === "approval_requested")).toBeUndefined();
    expect(existsSync(join(asked.cwd, "build"))).toBe(false);
  }, 90_000);

  it("rejected, the inner call gets the refusal and the cell goes on; a rule that allows it never pauses", async () => {
    const source = "print(bash(cmd='rm -rf build'))\nprint('after')";
    const setup = (cwd: string) => {
      mkdirSync(join(cwd, "build"));
      writeFileSync(join(cwd, "build", "out.js"), "x");
    };
    const asked = await run([cell(source), finish], "", setup);
    expect(asked.res.code, asked.res.stderr).toBe(3);
    expect((await runCli(["reject", "--message", "keep the build"], { cwd: asked.cwd, env: asked.env })).code).toBe(0);
    const resumed = await runCli(["resume", "--output", "jsonl"], { cwd: asked.cwd, env: asked.env, timeoutMs: 90_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const rows = resumed.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const text: string = rows.find((r) => r.type === "tool_result" && r.name === "exec_cell").modelText;
    expect(text).toContain("keep the build");
    expect(text).toMatch(/\nafter$/);
    expect(existsSync(join(asked.cwd, "build", "out.js"))).toBe(true);

    const allowed = await run([cell(source), finish], '[[permissions.rules]]\ntool = "bash"\npattern = "rm -rf build"\naction = "allow"\n', setup);
    expect(allowed.res.code, allowed.res.stderr).toBe(0);
    expect(allowed.rows.find((r) => r.type === "approval_requested")).toBeUndefined();
    expect(existsSync(join(allowed.cwd, "build"))).toBe(false);
  }, 90_000);

  it("a replay runs the cell again, its calls through the dispatcher, and sends the same requests", async () => {
    const source = "print(read('src/greet.js', limit=1))\nprint(bash(cmd='echo replayed'))";
    const { res, env, cwd } = await run([cell(source), finish], "", (dir) => execFileSync("git", ["init", "-q"], { cwd: dir }));
    expect(res.code, res.stderr).toBe(0);
    const [id] = readdirSync(join(env.XDG_STATE_HOME!, "yuj", "sessions"));
    const replay = await runCli(["replay", id!], { cwd, env, timeoutMs: 60_000 });
    expect(replay.stdout, replay.stderr).toContain(`replay of ${id}: 2 requests, no difference`);
    expect(replay.code).toBe(0);
  }, 90_000);

  it("says what is missing when the commands' PATH has no python3", async () => {
    const { res, cellResult } = await run([cell("print(1)"), finish], '[shell_env]\nset = { PATH = "/nonexistent" }\n');
    expect(res.code, res.stderr).toBe(0);
    expect(cellResult.ok).toBe(false);
    expect(cellResult.modelText).toMatch(/^ERROR: code cells need python3 on PATH/);
  }, 60_000);

  it("refuses background commands inside a cell", async () => {
    const { cellResult } = await run([cell("print(bash(cmd='sleep 1', background=True))"), finish], "background_enabled = true\n");
    expect(cellResult.modelText).toContain("ERROR: background commands are not available inside a cell");
  }, 60_000);

  it.each(["off", "on"])("with the sandbox %s, the whole-cell timeout kills the cell, a process it started and an inner command", async (mode) => {
    const marker = `313.${randomBytes(3).readUIntBE(0, 3)}`;
    const inner = `314.${randomBytes(3).readUIntBE(0, 3)}`;
    const source = [
      "import subprocess, sys",
      `subprocess.Popen(['sleep', '${marker}'])`,
      "print('started', flush=True)",
      `bash(cmd='sleep ${inner}')`,
      "print('never')",
    ].join("\n");
    const started = Date.now();
    const { res, cellResult } = await run([cell(source), finish], `code_cell_timeout = 3\n[sandbox]\nmode = "${mode}"\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(cellResult.ok).toBe(false);
    expect(cellResult.modelText).toMatch(/^started\nERROR: cell timed out after 3 seconds /);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect(processesWith(`sleep ${inner}`)).toEqual([]);
  }, 90_000);

  it("runs the cell inside the sandbox when it is on, as the user when it is off, and refuses it when a required sandbox cannot start", async () => {
    // Outside the project: the sandbox gives the cell a /tmp of its own, so the host never sees the file.
    const source = (file: string) => `open(${JSON.stringify(file)}, 'w').write('x')\nprint('wrote')`;
    const outside = (cwd: string) => join(dirname(cwd), `yuj-cell-${randomBytes(4).toString("hex")}`);

    const off = await runPlanned("off", outside, source);
    expect(off.result.modelText).toBe("wrote");
    expect(existsSync(off.file)).toBe(true);

    const on = await runPlanned("on", outside, source);
    expect(on.result.modelText).toBe("wrote");
    expect(existsSync(on.file)).toBe(false);

    const broken = await runPlanned("on", (cwd) => join(cwd, "made-by-cell"), source, 'bwrap_bin = "/nonexistent/bwrap"\n');
    expect(broken.result.ok).toBe(false);
    expect(broken.result.modelText).toMatch(/sandbox unavailable: .*the command was not run/);
    expect(existsSync(broken.file)).toBe(false);
  }, 90_000);
});

async function runPlanned(mode: string, where: (cwd: string) => string, source: (file: string) => string, tools = "") {
  const cwd = tempDemoRepo();
  const file = where(cwd);
  writeFileSync(join(cwd, "scenario.json"), JSON.stringify({ turns: [cell(source(file)), finish] }));
  writeFileSync(join(cwd, "yuj.toml"), `[provider]\nname = "scripted"\nscenario = "scenario.json"\n[tools]\ncode_mode = true\n${tools}[sandbox]\nmode = "${mode}"\n`);
  const res = await runCli(["code", "work", "--config", "yuj.toml", "--output", "jsonl"], { cwd, env: isolatedEnv(), timeoutMs: 90_000 });
  expect(res.code, res.stderr).toBe(0);
  const rows = res.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  return { file, result: rows.find((r) => r.type === "tool_result" && r.name === "exec_cell") };
}
