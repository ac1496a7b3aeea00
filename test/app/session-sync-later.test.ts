// A new headless session's first state is written and renamed into place
// before openSession returns, and fsynced while the first request goes out:
// the session is already found (a kill keeps it), and `durable`, which the
// run's first response waits for, resolves only once the sync is done.

import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSession } from "../../app/session.js";
import { defaultConfig } from "../../core/config/schema.js";
import { newSessionId } from "../../core/session.js";
import { newSessionState, readState } from "../../core/session-state.js";
import { baseToolset } from "../support/loop-harness.js";

async function open(syncLater: boolean) {
  const home = mkdtempSync(join(tmpdir(), "yuj-sync-later-"));
  const env = { HOME: home, XDG_STATE_HOME: join(home, "state") };
  const state = newSessionState({ sessionId: newSessionId(), cwd: home, task: "a task", settings: { configFiles: [] } });
  const config = defaultConfig();
  const resolved = { toolset: baseToolset(config), config, projectDir: home, toolsLoaded: Promise.resolve() };
  const session = await openSession(env, [], () => {}, resolved, [], { create: state, syncLater });
  return { session, home };
}

describe("a new session's first state", () => {
  it("is in place when the session opens, and durable once `durable` resolves", async () => {
    const { session } = await open(true);
    let synced = false;
    void session.durable.then(() => (synced = true));
    // Not fsynced yet, but whole and found: a kill now leaves a session `yuj resume` continues.
    expect(synced).toBe(false);
    expect(readState(session.dir)).toMatchObject({ sessionId: session.id, task: "a task" });
    expect(readdirSync(join(session.dir, ".."))).toEqual([session.id]);
    await session.durable;
    expect(synced).toBe(true);
    session.checkTrace();
    await session.close();
  });

  it("is fsynced before openSession returns without syncLater", async () => {
    const { session } = await open(false);
    let synced = false;
    void session.durable.then(() => (synced = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(synced).toBe(true);
    await session.close();
  });
});
