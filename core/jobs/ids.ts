// Ids of a session's jobs and terminals: `j1`, `j2`, … and `t1`, `t2`, …,
// unique within the session across every process that runs it. A resumed
// session is a new process with a new manager; counting from 1 again would
// hand out `j1` a second time, whose log the earlier process left behind
// (the new job's output would follow the old one in that file, and the saved
// state would list two `j1`). Every job and terminal writes its log file the
// moment it starts, so the logs in the folder are the record of the ids used:
// numbering continues past the highest one found.

import * as fs from "node:fs";
import * as path from "node:path";

/** The highest N of the `<prefix>N.log` files in `dir`; 0 when none (or no dir). */
function highestUsed(dir: string, prefix: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  const pattern = new RegExp(`^${prefix}([1-9][0-9]*)\\.log$`);
  let highest = 0;
  for (const name of names) {
    const n = Number(pattern.exec(name)?.[1] ?? 0);
    if (n > highest) highest = n;
  }
  return highest;
}

/** Hands out `<prefix>N` ids whose `<dir>/<prefix>N.log` no process of the session has written yet. */
export function logIdAllocator(dir: string, prefix: string): () => string {
  let last: number | undefined;
  return () => {
    // Read once, at the first id: from then on this process is the only writer.
    last ??= highestUsed(dir, prefix);
    let id: string;
    do id = `${prefix}${++last}`;
    while (fs.existsSync(path.join(dir, `${id}.log`)));
    return id;
  };
}
