// Slash commands typed into the composer: what each does to the view, and
// the operation it sends the session. Deciding is pure; the caller applies
// the view change and sends the operation.

import type { Operation } from "../core/ops.js";
import type { UiState } from "./ui-state.js";

/** The commands, with what each does (the list shown while a command is typed). */
const SLASH_HELP: ReadonlyArray<readonly [name: string, what: string]> = [
  ["/help", "keys and commands"],
  ["/model", "the model; /model NAME switches"],
  ["/compact", "summarise older turns now"],
  ["/clear", "back to the newest card, folds reset"],
  ["/jobs", "the jobs panel"],
  ["/todos", "the todos and jobs (an overlay)"],
  ["/quit", "quit yuj"],
];

const SLASH_COMMANDS = SLASH_HELP.map(([name]) => name);

export interface SlashAction {
  ui(ui: UiState): UiState;
  op?: Operation;
  quit?: true;
}

/** The commands a draft that starts with `/` can still become (none once an argument is typed). */
export function slashMatches(draft: string): Array<readonly [string, string]> {
  if (!/^\/\S*$/.test(draft)) return [];
  return SLASH_HELP.filter(([name]) => name.startsWith(draft));
}

/** Tab on a `/` draft: the one command it can be, or the longest start the matches share. */
export function completeSlash(draft: string): string | undefined {
  const names = slashMatches(draft).map(([name]) => name);
  if (names.length === 0) return undefined;
  if (names.length === 1) return `${names[0]} `;
  let common = names[0]!;
  for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
  return common.length > draft.length ? common : undefined;
}

const same = (ui: UiState) => ui;
const top = (ui: UiState): UiState => ({ ...ui, scroll: 0 });

export function slashAction(text: string): SlashAction {
  const [name, arg] = text.trim().split(/\s+/);
  switch (name) {
    case "/help":
      return { ui: (ui) => ({ ...ui, overlay: "help" }) };
    case "/jobs":
      return { ui: (ui) => ({ ...ui, overlay: "jobs" }) };
    case "/todos":
      return { ui: (ui) => ({ ...ui, overlay: "todos" }) };
    case "/clear":
      return { ui: (ui) => ({ ...ui, scroll: 0, focus: undefined, folds: new Map() }) };
    case "/quit":
      return { ui: same, quit: true };
    case "/model":
      return { ui: top, op: arg ? { type: "switch_model", model: arg } : { type: "switch_model" } };
    case "/compact":
      return { ui: top, op: { type: "compact" } };
    default:
      // Said where the key hints are, until the next key.
      return { ui: (ui) => ({ ...ui, flash: `unknown command ${name ?? "/"}: the commands are ${SLASH_COMMANDS.join(" ")}` }) };
  }
}
