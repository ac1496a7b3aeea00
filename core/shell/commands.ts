// Reading commands out of a parse: every simple command, the verb a command
// runs, and the command behind wrappers such as `sudo` or `env` (wrappers.ts).

import { xargsCommand } from "./runners.js";
import type { ShellParse, SimpleCommand, Word } from "./types.js";
import { afterEnv, afterWrapper, WRAPPERS } from "./wrappers.js";

/** Every simple command of a parse, in source order. */
export function commandsOf(parse: ShellParse): SimpleCommand[] {
  return parse.items.flatMap((item) => item.pipeline.stages);
}

/** The command name as bash would look it up, without its directory (`/usr/bin/grep` → `grep`). */
export function verbOf(words: readonly Word[]): string | undefined {
  const first = words[0];
  if (!first) return undefined;
  return first.value.split("/").pop();
}

/** The words of the command a wrapper chain runs (`sudo -u x env A=1 sed ...` → `sed ...`); empty for `command -v`. */
export function unwrap(words: readonly Word[]): readonly Word[] {
  let cur = words;
  for (let depth = 0; depth < 16; depth++) {
    const name = verbOf(cur);
    if (name === undefined) return cur;
    let at: number | undefined;
    if (name === "env") {
      const e = afterEnv(cur);
      // `env -S STRING` has no words of its own to hand on.
      at = e && "at" in e ? e.at : undefined;
    } else if (name === "xargs") {
      const x = xargsCommand(cur);
      if (!x) return [];
      cur = x.words;
      continue;
    } else {
      const spec = WRAPPERS.get(name);
      if (!spec) return cur;
      at = afterWrapper(cur, spec);
    }
    if (at === undefined) return [];
    cur = cur.slice(at);
  }
  return cur;
}
