// Slash commands typed into the composer: what each does to the view, the
// operation it sends the session, and the work only the front end can do
// (write a file, open another session). Deciding is pure; the caller applies
// the view change, sends the operation and carries out the action.

import type { Operation } from "../core/ops.js";
import type { LoopFacts } from "../core/reducer-session.js";
import type { UiState } from "./ui-state.js";

/** The commands, with what each does (the list shown while a command is typed). */
const SLASH_HELP: ReadonlyArray<readonly [name: string, what: string]> = [
  ["/help", "keys and commands"],
  ["/model", "the model; /model NAME switches"],
  ["/compact", "summarise older turns now"],
  ["/clear", "a new conversation (this one stays a saved session)"],
  ["/new", "a new conversation, as /clear"],
  ["/resume", "pick another session of this project"],
  ["/rename", "/rename NAME names this session"],
  ["/export", "/export [PATH] [--json] writes the transcript"],
  ["/yolo", "/yolo on|off skips ordinary approvals"],
  ["/loop", "/loop on [TARGET] keeps the model working until done; /loop off"],
  ["/rules", "the session's and project's permission rules"],
  ["/mcp", "the MCP servers (Ctrl+O); /mcp enable|disable NAME"],
  ["/stats", "tokens, cost, time and requests"],
  ["/rewind", "files and conversation back to before a message (or undo a rewind)"],
  ["/init", "write an AGENTS.md for this repository"],
  ["/jobs", "the jobs panel"],
  ["/todos", "the todos and jobs (an overlay)"],
  ["/quit", "quit yuj"],
];

const SLASH_COMMANDS = SLASH_HELP.map(([name]) => name);

/** Work a command asks of the front end: files and other sessions are not the session's to change. */
export type FrontAction =
  | { kind: "export"; path?: string; json: boolean }
  | { kind: "init"; overwrite: boolean }
  | { kind: "new" }
  | { kind: "resume" };

export interface SlashAction {
  ui(ui: UiState): UiState;
  op?: Operation;
  action?: FrontAction;
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
/** Said where the key hints are, until the next key. */
const say = (flash: string) => (ui: UiState): UiState => ({ ...ui, flash });
const open = (overlay: UiState["overlay"]) => (ui: UiState): UiState => ({ ...ui, overlay });

export function slashAction(text: string, now: { yolo: boolean; loop?: LoopFacts }): SlashAction {
  const trimmed = text.trim();
  const name = trimmed.split(/\s+/)[0] ?? "/";
  const rest = trimmed.slice(name.length).trim();
  const arg = rest.split(/\s+/)[0] || undefined;
  switch (name) {
    case "/help":
      return { ui: open("help") };
    case "/jobs":
      return { ui: open("jobs") };
    case "/todos":
      return { ui: (ui) => ({ ...ui, overlay: "todos" }) };
    case "/clear":
    case "/new":
      return { ui: same, action: { kind: "new" } };
    case "/resume":
      return { ui: same, action: { kind: "resume" } };
    case "/quit":
      return { ui: same, quit: true };
    case "/model":
      return { ui: top, op: arg ? { type: "switch_model", model: arg } : { type: "switch_model" } };
    case "/compact":
      return { ui: top, op: { type: "compact" } };
    case "/rename":
      if (!rest) return { ui: say("/rename needs a name: /rename NAME") };
      return { ui: same, op: { type: "rename_session", name: rest } };
    case "/yolo":
      return yolo(arg, now.yolo);
    case "/loop":
      return loop(arg, rest.slice(arg?.length ?? 0).trim(), now.loop);
    case "/rules":
      return { ui: open("rules"), op: { type: "list_rules" } };
    case "/stats":
      return { ui: open("stats") };
    case "/rewind":
      return { ui: (ui) => ({ ...ui, overlay: "rewind", rewindTarget: undefined }) };
    case "/mcp":
      return mcp(rest);
    case "/export":
      return exportAction(rest);
    case "/init":
      if (rest && rest !== "--force") return { ui: say(`/init takes no argument but --force, not ${rest}`) };
      return { ui: same, action: { kind: "init", overwrite: rest === "--force" } };
    default:
      return { ui: say(`unknown command ${name}: the commands are ${SLASH_COMMANDS.join(" ")}`) };
  }
}

function yolo(arg: string | undefined, on: boolean): SlashAction {
  if (arg === undefined) return { ui: same, op: { type: "set_yolo", on: !on } };
  if (arg === "on" || arg === "off") return { ui: same, op: { type: "set_yolo", on: arg === "on" } };
  return { ui: say(`/yolo takes on or off, not ${arg}`) };
}

/** `/mcp` or `/mcp status`: the overlay; `/mcp enable NAME`, `/mcp disable NAME`: the switch. */
function mcp(rest: string): SlashAction {
  const [verb, server, ...extra] = rest ? rest.split(/\s+/) : [];
  if (verb === undefined || verb === "status") return server === undefined ? { ui: open("mcp") } : { ui: say(`/mcp status takes no server name, not ${server}`) };
  if (verb !== "enable" && verb !== "disable") return { ui: say(`/mcp takes status, enable NAME or disable NAME, not ${verb}`) };
  if (server === undefined || extra.length) return { ui: say(`/mcp ${verb} takes one server name: /mcp ${verb} NAME`) };
  return { ui: say(`MCP server ${server}: turning ${verb === "enable" ? "on" : "off"}`), op: { type: "set_mcp_server", server, enabled: verb === "enable" } };
}

/** `/loop` says how the loop stands; `/loop on [TARGET]` starts one (the target is its first message); `/loop off` ends it. */
function loop(arg: string | undefined, target: string, now: LoopFacts | undefined): SlashAction {
  if (arg === undefined) {
    if (!now) return { ui: say("loop off: /loop on [TARGET] keeps the model working until it calls done") };
    const towards = now.target ? ` towards: ${now.target}` : "";
    const waits = now.report !== undefined ? " · its report waits for you" : "";
    return { ui: say(`loop on: iteration ${now.iteration} of ${now.maxIterations}${towards}${waits} · /loop off ends it`) };
  }
  if (arg === "on") return { ui: top, op: target ? { type: "set_loop", on: true, target } : { type: "set_loop", on: true } };
  if (arg === "off") {
    if (target) return { ui: say(`/loop off takes nothing after it, not ${target}`) };
    return { ui: same, op: { type: "set_loop", on: false } };
  }
  return { ui: say(`/loop takes on [TARGET] or off, not ${arg}`) };
}

/** `/export [PATH] [--json]`, in either order; a path may not start with `-`. */
function exportAction(rest: string): SlashAction {
  const words = rest ? rest.split(/\s+/) : [];
  const json = words.includes("--json");
  const others = words.filter((w) => w !== "--json");
  const flag = others.find((w) => w.startsWith("-"));
  if (flag) return { ui: say(`/export takes a path and --json, not ${flag}`) };
  if (others.length > 1) return { ui: say(`/export takes one path, not ${others.length}: ${others.join(" ")}`) };
  return { ui: same, action: { kind: "export", json, ...(others[0] ? { path: others[0] } : {}) } };
}
