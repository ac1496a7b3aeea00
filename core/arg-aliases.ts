// The argument forms a model writes that are not today's schema, read the
// way the model meant them in the forgiving mode (schema_validation = "off"),
// each with a note in the result so the model learns the form it should
// send: an old parameter name, a bare string for a list, and a parameter the
// tool does not take (dropped, never silently).

/** Old parameter names models still send, read as the name the tool uses now. */
const ALIASES: ReadonlyArray<{ from: string; to: string; forgivingOnly?: true }> = [
  { from: "filePath", to: "path" },
  { from: "file_path", to: "path" },
  { from: "pattern", to: "patterns" },
  { from: "path", to: "paths" },
  { from: "glob", to: "includes" },
  // The names other agents' tools use for the same thing (a shell tool's
  // `command`, an edit tool's `old_string`), read only on a surface that lets
  // undeclared parameters through: a strict surface refuses them by name.
  { from: "command", to: "cmd", forgivingOnly: true },
  { from: "old_string", to: "old_str", forgivingOnly: true },
  { from: "new_string", to: "new_str", forgivingOnly: true },
  { from: "contents", to: "content", forgivingOnly: true },
  // A search tool's file filter under the name ripgrep-style tools give it.
  { from: "include", to: "glob", forgivingOnly: true },
];

/** Values of an enum under the name another system gives them (the lsp kind `symbols` for `document_symbols`). */
const VALUE_ALIASES: ReadonlyArray<{ from: string; to: string }> = [{ from: "symbols", to: "document_symbols" }];

/**
 * Field names inside a list's items, as other agents' tools name them (a
 * todo tool's `content` for the item's text), read where the item declares
 * `to` and not `from`.
 */
const ITEM_ALIASES: ReadonlyArray<{ from: string; to: string }> = [{ from: "content", to: "description" }];

/** Each item of a list of objects with its old field names moved to today's; one note per name moved. */
function readItemAliases(tool: string, key: string, items: unknown[], declared: (path: PropertyKey[]) => string | undefined): string[] {
  const notes: string[] = [];
  for (const { from, to } of ITEM_ALIASES) {
    if (declared([key, 0, to]) === undefined || declared([key, 0, from]) !== undefined) continue;
    let moved = false;
    for (const item of items) {
      if (!item || typeof item !== "object" || Array.isArray(item)) continue;
      const o = item as Record<string, unknown>;
      if (!(from in o) || to in o) continue;
      o[to] = o[from];
      delete o[from];
      moved = true;
    }
    if (moved) notes.push(`Note: ${tool}'s ${key} items have no field "${from}"; it was read as "${to}".`);
  }
  return notes;
}

/** The keys a model's echo of the whole call puts beside the arguments: `{"name": "read", "arguments": {…}}`. */
const CALL_KEYS = new Set(["name", "tool", "tool_name", "function", "type", "id"]);

/**
 * The arguments a model sent inside an envelope of its own (`{"arguments":
 * {"path": …}}`, `{"name": "read", "input": {…}}`): when no top-level key is
 * a parameter, every other key names the call, and one value is an object
 * of parameters only.
 */
function wrapped(given: Record<string, unknown>, exposed: readonly string[]): { key: string; args: Record<string, unknown> } | undefined {
  const keys = Object.keys(given);
  if (keys.some((k) => exposed.includes(k))) return undefined;
  const holders = keys.filter((k) => {
    const v = given[k];
    return v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((p) => exposed.includes(p));
  });
  if (holders.length !== 1 || keys.some((k) => k !== holders[0] && !CALL_KEYS.has(k))) return undefined;
  return { key: holders[0]!, args: given[holders[0]!] as Record<string, unknown> };
}

/** A number or boolean some models send quoted ("2", "true"), as the value it spells; undefined when it spells none. */
function quotedScalar(text: string, type: string): number | boolean | undefined {
  const t = text.trim();
  if (type === "integer" && /^-?\d{1,15}$/.test(t)) return Number(t);
  if (type === "number" && /^-?\d{1,15}(\.\d+)?$/.test(t)) return Number(t);
  if (type === "boolean" && (t === "true" || t === "false")) return t === "true";
  return undefined;
}

/**
 * What a bare string for a list parameter is told, in the reference
 * system's words for that parameter, with the array form to send instead.
 */
function bareStringNote(key: string): string {
  const example: Record<string, string> = { paths: '["internal/tui"]', includes: '["**/*.go"]', patterns: '["**/*.go"]' };
  const was = key === "patterns" ? "was a single string" : "was a string";
  return `Note: ${key} ${was} and was treated as a one-item list. Use the documented array form, for example ${key}: ${example[key] ?? '["..."]'}, in future calls.`;
}

/**
 * The arguments with each old name moved to its current one (when the tool
 * shows the current name, not the old one; when the call gives both, the
 * old one is dropped) and a bare string put in a list where the schema takes
 * an array.
 */
interface SchemaFacts {
  /** The JSON type the model was shown at a path (`string`, `string | array`). */
  declared: (path: PropertyKey[]) => string | undefined;
  /** The values a top-level parameter's schema lists under `enum`. */
  enumOf: (key: string) => readonly unknown[] | undefined;
  /** The surface lets undeclared parameters through (the other agents' names are read only there). */
  forgiving: boolean;
}

export function readAliases(
  tool: string,
  given: Record<string, unknown>,
  exposed: readonly string[],
  { declared, enumOf, forgiving }: SchemaFacts,
): { args: Record<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  const inner = forgiving ? wrapped(given, exposed) : undefined;
  if (inner) notes.push(`Note: ${tool}'s arguments came wrapped in "${inner.key}"; they were read from inside it. Send the parameters themselves.`);
  const args = { ...(inner?.args ?? given) };
  for (const { from, to, forgivingOnly } of ALIASES) {
    if (!(from in args) || exposed.includes(from) || !exposed.includes(to) || (forgivingOnly && !forgiving)) continue;
    if (to in args) {
      // The current name wins, as in the reference system.
      delete args[from];
      notes.push(`Note: ${tool} has no parameter "${from}"; "${to}" was given too, so "${from}" was ignored.`);
      continue;
    }
    args[to] = args[from];
    delete args[from];
    notes.push(`Note: ${tool} has no parameter "${from}"; it was read as "${to}".`);
  }
  for (const key of exposed) {
    const type = declared([key]);
    const value = args[key];
    if (forgiving && Array.isArray(value)) {
      // Copies, so the call as the model sent it stays as it was.
      args[key] = value.map((v) => (v && typeof v === "object" && !Array.isArray(v) ? { ...v } : v));
      notes.push(...readItemAliases(tool, key, args[key] as unknown[], declared));
      continue;
    }
    if (typeof value !== "string" || type === undefined) continue;
    const renamed = forgiving ? VALUE_ALIASES.find((a) => a.from === value && enumOf(key)?.includes(a.to) && !enumOf(key)?.includes(a.from)) : undefined;
    if (renamed) {
      args[key] = renamed.to;
      notes.push(`Note: ${key} "${renamed.from}" was read as "${renamed.to}".`);
      continue;
    }
    // Only a list of strings: a string is no item of a list of objects (write_todos' todos).
    const items = declared([key, 0]);
    if (type !== "string" && type.split(" | ").includes("array") && (items === undefined || items.split(" | ").includes("string"))) {
      args[key] = [value];
      notes.push(bareStringNote(key));
      continue;
    }
    // A strict surface's tools decode a quoted number as the error it is.
    const scalar = forgiving ? quotedScalar(value, type) : undefined;
    if (scalar === undefined) continue;
    args[key] = scalar;
    notes.push(`Note: ${key} was the string ${JSON.stringify(value)} and was read as the ${type} ${String(scalar)}; send it unquoted in future calls.`);
  }
  return { args, notes };
}

/** " (did you mean "old_str"?)" for a name that differs from an accepted one only in case or underscores; else "". */
export function meantParam(key: string, exposed: readonly string[]): string {
  const squash = (s: string) => s.toLowerCase().replace(/_/g, "");
  const close = exposed.find((e) => squash(e) === squash(key));
  return close ? ` (did you mean "${close}"?)` : "";
}

export function acceptedParams(exposed: readonly string[]): string {
  return `accepted parameters: ${exposed.length ? exposed.join(", ") : "none"}`;
}

/** Removes each top-level parameter not in `kept`; returns them with their values. */
export function dropUndeclared(args: Record<string, unknown>, kept: readonly string[]): Array<[string, unknown]> {
  const dropped = Object.entries(args).filter(([key]) => !kept.includes(key));
  for (const [key] of dropped) delete args[key];
  return dropped;
}

/** What a call that ran is told of a parameter it sent that the tool does not take. */
export function ignoredNote(tool: string, key: string, exposed: readonly string[]): string {
  return `Note: ${tool} takes no "${key}" parameter${meantParam(key, exposed)}; it was ignored (${acceptedParams(exposed)}).`;
}

/** Several parameters the tool does not take, each with its near name, then what it accepts. */
export function unknownParams(keys: readonly string[], exposed: readonly string[]): string {
  return `unknown parameters ${keys.map((k) => `"${k}"${meantParam(k, exposed)}`).join(", ")}; ${acceptedParams(exposed)}`;
}
