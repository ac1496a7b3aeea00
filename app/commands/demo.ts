// The offline demo: a scripted model fixes a small bug in a temporary copy of
// fixtures/demo-repo, so a newcomer sees yuj work without any account or key.

import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParsedArgs } from "../args.js";
import { runHeadless } from "../headless.js";
import { fixturesRoot } from "../locate.js";

export const DEMO_TASK = "The tests in test.js fail. Find the bug in src/greet.js, fix it, and check with the tests.";

const FOOTER =
  "This was the offline demo: a scripted model, not a real one. To connect a real model:\n" +
  "  yuj setup --provider anthropic --model claude-sonnet-4-5   and export ANTHROPIC_API_KEY\n" +
  "  yuj setup --provider openai --model gpt-5                  and export OPENAI_API_KEY\n" +
  "  yuj setup --provider openai-chat --model MODEL --base-url http://127.0.0.1:8080/v1   (llama.cpp, vLLM, Ollama, …)";

export async function demoCommand(args: ParsedArgs, version: string): Promise<number> {
  const repo = mkdtempSync(join(tmpdir(), "yuj-demo-"));
  cpSync(join(fixturesRoot, "demo-repo"), repo, { recursive: true });
  initGit(repo);
  if (args.output !== "jsonl") process.stdout.write(`Demo repository: ${repo}\n`);
  return runHeadless({
    args,
    start: { task: DEMO_TASK },
    cwd: repo,
    env: process.env,
    version,
    demo: {
      overrides: {
        provider: { name: "scripted", model: "demo", scenario: join(fixturesRoot, "scenarios", "demo.json") },
      },
      footer: FOOTER,
      // On a terminal the demo streams at a readable pace; in a pipe it does not wait.
      delayMs: process.stdout.isTTY && args.output !== "jsonl" ? 15 : 0,
    },
  });
}

/** A git repository makes the demo look like real work; it is optional. */
export function initGit(dir: string): void {
  const git = (...a: string[]) => spawnSync("git", a, { cwd: dir, stdio: "ignore" });
  if (git("init", "-q").status !== 0) return;
  git("add", "-A");
  git("-c", "user.name=yuj demo", "-c", "user.email=demo@yuj.invalid", "commit", "-q", "-m", "demo repository");
}
