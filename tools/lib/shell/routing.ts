// Yuj read-side routing (bash_redirect_read_side = true): the parts of a
// line that only display a file, search text or discover paths are sent to
// read, grep or glob, with the call to make when it can be stated, and only
// when that tool would accept the call.

import * as path from "node:path";
import { parseShell, verbOf, type SimpleCommand } from "../../../core/shell/index.js";
import { values } from "./common.js";
import { fdStep, findStep, lsStep, treeStep } from "./path-routes.js";
import { ackStep, agStep, gitGrepStep, grepStep, rgStep } from "./search-routes.js";
import { fileDisplay, plainCommand } from "./single-file-read.js";

type RoutedTool = "read" | "grep" | "glob";

export interface ShellRoute {
  tool: RoutedTool;
  message: string;
}

export interface RouteStep {
  tool: RoutedTool;
  /** Suggested arguments for the tool, when they can be stated exactly enough. */
  args?: Record<string, string | number>;
  /** The directory a discovery starts from, kept when no call is suggested. */
  scope?: string;
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
    case "ack":
    case "ack-grep":
      return ackStep(args);
    case "git":
      return args[0] === "grep" ? gitGrepStep(args.slice(1)) : undefined;
    case "find":
      return findStep(args);
    case "fd":
    case "fdfind":
      return fdStep(args);
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

export interface RouteOptions {
  /** glob answers a recursive pattern over the whole project only with a hint to narrow it (glob_refuse_unscoped_recursive). */
  globRefusesUnscoped?: boolean;
  /** The project folder: a step naming a path outside it stays in the shell (the file tools would refuse that path). */
  cwd?: string;
}

/** The step names a path the file tools do not open: outside the project, or `~/…` (not expanded by them). */
function leavesProject(step: RouteStep, cwd: string | undefined): boolean {
  const named = step.args?.path ?? step.scope;
  if (cwd === undefined || typeof named !== "string" || named === "") return false;
  if (named === "~" || named.startsWith("~/")) return true;
  const root = path.resolve(cwd);
  const rel = path.relative(root, path.resolve(root, named));
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/** Options a later pipeline stage may have and still only pick lines to show. */
const LINE_PICKERS = /^(?:head|tail)$/;
const PICKER_OPTION = /^(?:-n|-\d+|--lines=\d+|\d+)$/;
const GREP_FILTERS = /^(?:grep|egrep|fgrep|rg)$/;
const GREP_FILTER_OPTION = /^-[inEFw]+$/;

/**
 * A stage after the first that only narrows what is shown (`| head -20`,
 * `| grep needle`). Counting (`wc`, `grep -c`), inverting, sorting or any
 * other processing keeps the pipeline in the shell.
 */
function picksLines(cmd: SimpleCommand): boolean {
  if (!plainCommand(cmd)) return false;
  const verb = verbOf(cmd.words);
  const args = values(cmd.words.slice(1));
  if (verb !== undefined && LINE_PICKERS.test(verb)) return args.every((a) => PICKER_OPTION.test(a));
  if (verb !== undefined && GREP_FILTERS.test(verb)) {
    const operands = args.filter((a) => !a.startsWith("-"));
    return operands.length === 1 && args.every((a) => !a.startsWith("-") || GREP_FILTER_OPTION.test(a));
  }
  return false;
}

/** glob would refuse the call: a recursive pattern with no directory to narrow it. */
function globRefuses(step: RouteStep, opts: RouteOptions): boolean {
  if (step.tool !== "glob" || !opts.globRefusesUnscoped) return false;
  const scope = step.args?.path ?? step.scope;
  const unscoped = scope === undefined || scope === "" || scope === "." || scope === "./";
  // With no pattern to suggest, the discovery is recursive from wherever it starts.
  const pattern = step.args?.pattern;
  return unscoped && (pattern === undefined || String(pattern).startsWith("**/"));
}

interface Routed extends RouteStep {
  fragment: string;
}

const fragmentText = (cmd: SimpleCommand): string => [...cmd.assignments, ...cmd.words].map((w) => w.raw).join(" ");

/**
 * With `bash_redirect_read_side = true`: the dedicated tool for the parts of
 * a line that only display a file, search text or discover paths, wherever
 * they stand in a list (`make; cat out.txt`) and when a pipeline only picks
 * lines of their output (`cat f | grep x`). A pipe stage reading stdin, a
 * count, a backgrounded or negated item and an item with a substitution stay
 * in the shell; loops and groups keep the whole line there, as does a step
 * whose tool is inactive or would refuse it.
 */
export function readSideRoute(cmd: string, activeTools: ReadonlySet<string>, opts: RouteOptions = {}): ShellRoute | undefined {
  const p = parseShell(cmd);
  if (!p.parseable || p.keywords.length || !p.items.length) return undefined;
  const routed: Routed[] = [];
  // After a cd the paths are relative to somewhere else: the tool is named, the call is not.
  let moved = false;
  for (const item of p.items) {
    const { stages, negated } = item.pipeline;
    const first = stages[0]!;
    const verb = verbOf(first.words);
    // A substitution in this item makes what it reads unknown; one elsewhere on the line does not.
    const substituted = stages.some((st) => st.substitutions.length > 0);
    if (item.op !== "&" && !negated && !substituted && stages.slice(1).every(picksLines)) {
      const step = routeStep(first);
      if (step && activeTools.has(step.tool) && !globRefuses(step, opts) && !leavesProject(step, opts.cwd)) {
        routed.push({ ...step, ...(moved ? { args: undefined } : {}), fragment: fragmentText(first) });
      }
    }
    if (verb === "cd" || verb === "pushd" || verb === "popd") moved = true;
  }
  if (!routed.length) return undefined;
  const whole = p.items.length === 1 && p.items[0]!.pipeline.stages.length === 1;
  const tools = [...new Set(routed.map((s) => s.tool))];
  const named = tools.length === 1 ? `the ${tools[0]} tool` : `the ${tools.join(" and ")} tools`;
  const reasons = tools.map((t) => ROUTE_REASONS[t]).join("; ");
  const target = whole ? "this" : routed.map((r) => `\`${r.fragment}\``).join(", ");
  const rest = whole ? "" : "; run the rest of the line on its own";
  const calls = routed.filter((s) => s.args).map((s) => `${s.tool} ${JSON.stringify(s.args)}`);
  const suggestion = calls.length ? ` Try: ${calls.join("; ")}` : "";
  return {
    tool: routed[0]!.tool,
    message: `ERROR: shell_routed: use ${named} for ${target} (${reasons}); it returns paged, structured results${rest}.${suggestion}`,
  };
}
