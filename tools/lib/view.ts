// Pieces the tools' views share: reading an argument that may be anything
// (a view sees the model's arguments before they are checked), a path as the
// person thinks of it, a command's first line.

import { isAbsolute, relative } from "node:path";

/** A string argument, or undefined when it is missing or not a string. */
export const str = (args: Record<string, unknown>, key: string): string | undefined =>
  typeof args[key] === "string" ? (args[key] as string) : undefined;

/** A number argument, or undefined. */
export const num = (args: Record<string, unknown>, key: string): number | undefined =>
  typeof args[key] === "number" ? (args[key] as number) : undefined;

/** A path as the user thinks of it: relative when it lies inside cwd. */
export function shownPath(p: string, cwd: string): string {
  if (!cwd || !isAbsolute(p)) return p;
  const rel = relative(cwd, p);
  if (rel === "") return ".";
  return rel.startsWith("..") || isAbsolute(rel) ? p : rel;
}

/** A command for a header: its first line, marked when more follow. */
export function commandSummary(cmd: string | undefined): string {
  if (cmd === undefined) return "";
  const lines = cmd.trim().split("\n");
  return lines.length > 1 ? `${lines[0]} …` : (lines[0] ?? "");
}

/** `pattern in dir (glob)`: a search for a header. */
export function searchSummary(pattern: string, where: string | undefined, glob: string | undefined, cwd: string): string {
  let s = pattern;
  if (where && where !== ".") s += ` in ${shownPath(where, cwd)}`;
  if (glob) s += ` (${glob})`;
  return s;
}

/** `path:first-last` for a read of some lines (offset lines skipped, limit lines at most). */
export function rangeSummary(path: string, offset: number, limit: number): string {
  if (offset <= 0 && limit <= 0) return path;
  return `${path}:${offset + 1}-${limit > 0 ? offset + limit : ""}`;
}

/** A list argument that may also be given as one string. */
export function listArg(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
