// `yuj schema events|ops` prints the published JSON Schema: the same text as
// the files the package ships, and it describes what the CLI really prints.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";

describe("yuj schema", () => {
  it.each(["events", "ops"])("prints the %s schema the package ships", async (name) => {
    const res = await runCli(["schema", name], { cwd: repoRoot, env: isolatedEnv() });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe("");
    expect(res.stdout).toBe(readFileSync(join(repoRoot, "schema", `${name}.schema.json`), "utf8"));
    expect(JSON.parse(res.stdout)).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema", oneOf: expect.any(Array) });
  });

  it("names what it can print when asked for anything else", async () => {
    for (const args of [["schema"], ["schema", "event"], ["schema", "ops", "events"]]) {
      const res = await runCli(args, { cwd: repoRoot, env: isolatedEnv() });
      expect(res.code).toBe(2);
      expect(res.stderr).toBe("yuj: usage: yuj schema events|ops (the JSON Schema of --output jsonl's events or --input jsonl's operations)\n");
    }
  });
});
