// Hooks through the built `yuj`, as a user configures them: real scripts
// (python3 and sh) at each kind of point, a model on a local SSE server, and
// what the hooks saw (their stdin, their environment) read back from files
// they wrote in the project.

import { mkdtempSync, readFileSync, realpathSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { startSseServer, type Fault, type SseServer } from "../support/sse-server.js";
import { noBwrap } from "../sandbox/support.js";
/** Debian's python3: a shim under HOME would not be reachable inside the sandbox. */
const python3 = "/usr/bin/python3";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Row {
  type: string;
  name?: string;
  modelText?: string;
  level?: string;
  text?: string;
  point?: string;
  hook?: string;
  ok?: boolean;
  action?: string;
  reason?: string;
  ignored?: string[];
}
const rows = (stdout: string): Row[] => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
const results = (stdout: string) => rows(stdout).filter((r) => r.type === "tool_result");

async function run(opts: { turns: unknown[]; toml: string; files?: Record<string, string>; faults?: Fault[]; env?: Record<string, string>; projectToml?: string }) {
  server = await startSseServer({ scenario: parseScenario({ turns: opts.turns }), faults: opts.faults ?? [] });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-hooks-e2e-")));
  writeFileSync(join(cwd, "yuj.toml"), opts.toml);
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(join(cwd, rel, ".."), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  if (opts.projectToml !== undefined) {
    mkdirSync(join(cwd, ".yuj"), { recursive: true });
    writeFileSync(join(cwd, ".yuj", "config.toml"), opts.projectToml);
  }
  const env = isolatedEnv({ ANTHROPIC_API_KEY: "sk-test", ...opts.env });
  const args = ["code", "go", "--config", "yuj.toml", "--output", "jsonl", "--yolo", "--provider", "anthropic", "--model", "m", "--base-url", server.baseUrlFor("anthropic")];
  const res = await runCli(args, { cwd, env, timeoutMs: 90_000 });
  const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.rawBody);
  return { res, cwd, bodies };
}

// Blocks any bash call that removes files; rewrites `echo original` to `echo rewritten`;
// writes what it was given to the project so the test can read it.
const GATE_PY = `
import json, os, sys
env = json.load(sys.stdin)
with open("seen.jsonl", "a") as f:
    f.write(json.dumps({"envelope": env, "vars": {k: v for k, v in os.environ.items() if k.startswith("YUJ_HOOK_")}}) + "\\n")
cmd = env["data"]["args"].get("cmd", "")
if "rm " in cmd:
    print(json.dumps({"action": "block", "message": "no deleting in this project"}))
elif "original" in cmd:
    print(json.dumps({"action": "modify", "data": {"args": dict(env["data"]["args"], cmd="echo rewritten")}}))
`;

describe("hooks in a headless run", () => {
  it("a sync on_tool_call hook (python3) blocks one call and rewrites another's arguments; it gets the envelope and YUJ_HOOK_* variables", async () => {
    const { res, cwd } = await run({
      turns: [
        { tool_calls: [{ name: "bash", arguments: { cmd: "rm -rf src" } }] },
        { tool_calls: [{ name: "bash", arguments: { cmd: "echo original" } }] },
        { text: "finished" },
      ],
      toml: `[[hooks.on_tool_call]]\nname = "gate"\ncommand = [${JSON.stringify(python3)}, "gate.py"]\ntools = ["bash"]\n`,
      files: { "gate.py": GATE_PY, "src/keep.txt": "kept" },
    });
    expect(res.code).toBe(0);
    const [blocked, rewritten] = results(res.stdout);
    expect(blocked?.modelText).toBe('ERROR: bash was blocked by hook "gate": no deleting in this project');
    expect(existsSync(join(cwd, "src", "keep.txt"))).toBe(true);
    expect(rewritten?.modelText).toContain("rewritten");
    expect(rewritten?.modelText).not.toContain("original");
    const seen = readFileSync(join(cwd, "seen.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(seen).toHaveLength(2);
    const first = seen[0];
    expect(first.envelope).toMatchObject({ point: "on_tool_call", agent_id: "main", agent_kind: "main", project_root: cwd, selected_model: "m", running_model: "m", data: { tool: "bash", args: { cmd: "rm -rf src" } } });
    expect(first.envelope.session_id).toMatch(/\S/);
    expect(first.vars).toMatchObject({ YUJ_HOOK_POINT: "on_tool_call", YUJ_HOOK_TOOL_NAME: "bash", YUJ_HOOK_AGENT_KIND: "main", YUJ_HOOK_TIMEOUT_MS: "30000", YUJ_HOOK_PROJECT_ROOT: cwd });
    expect(first.vars.YUJ_HOOK_SESSION_ID).toBe(first.envelope.session_id);
    expect(rows(res.stdout).filter((r) => r.type === "hook_ran").map((r) => r.action)).toEqual(["block", "modify"]);
  }, 120_000);

  it("an automation hook (sh) after a batch that changed a file fails, and its report reaches the model's next request; a batch that changed nothing is skipped", async () => {
    const { res, bodies } = await run({
      turns: [
        { tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { tool_calls: [{ name: "write", arguments: { path: "out.txt", content: "new\n" } }] },
        { text: "finished" },
      ],
      toml: [
        "[[hooks.on_tool_batch_complete]]",
        'name = "lint"',
        `shell = "cat > batch.json; echo 'lint: out.txt:1 trailing problem' >&2; exit 1"`,
        "min_changed_files = 1",
        'result = "append_on_failure"',
        "",
      ].join("\n"),
      files: { "notes.txt": "hello\n" },
    });
    expect(res.code).toBe(0);
    const ran = rows(res.stdout).filter((r) => r.type === "hook_ran");
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ point: "on_tool_batch_complete", hook: "lint", ok: false });
    // The request after the read has no report; the one after the write has it.
    expect(bodies[1]).not.toContain("trailing problem");
    expect(bodies[2]).toContain('hook \\"lint\\" (on_tool_batch_complete): failed');
    expect(bodies[2]).toContain("lint: out.txt:1 trailing problem");
    const notice = rows(res.stdout).find((r) => r.type === "notice" && r.text?.includes('"lint"'));
    expect(notice?.level).toBe("warning");
  }, 120_000);

  it("observer hooks: on_session_start and on_session_end run (the end waits for them), on_agent_error gets the error kind", async () => {
    const log = `echo "$YUJ_HOOK_POINT kind=$YUJ_HOOK_ERROR_KIND" >> points.log`;
    const toml = ["on_session_start", "on_session_end", "on_agent_error", "on_idle"]
      .map((p) => `[[hooks.${p}]]\nshell = ${JSON.stringify(`cat > /dev/null; ${p === "on_session_end" ? "sleep 1; " : ""}${log}`)}\n`)
      .join("");
    const { res, cwd } = await run({ turns: [{ text: "never reached" }], toml: `[provider]\nmax_retries = 0\n${toml}`, faults: [{ status: 400, message: "bad request from the test" }] });
    expect(res.code).not.toBe(0);
    const lines = readFileSync(join(cwd, "points.log"), "utf8").trim().split("\n").sort();
    expect(lines).toEqual(["on_agent_error kind=provider", "on_idle kind=", "on_session_end kind=", "on_session_start kind="]);
  }, 120_000);

  it("a hook that fails (non-zero exit, output that is not JSON) is reported and the call goes on as if it were not there", async () => {
    const { res } = await run({
      turns: [{ tool_calls: [{ name: "bash", arguments: { cmd: "echo still-ran" } }] }, { text: "finished" }],
      toml: `[[hooks.on_tool_call]]\nname = "chatty"\nshell = "cat > /dev/null; echo this is not json"\n[[hooks.on_tool_call]]\nname = "broken"\nshell = "exit 3"\n`,
    });
    expect(res.code).toBe(0);
    expect(results(res.stdout)[0]?.modelText).toContain("still-ran");
    const warnings = rows(res.stdout).filter((r) => r.type === "notice" && r.level === "warning").map((r) => r.text);
    expect(warnings).toContainEqual(expect.stringMatching(/^hook "chatty" \(on_tool_call\) failed: its output is not JSON/));
    expect(warnings).toContainEqual('hook "broken" (on_tool_call) failed: exit code 3; it is ignored and the run goes on');
  }, 120_000);

  it("a result hook rewrites what the model reads; a before-request hook blocks the next request and the run ends saying why", async () => {
    const { res, bodies } = await run({
      turns: [{ tool_calls: [{ name: "bash", arguments: { cmd: "echo secret-ish" } }] }, { text: "never" }],
      toml: [
        "[[hooks.on_before_tool_result_append]]",
        `shell = ${JSON.stringify(`cat > /dev/null; echo '{"action":"modify","data":{"result":"[redacted by policy]"}}'`)}`,
        "[[hooks.on_before_llm_call]]",
        `command = ["sh", "-c", ${JSON.stringify(`n=$(cat | sed 's/.*"turn":\\([0-9]*\\).*/\\1/'); if [ "$n" = 1 ]; then echo '{"action":"block","message":"budget spent"}'; fi`)}]`,
        "",
      ].join("\n"),
    });
    expect(results(res.stdout)[0]?.modelText).toBe("[redacted by policy]");
    expect(bodies).toHaveLength(1);
    const end = rows(res.stdout).find((r) => r.type === "run_finished");
    expect(end).toMatchObject({ reason: "error" });
    expect((end as { message?: string }).message).toBe('the model request was blocked by hook "on_before_llm_call[0]": budget spent');
  }, 120_000);

  it("hooks from an untrusted project config do not run, and the notice names them", async () => {
    const { res, cwd } = await run({
      turns: [{ tool_calls: [{ name: "bash", arguments: { cmd: "echo hi" } }] }, { text: "finished" }],
      toml: "",
      projectToml: `[[hooks.on_tool_call]]\nshell = "cat > /dev/null; touch planted-by-project"\n`,
    });
    expect(res.code).toBe(0);
    expect(existsSync(join(cwd, "planted-by-project"))).toBe(false);
    expect(rows(res.stdout).find((r) => r.type === "config_untrusted")?.ignored).toEqual(["hooks.on_tool_call"]);
  }, 120_000);

  it.skipIf(noBwrap)("a hook runs inside the sandbox with the commands' environment: no secret variable, no write outside the project", async () => {
    const marker = join(tmpdir(), `yuj-hook-escape-${process.pid}-${Date.now()}`);
    const { res, cwd } = await run({
      turns: [{ text: "finished" }],
      toml: `[sandbox]\nmode = "on"\n[[hooks.on_session_start]]\nshell = ${JSON.stringify(`cat > /dev/null; env > hook-env.txt; touch ${marker}`)}\n`,
      env: { MY_SERVICE_TOKEN: "tok-planted-123" },
    });
    expect(res.code).toBe(0);
    const seen = readFileSync(join(cwd, "hook-env.txt"), "utf8");
    expect(seen).toContain("YUJ_HOOK_POINT=on_session_start");
    expect(seen).not.toContain("tok-planted-123");
    expect(seen).not.toContain("sk-test");
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});
