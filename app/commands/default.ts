// `yuj` with no arguments: the full-screen TUI on a terminal (with the
// offline demo model while no provider is configured); without a terminal,
// the headless demo or a pointer to `yuj code`.

import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParsedArgs } from "../args.js";
import { fixturesRoot } from "../locate.js";
import { ignoredBy } from "../../core/config/project-trust.js";
import { recordTrust, trustStorePath } from "../../core/config/trust-store.js";
import { resolveSession, type Resolved } from "../session.js";
import { loadTui } from "../tui/load.js";
import type { TuiExit } from "../tui/run.js";
import type { NextSession } from "../tui/actions.js";
import { demoCommand, initGit } from "./demo.js";
import { FatalError } from "../errors.js";
import type { SessionState } from "../../core/session-state.js";
import { claimSession } from "../claim-session.js";
import { findSession, listSessions, type ShownStatus } from "../find-session.js";
import { nextAction } from "../next-action.js";
import { argsFromSettings } from "../pause.js";

export async function defaultCommand(args: ParsedArgs, version: string): Promise<number> {
  const tty = process.stdout.isTTY === true && process.stdin.isTTY === true;
  // Raw at once: keys typed while the TUI starts wait in the terminal as
  // typed (Enter stays Enter, nothing is echoed) until the composer reads them.
  if (tty) process.stdin.setRawMode(true);
  if (args.resume === true) return pickAndResume(args, version, tty);
  if (args.resume !== undefined) return resumeInTui(args, args.resume, version, tty);
  // On a terminal the TUI's session modules start loading now, while the
  // config and profile are read (Ink and React load after the first frame).
  const tui = tty ? loadTui() : undefined;
  // On a terminal the tool handlers' code loads once the TUI's first frame is
  // out (app/tui/run.ts): what the session's setup asks of them loads first.
  const resolve = () => resolveSession({ args, cwd: process.cwd(), env: process.env, topLevel: true, interactive: tty, lazyTools: tty });
  const resolved = resolve();
  if (!tty || !tui) {
    if (!resolved.choice) return demoCommand(args, version);
    process.stdout.write(`yuj ${version}: the TUI needs a terminal. Run a task headless with: yuj code "what to do"\n`);
    return 0;
  }
  const { runTui } = await tui;
  if (resolved.choice) {
    const settled = await settleTrust(resolved, resolve);
    if (settled === "quit") return 0;
    const cwd = process.cwd();
    return follow(await runTui({ args, cwd, env: process.env, version, resolved: settled }), args, version, () => runTui({ args, cwd, env: process.env, version }));
  }
  const repo = mkdtempSync(join(tmpdir(), "yuj-demo-"));
  cpSync(join(fixturesRoot, "demo-repo"), repo, { recursive: true });
  initGit(repo);
  const demo = () => runTui({
    args,
    cwd: repo,
    env: process.env,
    version,
    demo: {
      overrides: { provider: { name: "scripted", model: "demo", scenario: join(fixturesRoot, "scenarios", "demo.json") } },
      banner:
        `DEMO MODEL (scripted, offline) in a copy of the demo repository: ${repo}. ` +
        "Type a message (for example: fix the failing test) and press Enter. " +
        "To connect a real model, quit (Ctrl+C twice, in any mode) and run yuj setup.",
    },
  });
  return follow(await demo(), args, version, demo);
}

/**
 * After a TUI session ends: /new and /clear open a fresh one (`fresh`), a
 * session picked with /resume opens that one, until one is quit.
 */
async function follow(exit: TuiExit, args: ParsedArgs, version: string, fresh: () => Promise<TuiExit>): Promise<number> {
  let current = exit;
  while (current.next) {
    const next: NextSession = current.next;
    current = next.kind === "new" ? await fresh() : await openInTui(args, next.id, version);
  }
  return current.code;
}

/**
 * An untrusted project config that loosens something is asked about before
 * the session starts (the TUI loaded already): y records the trust of the
 * content shown and the session is resolved again with it; n keeps it
 * without those settings (the session's first notice names them).
 */
async function settleTrust(resolved: Resolved, resolveAgain: () => Resolved): Promise<Resolved | "quit"> {
  const trust = resolved.projectTrust;
  if (!trust || ignoredBy(trust).length === 0) return resolved;
  const { askTrust } = await import("../tui/trust.js");
  const answer = await askTrust(trust);
  if (answer !== "trust") return answer === "quit" ? "quit" : resolved;
  recordTrust(trustStorePath(process.env), trust.project, { file: trust.file, sha256: trust.sha256 });
  return resolveAgain();
}

/**
 * `yuj --resume ID`: the stored session in the TUI, its transcript shown and
 * its conversation continued by the next message. A session waiting for an
 * approval or an answer is moved on by its command first.
 */
async function resumeInTui(args: ParsedArgs, id: string, version: string, tty: boolean): Promise<number> {
  const found = findSession(process.env, process.cwd(), id);
  const early = refusal(found);
  if (early) throw new FatalError(early);
  if (!tty) throw new FatalError(`the TUI needs a terminal; continue session ${found.state.sessionId} headless with: yuj resume ${found.state.sessionId}`);
  const { runTui } = await loadTui();
  const cwd = found.state.cwd;
  return follow(await openInTui(args, id, version), args, version, () => runTui({ args, cwd, env: process.env, version }));
}

/** The stored session `id` in the TUI, until it is quit or left for another. */
async function openInTui(args: ParsedArgs, id: string, version: string): Promise<TuiExit> {
  const found = findSession(process.env, process.cwd(), id);
  const early = refusal(found);
  if (early) throw new FatalError(early);
  // Held for as long as the TUI shows the session; the state is read again under it.
  const claimed = await claimSession(process.env, process.cwd(), found.state.sessionId);
  const { dir, state, lock, skipped, log } = claimed;
  try {
    const refused = refusal(claimed);
    if (refused) throw new FatalError(refused);
    const stored = argsFromSettings(state.settings, args);
    const resolve = () => resolveSession({ args: stored, cwd: state.cwd, env: process.env, topLevel: true, interactive: true });
    const { runTui } = await loadTui();
    const resolved = await settleTrust(resolve(), resolve);
    if (resolved === "quit") return { code: 0 };
    return await runTui({ args: stored, cwd: state.cwd, env: process.env, version, resolved, resume: { state, dir, lock, skipped, log } });
  } finally {
    lock.release();
  }
}

/** Why the TUI will not open a session (it is busy elsewhere or waits on a command), or undefined. */
function refusal({ state, status, pid }: { state: SessionState; status: ShownStatus; pid?: number }): string | undefined {
  if (status !== "running" && status !== "approval_required" && status !== "input_required") return undefined;
  const next = nextAction(state, status, pid);
  return `session ${state.sessionId} is ${status}: ${next.text}${next.command ? `: ${next.command}` : ""}`;
}

/**
 * A bare `yuj --resume`: every stored session in a picker, this directory's
 * first (a session opens in its own directory, so any of them can be
 * resumed from here, as `yuj --resume ID` can), then `yuj --resume ID` for
 * the one picked. A session the TUI would refuse is refused in the picker,
 * with the same message, and another can be picked.
 */
async function pickAndResume(args: ParsedArgs, version: string, tty: boolean): Promise<number> {
  if (!tty) throw new FatalError("the session picker needs a terminal; `yuj sessions` lists the sessions and `yuj --resume ID` or `yuj resume ID` opens one");
  // Ink is loaded the way the TUI loads it (app/tui/load.ts) before the
  // picker's module asks for it, which then finds it loaded; the TUI that
  // follows the pick needs that module anyway.
  const tui = loadTui();
  const sessions = listSessions(process.env).map((s) => ({
    id: s.meta.id,
    status: s.status,
    updatedAt: s.meta.updatedAt,
    title: s.meta.title,
    cwd: s.meta.cwd,
  }));
  await tui;
  const { pickSession } = await import("../tui/pick.js");
  const cwd = process.cwd();
  const id = await pickSession({
    sessions,
    cwd,
    refusal(id) {
      try {
        return refusal(findSession(process.env, cwd, id));
      } catch (err) {
        // A session gone or damaged since the list was read: said in the picker, which stays.
        return (err as Error).message;
      }
    },
  });
  return id === undefined ? 0 : resumeInTui(args, id, version, tty);
}
