// Markdown front matter as agent files use it: a `---` fenced block of flat
// `key: value` lines before the body. Values are strings, true/false, whole
// numbers or `[a, b]` lists; nested YAML is refused with the line it is on,
// so a file never half-loads.

export type FrontMatter = { fields: Record<string, unknown>; body: string } | { error: string };

export function parseFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { error: "no front matter: the file must start with a line `---`, the fields, and another `---`" };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) return { error: "front matter is not closed: add a line `---` after the fields" };
  const fields: Record<string, unknown> = {};
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_-]*):\s*(.*)$/.exec(line);
    if (!m) return { error: `front matter line ${i + 1}: expected \`key: value\` (nested values are not supported), got "${line.trim()}"` };
    fields[m[1]!] = scalar(m[2]!.trim());
  }
  return { fields, body: lines.slice(end + 1).join("\n") };
}

function scalar(v: string): unknown {
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^-?\d+$/.test(v)) return Number(v);
  if (v.startsWith("[") && v.endsWith("]")) return v.slice(1, -1).split(",").map((s) => unquote(s.trim())).filter((s) => s);
  return unquote(v);
}

function unquote(v: string): string {
  return (v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")) ? v.slice(1, -1) : v;
}
