// The pace of one hook entry, with real scripts run as real processes:
// retry_on_failure (and retry_delay_ms) runs a failed hook again,
// concurrency keeps runs of one entry from overlapping, debounce_ms runs an
// automation or observer hook once for a burst of triggers, with the latest
// data. The settings go through the config's own schema, as a user writes them.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../core/config/schema.js";
import { hooksSection } from "../../core/hooks/config.js";
import { createHookService } from "../../core/hooks/service.js";
import { createSandbox } from "../../core/sandbox/index.js";
import { systemClock } from "../../core/services.js";
import type { CoreEvent, EventBody } from "../../core/events.js";

const python3 = "/usr/bin/python3";

// Appends one line per run to runs.log: the point's data field `n`, and when
// it started and ended; exits with the code in `fail_until` while fewer runs
// than that have been made (a hook that fails and then succeeds).
const RECORDER = `
import json, os, sys, time
env = json.load(sys.stdin)
start = time.time()
time.sleep(float(os.environ.get("HOLD", "0")))
runs = open("runs.log").read().count("\\n") if os.path.exists("runs.log") else 0
with open("runs.log", "a") as f:
    f.write(json.dumps({"n": env["data"].get("n"), "start": start, "end": time.time()}) + "\\n")
if runs + 1 < int(os.environ.get("FAIL_UNTIL", "0")):
    sys.exit(3)
print("{}")
`;

function project() {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "yuj-hook-pace-")));
  writeFileSync(join(cwd, "recorder.py"), RECORDER);
  const runs = () =>
    existsSync(join(cwd, "runs.log"))
      ? readFileSync(join(cwd, "runs.log"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { n: number; start: number; end: number })
      : [];
  return { cwd, runs };
}

function service(cwd: string, hooks: Record<string, unknown>) {
  const config = defaultConfig();
  config.sandbox.mode = "off";
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd };
  const events: EventBody[] = [];
  const svc = createHookService({
    settings: hooksSection.parse(hooks),
    runner: { spawn, clock: systemClock, env, cwd, sandbox: createSandbox(config, env, { projectDir: cwd }) },
    sessionId: "s",
    agent: { id: "main", kind: "main" },
    model: () => "m",
    emit: (e) => {
      events.push(e);
      return { ...e, seq: events.length, ts: "", sessionId: "s", agentId: "main" } as CoreEvent;
    },
  });
  return { svc, events };
}

const recorder = (extra: Record<string, unknown> = {}) => ({ command: [python3, "recorder.py"], ...extra });

describe("hook pacing", () => {
  it("retry_on_failure runs a failed sync hook again, retry_delay_ms apart, and the run that succeeds counts", async () => {
    const { cwd, runs } = project();
    const { svc, events } = service(cwd, {
      on_tool_call: [recorder({ name: "flaky", retry_on_failure: 2, retry_delay_ms: 200, environment: { FAIL_UNTIL: "3" } })],
    });
    const out = await svc.sync("on_tool_call", { n: 1 }, { tools: ["bash"] });
    expect(out.blocked).toBeUndefined();
    const made = runs();
    expect(made).toHaveLength(3);
    expect(made[1]!.start - made[0]!.end).toBeGreaterThanOrEqual(0.15);
    expect(events.filter((e) => e.type === "hook_ran")).toEqual([expect.objectContaining({ hook: "flaky", ok: true })]);
    expect(events.some((e) => e.type === "notice")).toBe(false);
  }, 30_000);

  it("a hook that keeps failing is run 1 + retry_on_failure times, then reported failed once; true means one retry", async () => {
    const { cwd, runs } = project();
    const { svc, events } = service(cwd, {
      on_tool_call: [recorder({ name: "broken", retry_on_failure: true, retry_delay_ms: 0, environment: { FAIL_UNTIL: "99" } })],
    });
    await svc.sync("on_tool_call", { n: 1 }, { tools: ["bash"] });
    expect(runs()).toHaveLength(2);
    const ran = events.filter((e) => e.type === "hook_ran");
    expect(ran).toEqual([expect.objectContaining({ hook: "broken", ok: false, detail: "exit code 3" })]);
  }, 30_000);

  it("concurrency = 1 keeps an observer's runs from overlapping; without it they overlap", async () => {
    const serial = project();
    const one = service(serial.cwd, { on_tool_result: [recorder({ concurrency: 1, environment: { HOLD: "0.4" } })] });
    for (const n of [1, 2, 3]) one.svc.observe("on_tool_result", { n });
    await one.svc.drain();
    const ordered = serial.runs().sort((a, b) => a.start - b.start);
    expect(ordered.map((r) => r.n)).toEqual([1, 2, 3]);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]!.start).toBeGreaterThanOrEqual(ordered[i - 1]!.end);

    const free = project();
    const many = service(free.cwd, { on_tool_result: [recorder({ environment: { HOLD: "0.4" } })] });
    for (const n of [1, 2, 3]) many.svc.observe("on_tool_result", { n });
    await many.svc.drain();
    const all = free.runs().sort((a, b) => a.start - b.start);
    expect(all).toHaveLength(3);
    expect(all[1]!.start).toBeLessThan(all[0]!.end);
  }, 30_000);

  it("debounce_ms runs an automation hook once for a burst of batches, with the last batch's data, and its report reaches the next request", async () => {
    const { cwd, runs } = project();
    const { svc } = service(cwd, {
      on_tool_batch_complete: [recorder({ name: "check", debounce_ms: 300, result: "always_append" })],
    });
    for (const n of [1, 2, 3]) svc.batchComplete({ n }, { tools: ["edit"] });
    const context = await svc.contextForNextRequest();
    expect(runs().map((r) => r.n)).toEqual([3]);
    expect(context).toEqual([expect.stringContaining('hook "check" (on_tool_batch_complete): success')]);
    // A trigger after the quiet time is a run of its own.
    svc.batchComplete({ n: 4 }, { tools: ["edit"] });
    await svc.contextForNextRequest();
    expect(runs().map((r) => r.n)).toEqual([3, 4]);
  }, 30_000);

  it("debounce_ms on an observer: the session's end waits for the put-off run", async () => {
    const { cwd, runs } = project();
    const { svc } = service(cwd, { on_tool_result: [recorder({ debounce_ms: 250 })] });
    for (const n of [1, 2]) svc.observe("on_tool_result", { n });
    await svc.drain();
    expect(runs().map((r) => r.n)).toEqual([2]);
  }, 30_000);

  it("debounce_ms on a sync point is refused, saying why; a negative retry count is refused", () => {
    expect(() => hooksSection.parse({ on_tool_call: [{ shell: "true", debounce_ms: 100 }] })).toThrow(/debounce_ms is for automation and observer hooks/);
    expect(() => hooksSection.parse({ on_idle: [{ shell: "true", retry_on_failure: -1 }] })).toThrow();
    expect(() => hooksSection.parse({ on_idle: [{ shell: "true", concurrency: 0 }] })).toThrow();
  });
});
