// Post-edit checks in the real CLI: the bundled yuj with the scripted demo
// model, a blocking check in the user's config, the sandbox on. The check
// runs as the session's commands do (inside bubblewrap: the host's /usr is
// read-only to it), rejects the model's edit, and the file stays as it was.

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isolatedEnv, runCli, traceFiles } from "../support/cli.js";
import { repoRoot, tempDemoRepo } from "../support/loop-harness.js";

const PROBE = "/usr/lib/yuj-post-edit-probe";
afterAll(() => rmSync(PROBE, { force: true }));

describe("a blocking post-edit check in a real run", () => {
  it("runs sandboxed and undoes the edit it rejects", async () => {
    const cwd = tempDemoRepo();
    const original = readFileSync(join(cwd, "src/greet.js"), "utf8");
    const scenario = JSON.stringify(join(repoRoot, "fixtures/scenarios/demo.json"));
    const cmd = `if touch ${PROBE} 2>/dev/null; then echo probe-host-writable; else echo probe-confined; fi; ! grep -n '!' {path}`;
    writeFileSync(
      join(cwd, "cfg.toml"),
      [
        `[provider]\nname = "scripted"\nmodel = "demo"\nscenario = ${scenario}`,
        `[sandbox]\nmode = "on"`,
        `[post_edit_check]\nenabled = true`,
        `[[post_edit_check.checks]]\nname = "no-bang"\nwhen = "*.js"\ncmd = ${JSON.stringify(cmd)}\non_fail = "block"`,
      ].join("\n\n") + "\n",
    );
    const env = isolatedEnv();
    const res = await runCli(["code", "fix the greeting", "--config", "cfg.toml"], { cwd, env });
    expect(res.stderr).not.toContain("config error");
    expect(readFileSync(join(cwd, "src/greet.js"), "utf8")).toBe(original);
    expect(existsSync(PROBE)).toBe(false);
    const trace = traceFiles(env).map((f) => readFileSync(f, "utf8")).join("\n");
    // The model's result (JSON-escaped in the trace): the check's own output says it ran confined.
    expect(trace).toContain("ERROR: edit blocked by post-edit check 'no-bang' for src/greet.js: exit code 1\\nprobe-confined\\n3:");
    expect(trace).toContain("The change was undone: the file is as it was before this call.");
  }, 60_000);
});
