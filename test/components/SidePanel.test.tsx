import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import { initialView, type SessionView } from "../../core/reducer.js";
import { SidePanel } from "../../components/SidePanel.js";
import { contextBar } from "../../components/side-panel-rows.js";

const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");
const NOW = Date.parse("2026-01-01T00:01:00.000Z");

function view(): SessionView {
  return {
    ...initialView(),
    provider: "anthropic",
    model: "claude-test",
    profile: "builder",
    usage: {
      last: { inputTokens: 96_000, outputTokens: 500, cachedTokens: 80_000 },
      total: { inputTokens: 1_234_567, outputTokens: 37_900, cachedTokens: 700_000 },
    },
    todos: [
      { description: "Read the code", status: "completed" },
      { description: "Fix the bug", activeForm: "Fixing the bug", status: "in_progress" },
      { description: "Run the tests", status: "pending" },
    ],
    jobs: {
      j1: { jobId: "j1", command: "npm run dev", label: "dev server", background: true, status: "running", startedAt: "2026-01-01T00:00:30.000Z", output: "", totalBytes: 0 },
      j2: { jobId: "j2", command: "make", background: true, status: "exited", exitCode: 0, startedAt: "2026-01-01T00:00:00.000Z", output: "", totalBytes: 0 },
    },
  };
}

const git = {
  branch: "main",
  files: Array.from({ length: 11 }, (_, i) => ({ path: `src/file${i}.ts`, added: i + 1, removed: i })),
};

afterEach(() => cleanup());

describe("SidePanel", () => {
  it("shows model, context, tokens, todos, running jobs and git changes", () => {
    const f = frame(render(<SidePanel view={view()} git={git} contextWindow={200_000} width={32} height={60} now={NOW} />));
    for (const s of [
      "MODEL", "claude-test", "anthropic", "profile builder",
      "CONTEXT", "96k / 200k", "48%",
      "TOKENS", "in 1.2M", "out 38k", "cached 700k",
      "TODOS 1/3", "✓ Read the code", "▶ Fixing the bug", "○ Run the tests",
      "JOBS 1", "j1 running 30.0s dev server",
      "GIT main", "src/file0.ts +1 -0", "src/file7.ts +8 -7", "… 3 more",
    ]) {
      expect(f).toContain(s);
    }
    expect(f).not.toContain("j2");
    expect(f).not.toContain("file8");
  });

  it("keeps every line within the width and the panel within the height", () => {
    const f = frame(render(<SidePanel view={view()} git={git} contextWindow={200_000} width={20} height={12} now={NOW} />));
    const lines = f.split("\n");
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(20);
  });

  it("works before the first request", () => {
    const f = frame(render(<SidePanel view={initialView()} width={30} height={20} />));
    expect(f).toContain("MODEL");
    expect(f).toContain("CONTEXT");
    expect(f).not.toContain("TODOS");
    expect(f).not.toContain("GIT");
  });
});

describe("contextBar", () => {
  it("fills in proportion and caps at 100%", () => {
    expect(contextBar(48, 100, 10)).toBe("█████░░░░░ 48%");
    expect(contextBar(300, 100, 4)).toBe("████ 100%");
  });
});
