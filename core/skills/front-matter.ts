// The front matter of a SKILL.md: the `---` block at its top, read as the
// flat YAML the format uses (`key: value`, quoted or not; a list as `[a, b]`
// or as `- item` lines under the key). Anything deeper is not needed for a
// skill's name, description and allowed-tools, and is kept as text.

export interface FrontMatter {
  fields: Record<string, string | string[]>;
  body: string;
}

export function splitFrontMatter(text: string): FrontMatter | { error: string } {
  const src = text.replace(/^\uFEFF/, "");
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(src);
  if (!m) return { error: "it does not start with a --- front matter block" };
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const raw of m[1]!.split(/\r?\n/)) {
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s+(.*)$/.exec(raw) ?? /^-\s+(.*)$/.exec(raw);
    if (item && listKey !== undefined) {
      const list = fields[listKey];
      fields[listKey] = [...(Array.isArray(list) ? list : []), unquote(item[1]!)];
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(raw);
    if (!kv) {
      // A folded continuation line of the previous value.
      const last = Object.keys(fields).at(-1);
      if (last !== undefined && typeof fields[last] === "string") fields[last] = `${fields[last]} ${raw.trim()}`.trim();
      continue;
    }
    const [, key, value] = kv as unknown as [string, string, string];
    listKey = value.trim() === "" ? key : undefined;
    fields[key] = parseValue(value.trim());
  }
  return { fields, body: src.slice(m[0].length) };
}

function parseValue(v: string): string | string[] {
  if (v.startsWith("[") && v.endsWith("]")) {
    return v
      .slice(1, -1)
      .split(",")
      .map((s) => unquote(s.trim()))
      .filter((s) => s !== "");
  }
  if (v === ">" || v === "|" || v === ">-" || v === "|-") return "";
  return unquote(v);
}

function unquote(v: string): string {
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) return v.slice(1, -1);
  return v;
}
