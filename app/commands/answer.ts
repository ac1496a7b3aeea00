// `yuj answer [ID] TEXT`: send the question_answer operation to the session
// that paused on a question (ask_user), then continue it as `yuj resume` would. The answer is saved
// before the run starts, so if that run fails, `yuj resume` still sends it —
// once: it becomes the question's result and is marked delivered.

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { FatalError } from "../errors.js";
import { claimSession } from "../claim-session.js";
import { answerStoredSession } from "../stored-answer.js";
import { continueHeadless } from "./resume.js";

export async function answerCommand(args: ParsedArgs, version: string): Promise<number> {
  const usage = 'yuj answer [ID] "the answer"';
  if (args.positionals.length === 0 || args.positionals.length > 2) throw new UsageError(`usage: ${usage}`);
  const [id, text] = args.positionals.length === 2 ? args.positionals : [undefined, args.positionals[0]!];
  if (!text!.trim()) throw new UsageError(`the answer is empty: ${usage}`);

  // The lock is taken before the answer is written and kept by the run that continues.
  const found = await claimSession(process.env, process.cwd(), id, {
    test: (s) => s.status === "input_required",
    what: "is waiting for an answer",
  });
  const { dir, state, status } = found;
  const q = state.question;
  try {
    if (status !== "input_required" || !q) {
      throw new FatalError(`session ${state.sessionId} is not waiting for an answer (its status is ${status})`);
    }
    answerStoredSession(found, { type: "question_answer", callId: q.callId, answer: text! });
  } catch (err) {
    found.lock.release();
    throw err;
  }
  process.stderr.write(`yuj: answer recorded for session ${state.sessionId}; continuing\n`);
  return continueHeadless(found, args, version);
}
