import { afterEach, describe, expect, it } from "vitest";
import stripAnsi from "strip-ansi";
import { SessionPicker, type PickerSession } from "../../components/SessionPicker.js";
import { mount, press, unmountAll } from "../support/ink-act.js";

const frame = (r: { lastFrame(): string | undefined }) => stripAnsi(r.lastFrame() ?? "");
const selectedLine = (f: string) => f.split("\n").find((l) => l.includes("›")) ?? "";

afterEach(unmountAll);

const HERE = "/work/project";
const sessions: PickerSession[] = [
  { id: "20250103-090000-cccccc", status: "paused", updatedAt: "2025-01-03T09:00:10.000Z", title: "elsewhere task", cwd: "/work/other" },
  { id: "20250102-090000-bbbbbb", status: "done", updatedAt: "2025-01-02T09:00:10.000Z", title: "second task", cwd: HERE },
  { id: "20250101-090000-aaaaaa", status: "interrupted", updatedAt: "2025-01-01T09:00:10.000Z", title: "first task", cwd: HERE },
];

async function picker(extra: Partial<Parameters<typeof SessionPicker>[0]> = {}) {
  const picked: string[] = [];
  let quits = 0;
  const r = await mount(
    <SessionPicker sessions={sessions} cwd={HERE} width={120} height={20} onPick={(id) => picked.push(id)} onQuit={() => quits++} {...extra} />,
  );
  return { r, picked, quits: () => quits };
}

describe("SessionPicker", () => {
  it("lists this directory's sessions first, then the others, with status, time and task", async () => {
    const f = frame((await picker()).r);
    const lines = f.split("\n");
    const row = (id: string) => lines.findIndex((l) => l.includes(id));
    expect(f).toContain("This directory");
    expect(f).toContain("Other directories");
    expect(row("bbbbbb")).toBeLessThan(row("aaaaaa"));
    expect(row("aaaaaa")).toBeLessThan(lines.findIndex((l) => l.includes("Other directories")));
    expect(row("aaaaaa")).toBeLessThan(row("cccccc"));
    expect(lines[row("bbbbbb")]).toMatch(/done +2025-01-02 09:00 +second task/);
    expect(lines[row("aaaaaa")]).toMatch(/interrupted +2025-01-01 09:00 +first task/);
    expect(lines[row("cccccc")]).toMatch(/paused .*elsewhere task +\/work\/other/);
    expect(selectedLine(f)).toContain("bbbbbb");
    expect(f).toContain("Enter open");
  });

  it("moves with the arrows and j/k, and picks with Enter", async () => {
    const { r, picked } = await picker();
    await press(r, "j");
    expect(selectedLine(frame(r))).toContain("aaaaaa");
    await press(r, "\x1b[B"); // down
    expect(selectedLine(frame(r))).toContain("cccccc");
    await press(r, "j"); // stays on the last
    expect(selectedLine(frame(r))).toContain("cccccc");
    await press(r, "\x1b[A"); // up
    await press(r, "k");
    expect(selectedLine(frame(r))).toContain("bbbbbb");
    await press(r, "j");
    await press(r, "\r");
    expect(picked).toEqual(["20250101-090000-aaaaaa"]);
  });

  it("quits with q and with Esc", async () => {
    const { r, quits, picked } = await picker();
    await press(r, "q");
    await press(r, "\x1b");
    expect(quits()).toBe(2);
    expect(picked).toEqual([]);
  });

  it("shows why a session cannot be opened while it is selected", async () => {
    const refusal = { id: "20250102-090000-bbbbbb", text: "session 20250102-090000-bbbbbb is approval_required: yuj approve 20250102-090000-bbbbbb" };
    const { r } = await picker({ refusal });
    expect(frame(r)).toContain("is approval_required: yuj approve");
    await press(r, "j");
    expect(frame(r)).not.toContain("is approval_required");
  });

  it("keeps the selection on screen when the list is longer than the screen", async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      id: `20250101-0900${String(59 - i).padStart(2, "0")}-aaaa${String(i).padStart(2, "0")}`,
      status: "done",
      updatedAt: "2025-01-01T09:00:00.000Z",
      title: `task ${i}`,
      cwd: HERE,
    }));
    const { r } = await picker({ sessions: many, height: 10 });
    for (let i = 0; i < 25; i++) await press(r, "j");
    const f = frame(r);
    expect(f.split("\n").length).toBeLessThanOrEqual(10);
    expect(selectedLine(f)).toContain("task 25");
  });

  it("says when there are no sessions, and how to start one", async () => {
    const { r, quits } = await picker({ sessions: [] });
    const f = frame(r);
    expect(f).toContain("No sessions yet");
    expect(f).toContain('yuj code "TASK"');
    await press(r, "\r", "q");
    expect(quits()).toBe(1);
  });
});
