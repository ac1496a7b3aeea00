// One clarification question per session (Yuj's ask_user): the session's
// state says whether it has asked, so the rule holds across processes — a
// resumed session that already asked gets an error result, not a second
// pause. The Chord surface's questions are not limited.

import type { Guard } from "../core/guards/types.js";

const secondQuestionText = (tool: string): string =>
  `ERROR: ${tool}: this session has already asked its one clarification question; decide from the answer and what the repository shows`;

export function oneQuestionGuard(asked: () => boolean): Guard {
  return {
    name: "one-question",
    before: (call) => (call.role === "ask" && asked() ? secondQuestionText(call.tool) : undefined),
  };
}
