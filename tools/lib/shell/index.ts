// What a shell command line does, judged from its structure (core/shell)
// rather than from regexes over raw text:
//   * Yuj refusals and read-side routing: when an active
//     dedicated tool owns an operation, the fragment is stopped and the tool
//     is named; a rule is inert while its tool is inactive (refusals.ts,
//     python-write.ts, routing.ts and its search/path routes);
//   * the Chord compound-command guard for shell allow rules,
//     which lives in core/shell/compound.ts for the permission engine;
//   * which foreground commands Chord may not promote to a background job,
//     and when a result needs the output-preservation reminder (promotion.ts);
//   * the meaning of exit code 1 for single-verb commands (exit-meaning.ts);
//   * programs that need a person at a terminal, refused by both command
//     tools before they run (interactive.ts);
//   * one simple single-file read, for the stale-file guard (single-file-read.ts).
// Everything here is pure: no file system, no execution.

export { isCompound } from "../../../core/shell/compound.js";
export { isCodeLikePath } from "./common.js";
export { shellRefusal } from "./refusals.js";
export { pythonWritesFile } from "./python-write.js";
export { readSideRoute } from "./routing.js";
export { simpleSingleFileRead, singleFileReadSearches } from "./single-file-read.js";
export { isNonPromotable, needsPreservationReminder, PRESERVATION_REMINDER } from "./promotion.js";
export { exitMeaning } from "./exit-meaning.js";
export { interactiveCommand, interactiveRefusal } from "./interactive.js";
