// Tool arguments nested 100,000 levels deep, from a real local server in each
// wire format and through `yuj tool`: the call is refused with a clear tool
// error, the run goes on, and `yuj resume` of the stored session works (a
// stack overflow here would be stored with the session and fail every resume).

import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli, yujBin } from "../support/cli.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const DEPTH = 100_000;
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const REFUSAL =
  "ERROR: bad arguments for read: objects and arrays nest more than 64 levels deep; the call was not run. " +
  "Send the arguments as one JSON object nested at most 64 levels.";
const KEY_VAR = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", "openai-chat": "OPENAI_API_KEY" } as const;

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function project(): string {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-deep-"));
  writeFileSync(join(cwd, "a.txt"), "hello\n");
  return cwd;
}

describe.each(["anthropic", "openai", "openai-chat"] as const)("a %s tool call nested 100,000 deep", (provider) => {
  it("is refused as a tool error, and the session resumes", async () => {
    server = await startSseServer({
      scenario: parseScenario({
        turns: [
          { text: "Reading.", tool_calls: [{ name: "read", arguments: `{"path":${deep(DEPTH)}}` }] },
          { text: "The call was refused." },
          { text: "Resumed fine." },
        ],
      }),
    });
    const cwd = project();
    const env = isolatedEnv({ [KEY_VAR[provider]]: "sk-test-0000" });
    const flags = ["--provider", provider, "--model", "m", "--base-url", server.baseUrlFor(provider)];

    // The readable transcript: it shows the call too, so its renderer meets the arguments.
    const run = await runCli(["code", "read a.txt", ...flags], { cwd, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`! ${REFUSAL}`);
    expect(run.stdout).toContain("The call was refused.");

    const resumed = await runCli(["resume", "go on", ...flags], { cwd, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Resumed fine.");
    // The resumed request carries the refused call and its result.
    const last = server.requests.filter((r) => r.method === "POST").at(-1)!;
    expect(last.rawBody).toContain("more than 64 levels deep");
  });
});

describe("yuj tool with arguments nested 100,000 deep", () => {
  it("refuses them read from stdin, and from the command line", async () => {
    const cwd = project();
    const env = isolatedEnv();
    const child = spawn(process.execPath, [yujBin, "tool", "read", "-"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(`{"path":"a.txt","offset":${deep(DEPTH)}}`);
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect({ code, stdout }).toEqual({ code: 1, stdout: `${REFUSAL}\n` });

    // One command-line word holds at most 128 KiB: 60,000 levels fit.
    const argv = await runCli(["tool", "read", `{"path":${deep(60_000)}}`], { cwd, env });
    expect({ code: argv.code, stdout: argv.stdout, stderr: argv.stderr }).toEqual({ code: 1, stdout: `${REFUSAL}\n`, stderr: "" });

    const fromStdin = spawn(process.execPath, [yujBin, "tool", "read", "-"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let ok = "";
    fromStdin.stdout.on("data", (d) => (ok += d));
    fromStdin.stdin.end('{"path":"a.txt"}');
    expect(await new Promise((resolve) => fromStdin.on("close", resolve))).toBe(0);
    expect(ok).toBe("1: hello\n");
  });
});
