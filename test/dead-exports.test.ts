// No dead code at module boundaries: knip (knip.jsonc) reports every export
// no other module imports, every file nothing reaches from an entry point (the
// CLI, the build script, the benchmarks, the tests) and every dependency
// nothing uses. An export used only in its own file is surface no one needs:
// drop the `export`. Run it alone with `npm run lint:exports`.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/loop-harness.js";

const KNIP = join(repoRoot, "node_modules", "knip", "bin", "knip.js");

describe("dead exports", () => {
  it("knip finds no unused export, file or dependency", async () => {
    const run = promisify(execFile)(process.execPath, [KNIP, "--no-progress", "--reporter", "compact"], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: "1" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = await run.then(
      ({ stdout }) => ({ code: 0, report: stdout }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: err.code ?? -1, report: `${err.stdout ?? ""}${err.stderr ?? ""}` }),
    );
    expect(result.report.trim()).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);
});
