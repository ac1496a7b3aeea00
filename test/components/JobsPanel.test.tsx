import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import type { JobView } from "../../core/reducer.js";
import { JobsPanel } from "../../components/JobsPanel.js";
import { mount, press, unmountAll } from "../support/ink-act.js";

// A short pause, then one turn of the check phase: a slow render can make
// the timer fire before React's effects (which re-subscribe the key handler) ran.
const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");
const NOW = Date.parse("2026-01-01T00:01:00.000Z");

function job(id: string, over: Partial<JobView> = {}): JobView {
  return { jobId: id, command: `cmd-${id}`, background: true, status: "running", startedAt: "2026-01-01T00:00:00.000Z", output: "", totalBytes: 0, ...over };
}

const JOBS: JobView[] = [
  job("j1", { status: "exited", exitCode: 0, durationMs: 1500, startedAt: "2026-01-01T00:00:01.000Z", output: "built\n" }),
  job("j2", { label: "dev server", startedAt: "2026-01-01T00:00:02.000Z", output: "line 1\n\x1b[31mred\x1b[0m line 2\nprogress 10%\rprogress 90%\n" }),
  job("j3", { startedAt: "2026-01-01T00:00:03.000Z", output: "other output" }),
];

async function setup(jobs = JOBS) {
  const killed: string[] = [];
  let closed = 0;
  const r = await mount(<JobsPanel jobs={jobs} now={NOW} width={70} height={16} onKill={(id) => killed.push(id)} onClose={() => closed++} />);
  const type = (...chunks: string[]) => press(r, ...chunks);
  return { r, killed, closed: () => closed, type };
}

afterEach(unmountAll);

describe("JobsPanel", () => {
  it("lists the jobs and the newest running one's output", async () => {
    const { r } = await setup();
    const f = frame(r);
    expect(f).toContain("3 total, 2 running");
    expect(f).toContain("j1");
    expect(f).toContain("✓ exit 0");
    expect(f).toContain("dev server");
    expect(f).toContain("› j3");
    expect(f).toContain("other output");
    expect(f).toContain("x kill");
  });

  it("lists background jobs only: a foreground command is not a job to manage here", async () => {
    const { r } = await setup([...JOBS, job("j4", { background: false, command: "npm test" })]);
    expect(frame(r)).not.toContain("npm test");
    expect(frame(r)).toContain("3 total");
  });

  it("moves with the arrows and j/k, shows the tail safely, and x then y kills the selected job", async () => {
    const { r, killed, type } = await setup();
    await type("\x1b[A");
    const f = frame(r);
    expect(f).toContain("› j2");
    expect(f).toContain("red line 2");
    expect(f).toContain("progress 90%");
    expect(f).not.toContain("progress 10%");
    expect(r.lastFrame()).not.toContain("\x1b[31mred");
    await type("x");
    expect(killed).toEqual([]);
    expect(frame(r)).toContain("kill j2 (dev server)? y or x to confirm");
    await type("y");
    expect(killed).toEqual(["j2"]);
    await type("j", "x", "x");
    expect(killed).toEqual(["j2", "j3"]);
    // Any other key keeps the job.
    await type("k", "x", "n", "y");
    expect(killed).toEqual(["j2", "j3"]);
  });

  it("does not kill a job that has ended", async () => {
    const { r, killed, type } = await setup();
    await type("\x1b[A", "\x1b[A", "x");
    expect(killed).toEqual([]);
    expect(frame(r)).toContain("j1 is not running");
  });

  it("closes on Esc and q", async () => {
    const a = await setup();
    await a.type("q");
    expect(a.closed()).toBe(1);
    const b = await setup();
    await b.type("\x1b");
    expect(b.closed()).toBe(1);
  });

  it("fits its height and says when there are no jobs", async () => {
    const many = Array.from({ length: 30 }, (_, i) => job(`j${i}`, { startedAt: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, output: "x\n".repeat(100) }));
    const { r } = await setup(many);
    expect(frame(r).split("\n").length).toBeLessThanOrEqual(16);
    await unmountAll();
    const empty = await setup([]);
    expect(frame(empty.r)).toContain("No background jobs in this session.");
  });
});
