import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import { HelpOverlay } from "../../components/HelpOverlay.js";
import { mount, press, unmountAll } from "../support/ink-act.js";

const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");

afterEach(unmountAll);

describe("HelpOverlay", () => {
  it("lists the keys and the slash commands", async () => {
    const f = frame(await mount(<HelpOverlay onClose={() => {}} width={80} />));
    for (const s of ["Insert mode", "Normal mode", "Ctrl+J", "fold", "search", "card directory", "Approvals", "jobs panel", "quit", "/help", "/model", "/compact", "/clear", "/jobs", "/todos", "/quit", "Esc or ? closes"]) {
      expect(f).toContain(s);
    }
  });

  it("closes on Esc and on ?", async () => {
    let closed = 0;
    const r = await mount(<HelpOverlay onClose={() => closed++} width={80} />);
    await press(r, "x");
    expect(closed).toBe(0);
    await press(r, "?");
    await press(r, "\x1b");
    expect(closed).toBe(2);
  });

  it("keeps the footer when the screen is short", async () => {
    const f = frame(await mount(<HelpOverlay onClose={() => {}} width={80} height={10} />));
    expect(f.split("\n").length).toBeLessThanOrEqual(10);
    expect(f).toContain("more lines");
    expect(f).toContain("Esc or ? closes");
  });
});
