// Reading commands out of a parse: every simple command, the verb a command
// runs, and the command behind wrappers such as `sudo` or `env`.

import type { ShellParse, SimpleCommand, Word } from "./types.js";

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

// Commands that run their arguments as another command, with their options
// that take a value, so `sudo sed -i ...` is judged as sed.
const WRAPPERS = new Map<string, Set<string>>([
  ["sudo", new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"])],
  ["env", new Set(["-u", "-C", "-S", "--unset", "--chdir", "--split-string"])],
  ["nice", new Set(["-n", "--adjustment"])],
  ["ionice", new Set(["-c", "-n", "-p"])],
  ["timeout", new Set(["-s", "-k", "--signal", "--kill-after"])],
  ["stdbuf", new Set(["-i", "-o", "-e"])],
  ["xargs", new Set(["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"])],
  ["nohup", new Set()],
  ["command", new Set()],
  ["builtin", new Set()],
  ["exec", new Set(["-a"])],
  ["time", new Set()],
]);

/** The words of the command a wrapper chain runs (`sudo -u x env A=1 sed ...` → `sed ...`); empty for `command -v`. */
export function unwrap(words: readonly Word[]): readonly Word[] {
  let i = 0;
  for (let depth = 0; depth < 6; depth++) {
    const name = verbOf(words.slice(i));
    const valued = name === undefined ? undefined : WRAPPERS.get(name);
    if (!valued) break;
    // `command -v x` only looks x up.
    if (name === "command" && /^-[vV]$/.test(words[i + 1]?.value ?? "")) return [];
    i++;
    while (i < words.length) {
      const v = words[i]!.value;
      if (v === "--") {
        i++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) i++;
      else if (v.startsWith("-") && v !== "-") i += valued.has(v) ? 2 : 1;
      else break;
    }
    if (name === "timeout") i++; // the duration
  }
  return words.slice(i);
}
