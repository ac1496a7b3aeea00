// Read-side routing of path discovery (find, ls -R, tree) to the glob tool.

import { scanOptions, type OptionSpec, type ScannedOptions } from "./common.js";
import type { RouteStep } from "./routing.js";

/** A glob for files named like `name` at any depth (or at the top, for maxdepth 1). */
export function globPattern(name: string, anyDepth: boolean): string {
  return anyDepth && !name.includes("/") && !name.startsWith("**") ? `**/${name}` : name;
}

export function globStep(paths: readonly string[], pattern: string | undefined): RouteStep | undefined {
  if (paths.length > 1) return undefined;
  if (pattern === undefined) return paths[0] === undefined ? { tool: "glob" } : { tool: "glob", scope: paths[0] };
  const args: Record<string, string> = { pattern };
  if (paths[0] !== undefined && paths[0] !== ".") args.path = paths[0];
  return { tool: "glob", args };
}

/** `find [PATH] [-name P | -iname P | -type T | -maxdepth N | -o | ( ) ...]` with no action. */
export function findStep(args: readonly string[]): RouteStep | undefined {
  let i = 0;
  const paths: string[] = [];
  while (i < args.length && !args[i]!.startsWith("-") && args[i] !== "(" && args[i] !== "!") paths.push(args[i++]!);
  const names: string[] = [];
  let maxdepth: number | undefined;
  let exact = true; // the expression maps onto one glob pattern
  for (; i < args.length; i++) {
    const a = args[i]!;
    switch (a) {
      case "-name":
      case "-iname":
      case "-path":
      case "-ipath":
      case "-wholename":
      case "-type":
      case "-maxdepth":
      case "-mindepth": {
        const v = args[++i];
        if (v === undefined) return undefined;
        if (a === "-name") names.push(v);
        else if (a === "-type") {
          if (!/^[fdl](?:,[fdl])*$/.test(v)) return undefined;
          if (v !== "f") exact = false;
        } else if (a === "-maxdepth" && /^\d+$/.test(v)) maxdepth = Number(v);
        else exact = false;
        break;
      }
      case "-not":
      case "!":
      case "-o":
      case "-or":
      case "(":
      case ")":
        exact = false;
        break;
      case "-a":
      case "-and":
      case "-print":
        break;
      default:
        return undefined; // -exec, -delete, -newer, -size, -prune, -printf ...
    }
  }
  const pattern = exact && names.length <= 1 ? globPattern(names[0] ?? "*", maxdepth !== 1) : undefined;
  return globStep(paths, pattern);
}

export function lsStep(args: readonly string[]): RouteStep | undefined {
  let recursive = false;
  const paths: string[] = [];
  for (const a of args) {
    if (a === "--recursive") recursive = true;
    else if (/^-[A-Za-z1]+$/.test(a)) recursive ||= a.includes("R");
    else if (a.startsWith("-")) return undefined;
    else paths.push(a);
  }
  return recursive ? globStep(paths, "**/*") : undefined;
}

const TREE_SPEC: OptionSpec = {
  flags: "adfFiCn",
  valued: "LIP",
  long: { noreport: "noreport", dirsfirst: "dirsfirst" },
  longValued: {},
};

export function treeStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, TREE_SPEC);
  if (!o) return undefined;
  if (o.flags.has("d") || o.valued.has("I")) return globStep(o.operands, undefined);
  const only = o.valued.get("P");
  return globStep(o.operands, only?.length === 1 ? globPattern(only[0]!, true) : "**/*");
}

const FD_SPEC: OptionSpec = {
  flags: "HIiFsgL",
  valued: "etd",
  long: { hidden: "H", "no-ignore": "I", "ignore-case": "i", "fixed-strings": "F", "case-sensitive": "s", glob: "g", follow: "L" },
  longValued: { extension: "e", type: "t", "max-depth": "d" },
};

/** The glob of file names fd's PATTERN picks, when one glob states it exactly. */
function fdNames(o: ScannedOptions, pattern: string | undefined): string | undefined {
  const exts = o.valued.get("e") ?? [];
  if (exts.length > 1 || (o.valued.get("t") ?? []).some((t) => t !== "f" && t !== "file")) return undefined;
  const ext = exts[0]?.replace(/^\./, "");
  if (pattern === undefined || pattern === "" || pattern === ".") return ext === undefined ? "*" : `*.${ext}`;
  if (ext !== undefined || o.flags.has("i")) return undefined;
  if (o.flags.has("g")) return pattern;
  // A literal fd pattern matches anywhere in the name; all-lowercase is case-insensitive (smart case).
  const literal = o.flags.has("F") ? !/[*?[\]{}]/.test(pattern) : /^[\w-]+$/.test(pattern);
  const caseExact = o.flags.has("s") || /[A-Z]/.test(pattern);
  return literal && caseExact ? `*${pattern}*` : undefined;
}

/** `fd [PATTERN] [PATH]` (also `fdfind`, Debian's name): file discovery, as glob does it. */
export function fdStep(args: readonly string[]): RouteStep | undefined {
  const o = scanOptions(args, FD_SPEC);
  if (!o || o.operands.length > 2) return undefined;
  const [pattern, ...paths] = o.operands;
  const depth = o.valued.get("d");
  const names = depth === undefined || depth[0] === "1" ? fdNames(o, pattern) : undefined;
  return globStep(paths, names === undefined ? undefined : globPattern(names, depth === undefined));
}
