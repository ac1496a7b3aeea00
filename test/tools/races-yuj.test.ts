// Yuj's file tools against a process that swaps a folder of the project (or
// the file itself) for a link to the outside between the tool's path check
// and its use of the path: nothing outside is written, replaced or shown,
// however the two interleave.

import { afterEach, beforeEach, describe, it } from "vitest";
import { yujCall } from "../support/yuj-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";
import { flip, runRace, SECRET } from "./races-support.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
});
afterEach(async () => {
  await t.cleanup();
});

const files = { "dir/f.txt": "inside\n" };
const outside = { "f.txt": `${SECRET}\n` };
const notebook = (source: string) => JSON.stringify({ cells: [{ cell_type: "code", source: [source], metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1) + "\n";

const v4a = (from: string, to: string) => `*** Begin Patch\n*** Update File: dir/f.txt\n@@\n-${from}\n+${to}\n*** End Patch`;
const udiff = (from: string, to: string) => `--- a/dir/f.txt\n+++ b/dir/f.txt\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

describe.each([
  { swap: "dir", linkTo: "." },
  { swap: "dir/f.txt", linkTo: "f.txt" },
])("Yuj file tools while $swap is swapped for a link outside", ({ swap, linkTo }) => {
  const race = (call: (i: number) => Promise<{ ok: boolean; text: string }>, more: { files?: Record<string, string>; outside?: Record<string, string> } = {}) =>
    runRace({ t, files: more.files ?? files, outside: more.outside ?? outside, swap, linkTo, call });

  it("read never returns the outside file", async () => {
    await race(() => yujCall(t, "read", { path: "dir/f.txt" }));
  }, 20_000);

  it("write never writes outside", async () => {
    await race((i) => yujCall(t, "write", { path: "dir/f.txt", content: `written ${i}\n` }));
  }, 20_000);

  it("write of a new file in a new folder creates nothing outside", async () => {
    await race((i) => yujCall(t, "write", { path: `dir/new${i}/f.txt`, content: "x\n" }));
  }, 20_000);

  it("edit never changes or quotes the outside file", async () => {
    await race(async () => {
      const [from, to] = await flip(t.cwd);
      return yujCall(t, "edit", { path: "dir/f.txt", old_str: from, new_str: to });
    });
  }, 20_000);

  it("apply_patch never changes the outside file", async () => {
    t.ctx.config.tools.edit_format = "apply_patch";
    await race(async () => {
      const [from, to] = await flip(t.cwd);
      return yujCall(t, "apply_patch", { patch: v4a(from, to) });
    });
  }, 20_000);

  it("udiff never changes the outside file", async () => {
    t.ctx.config.tools.edit_format = "udiff";
    await race(async () => {
      const [from, to] = await flip(t.cwd);
      return yujCall(t, "udiff", { patch: udiff(from, to) });
    });
  }, 20_000);

  it("notebook_edit never changes or quotes the outside notebook", async () => {
    t.ctx.config.tools.notebook_edit_enabled = true;
    const nbSwap = swap === "dir" ? "dir" : "dir/n.ipynb";
    await runRace({
      t,
      files: { "dir/n.ipynb": notebook("inside") },
      outside: { "n.ipynb": notebook(SECRET) },
      swap: nbSwap,
      linkTo: swap === "dir" ? "." : "n.ipynb",
      call: async () => {
        const [from, to] = await flip(t.cwd, "dir/n.ipynb");
        return yujCall(t, "notebook_edit", { path: "dir/n.ipynb", old_source: from, new_source: to, cell_index: 0 });
      },
    });
  }, 20_000);
});

// The same race, with the link leading to a folder of the project no file
// tool may open: `.git` (git's hooks and config) or one [sandbox].unreadable_paths hides.
describe.each([
  { what: ".git", protectedDir: ".git", hide: [] as string[] },
  { what: "an unreadable_paths folder", protectedDir: "secrets", hide: ["secrets"] },
])("Yuj file tools while dir is swapped for a link to $what", ({ protectedDir, hide }) => {
  const race = (call: (i: number) => Promise<{ ok: boolean; text: string }>) => {
    t.ctx.config.sandbox.unreadable_paths = hide;
    return runRace({ t, files, outside, swap: "dir", linkTo: ".", protectedDir, call });
  };

  it("read never returns what is there", async () => {
    await race(() => yujCall(t, "read", { path: "dir/f.txt" }));
  }, 20_000);

  it("write never writes there", async () => {
    await race((i) => yujCall(t, "write", { path: "dir/f.txt", content: `written ${i}\n` }));
  }, 20_000);
});
