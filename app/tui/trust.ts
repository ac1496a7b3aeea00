// The TUI's start-up question about an untrusted project config that
// loosens something, full screen, before the session starts. The terminal is
// restored before it resolves, so the TUI (or the shell) starts clean.

import React from "react";
import { render } from "ink";
import type { ProjectTrust } from "../../core/config/project-trust.js";
import { TrustPrompt, type TrustAnswer } from "../../components/TrustPrompt.js";

// As app/tui/run.ts: the alternate screen, left on every way out.
const ALT_SCREEN_ON = "\x1b[?1049h\x1b[H";
const ALT_SCREEN_OFF = "\x1b[?1049l";

export async function askTrust(trust: ProjectTrust): Promise<TrustAnswer> {
  const restore = () => process.stdout.write(ALT_SCREEN_OFF);
  process.stdout.write(ALT_SCREEN_ON);
  process.on("exit", restore);
  let done!: (answer: TrustAnswer) => void;
  const answered = new Promise<TrustAnswer>((resolve) => (done = resolve));
  const view = () =>
    React.createElement(TrustPrompt, {
      file: trust.file,
      changed: trust.status === "changed",
      ...(trust.trustedAt ? { trustedAt: trust.trustedAt } : {}),
      items: trust.loosening.map(({ key, value, why }) => ({ key, value, why })),
      width: process.stdout.columns || 100,
      height: process.stdout.rows || 30,
      onAnswer: (answer: TrustAnswer) => done(answer),
    });
  const ink = render(view(), { exitOnCtrlC: false, patchConsole: false });
  const onResize = () => ink.rerender(view());
  process.stdout.on("resize", onResize);
  try {
    return await answered;
  } finally {
    process.stdout.off("resize", onResize);
    ink.unmount();
    restore();
    process.off("exit", restore);
  }
}
