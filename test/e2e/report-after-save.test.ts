// Nothing is reported before it is saved. The built yuj is killed with
// SIGKILL right after its stdout showed a tool result; the session must then
// hold that result, and the resume must not call it interrupted. The first
// case is the sharp one: two read-only calls run together, one done at once
// and one waiting on a background job, so a result printed as soon as its
// call ended would be on stdout long before the step that holds it is saved.
// Every step after a result takes a moment, so the kill falls mid-run.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INTERRUPTED_TEXT } from "../../core/interrupted.js";
import { runCli, startCli } from "../support/cli.js";
import { jsonLines, onlySessionDir, scriptedProject, stateIn, traceOf, type Turn } from "../support/durable-session.js";

const turns: Turn[] = [
  { tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30", background: true } }] },
  {
    tool_calls: [
      { name: "read", arguments: { path: "notes.txt" } },
      { name: "bash_poll", arguments: { proc_id: "j1", timeout_s: 2 } },
    ],
  },
  { tool_calls: [{ name: "bash", arguments: { cmd: "echo second; sleep 1" } }] },
  { tool_calls: [{ name: "bash", arguments: { cmd: "echo third; sleep 1" } }] },
  { tool_calls: [{ name: "done", arguments: { message: "finished" } }] },
];

/** Runs the task and SIGKILLs yuj the moment stdout shows the `nth` tool result; returns what it printed. */
async function killAfterResult(nth: number) {
  const p = scriptedProject(turns, { config: "[tools]\nbackground_enabled = true\n" });
  writeFileSync(join(p.cwd, "notes.txt"), "the notes\n");
  const run = startCli(["code", "work", ...p.flags, "--output", "jsonl"], { cwd: p.cwd, env: p.env });
  let buffered = "";
  let seen = 0;
  run.child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line.includes('"type":"tool_result"') && ++seen === nth) run.child.kill("SIGKILL");
  });
  const res = await run.done;
  return { p, printed: jsonLines(res.stdout).filter((e) => e.type === "tool_result") };
}

describe("a tool result killed right after it was printed", () => {
  for (const nth of [2, 1, 3, 4]) {
    it(`is saved, and the resume keeps it (killed after result ${nth})`, async () => {
      const { p, printed } = await killAfterResult(nth);
      expect(printed.length).toBeGreaterThanOrEqual(nth);
      const dir = onlySessionDir(p.env);
      const saved = new Map(stateIn(dir).history.flatMap((h) => (h.role === "tool" ? [[h.callId, h.text] as const] : [])));
      for (const r of printed) expect(saved.get(r.callId), `saved result of ${r.callId} (${r.name})`).toBe(r.modelText);
      // So does every result the trace shows.
      for (const r of traceOf(dir).filter((e) => e.type === "tool_result")) expect(saved.get(r.callId)).toBe(r.modelText);

      const resumed = await runCli(["resume", "--output", "jsonl"], { cwd: p.cwd, env: p.env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const closed = jsonLines(resumed.stdout).filter((e) => e.type === "tool_result" && e.modelText === INTERRUPTED_TEXT);
      for (const r of printed) expect(closed.map((c) => c.callId)).not.toContain(r.callId);
      const final = new Map(stateIn(dir).history.flatMap((h) => (h.role === "tool" ? [[h.callId, h.text] as const] : [])));
      for (const r of printed) expect(final.get(r.callId)).toBe(r.modelText);
      expect(readFileSync(`${p.cwd}/notes.txt`, "utf8")).toBe("the notes\n");
    }, 60_000);
  }
});
