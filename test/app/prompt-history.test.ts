// The message history on disk: per project, secrets never written, a torn
// line skipped, and the file cut (atomically) to its newest entries.

import { appendFileSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPromptHistory } from "../../app/tui/prompt-history.js";

function env() {
  const home = mkdtempSync(join(tmpdir(), "yuj-history-"));
  return { HOME: home, XDG_STATE_HOME: join(home, "state") };
}

describe("prompt history", () => {
  it("keeps messages per project across openings, in $XDG_STATE_HOME/yuj/history", () => {
    const e = env();
    const a = openPromptHistory({ env: e, project: "/p/one" });
    a.add("first");
    a.add("first");
    a.add("second");
    openPromptHistory({ env: e, project: "/p/two" }).add("elsewhere");
    expect(openPromptHistory({ env: e, project: "/p/one" }).entries).toEqual(["first", "second"]);
    expect(openPromptHistory({ env: e, project: "/p/two" }).entries).toEqual(["elsewhere"]);
    expect(readFileSync(join(e.XDG_STATE_HOME, "yuj/history"), "utf8").split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("never writes a message that looks like it holds a secret", () => {
    const e = env();
    const h = openPromptHistory({ env: e, project: "/p", secrets: ["hunter2-long-value"] });
    for (const m of ["use sk-ant-abcdefghijklmnopqrstuv", "token=abcdef123456", "ghp_abcdefghijklmnopqrstuvwxyz0123", "pw is hunter2-long-value", "-----BEGIN RSA PRIVATE KEY-----"]) h.add(m);
    h.add("plain words");
    expect(readFileSync(join(e.XDG_STATE_HOME, "yuj/history"), "utf8")).not.toMatch(/sk-ant|abcdef123456|ghp_|hunter2|PRIVATE/);
    expect(openPromptHistory({ env: e, project: "/p" }).entries).toEqual(["plain words"]);
  });

  it("skips a torn line and keeps the rest", () => {
    const e = env();
    openPromptHistory({ env: e, project: "/p" }).add("before");
    appendFileSync(join(e.XDG_STATE_HOME, "yuj/history"), '{"project":"/p","te');
    appendFileSync(join(e.XDG_STATE_HOME, "yuj/history"), "\n");
    openPromptHistory({ env: e, project: "/p" }).add("after");
    expect(openPromptHistory({ env: e, project: "/p" }).entries).toEqual(["before", "after"]);
  });

  it("stays bounded: past its size the file keeps the newest entries", () => {
    const e = env();
    const h = openPromptHistory({ env: e, project: "/p" });
    const filler = "x".repeat(900);
    for (let i = 0; i < 700; i++) h.add(`${i} ${filler}`);
    const file = join(e.XDG_STATE_HOME, "yuj/history");
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
    const kept = openPromptHistory({ env: e, project: "/p" }).entries;
    expect(kept.at(-1)).toBe(`699 ${filler}`);
    expect(kept.length).toBeLessThan(700);
  });
});
