// A session whose state cannot be saved: the rename that would put the new
// state.json in place is refused (through the injected file system: a real
// refused rename cannot be arranged without refusing the write before it).
// The run ends saying why, state.json stays the last whole version saved,
// and no temporary copy is left in the folder. Real tools and files; only
// the model is scripted.

import * as fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { SyncFileSystem } from "../../core/atomic-write.js";
import { readState } from "../../core/session-state.js";
import { controlledSession, type ControlledSession } from "../support/controller-harness.js";

let s: ControlledSession | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe("a state save whose rename is refused", () => {
  it("ends the run with state_write, keeps the last saved state.json whole, and leaves no temporary file", async () => {
    let refuse = false;
    const stateFs: SyncFileSystem = {
      ...fs,
      renameSync: (from, to) => {
        if (refuse) throw Object.assign(new Error("EACCES: permission denied, rename"), { code: "EACCES" });
        fs.renameSync(from, to);
      },
    };
    const echo = { tool_calls: [{ name: "bash", arguments: { cmd: "echo hi" } }] };
    s = controlledSession([echo, { tool_calls: [{ name: "done", arguments: { message: "x" } }] }], { stateFs });
    const session = s;
    session.record.save();
    const before = fs.readFileSync(`${session.dir}/state.json`, "utf8");
    refuse = true;
    session.controller.submit({ type: "user_message", text: "say hi" });
    await session.controller.idle();

    const error = session.events.find((e) => e.type === "error");
    expect(error).toMatchObject({ code: "state_write", message: expect.stringMatching(/could not save the session to .*state\.json/) });
    expect(fs.readFileSync(`${session.dir}/state.json`, "utf8")).toBe(before);
    expect(readState(session.dir)).toMatchObject({ sessionId: "s-test" });
    expect(fs.readdirSync(session.dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});
