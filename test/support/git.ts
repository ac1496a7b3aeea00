// git as the tests run it: in a given directory, with a fixed identity so a
// commit works on a machine with no git user configured (CI runs as root).

import { execFileSync } from "node:child_process";

export function testGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });
}
