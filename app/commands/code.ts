// `yuj code "task"` (also `yuj run`, `yuj -p`, `yuj "task"`).
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { runHeadless } from "../headless.js";

export async function codeCommand(args: ParsedArgs, version: string): Promise<number> {
  const task = args.prompt ?? args.positionals.join(" ");
  if (args.prompt !== undefined && args.positionals.length) {
    throw new UsageError("give the task either with -p or as an argument, not both");
  }
  if (!task.trim()) throw new UsageError('yuj code needs a task: yuj code "fix the failing test"');
  return runHeadless({ args, start: { task }, cwd: process.cwd(), env: process.env, version });
}
