// What a rule's pattern is matched against, tool by tool:
// the one table below. Looked up by handler id first (it tells the Yuj and
// Chord tools of one name apart), then by the exposed name; anything else
// matches as `*`.
//
//   bash, shell, terminal_start  the command string (shell's workdir ignored)
//   terminal_io                  the input it sends (`*` when it only reads)
//   read, write, edit, view_image, notebook_edit, structural_*, list_definitions, lsp
//                                the path, repository-relative and lexically cleaned
//   delete                       each path of `paths`
//   apply_patch                  every Add/Update/Delete/Move path of the envelope
//   udiff                        every `---`/`+++` path (not /dev/null)
//   grep                         Chord: the pattern. Yuj: the search path (default `.`),
//                                because Yuj file tools match on repository paths and a
//                                regex is no path; a rule can then fence a directory.
//   glob                         the first pattern (`patterns[0]`, or Yuj's `pattern`)
//   web_fetch                    `host:port` of the URL (see net.ts)
//   skill                        the skill name
//   delegate                     agent_type
//   task                         agent
//
// Paths: relative ones are joined to the task directory; a path inside it is
// given relative to it (`./src/../a.ts` → `a.ts`, the directory itself `.`),
// one outside it stays absolute (`../x` → `/abs/x`), so a rule on `src/*`
// never covers a path that leaves the repository. `~` is kept as written.

import * as path from "node:path";
import { urlMatchValue } from "./net.js";
import type { PermissionCall } from "./types.js";

export type MatchKind = "command" | "path" | "host" | "text" | "any";

/** What a patch does to one path: Add paths also meet write rules, Delete and Move sources delete rules. */
export type PatchRole = "add" | "update" | "delete" | "move_source" | "move_target";

export interface PatchOp {
  path: string;
  role: PatchRole;
}

export interface MatchTarget {
  kind: MatchKind;
  /** One or more values; a call is decided by the strictest of them. */
  values: string[];
  /** For apply_patch and udiff: the role of each path (values are these paths). */
  ops?: PatchOp[];
}

type Surface = "yuj" | "chord";
type Extract = (args: Record<string, unknown>, cwd: string, surface: Surface) => MatchTarget;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const ANY: MatchTarget = { kind: "any", values: ["*"] };

const command = (key: string): Extract => (args) => ({ kind: "command", values: [str(args[key]) ?? ""] });
const onePath = (key: string): Extract => (args, cwd) => ({ kind: "path", values: [cleanPath(str(args[key]) ?? "", cwd)] });
const text = (key: string): Extract => (args) => ({ kind: "text", values: [str(args[key]) ?? ""] });

const TABLE: Record<string, Extract> = {
  bash: command("cmd"),
  shell: command("command"),
  terminal_start: command("cmd"),
  terminal_io: (args) => (str(args.input) === undefined ? ANY : command("input")(args, "", "yuj")),
  read: onePath("path"),
  write: onePath("path"),
  edit: onePath("path"),
  view_image: onePath("path"),
  notebook_edit: onePath("path"),
  structural_edit: onePath("path"),
  structural_search: onePath("path"),
  list_definitions: onePath("path"),
  lsp: onePath("path"),
  delete: (args, cwd) => {
    // `paths` may be one string as well as a list.
    const given = typeof args.paths === "string" ? [args.paths] : args.paths;
    const list = Array.isArray(given) ? given.filter((p): p is string => typeof p === "string") : [];
    const single = str(args.path);
    const all = single === undefined ? list : [...list, single];
    return { kind: "path", values: unique(all.length ? all.map((p) => cleanPath(p, cwd)) : [""]) };
  },
  apply_patch: (args, cwd) => patchTarget(parsePatchEnvelope(str(args.patch) ?? str(args.input) ?? ""), cwd),
  udiff: (args, cwd) => patchTarget(parseUnifiedDiffPaths(str(args.patch) ?? ""), cwd),
  grep: (args, cwd, surface) =>
    surface === "chord" ? text("pattern")(args, cwd, surface) : { kind: "path", values: [cleanPath(str(args.path) ?? ".", cwd)] },
  glob: (args) => {
    const first = Array.isArray(args.patterns) ? args.patterns[0] : (args.patterns ?? args.pattern);
    return { kind: "text", values: [str(first) ?? ""] };
  },
  web_fetch: (args) => ({ kind: "host", values: [urlMatchValue(str(args.url) ?? "")] }),
  skill: text("name"),
  delegate: text("agent_type"),
  task: text("agent"),
};

/** The match values of a call, by its handler, else its exposed name; `*` for other tools. */
export function matchTarget(call: PermissionCall, surface: Surface): MatchTarget {
  const extract = (Object.hasOwn(TABLE, call.handler) ? TABLE[call.handler] : undefined) ??
    (Object.hasOwn(TABLE, call.tool) ? TABLE[call.tool] : undefined);
  return extract ? extract(call.args, call.cwd, surface) : ANY;
}

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** Repository-relative when inside `cwd`, absolute (cleaned) when outside; `~` paths as written. */
export function cleanPath(p: string, cwd: string): string {
  if (p === "") return "";
  if (p.startsWith("~")) return path.posix.normalize(p);
  const root = path.posix.normalize(cwd).replace(/\/+$/, "") || "/";
  const abs = path.posix.normalize(p.startsWith("/") ? p : `${root}/${p}`).replace(/(.)\/+$/, "$1");
  if (abs === root) return ".";
  const prefix = root === "/" ? "/" : `${root}/`;
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : abs;
}

function patchTarget(ops: PatchOp[] | undefined, cwd: string): MatchTarget {
  // An envelope without a single file header is not parseable: nothing to fence by path.
  if (!ops || !ops.length) return { kind: "path", values: ["*"] };
  const cleaned = ops.map((op) => ({ path: cleanPath(op.path, cwd), role: op.role }));
  return { kind: "path", values: unique(cleaned.map((o) => o.path)), ops: cleaned };
}

/** The file operations of a Codex apply_patch envelope, from its headers alone. */
export function parsePatchEnvelope(patch: string): PatchOp[] | undefined {
  const lines = patch.split(/\r?\n/);
  if (!lines.some((l) => l.trim() === "*** Begin Patch")) return undefined;
  const ops: PatchOp[] = [];
  for (const raw of lines) {
    const line = raw.trimEnd();
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line);
    if (!m) continue;
    const file = m[2]!.trim();
    switch (m[1]) {
      case "Add File":
        ops.push({ path: file, role: "add" });
        break;
      case "Update File":
        ops.push({ path: file, role: "update" });
        break;
      case "Delete File":
        ops.push({ path: file, role: "delete" });
        break;
      case "Move to": {
        // `*** Move to:` follows the Update it renames: that path is now a source.
        const source = ops.at(-1);
        if (source?.role === "update") source.role = "move_source";
        ops.push({ path: file, role: "move_target" });
        break;
      }
    }
  }
  return ops;
}

/** The files of a unified diff: `--- /dev/null` adds, `+++ /dev/null` deletes, different names move. */
export function parseUnifiedDiffPaths(diff: string): PatchOp[] | undefined {
  const ops: PatchOp[] = [];
  const lines = diff.split(/\r?\n/);
  const name = (s: string): string | undefined => {
    let f = s.split("\t")[0]!.trim();
    if (/^".*"$/.test(f)) f = f.slice(1, -1);
    if (f === "/dev/null" || f === "") return undefined;
    return f.replace(/^[ab]\//, "");
  };
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith("--- ") || !lines[i + 1]!.startsWith("+++ ")) continue;
    const from = name(lines[i]!.slice(4));
    const to = name(lines[i + 1]!.slice(4));
    if (from === undefined && to !== undefined) ops.push({ path: to, role: "add" });
    else if (to === undefined && from !== undefined) ops.push({ path: from, role: "delete" });
    else if (from !== undefined && to !== undefined && from !== to) {
      ops.push({ path: from, role: "move_source" }, { path: to, role: "move_target" });
    } else if (to !== undefined) ops.push({ path: to, role: "update" });
    i++;
  }
  return ops.length ? ops : undefined;
}
