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
});
