// Read-side routing sends a command to read, grep or glob only when that tool
// would take the path: one outside the project (or `~/…`, which the file
// tools do not expand) stays a shell command, instead of a route to a tool
// that then refuses the path.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession;
beforeEach(async () => {
  s = await guardedSession((c) => {
    c.tools.bash_redirect_read_side = true;
  });
  await s.put({ "notes.txt": "inside\n" });
});
afterEach(() => s.cleanup());

describe("read-side routing and paths outside the project", () => {
  it("still routes a project file, by relative or absolute name", async () => {
    expect((await s.call("bash", { cmd: "cat notes.txt" })).modelText).toBe(
      'ERROR: shell_routed: use the read tool for this (simple file display); it returns paged, structured results. Try: read {"path":"notes.txt"}',
    );
    expect((await s.call("bash", { cmd: `cat ${s.cwd}/notes.txt` })).modelText).toMatch(/^ERROR: shell_routed: use the read tool/);
  });

  it.each(["cat /etc/hostname", "cat ../outside.txt", "cat ~/.profile", "grep -n root /etc/passwd", "ls /etc"])(
    "runs %j in the shell",
    async (cmd) => {
      expect((await s.call("bash", { cmd })).modelText).not.toMatch(/shell_routed/);
    },
  );
});
