// A delegated task's expected write scope: the files, path prefixes and
// modules its worker means to change. It coordinates siblings (an overlap
// with a live task is reported); it never limits what the worker's file
// tools may touch.

export interface WriteScope {
  files: string[];
  path_prefix: string[];
  modules: string[];
}

export const emptyScope = (s: WriteScope): boolean => s.files.length + s.path_prefix.length + s.modules.length === 0;

/** Lexically clean relative path: no leading ./, no trailing /, single slashes. */
const clean = (p: string) => p.trim().replace(/^\.\/+/, "").replace(/\/+/g, "/").replace(/\/$/, "");

const under = (path: string, prefix: string) => prefix === "" || path === prefix || path.startsWith(`${prefix}/`);

/** Whether two scopes may touch the same file: a shared file, a file under the other's prefix, nested prefixes, a shared module. */
export function scopesOverlap(a: WriteScope, b: WriteScope): boolean {
  const aFiles = a.files.map(clean);
  const bFiles = b.files.map(clean);
  const aPre = a.path_prefix.map(clean);
  const bPre = b.path_prefix.map(clean);
  if (aFiles.some((f) => bFiles.includes(f))) return true;
  if (aFiles.some((f) => bPre.some((p) => under(f, p)))) return true;
  if (bFiles.some((f) => aPre.some((p) => under(f, p)))) return true;
  if (aPre.some((p) => bPre.some((q) => under(p, q) || under(q, p)))) return true;
  return a.modules.some((m) => b.modules.includes(m));
}

/** The scope as the reference keeps it: each entry trimmed, blanks dropped, repeats removed. */
export function normalizeScope(s: WriteScope): WriteScope {
  const tidy = (list: readonly string[]) => [...new Set(list.map((e) => e.trim()).filter((e) => e !== ""))];
  return { files: tidy(s.files), path_prefix: tidy(s.path_prefix), modules: tidy(s.modules) };
}

/** The scope as a handle shows it: the lists it declares, an empty one left out. */
export function scopeView(s: WriteScope): Partial<WriteScope> {
  return {
    ...(s.files.length ? { files: s.files } : {}),
    ...(s.path_prefix.length ? { path_prefix: s.path_prefix } : {}),
    ...(s.modules.length ? { modules: s.modules } : {}),
  };
}
