// `yuj --resume` without an id: the session picker, full screen, until a
// session that can be opened is picked (its id) or the picker is left
// (undefined). The terminal is restored before it resolves either way, so
// the caller starts from a clean screen (the TUI, or the shell).

import React from "react";
import { render } from "ink";
import { SessionPicker, type PickerSession } from "../../components/SessionPicker.js";

export interface PickOptions {
  /** Newest first. */
  sessions: PickerSession[];
  cwd: string;
  /** Why session `id` cannot be opened in the TUI, or undefined when it can. */
  refusal(id: string): string | undefined;
}

// As app/tui/run.ts: the alternate screen, left on every way out.
const ALT_SCREEN_ON = "\x1b[?1049h\x1b[H";
const ALT_SCREEN_OFF = "\x1b[?1049l";

export async function pickSession(opts: PickOptions): Promise<string | undefined> {
  const restore = () => process.stdout.write(ALT_SCREEN_OFF);
  process.stdout.write(ALT_SCREEN_ON);
  process.on("exit", restore);

  let done!: (id: string | undefined) => void;
  const chosen = new Promise<string | undefined>((resolve) => (done = resolve));
  let refusal: { id: string; text: string } | undefined;
  const view = () =>
    React.createElement(SessionPicker, {
      sessions: opts.sessions,
      cwd: opts.cwd,
      width: process.stdout.columns || 100,
      height: process.stdout.rows || 30,
      ...(refusal ? { refusal } : {}),
      onPick(id: string) {
        const why = opts.refusal(id);
        if (why === undefined) return done(id);
        refusal = { id, text: why };
        ink.rerender(view());
      },
      onQuit: () => done(undefined),
    });
  const ink = render(view(), { exitOnCtrlC: false, patchConsole: false });
  const onResize = () => ink.rerender(view());
  process.stdout.on("resize", onResize);
  try {
    return await chosen;
  } finally {
    process.stdout.off("resize", onResize);
    ink.unmount();
    restore();
    process.off("exit", restore);
  }
}
