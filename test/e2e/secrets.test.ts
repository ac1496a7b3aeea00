// A planted API key in yuj's environment never leaves yuj: the real bundle
// runs headless against a local provider while the scripted model tries every
// usual trick to print the key (env, printenv, slices, fold, base64, rev) in
// the foreground, in the background, in the PTY terminal and through the
// formatter. Afterwards no file under the state directory and no request body
// the server received holds the key in any of those forms.

import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";
import type { Scenario } from "../../core/providers/scenario.js";

/** The provider key variable, under a name no secret-looking pattern matches. */
const CUSTOM_VAR = "YUJ_E2E_LLM_VALUE";
const VARS = ["ANTHROPIC_API_KEY", CUSTOM_VAR] as const;

/** Prints each planted variable every way a command might; ends with END-2 so a test can see it ran. */
const LEAK_SCRIPT = [
  "env",
  "printenv",
  ...VARS.flatMap((v) => [
    `echo "\${${v}:0:10}" "\${${v}:10:12}"`,
    `echo "$${v}" | fold -w4`,
    `echo "$${v}" | base64`,
    `echo "$${v}" | rev`,
  ]),
  "echo END-$((1+1))",
].join("\n");

/** Every form a key could take in the output of LEAK_SCRIPT. */
function leakForms(key: string): string[] {
  const reversed = [...key].reverse().join("");
  const windows = (s: string, n: number) => Array.from({ length: s.length - n + 1 }, (_, i) => s.slice(i, i + n));
  const folded = key.match(/.{1,4}/g)!.join("\n");
  return [
    key,
    ...windows(key, 10),
    reversed,
    ...windows(reversed, 10),
    Buffer.from(`${key}\n`).toString("base64"),
    ...windows(Buffer.from(`${key}\n`).toString("base64"), 12),
    ...windows(Buffer.from(key).toString("base64"), 12),
    folded,
    folded.slice(0, 9), // the first two lines of fold's output
  ];
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** Where `text` holds a form of a key: [form, where] pairs. JSON escapes of line breaks count as line breaks. */
function leaksIn(text: string, where: string, keys: string[]): Array<[string, string]> {
  const views = [text, text.replaceAll("\\n", "\n").replaceAll("\\r", "\r").replaceAll("\r\n", "\n")];
  const found: Array<[string, string]> = [];
  for (const key of keys) {
    for (const form of leakForms(key)) if (views.some((v) => v.includes(form))) found.push([form, where]);
  }
  return found;
}

function sessionDir(env: Record<string, string>): string {
  const root = join(env.XDG_STATE_HOME!, "yuj", "sessions");
  const [id] = readdirSync(root);
  return join(root, id!);
}

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Run {
  scenario: Scenario;
  profile: string;
  sandbox: "auto" | "off";
  extraConfig?: string;
}

async function runWithPlantedKeys(run: Run) {
  const keys = [randomBytes(24).toString("hex"), randomBytes(24).toString("hex")];
  server = await startSseServer({ scenario: run.scenario });
  const cwd = tempDemoRepo();
  writeFileSync(
    join(cwd, "cfg.toml"),
    [
      "[provider]",
      'name = "anthropic"',
      'model = "test-model"',
      `base_url = "${server.baseUrlFor("anthropic")}"`,
      `api_key_env = "${CUSTOM_VAR}"`,
      "[sandbox]",
      `mode = "${run.sandbox}"`,
      run.extraConfig ?? "",
    ].join("\n"),
  );
  const env = isolatedEnv({ ANTHROPIC_API_KEY: keys[0]!, [CUSTOM_VAR]: keys[1]!, LANG: "C.UTF-8" });
  const res = await runCli(["code", "print the keys", "--profile", run.profile, "--config", "cfg.toml", "--output", "jsonl"], {
    cwd,
    env,
    timeoutMs: 90_000,
  });
  return { res, env, keys, dir: sessionDir(env) };
}

function expectNoLeak(r: Awaited<ReturnType<typeof runWithPlantedKeys>>): void {
  const found: Array<[string, string]> = [];
  const files = filesUnder(r.env.XDG_STATE_HOME!);
  for (const file of files) found.push(...leaksIn(readFileSync(file, "utf8"), file, r.keys));
  for (const [i, req] of server!.requests.entries()) found.push(...leaksIn(req.rawBody, `request body ${i}`, r.keys));
  found.push(...leaksIn(r.res.stdout, "stdout", r.keys), ...leaksIn(r.res.stderr, "stderr", r.keys));
  expect(found).toEqual([]);
  // The key did reach the provider, in its header only.
  const headers = server!.requests[0]!.headers;
  expect(`${headers["x-api-key"] ?? ""} ${headers.authorization ?? ""}`).toContain(r.keys[1]);
}

/** The log of job `id` (or terminal), which must show that the script ran with an ordinary environment. */
function expectRanWithOrdinaryEnv(file: string, env: Record<string, string>): void {
  const text = readFileSync(file, "utf8");
  expect(text).toContain("END-2");
  expect(text).toContain(`HOME=${env.HOME}`);
  expect(text).toMatch(/^PATH=/m);
  expect(text).toContain("LANG=C.UTF-8");
}

describe("a planted provider key never leaves yuj", () => {
  it("Yuj surface: bash foreground and background, the PTY terminal and the formatter", async () => {
    const scenario: Scenario = {
      description: "",
      fallback_text: "(no more turns)",
      turns: [
        { text: "", tool_calls: [{ name: "bash", arguments: { cmd: LEAK_SCRIPT } }] },
        { text: "", tool_calls: [{ name: "bash", arguments: { cmd: LEAK_SCRIPT, background: true } }] },
        { text: "", tool_calls: [{ name: "bash_poll", arguments: { proc_id: "j2", timeout_s: 10 } }] },
        { text: "", tool_calls: [{ name: "terminal_start", arguments: { cmd: "bash --norc --noprofile" } }] },
        { text: "", tool_calls: [{ name: "terminal_io", arguments: { terminal_id: "t1", input: LEAK_SCRIPT, timeout_s: 5 } }] },
        { text: "", tool_calls: [{ name: "terminal_io", arguments: { terminal_id: "t1", terminate: true } }] },
        { text: "", tool_calls: [{ name: "write", arguments: { path: "note.txt", content: "formatted\n" } }] },
        { text: "", tool_calls: [{ name: "done", arguments: { message: "printed" } }] },
      ],
    };
    // The formatter fails on purpose, so its stderr (the leak attempt) goes into the result.
    const formatter = `printenv >&2; echo "\${ANTHROPIC_API_KEY:0:10}" "\${${CUSTOM_VAR}:0:10}" >&2; echo "$${CUSTOM_VAR}" | rev >&2; exit 3`;
    const r = await runWithPlantedKeys({
      scenario,
      profile: "_base",
      sandbox: "off",
      extraConfig: [
        "[tools]",
        "background_enabled = true",
        "terminal_enabled = true",
        "[formatter]",
        `command = ["bash", "-c", ${JSON.stringify(formatter)}, "{path}"]`,
        'extensions = [".txt"]',
      ].join("\n"),
    });
    expect(r.res.code, r.res.stderr).toBe(0);
    const results = r.res.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.name)).toEqual(["bash", "bash", "bash_poll", "terminal_start", "terminal_io", "terminal_io", "write", "done"]);
    expect(JSON.stringify(results.find((e) => e.name === "write"))).toContain("failed (exit code 3)");
    expectRanWithOrdinaryEnv(join(r.dir, "jobs", "j1.log"), r.env);
    expectRanWithOrdinaryEnv(join(r.dir, "jobs", "j2.log"), r.env);
    expectRanWithOrdinaryEnv(join(r.dir, "terminal", "t1.log"), r.env);
    expectNoLeak(r);
  }, 120_000);

  it("Chord surface, sandboxed: shell in the foreground and run_in_background", async () => {
    const scenario: Scenario = {
      description: "",
      fallback_text: "(no more turns)",
      turns: [
        { text: "", tool_calls: [{ name: "shell", arguments: { command: LEAK_SCRIPT } }] },
        { text: "", tool_calls: [{ name: "shell", arguments: { command: LEAK_SCRIPT, run_in_background: true } }] },
        { text: "", tool_calls: [{ name: "job_output", arguments: { job_id: "j2", wait: "exit" } }] },
        { text: "Printed everything.", tool_calls: [] },
      ],
    };
    const r = await runWithPlantedKeys({ scenario, profile: "chord", sandbox: "auto" });
    expect(r.res.code, r.res.stderr).toBe(0);
    expectRanWithOrdinaryEnv(join(r.dir, "jobs", "j1.log"), r.env);
    expectRanWithOrdinaryEnv(join(r.dir, "jobs", "j2.log"), r.env);
    expect(statSync(join(r.dir, "jobs", "j2.log")).size).toBeGreaterThan(0);
    expectNoLeak(r);
  }, 120_000);
});
