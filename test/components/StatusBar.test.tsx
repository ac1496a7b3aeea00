import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import type { RequestView } from "../../core/reducer.js";
import { StatusBar } from "../../components/StatusBar.js";
import { requestText } from "../../components/status-line.js";

const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");
const NOW = Date.parse("2026-01-01T00:00:10.000Z");
const idle: RequestView = { state: "idle", bytesReceived: 0, retries: 0 };

function bar(over: Partial<Parameters<typeof StatusBar>[0]> = {}) {
  return render(
    <StatusBar
      mode="INSERT"
      profile="builder"
      hint="esc → normal"
      request={idle}
      now={NOW}
      runningJobs={0}
      cwd="/home/me/src/yuj"
      home="/home/me"
      sessionId="20260101-000000-abc123"
      width={100}
      {...over}
    />,
  );
}

afterEach(() => cleanup());

describe("StatusBar", () => {
  it("shows mode, profile, hint, request state, cwd and the short session id", () => {
    const f = frame(bar());
    for (const s of ["INSERT", "builder", "esc → normal", "idle", "~/src/yuj", "20260101-000000-abc123"]) expect(f).toContain(s);
    expect(f).not.toContain("job");
  });

  it("shows the running request and jobs", () => {
    const request: RequestView = { state: "streaming", bytesReceived: 1229, startedAt: "2026-01-01T00:00:06.600Z", retries: 0 };
    const f = frame(bar({ request, runningJobs: 2, mode: "NORMAL", yolo: true }));
    expect(f).toContain("NORMAL");
    expect(f).toContain("YOLO");
    expect(f).toContain("streaming 1.2 KB 3.4s");
    expect(f).toContain("2 jobs");
  });

  it("stays on one line within the width", () => {
    for (const width of [100, 60, 40, 20, 8]) {
      const f = frame(bar({ width, hint: "a very long hint about what keys do right now", cwd: "/home/me/some/deeply/nested/project/dir" }));
      expect(f.split("\n")).toHaveLength(1);
      expect(f.length).toBeLessThanOrEqual(width);
    }
  });

  it("drops the session id and cuts the cwd from the start when short of room", () => {
    const f = frame(bar({ width: 70, cwd: "/home/me/some/deeply/nested/project/dir" }));
    expect(f).not.toContain("abc123");
    expect(f).toContain("…");
    expect(f).toContain("dir");
  });
});

describe("requestText", () => {
  it("reads waiting, streaming and idle", () => {
    expect(requestText({ state: "waiting", bytesReceived: 0, startedAt: "2026-01-01T00:00:07.900Z", retries: 0 }, NOW)).toBe("waiting 2.1s");
    expect(requestText({ state: "waiting", bytesReceived: 0, startedAt: "2026-01-01T00:00:07.900Z", retries: 2 }, NOW)).toBe(
      "waiting 2.1s (retry 2)",
    );
    expect(requestText(idle, NOW)).toBe("idle");
  });
});
