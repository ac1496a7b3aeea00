import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import { HelpOverlay } from "../../components/HelpOverlay.js";

const tick = () => new Promise((r) => setTimeout(() => setImmediate(r), 20));
const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");

afterEach(() => cleanup());

describe("HelpOverlay", () => {
  it("lists the keys and the slash commands", () => {
    const f = frame(render(<HelpOverlay onClose={() => {}} width={80} />));
    for (const s of ["Insert mode", "Normal mode", "Ctrl+J", "fold", "search", "card directory", "Approvals", "jobs panel", "quit", "/help", "/model", "/compact", "/clear", "/jobs", "/todos", "/quit", "Esc or ? closes"]) {
      expect(f).toContain(s);
    }
  });

  it("closes on Esc and on ?", async () => {
    let closed = 0;
    const r = render(<HelpOverlay onClose={() => closed++} width={80} />);
    await tick();
    r.stdin.write("x");
    await tick();
    expect(closed).toBe(0);
    r.stdin.write("?");
    await tick();
    r.stdin.write("\x1b");
    await tick();
    expect(closed).toBe(2);
  });

  it("keeps the footer when the screen is short", () => {
    const f = frame(render(<HelpOverlay onClose={() => {}} width={80} height={10} />));
    expect(f.split("\n").length).toBeLessThanOrEqual(10);
    expect(f).toContain("more lines");
    expect(f).toContain("Esc or ? closes");
  });
});
