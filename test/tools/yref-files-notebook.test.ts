// notebook_edit names the notebook as the model reads it everywhere else: an
// absolute path inside the project is echoed relative, in results and errors.

import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notebookEditTool } from "../../tools/yuj/notebook_edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

const NB = JSON.stringify(
  { cells: [{ cell_type: "code", id: "calc", metadata: {}, outputs: [], execution_count: null, source: "print('old')\n" }], metadata: {}, nbformat: 4, nbformat_minor: 5 },
  null,
  1,
);

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "nb/analysis.ipynb": NB });
});
afterEach(() => t.cleanup());

const edit = (args: Record<string, unknown>) =>
  notebookEditTool.run({ path: path.join(t.cwd, "nb/analysis.ipynb"), ...args } as Parameters<typeof notebookEditTool.run>[0], t.ctx);

describe("notebook_edit with an absolute path inside the project", () => {
  it("answers with the relative path", async () => {
    expect(await edit({ cell_id: "calc", old_source: "print('old')\n", new_source: "print('new')\n" })).toMatchObject({
      ok: true,
      modelText: "OK: updated code cell id='calc' in nb/analysis.ipynb",
    });
  });

  it("names it relative in a stale-source and a missing-cell error", async () => {
    expect((await edit({ cell_id: "calc", old_source: "gone\n", new_source: "x\n" })).modelText).toBe(
      'ERROR: stale source: old_source does not match the current source of cell 0 (id "calc") in nb/analysis.ipynb. ' +
        "Pass the cell's complete current source as old_source (read nb/analysis.ipynb again if it may have changed).\n" +
        'Current source of cell 0 (id "calc"):\nprint(\'old\')\n',
    );
    expect((await edit({ cell_id: "nope", old_source: "x", new_source: "y" })).modelText).toBe(
      "ERROR: cell id \"nope\" was not found in nb/analysis.ipynb. Read the notebook again and copy the cell's id, or select it with cell_index.",
    );
  });
});
