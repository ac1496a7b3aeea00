// Globs as models write a list of them. Shared by grep's glob filter and
// glob's pattern.

/**
 * A comma list of globs (`*.py,*.ts`, `*.py, *.ts`) as the one brace glob
 * ripgrep reads as "any of them" (`{*.py,*.ts}`); a single glob, or a comma
 * inside `{}`/`[]`, as written. Taken literally the list matches no file, and
 * models write it that way often.
 */
export function globList(glob: string): string {
  let depth = 0;
  const parts: string[] = [];
  let cur = "";
  for (const c of glob) {
    if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && depth > 0) depth--;
    if (c === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  parts.push(cur.trim());
  const kept = parts.filter((p) => p !== "");
  if (kept.length < 2 || kept.some((p) => p.startsWith("!"))) return glob;
  return `{${kept.join(",")}}`;
}
