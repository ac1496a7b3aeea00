// Command dispatch. Each command's module is imported only when it runs.

import { parseCommandLine, UsageError, type ParsedArgs } from "./args.js";
import { HELP } from "./help.js";
import { FatalError } from "./errors.js";
import { StateWriteError } from "../core/storage-error.js";
import { safeText } from "../core/text/safe.js";

export async function main(argv: string[], version: string): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseCommandLine(argv);
  } catch (err) {
    return report(err);
  }
  if (args.version) {
    process.stdout.write(`yuj ${version}\n`);
    return 0;
  }
  if (args.help || args.command === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    switch (args.command) {
      case "code":
      case "run":
        return await (await import("./commands/code.js")).codeCommand(args, version);
      case "tool":
        return await (await import("./commands/tool.js")).toolCommand(args, version);
      case "setup":
        return await (await import("./commands/setup.js")).setupCommand(args);
      case "models":
        return await (await import("./commands/models.js")).modelsCommand(args);
      case "doctor":
        return await (await import("./commands/doctor.js")).doctorCommand(args, version);
      case "approve":
      case "reject":
        return await (await import("./commands/approve.js")).approveCommand(args);
      case "resume":
        return await (await import("./commands/resume.js")).resumeCommand(args, version);
      case "rewind":
        return await (await import("./commands/rewind.js")).rewindCommand(args);
      case "answer":
        return await (await import("./commands/answer.js")).answerCommand(args, version);
      case "sessions":
      case "current":
        return await (await import("./commands/sessions.js")).sessionsCommand(args);
      case "status":
      case "show":
        return await (await import("./commands/status.js")).statusCommand(args);
      case "replay":
        return await (await import("./commands/replay.js")).replayCommand(args, version);
      case "schema":
        return (await import("./commands/schema.js")).schemaCommand(args);
      case "trust":
        return await (await import("./commands/trust.js")).trustCommand(args);
      case "measure":
        return await (await import("./commands/measure.js")).measureCommand(args, version);
      case "demo":
        return await (await import("./commands/demo.js")).demoCommand(args, version);
      case "default":
        return await (await import("./commands/default.js")).defaultCommand(args, version);
    }
  } catch (err) {
    return report(err);
  }
}

/** One clear line on stderr, and the exit status that goes with the failure. */
function report(err: unknown): number {
  // A session's files could not be written: said in one line, as every storage failure is.
  if (err instanceof StateWriteError) {
    process.stderr.write(`yuj: ${safeText(err.message)}\n`);
    return 1;
  }
  if (err instanceof UsageError || err instanceof FatalError) {
    // Messages name what was given (a session id, a path, a stored answer): made safe to print.
    process.stderr.write(`yuj: ${safeText(err.message)}\n`);
    return err instanceof UsageError ? 2 : err.exitCode;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`yuj: unexpected error: ${safeText(message)}\n`);
  return 1;
}
