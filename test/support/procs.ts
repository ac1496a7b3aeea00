// Finding test processes by what they are, from /proc alone: a process whose
// command line holds a token unique to the test. Zombies count as dead (they
// have ended and only wait to be collected, which nobody may do here).

import * as fs from "node:fs";
import { isZombie, readStat } from "../../core/jobs/proc.js";

/** Live pids whose command line contains `token`. */
export function livePidsWith(token: string): number[] {
  return livePids((argv) => argv.join(" ").includes(token));
}

/** Live pids whose argv[0] is `name` (as `exec -a name cmd` sets it). */
export function livePidsNamed(name: string): number[] {
  return livePids((argv) => argv[0] === name);
}

function livePids(match: (argv: string[]) => boolean): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (!match(argv)) continue;
    const stat = readStat(pid);
    if (stat && !isZombie(stat)) found.push(pid);
  }
  return found;
}

/** A sleep duration no other test uses, so its processes can be told apart. */
export function uniqueSleep(): string {
  return `${900 + Math.floor(Math.random() * 99)}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
