// Path spellings a model sends that name no project file as written: an empty
// path (it would resolve to the project folder itself and be answered as "a
// directory"), and a `~/…` path (the Yuj file tools do not expand `~`; taken
// as written it would create a folder named `~` in the project). Also the
// file that stands where a write needs a folder (`a.txt/b.txt` over a file
// a.txt), which the checked write would otherwise report as a path that
// changed while it was opened.

import * as path from "node:path";
import type { FileSystem } from "../../core/services.js";

/** The refusal for a path no Yuj file tool should take as written; "" when it is fine. */
export async function pathSpellingError(fs: FileSystem, cwd: string, input: string): Promise<string> {
  if (input.trim() === "") return "ERROR: path is required: name the file relative to the project (e.g. src/app.py)";
  if (input !== "~" && !input.startsWith("~/")) return "";
  // A project that really has a `~` folder may name it.
  const exists = await fs.lstat(path.join(cwd, "~")).then(() => true, () => false);
  if (exists) return "";
  return (
    `ERROR: ${input} starts with ~, which the file tools do not expand: they work inside the project only. ` +
    `Name the file relative to the project (e.g. ${input.replace(/^~\/*/, "") || "notes.md"})`
  );
}

/**
 * The project-relative name of an existing file (not a folder) on the way to
 * `abs`, such as `a.txt` for `a.txt/b.txt`; undefined when every existing
 * ancestor inside the project is a folder.
 */
export async function fileInTheWay(fs: FileSystem, cwdReal: string, abs: string): Promise<string | undefined> {
  for (let dir = path.dirname(abs); dir.startsWith(cwdReal + path.sep); dir = path.dirname(dir)) {
    const st = await fs.stat(dir).catch(() => undefined);
    if (st) return st.isDirectory() ? undefined : path.relative(cwdReal, dir).split(path.sep).join("/");
  }
  return undefined;
}
