// "File not found" names the existing paths the model most likely meant,
// and an absolute path inside the project is echoed relative, on real trees.

import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordReadTool } from "../../tools/chord/read.js";
import { chordEditTool } from "../../tools/chord/edit.js";
import { readTool } from "../../tools/yuj/read.js";
import { editTool } from "../../tools/yuj/edit.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext();
  await t.put({
    "src/lib/util.ts": "export {};\n",
    "src/Readme.md": "r\n",
    "src/main.ts": "m\n",
    "test/util.ts": "t\n",
    "node_modules/pkg/util.ts": "n\n",
  });
});
afterEach(() => t.cleanup());

describe("file not found suggests the nearest existing paths", () => {
  it("a file of the same name elsewhere in the project (never under node_modules)", async () => {
    expect(await readTool.run({ path: "lib/util.ts" }, t.ctx)).toEqual({
      ok: false,
      modelText: "ERROR: file not found: lib/util.ts (did you mean one of: 'test/util.ts', 'src/lib/util.ts'?)",
    });
  });

  it("a mistyped folder or name next to the missing one", async () => {
    expect(await chordReadTool.run({ path: "scr/main.ts" }, t.ctx)).toEqual({ ok: false, modelText: "file not found: scr/main.ts\nDid you mean:\n- src/main.ts" });
    expect(await chordReadTool.run({ path: "src/mian.ts" }, t.ctx)).toEqual({ ok: false, modelText: "file not found: src/mian.ts\nDid you mean:\n- src/main.ts" });
    expect(await chordReadTool.run({ path: "src/README.md" }, t.ctx)).toEqual({ ok: false, modelText: "file not found: src/README.md\nDid you mean:\n- src/Readme.md" });
  });

  it("nothing when nothing is close", async () => {
    expect(await chordReadTool.run({ path: "docs/architecture-overview.txt" }, t.ctx)).toEqual({
      ok: false,
      modelText: "file not found: docs/architecture-overview.txt",
    });
  });

  it("echoes an absolute path inside the project relative", async () => {
    const abs = path.join(t.cwd, "src/mian.ts");
    expect(await chordReadTool.run({ path: abs }, t.ctx)).toEqual({ ok: false, modelText: "file not found: src/mian.ts\nDid you mean:\n- src/main.ts" });
    expect(await readTool.run({ path: abs }, t.ctx)).toEqual({ ok: false, modelText: "ERROR: file not found: src/mian.ts (did you mean 'src/main.ts'?)" });
    expect(await editTool.run({ path: path.join(t.cwd, "src/util.ts"), old_str: "a", new_str: "b" }, t.ctx)).toEqual({
      ok: false,
      modelText: "ERROR: file not found: src/util.ts (did you mean one of: 'test/util.ts', 'src/lib/util.ts'?)",
    });
    expect(await chordEditTool.run({ path: path.join(t.cwd, "src/mian.ts"), old_string: "a", new_string: "b" }, t.ctx)).toEqual({
      ok: false,
      modelText: "file not found: src/mian.ts\nDid you mean:\n- src/main.ts",
    });
  });
});
