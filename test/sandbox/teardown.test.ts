// A sandboxed command's end: the command's shell exits, the supervisor in
// the sandbox sees nothing else of the command runs, and bwrap (the group's
// leader) exits with the shell's status. A process that has ended is not
// "processes left running", however long it took to free its memory: a
// foreground command must end as a plain exit, never with the note about
// background processes stopped. A process holding gigabytes of memory takes
// a few hundred milliseconds to die, longer than the foreground wait's slice.

import { afterEach, describe, expect, it } from "vitest";
import { waitForeground } from "../../tools/lib/foreground.js";
import { cleanupAll, makeHarness, noBwrap } from "./support.js";

afterEach(cleanupAll);

// The big process signals readiness through a file in the sandbox's /tmp;
// the shell then stops it and waits for it to die before it exits.
const HEAVY_CHILD =
  `node -e 'globalThis.b = Buffer.alloc(2e9, 1); require("fs").writeFileSync("/tmp/ready", "1"); setInterval(() => {}, 1e6)' & ` +
  "until [ -s /tmp/ready ]; do sleep 0.02; done; kill $!; wait $!; echo done";

describe.skipIf(noBwrap)("the end of a sandboxed command (real bwrap)", () => {
  it("is an exit, never 'left processes running', while the sandbox is torn down", async () => {
    const h = makeHarness();
    for (let round = 0; round < 2; round++) {
      const job = h.manager.start({ command: HEAVY_CHILD, cwd: h.project, background: false, deadlineMs: 30_000 });
      let sawLeftovers = false;
      const watch = setInterval(() => (sawLeftovers ||= h.manager.get(job.id)?.leaderExited === true), 2);
      try {
        expect(await waitForeground(h.manager, job.id, Number.POSITIVE_INFINITY, new AbortController().signal)).toBe("exited");
      } finally {
        clearInterval(watch);
      }
      expect(sawLeftovers).toBe(false);
      const end = h.manager.get(job.id)!;
      // The shell's status is that of its last command, echo.
      expect(end).toMatchObject({ status: "exited", exitCode: 0, leaderExited: false });
      expect((await h.manager.readNew(job.id)).text).toBe("done\n");
    }
  }, 60_000);
});
