// One clarification question per session (ask_user): the session's state
// says whether it has asked, so the rule holds across processes — a resumed
// session that already asked gets an error result, not a second pause.

import type { Guard } from "../core/guards/types.js";

const SECOND_QUESTION_TEXT =
  "ERROR: ask_user: this session has already asked its one clarification question; decide from the answer and what the repository shows";

export function oneQuestionGuard(asked: () => boolean): Guard {
  return {
    name: "one-question",
    before: (call) => (call.handler === "ask_user" && asked() ? SECOND_QUESTION_TEXT : undefined),
  };
}
