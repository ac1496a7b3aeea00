// The bundle carries zod's English messages only (scripts/bundle/zod-locales.js):
// the built CLI still explains a bad argument in English, and no other
// locale is in dist.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";

describe("zod in the bundle", () => {
  it("keeps English messages and drops the other locales", async () => {
    const dist = join(import.meta.dirname, "..", "..", "dist");
    const all = readdirSync(dist)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(join(dist, f), "utf8"))
      .join("\n");
    expect(all).toContain("node_modules/zod/v4/locales/en.js");
    expect(all).not.toContain("node_modules/zod/v4/locales/de.js");
    const r = await runCli(["tool", "read", '{"path":"README.md","limit":"x"}'], { cwd: tempDemoRepo(), env: isolatedEnv() });
    expect(r.stdout + r.stderr).toContain("limit: expected integer, got string");
  });
});
