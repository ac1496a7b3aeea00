// `yuj resume [SESSION]`: continue a session paused on an approval, once
// `yuj approve` or `yuj reject` has recorded the answer.

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { FatalError } from "../errors.js";
import { pausedSession } from "../find-session.js";
import { runHeadless } from "../headless.js";
import { argsFromSettings } from "../pause.js";

export async function resumeCommand(args: ParsedArgs, version: string): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError("yuj resume takes at most one session id");
  const { dir, state } = pausedSession(process.env, process.cwd(), args.positionals[0]);
  if (!state.answer) {
    throw new FatalError(
      `session ${state.sessionId} waits for an approval of ${state.pending!.request.summary}: run yuj approve or yuj reject first`,
    );
  }
  return runHeadless({
    args: argsFromSettings(state.settings, args),
    cwd: state.cwd,
    env: process.env,
    version,
    start: { resume: state, dir },
  });
}
