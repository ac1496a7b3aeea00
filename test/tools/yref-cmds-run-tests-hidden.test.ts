// run_tests quotes the source around a failing assertion, but never from a
// file that [sandbox].unreadable_paths hides: a traceback through a hidden
// helper shows the test's own lines only.

import { afterEach, beforeEach, expect, it } from "vitest";
import { runTestsTool } from "../../tools/yuj/run_tests.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => {
  t = await makeToolContext((c) => {
    c.tools.run_tests.enabled = true;
    c.sandbox.unreadable_paths = ["answers.py"];
  });
});
afterEach(() => t.cleanup());

it("a failing assertion inside a hidden file is not quoted; the test file's frame still is", async () => {
  await t.put({
    "pyproject.toml": "[project]\nname='fixture'\n",
    "answers.py": "SECRET_ANSWER = 41\n\ndef check(x):\n    assert x == SECRET_ANSWER\n",
    "test_a.py": "from answers import check\n\ndef test_bad():\n    check(42)\n",
  });
  const r = await runTestsTool.run({}, t.ctx);
  expect(r.modelText).toMatch(/^<test_results status="failed" exit_code="1" runner="pytest">\n/);
  expect(r.modelText).toContain('<failing-assertion file="test_a.py" line="4" radius="5">\n      1  from answers import check\n');
  expect(r.modelText).not.toContain('<failing-assertion file="answers.py"');
  expect(r.modelText).not.toContain("    4      assert x == SECRET_ANSWER");
}, 60_000);
