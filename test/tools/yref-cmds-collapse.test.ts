// Command output whose similar lines were collapsed names its saved copy,
// which read opens: the lines left out differ (numbers, test names,
// hashes), so the model must be able to get at them without running the
// command again.

import { afterEach, beforeEach, expect, it } from "vitest";
import { guardedSession, type GuardedSession } from "../guards/session.js";

let s: GuardedSession;
beforeEach(async () => {
  s = await guardedSession(() => undefined);
});
afterEach(() => s.cleanup());

it("seq 1 30000 collapses to three lines, names the full output, and read opens any line of it", async () => {
  const r = await s.call("bash", { cmd: "seq 1 30000" });
  expect(r.ok).toBe(true);
  const path = /full_path="([^"]+)"/.exec(r.modelText)?.[1];
  expect(path).toBeDefined();
  expect(r.modelText).toBe(
    [
      "1",
      "  ... [×30000 similar lines]",
      "30000",
      "[similar lines collapsed — full output available via full_path attribute]",
      `<tool_result_meta collapsed="true" original_bytes="168894" original_lines="30000" full_path="${path}"/>`,
    ].join("\n"),
  );
  const line = await s.call("read", { path: path!, offset: 14999, limit: 1 });
  expect(line.ok).toBe(true);
  expect(line.modelText).toMatch(/^15000: 15000\n/);
});

it("output with nothing similar collapsed carries no note", async () => {
  const r = await s.call("bash", { cmd: "yes same | head -3000" });
  expect(r.modelText).toBe("same [×3000]\n[exit code: 141]");
});
