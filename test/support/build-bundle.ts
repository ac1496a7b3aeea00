// Builds dist/ before the tests, so CLI tests always run the current code.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  const root = join(import.meta.dirname, "..", "..");
  execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
}
