// The other `yuj` commands, run as a user runs them.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("yuj", () => {
  it("--version prints the package version", async () => {
    const res = await runCli(["--version"], { cwd: repoRoot, env: isolatedEnv() });
    expect(res).toEqual({ code: 0, stdout: `yuj ${pkg.version}\n`, stderr: "" });
  });

  it("--help lists the commands", async () => {
    const res = await runCli(["--help"], { cwd: repoRoot, env: isolatedEnv() });
    expect(res.code).toBe(0);
    for (const c of ["yuj code", "yuj tool", "yuj setup", "yuj models", "yuj doctor", "--output text|jsonl"]) expect(res.stdout).toContain(c);
  });

  it("with no provider and no key runs the labelled offline demo", async () => {
    const env = isolatedEnv();
    const res = await runCli([], { cwd: tempDemoRepo(), env });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("DEMO MODEL (scripted, offline)");
    expect(res.stdout).toContain("all tests passed");
    expect(res.stdout).toContain("✓ done");
    expect(res.stdout).toContain("To connect a real model:");
    const demoRepo = /Demo repository: (.+)\n/.exec(res.stdout)![1]!;
    expect(readFileSync(join(demoRepo, "src/greet.js"), "utf8")).toContain("${name}!");
  });
});

describe("yuj tool", () => {
  it("prints the model-visible result and exits 0", async () => {
    const cwd = tempDemoRepo();
    const res = await runCli(["tool", "read", '{"path":"src/greet.js","limit":2}'], { cwd, env: isolatedEnv() });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^1: \/\/ Greets a person by name\.\n2: export function greet\(name\) \{\n/);
  });

  it("exits 1 when the tool returns an error", async () => {
    const res = await runCli(["tool", "read", '{"path":"missing.js"}'], { cwd: tempDemoRepo(), env: isolatedEnv() });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^ERROR: file not found: missing\.js/);
  });

  it("exits 1 with the validation error for bad arguments", async () => {
    const res = await runCli(["tool", "read", '{"path":1}'], { cwd: tempDemoRepo(), env: isolatedEnv() });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("ERROR: bad arguments for read: path: expected string, got integer\n");
  });

  it("exits 2 for an unknown tool or no tool name", async () => {
    const env = isolatedEnv();
    const unknown = await runCli(["tool", "frob", "{}"], { cwd: tempDemoRepo(), env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown tool "frob" in profile _base; available: bash, read/);
    const none = await runCli(["tool"], { cwd: tempDemoRepo(), env });
    expect(none.code).toBe(2);
  });

  it("keeps secret-looking variables from commands, and hides their values from tool results and the trace", async () => {
    const env = isolatedEnv({ DEPLOY_TOKEN: "tok-3f9a8b7c6d5e4f30" });
    const cwd = tempDemoRepo();
    // The value can still reach a command another way, as a file here.
    writeFileSync(join(cwd, "deploy.cfg"), "token = tok-3f9a8b7c6d5e4f30\n");
    const res = await runCli(["tool", "bash", '{"cmd":"echo token=$DEPLOY_TOKEN; cat deploy.cfg"}'], { cwd, env });
    expect(res.stdout).toBe("token=\ntoken = [REDACTED]\n");
    const [trace] = traceFiles(env);
    expect(readFileSync(trace!, "utf8")).not.toContain("tok-3f9a8b7c6d5e4f30");
  });

  it("runs bash through the dispatcher", async () => {
    const env = isolatedEnv();
    const res = await runCli(["tool", "bash", '{"cmd":"echo hi; exit 3"}'], { cwd: tempDemoRepo(), env });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("hi\n[exit code: 3]\n");
    expect(traceFiles(env)).toHaveLength(1);
  });
});

describe("yuj setup, models, doctor", () => {
  it("setup writes the user config, and the next run uses it", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "Hello from the server." }] }), models: ["alpha", "beta"] });
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-setup-test-123456" });
    const cwd = tempDemoRepo();
    const setup = await runCli(["setup", "--provider", "openai-chat", "--model", "beta", "--base-url", server.baseUrlFor("openai-chat")], { cwd, env });
    expect(setup.code).toBe(0);
    const file = join(env.XDG_CONFIG_HOME!, "yuj", "config.toml");
    expect(parse(readFileSync(file, "utf8"))).toEqual({
      provider: { name: "openai-chat", model: "beta", base_url: server.baseUrlFor("openai-chat") },
    });

    const models = await runCli(["models"], { cwd, env });
    expect(models.code).toBe(0);
    expect(models.stdout).toBe("alpha\nbeta  (configured)\n");

    const run = await runCli(["code", "say hello"], { cwd, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hello from the server.");

    const doctor = await runCli(["doctor"], { cwd, env });
    expect(doctor.stdout).toMatch(/\[ok  \] provider: openai-chat beta reachable \(2 models listed\)/);
    expect(doctor.stdout).toMatch(/\[(ok  |warn)\] ripgrep: /);
    expect(doctor.stdout).toMatch(/\[(ok  |warn)\] bubblewrap: /);
    expect(doctor.code).toBe(0);
  });

  it("setup without --model is a usage error", async () => {
    const res = await runCli(["setup", "--provider", "anthropic"], { cwd: tempDemoRepo(), env: isolatedEnv() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("yuj setup needs --provider and --model");
  });
});
