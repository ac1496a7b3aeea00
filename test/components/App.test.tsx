// The App's keys change the view state through pure updaters and carry out
// what a key asks of the session (cancel the turn, quit) outside them: React
// may call an updater twice (StrictMode does, on purpose), and a cancel or a
// quit sent from inside one would then happen twice. Real session controller
// and jobs; only the model is scripted.

import { StrictMode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import stripAnsi from "strip-ansi";
import { App } from "../../components/App.js";
import { createViewStore } from "../../components/view-store.js";
import type { Operation } from "../../core/ops.js";
import type { SessionController } from "../../core/session-controller.js";
import { controlledSession, type ControlledSession } from "../support/controller-harness.js";
import { waitUntil } from "../support/cli.js";

let session: ControlledSession | undefined;
afterEach(async () => {
  cleanup();
  await session?.close();
  session = undefined;
});

function mount(turns: unknown[]) {
  const store = createViewStore();
  session = controlledSession(turns, { onEvent: (e) => store.dispatch(e) });
  const real = session.controller;
  const ops: Operation[] = [];
  const controller: SessionController = { ...real, submit: (op, source) => (ops.push(op), real.submit(op, source)) };
  let quits = 0;
  const r = render(
    <StrictMode>
      <App store={store} controller={controller} cwd={session.cwd} color={false} onQuit={() => quits++} />
    </StrictMode>,
  );
  const screen = () => stripAnsi(r.lastFrame() ?? "");
  const showing = (text: string) => waitUntil(() => screen().includes(text), `the screen to show ${JSON.stringify(text)}`, 10_000);
  return { r, ops, controller, quits: () => quits, screen, showing, session };
}

describe("App keys", () => {
  it("Esc Esc while a turn runs sends one cancel, and the turn ends cancelled", async () => {
    const app = mount([{ tool_calls: [{ name: "bash", arguments: { cmd: "sleep 30" } }] }, { text: "never" }]);
    await app.showing("INSERT");
    app.controller.submit({ type: "user_message", text: "wait a while" });
    await app.session.next("job_started");
    await app.showing("Esc again cancels");
    app.r.stdin.write("\x1b");
    await app.showing("Esc cancel ·");
    app.r.stdin.write("\x1b");
    const finished = await Promise.race([
      app.session.next("run_finished"),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no run_finished; ops ${JSON.stringify(app.ops)}; screen:\n${app.screen()}`)), 10_000)),
    ]);
    expect(finished).toMatchObject({ reason: "cancelled" });
    expect(app.ops.filter((op) => op.type === "cancel")).toHaveLength(1);
    expect(app.screen()).not.toContain("never");
  });

  it("Ctrl+C twice quits once", async () => {
    const app = mount([{ text: "Hello." }]);
    await app.showing("INSERT");
    app.r.stdin.write("\x1b");
    await app.showing("q q quit");
    app.r.stdin.write("\x03");
    await app.showing("press again to quit");
    app.r.stdin.write("\x03");
    await waitUntil(() => app.quits() > 0, "the App to quit");
    // A second call would come from the same key press, at once.
    await new Promise((r) => setImmediate(r));
    expect(app.quits()).toBe(1);
    expect(app.ops.filter((op) => op.type === "cancel")).toEqual([]);
  });
});
