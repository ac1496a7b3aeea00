// `yuj` with no arguments: the offline demo while no model is configured;
// otherwise the TUI, which arrives in a later release.

import type { ParsedArgs } from "../args.js";
import { resolveSession } from "../session.js";
import { demoCommand } from "./demo.js";

export async function defaultCommand(args: ParsedArgs, version: string): Promise<number> {
  const resolved = resolveSession({ args, cwd: process.cwd(), env: process.env, topLevel: true });
  if (!resolved.choice) return demoCommand(args, version);
  process.stdout.write(
    `yuj ${version}: the full-screen TUI is not in this build yet. ` +
      `Run a task headless with: yuj code "what to do"  (model: ${resolved.choice.name} ${resolved.choice.model})\n`,
  );
  return 0;
}
