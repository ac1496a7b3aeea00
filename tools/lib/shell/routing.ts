// Yuj read-side routing (bash_redirect_read_side = true, digest 1.10): a
// line that only displays a file, searches text or discovers paths is sent
// to read, grep or glob, with the call to make when it can be stated.

import { parseShell, verbOf, type SimpleCommand } from "../../../core/shell/index.js";
import { values } from "./common.js";
import { findStep, lsStep, treeStep } from "./path-routes.js";
import { agStep, gitGrepStep, grepStep, rgStep } from "./search-routes.js";
import { fileDisplay, plainCommand } from "./single-file-read.js";

export type RoutedTool = "read" | "grep" | "glob";

export interface ShellRoute {
  tool: RoutedTool;
  message: string;
}

export interface RouteStep {
  tool: RoutedTool;
  /** Suggested arguments for the tool, when they can be stated exactly enough. */
  args?: Record<string, string | number>;
}

function routeStep(cmd: SimpleCommand): RouteStep | undefined {
  if (!plainCommand(cmd)) return undefined;
  const shown = fileDisplay(cmd.words);
  if (shown) {
    const args: Record<string, string | number> = { path: shown.path };
    if (shown.offset) args.offset = shown.offset;
    if (shown.limit !== undefined) args.limit = shown.limit;
    return { tool: "read", args };
  }
  const verb = verbOf(cmd.words);
  const args = values(cmd.words.slice(1));
  switch (verb) {
    case "grep":
    case "egrep":
    case "fgrep":
    case "rgrep":
      return grepStep(verb, args);
    case "rg":
      return rgStep(args);
    case "ag":
      return agStep(args);
    case "git":
      return args[0] === "grep" ? gitGrepStep(args.slice(1)) : undefined;
    case "find":
      return findStep(args);
    case "ls":
      return lsStep(args);
    case "tree":
      return treeStep(args);
    default:
      return undefined;
  }
}

const ROUTE_REASONS: Record<RoutedTool, string> = {
  read: "simple file display",
  grep: "text search over files",
  glob: "path discovery",
};

/**
 * With `bash_redirect_read_side = true`: the dedicated tool for a command that
 * only displays a file, searches text or discovers paths. Every list item
 * must be one such command whose tool is active; a pipe stage reading stdin,
 * a count-only command, an unknown option or anything else keeps the whole
 * line in the shell.
 */
export function readSideRoute(cmd: string, activeTools: ReadonlySet<string>): ShellRoute | undefined {
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || p.substitutions.length || !p.items.length) return undefined;
  const steps: RouteStep[] = [];
  for (const item of p.items) {
    const { stages, negated } = item.pipeline;
    if (item.op === "&" || negated || stages.length !== 1) return undefined;
    const step = routeStep(stages[0]!);
    if (!step || !activeTools.has(step.tool)) return undefined;
    steps.push(step);
  }
  const tools = [...new Set(steps.map((s) => s.tool))];
  const named = tools.length === 1 ? `the ${tools[0]} tool` : `the ${tools.join(" and ")} tools`;
  const reasons = tools.map((t) => ROUTE_REASONS[t]).join("; ");
  const calls = steps.filter((s) => s.args).map((s) => `${s.tool} ${JSON.stringify(s.args)}`);
  const suggestion = calls.length ? ` Try: ${calls.join("; ")}` : "";
  return {
    tool: steps[0]!.tool,
    message: `ERROR: shell_routed: use ${named} for this (${reasons}); it returns paged, structured results.${suggestion}`,
  };
}
