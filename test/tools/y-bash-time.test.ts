// Yuj bash's time ceiling as the reference treats it: [tools].bash_timeout
// bounds one foreground command in seconds (fractions too), 0 sets no
// ceiling rather than an instant one, and a negative or non-finite value is
// a config error, never "unlimited". Real commands, real clock.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config/load.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { yujCall } from "../support/yuj-call.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(async () => {
  await t.cleanup();
});

describe("[tools].bash_timeout", () => {
  it("0 lets a command run to its end", async () => {
    t.ctx.config.tools.bash_timeout = 0;
    expect(await yujCall(t, "bash", { cmd: "sleep 1.2; echo done" })).toEqual({ ok: true, text: "done" });
  });

  it("a fraction of a second stops the command and says after how long", async () => {
    t.ctx.config.tools.bash_timeout = 0.5;
    const began = Date.now();
    expect(await yujCall(t, "bash", { cmd: "sleep 5; echo never" })).toEqual({ ok: false, text: "ERROR: command timed out after 0.5s" });
    expect(Date.now() - began).toBeLessThan(4000);
  });

  it("a config file may set 0 or a fraction; a negative or non-finite value is an error naming the key", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "y-bash-home-"));
    const file = path.join(home, ".config", "yuj", "config.toml");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const load = (value: string) => {
      fs.writeFileSync(file, `[tools]\nbash_timeout = ${value}\n`);
      try {
        return loadConfig({ cwd: t.cwd, env: {}, home }).config.tools.bash_timeout;
      } catch (err) {
        return (err as Error).message;
      }
    };
    try {
      expect(load("0")).toBe(0);
      expect(load("0.2")).toBe(0.2);
      for (const bad of ["-1", "nan", "inf", "true"]) expect(load(bad)).toContain("tools.bash_timeout: expected a number at least 0");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("a time the model sends too large to represent", () => {
  it("1e999 seconds is refused as not finite, not as the wrong type", async () => {
    t.ctx.config.tools.background_enabled = true;
    const r = await yujCall(t, "bash_poll", '{"proc_id":"j1","timeout_s":1e999}', { raw: true });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("timeout_s: expected a finite number, got number too large to represent");
  });
});
