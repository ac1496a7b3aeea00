// Keys other configurations of this kind of agent use for a yuj setting.
// A file written for them works here: the old key is read as yuj's, and a
// note says which name yuj uses, so the user can rename it. A file that sets
// both names is an error (which one wins would be a guess).

import { ConfigError } from "./errors.js";

type Table = Record<string, unknown>;

interface Alias {
  table: string;
  from: string;
  to: string;
}

const ALIASES: readonly Alias[] = [
  // Code mode's switch and whole-cell timeout in seconds.
  { table: "tools", from: "exec_cell_enabled", to: "code_mode" },
  { table: "tools", from: "exec_cell_timeout", to: "code_cell_timeout" },
  // The read-before-edit guard's mode (off, warn, block) and how deep tasks nest.
  { table: "tools", from: "stale_guard_mode", to: "stale_file" },
  { table: "tools", from: "subagent_depth", to: "task_max_depth" },
  // The required planning phase's request limit.
  { table: "loop", from: "plan_mode_max_turns", to: "plan_max_turns" },
];

/** An old key moved to yuj's name in one file. */
export interface MovedKey {
  from: string;
  to: string;
}

/** Moves each old key of `data` (one file's tables) to yuj's name; returns the keys moved. */
export function renameAliases(data: Table, file: string): MovedKey[] {
  const moved: MovedKey[] = [];
  for (const { table, from, to } of ALIASES) {
    const t = data[table];
    if (typeof t !== "object" || t === null || Array.isArray(t) || !Object.hasOwn(t, from)) continue;
    const entries = t as Table;
    if (Object.hasOwn(entries, to)) {
      throw new ConfigError([{ file, key: `${table}.${from}`, message: `${table}.${from} and ${table}.${to} are both set: ${from} is another name for ${to}; remove ${from}` }]);
    }
    entries[to] = entries[from];
    delete entries[from];
    moved.push({ from: `${table}.${from}`, to: `${table}.${to}` });
  }
  return moved;
}

/** The note for a moved key, shown where the config's sources are listed. */
export const aliasNote = (file: string, m: MovedKey) =>
  `${file}: ${m.from} is read as ${m.to} (yuj's name for the setting); rename the key to silence this note`;

/** Errors about a moved key name the key as the file wrote it. */
export function blameAlias(err: ConfigError, moved: readonly MovedKey[]): ConfigError {
  if (moved.length === 0) return err;
  return new ConfigError(err.issues.map((issue) => {
    const m = moved.find((k) => issue.key === k.to);
    if (!m) return issue;
    return { ...issue, key: m.from, message: issue.message.replace(m.to, `${m.from} (read as ${m.to})`) };
  }));
}
