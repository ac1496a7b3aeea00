// edit's miss when old_str was copied from read's numbered view: the result
// says the `N: ` prefixes are not in the file.

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../tools/yuj/edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({ "x.py": "alpha\nbeta\ngamma\n" });
});
afterEach(() => t.cleanup());

const edit = (old_str: string, new_str = "z") => editTool.run({ path: "x.py", old_str, new_str }, t.ctx);
const HINT = "old_str carries read's line-number prefixes (`N: `), which are not in the file; pass the lines without them.";

describe("edit with read's line numbers in old_str", () => {
  it("names the prefixes and changes nothing", async () => {
    expect(await edit("2: beta\n3: gamma")).toEqual({ ok: false, modelText: `ERROR: old_str not found in x.py\n${HINT}` });
    expect(await edit("1: alpha\n")).toEqual({ ok: false, modelText: `ERROR: old_str not found in x.py\n${HINT}` });
    expect(await fsp.readFile(path.join(t.cwd, "x.py"), "utf8")).toBe("alpha\nbeta\ngamma\n");
  });

  it("says nothing of prefixes when the bare lines are not in the file either, or a line has none", async () => {
    expect(await edit("2: delta")).toEqual({ ok: false, modelText: "ERROR: old_str not found in x.py" });
    expect(await edit("2: beta\ngamma")).toEqual({ ok: false, modelText: "ERROR: old_str not found in x.py" });
  });
});
