// What a project config may not do on its own: every setting that lets a
// project run a command on the host, widen the sandbox, skip approvals or
// reach a secret. This list is the only place that knows it. A project
// config (./.yuj/config.toml: a cloned repository ships it, a command the
// model ran may have written it) gets these settings only once the user
// trusts the file; until then they are dropped from the project's layer and
// the layers below (your own config, the defaults) decide.
//
// Each check compares the project's table with what the layers below give,
// so setting a key to the value you already have, or tightening it, is not
// loosening. A new feature that runs commands (hooks, MCP servers, agents…)
// adds one line to LOOSENING_CHECKS when it adds its keys to the schema
// (until then not-supported.ts refuses them, so a project cannot set them).

import { resolveSandboxMode } from "../sandbox/index.js";
import type { Config } from "./schema.js";

type Table = Record<string, unknown>;
type KeyPath = readonly (string | number)[];

/** One loosening setting found in the project's file. */
export interface Loosening {
  /** As written in the file: `sandbox.mode`, `permissions.rules[2]`, `lsp.servers.rust`. */
  key: string;
  path: KeyPath;
  /** The project's value, shortened, as TOML would spell it. */
  value: string;
  /** What it lets happen, for the person deciding whether to trust the file. */
  why: string;
}

interface LooseningCheck {
  /** The loosening parts of `project`, given the merged layers `below` it (defaults included). */
  find(project: Table, below: Table): Loosening[];
}

const LOOSENING_CHECKS: readonly LooseningCheck[] = [
  sandboxMode(),
  raised("sandbox.network", "sandboxed commands get the host's network"),
  raised("sandbox.docker", "sandboxed commands reach the Docker daemon, which is host access"),
  shrunk("sandbox.unreadable_paths", "sandboxed commands can read paths your config hides"),
  changed("tools.bwrap_bin", "this program runs on the host in place of bubblewrap, for every command"),
  raised("permissions.yolo", "calls run without asking"),
  permissionRules(),
  changed("formatter.command", "this command runs on the host after each edit", isEmptyList),
  changed("post_edit_check.checks", "these commands run after each edit, without asking", isEmptyList),
  entries("lsp.servers", "this language server command runs on the host", ["command"]),
  entries("mcp.servers", "this MCP server is started or connected to", ["command", "args", "env", "cwd", "url", "headers", "bearer_token_env"]),
  hookLists(),
  added("shell_env.include", "commands get these environment variables, which may hold secrets"),
  shrunk("shell_env.exclude", "commands get variables your config keeps from them"),
  entries("shell_env.set", "every command gets this environment variable"),
  changed("web_fetch.proxy", "every page web_fetch fetches goes through this proxy"),
  changed("provider.base_url", "your API key and the conversation go to this server"),
  changed("provider.api_key_env", "this environment variable is sent to the provider as the API key"),
];

/** Everything in the project's table that loosens what the layers below set. */
export function findLoosening(project: Table, below: Table, checks = LOOSENING_CHECKS): Loosening[] {
  return checks.flatMap((c) => c.find(project, below));
}

/** The project's table without the found settings (array entries removed, keys deleted). */
export function withoutLoosening(project: Table, found: readonly Loosening[]): Table {
  const out = structuredClone(project);
  // Later array entries first, so the earlier indices stay right.
  const ordered = [...found].sort((a, b) => compareForRemoval(a.path, b.path));
  for (const f of ordered) {
    const parent = valueAt(out, f.path.slice(0, -1));
    const last = f.path[f.path.length - 1]!;
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
    else if (isTable(parent)) delete parent[String(last)];
  }
  return out;
}

// --- the kinds of check -------------------------------------------------

/** A switch the project turns on that is off below. */
function raised(key: string, why: string): LooseningCheck {
  const path = split(key);
  return {
    find: (project, below) =>
      valueAt(project, path) === true && valueAt(below, path) !== true ? [found(path, true, why)] : [],
  };
}

/** A value the project sets to something other than what is below (unless it is harmless, e.g. empty). */
function changed(key: string, why: string, harmless: (v: unknown) => boolean = () => false): LooseningCheck {
  const path = split(key);
  return {
    find(project, below) {
      const v = valueAt(project, path);
      if (v === undefined || harmless(v) || same(v, valueAt(below, path))) return [];
      return [found(path, v, why)];
    },
  };
}

/**
 * A table of named entries (servers, hooks): each entry the project adds, or,
 * in an entry the layers below already have, each of `fields` it changes
 * (all of the entry when `fields` is not given). A new entry is dropped
 * whole, so what is left is never half an entry.
 */
function entries(key: string, why: string, fields?: readonly string[]): LooseningCheck {
  const path = split(key);
  return {
    find(project, below) {
      const mine = valueAt(project, path);
      if (!isTable(mine)) return [];
      const theirs = valueAt(below, path);
      return Object.entries(mine).flatMap(([name, v]) => {
        const old = isTable(theirs) ? theirs[name] : undefined;
        if (same(v, old)) return [];
        if (!fields || !isTable(v) || !isTable(old)) return [found([...path, name], v, why)];
        return fields.filter((f) => v[f] !== undefined && !same(v[f], old[f])).map((f) => found([...path, name, f], v[f], why));
      });
    },
  };
}

/** A list that gains an entry the list below does not have. */
function added(key: string, why: string): LooseningCheck {
  const path = split(key);
  return {
    find(project, below) {
      const mine = valueAt(project, path);
      const theirs = asList(valueAt(below, path));
      if (!Array.isArray(mine) || mine.every((v) => theirs.some((t) => same(t, v)))) return [];
      return [found(path, mine, why)];
    },
  };
}

/** A list that loses an entry the list below has. */
function shrunk(key: string, why: string): LooseningCheck {
  const path = split(key);
  return {
    find(project, below) {
      const mine = valueAt(project, path);
      if (!Array.isArray(mine)) return [];
      const lost = asList(valueAt(below, path)).filter((t) => !mine.some((v) => same(t, v)));
      return lost.length ? [found(path, mine, `${why} (${lost.map(inline).join(", ")})`)] : [];
    },
  };
}

// A project's list of hooks at a point replaces the list below (arrays
// replace), so both adding a hook (a command that runs on every call) and
// dropping one of yours (a hook that blocks what you do not want) change
// what runs: any difference leaves the project's list out whole.
function hookLists(): LooseningCheck {
  return {
    find(project, below) {
      const mine = valueAt(project, ["hooks"]);
      if (!isTable(mine)) return [];
      return Object.entries(mine)
        .filter(([point, list]) => !same(list, valueAt(below, ["hooks", point])))
        .map(([point, list]) => found(["hooks", point], list, `these hook commands run at every ${point}, in place of your own list`));
    },
  };
}

// Sandbox strictness: off < auto < on. The project may set the mode through
// [sandbox].mode or the older [tools] keys; any of them that makes the result
// weaker than what is below is loosening (and all of them are dropped).
const MODE_KEYS: readonly KeyPath[] = [["sandbox", "mode"], ["tools", "sandbox_bash"], ["tools", "sandbox_required"]];
const STRICTNESS = { off: 0, auto: 1, on: 2 } as const;

function sandboxMode(): LooseningCheck {
  const modeOf = (t: Table) => resolveSandboxMode(t as unknown as Config).mode;
  return {
    find(project, below) {
      const set = MODE_KEYS.filter((p) => valueAt(project, p) !== undefined && !same(valueAt(project, p), valueAt(below, p)));
      if (set.length === 0) return [];
      const mine = modeOf(merge(below, pick(project, set)));
      const theirs = modeOf(below);
      if (STRICTNESS[mine] >= STRICTNESS[theirs]) return [];
      const why = mine === "off" ? "commands run unsandboxed, with your permissions" : "commands run unsandboxed where bubblewrap cannot start";
      return set.map((p) => found(p, valueAt(project, p), why));
    },
  };
}

// Project rules replace the list below (arrays replace), and the last
// matching rule wins. Without trust a project may only add deny rules after
// the rules below: an allow skips the approval, an ask after a deny turns
// the deny into a question (which --yolo then answers yes), and a list that
// drops the rules below drops their asks and denies.
function permissionRules(): LooseningCheck {
  const path: KeyPath = ["permissions", "rules"];
  return {
    find(project, below) {
      const rules = valueAt(project, path);
      if (!Array.isArray(rules)) return [];
      const lower = asList(valueAt(below, path));
      if (!lower.every((r, i) => same(r, rules[i]))) {
        return [found(path, rules, `replaces your own ${lower.length} permission rule(s), and with them their asks and denies`)];
      }
      return rules.flatMap((rule, i) => {
        const action = isTable(rule) ? rule.action : undefined;
        if (i < lower.length || action === "deny") return [];
        const why = action === "allow" ? "matching calls run without asking" : "an ask can override a deny before it (and --yolo answers it yes)";
        return [found([...path, i], rule, why)];
      });
    },
  };
}

// --- helpers ------------------------------------------------------------

// Function declarations (hoisted): the checks above are built when the module loads.
function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
function isEmptyList(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}
function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function split(key: string): KeyPath {
  return key.split(".");
}

function valueAt(data: unknown, path: KeyPath): unknown {
  let cur = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/** Only the given key paths of `t`. */
function pick(t: Table, paths: readonly KeyPath[]): Table {
  const out: Table = {};
  for (const p of paths) {
    let cur = out;
    for (const seg of p.slice(0, -1)) cur = (cur[seg] ??= {}) as Table;
    cur[p[p.length - 1]!] = valueAt(t, p);
  }
  return out;
}

function merge(base: Table, top: Table): Table {
  const out: Table = { ...base };
  for (const [k, v] of Object.entries(top)) out[k] = isTable(v) && isTable(out[k]) ? merge(out[k], v) : v;
  return out;
}

/** Deep equality of TOML values (tables compared without regard to key order). */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]));
  }
  if (isTable(a) || isTable(b)) {
    if (!isTable(a) || !isTable(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same(a[k], b[k]));
  }
  return a === b;
}

function found(path: KeyPath, value: unknown, why: string): Loosening {
  return { key: keyText(path), path, value: shorten(inline(value)), why };
}

function keyText(path: KeyPath): string {
  const plain = (seg: string) => (/^[A-Za-z0-9_-]+$/.test(seg) ? seg : JSON.stringify(seg));
  return path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : (i ? "." : "") + plain(seg))).join("");
}

/** A value as an inline TOML value. */
function inline(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
  if (isTable(v)) return `{ ${Object.entries(v).map(([k, x]) => `${k} = ${inline(x)}`).join(", ")} }`;
  if (v instanceof Date) return v.toISOString();
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

const shorten = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

function compareForRemoval(a: KeyPath, b: KeyPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return String(x) < String(y) ? -1 : 1;
  }
  // A whole key before its own entries would leave nothing to remove them from: entries first.
  return b.length - a.length;
}
