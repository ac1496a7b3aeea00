// A python3 that can run pytest, for the tests that run it for real: the one
// on PATH when it has pytest (a pyenv shim here), else Debian's
// /usr/bin/python3 with the python3-pytest package (.ci/run installs it).

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

let found: { dir: string; found: boolean } | undefined;

/** The directory to put first on PATH so that `python3 -m pytest` works, and whether there is one. */
export function pythonWithPytest(): { dir: string; found: boolean } {
  found ??= search();
  return found;
}

function search(): { dir: string; found: boolean } {
  for (const dir of [...(process.env.PATH ?? "").split(":").filter(Boolean), "/usr/bin"]) {
    const py = path.join(dir, "python3");
    if (fs.existsSync(py) && spawnSync(py, ["-m", "pytest", "--version"], { stdio: "ignore" }).status === 0) return { dir, found: true };
  }
  return { dir: "/usr/bin", found: false };
}
