// Repository-wide list_definitions without a symbol lists definitions: a
// reference is any occurrence of a name as an identifier, so without a
// symbol every parameter and type name would be a row, crowding out the
// definitions. kind="ref" still asks for them; a symbol gets both kinds.

import { afterEach, beforeEach, expect, it } from "vitest";
import { listDefinitionsTool } from "../../tools/yuj/list_definitions.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.list_definitions.enabled = true;
    c.tools.ast_search_enabled = true;
  });
  await t.put({
    "a.py": "def alpha(value: int) -> int:\n    return value\n",
    "b.py": "from a import alpha\n\ndef beta():\n    return alpha(1)\n",
  });
});
afterEach(() => t.cleanup());

type Args = { path: string; symbol?: string; kind?: "def" | "ref"; repo_wide?: boolean };
const list = (args: Args) => listDefinitionsTool.run(args, t.ctx);

it("without a symbol: the definitions, and the envelope says kind=\"def\"", async () => {
  const r = await list({ path: ".", repo_wide: true });
  expect(r.modelText).toBe(
    '<list_definitions status="ok" mode="repository" path="." total="2" available="2" shown="2" page="1" next_page="0" kind="def" files="2" cache_hits="0" v="1">\n' +
      "a.py:1 def alpha def alpha(value: int) -> int\n" +
      "b.py:3 def beta def beta()\n" +
      "</list_definitions>",
  );
});

it("with a symbol: its definition and its references", async () => {
  const r = await list({ path: ".", repo_wide: true, symbol: "alpha" });
  const rows = r.modelText.split("\n").slice(1, -1).map((l) => l.split(" ").slice(0, 3).join(" "));
  expect(rows).toEqual(["a.py:1 def alpha", "b.py:1 ref alpha", "b.py:4 ref alpha"]);
});

it("kind=\"ref\" without a symbol still lists references", async () => {
  const r = await list({ path: "b.py", repo_wide: true, kind: "ref" });
  expect(r.modelText).toContain('kind="ref"');
  expect(r.modelText).toContain("b.py:4 ref alpha");
  expect(r.modelText).not.toContain(" def ");
});
