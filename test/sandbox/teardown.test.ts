// A sandboxed command's end: bwrap (the group's leader) exits as soon as the
// command's shell has, and the sandbox's pid namespace is torn down after
// it. That teardown is not "processes left running": however long it takes,
// a foreground command must end as a plain exit, never with the note about
// background processes stopped. A process holding gigabytes of memory makes
// the teardown take a few hundred milliseconds, longer than the foreground
// wait's slice, so the race this guards against is met every time.

import { afterEach, describe, expect, it } from "vitest";
import { waitForeground } from "../../tools/lib/foreground.js";
import { cleanupAll, makeHarness, noBwrap } from "./support.js";

afterEach(cleanupAll);

// The big process signals readiness through a file in the sandbox's /tmp, then
// the shell exits and leaves it to the teardown.
const HEAVY_LEFTOVER =
  `node -e 'globalThis.b = Buffer.alloc(2e9, 1); require("fs").writeFileSync("/tmp/ready", "1"); setInterval(() => {}, 1e6)' & ` +
  "until [ -s /tmp/ready ]; do sleep 0.02; done; echo done";

describe.skipIf(noBwrap)("the end of a sandboxed command (real bwrap)", () => {
  it("is an exit, never 'left processes running', while the sandbox is torn down", async () => {
    const h = makeHarness();
    for (let round = 0; round < 2; round++) {
      const job = h.manager.start({ command: HEAVY_LEFTOVER, cwd: h.project, background: false, deadlineMs: 30_000 });
      let sawLeftovers = false;
      const watch = setInterval(() => (sawLeftovers ||= h.manager.get(job.id)?.leaderExited === true), 2);
      try {
        expect(await waitForeground(h.manager, job.id, Number.POSITIVE_INFINITY, new AbortController().signal)).toBe("exited");
      } finally {
        clearInterval(watch);
      }
      expect(sawLeftovers).toBe(false);
      const end = h.manager.get(job.id)!;
      expect(end).toMatchObject({ status: "exited", exitCode: 0, leaderExited: false });
      expect((await h.manager.readNew(job.id)).text).toBe("done\n");
    }
  }, 60_000);
});
