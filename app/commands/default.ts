// `yuj` with no arguments: the full-screen TUI on a terminal (with the
// offline demo model while no provider is configured); without a terminal,
// the headless demo or a pointer to `yuj code`.

import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParsedArgs } from "../args.js";
import { fixturesRoot } from "../locate.js";
import { resolveSession } from "../session.js";
import { loadTui } from "../tui/load.js";
import { demoCommand, initGit } from "./demo.js";

export async function defaultCommand(args: ParsedArgs, version: string): Promise<number> {
  const tty = process.stdout.isTTY === true && process.stdin.isTTY === true;
  const resolved = resolveSession({ args, cwd: process.cwd(), env: process.env, topLevel: true, interactive: tty });
  if (!tty) {
    if (!resolved.choice) return demoCommand(args, version);
    process.stdout.write(`yuj ${version}: the TUI needs a terminal. Run a task headless with: yuj code "what to do"\n`);
    return 0;
  }
  const { runTui } = await loadTui();
  if (resolved.choice) return runTui({ args, cwd: process.cwd(), env: process.env, version, resolved });
  const repo = mkdtempSync(join(tmpdir(), "yuj-demo-"));
  cpSync(join(fixturesRoot, "demo-repo"), repo, { recursive: true });
  initGit(repo);
  return runTui({
    args,
    cwd: repo,
    env: process.env,
    version,
    demo: {
      overrides: { provider: { name: "scripted", model: "demo", scenario: join(fixturesRoot, "scenarios", "demo.json") } },
      banner:
        `DEMO MODEL (scripted, offline) in a copy of the demo repository: ${repo}. ` +
        "Type a message (for example: fix the failing test) and press Enter. " +
        "To connect a real model, quit (q q) and run yuj setup.",
    },
  });
}
