// Path values as rules see them: relative ones are joined to the task
// directory; a path inside it is given relative to it (`./src/../a.ts` →
// `a.ts`, the directory itself `.`), one outside it stays absolute (`../x` →
// `/abs/x`), so a rule on `src/*` never covers a path that leaves the
// repository. `~` is kept as written.

import * as path from "node:path";

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
