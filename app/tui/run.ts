// `yuj` on a terminal: the full-screen TUI. Builds the session's controller
// as the headless run does, with the person at the keyboard as its operator:
// the view sends it operations; renders with Ink on the alternate screen and
// restores the terminal on every way out. The first frame is drawn before Ink
// is loaded (components/first-frame.ts), the terminal already in raw mode so
// the keys typed meanwhile wait, in order, for the composer.

import type { Env } from "../../core/paths.js";
import type { Config } from "../../core/config/schema.js";
import type { LspService } from "../../core/lsp/manager.js";
import { secretValues } from "../../core/redact.js";
import type { SessionLock } from "../../core/session-lock.js";
import { newSessionState, type SessionState } from "../../core/session-state.js";
import { safeText } from "../../core/text/safe.js";
import { firstFrame } from "../../components/first-frame.js";
import type { ParsedArgs } from "../args.js";
import { driveSession } from "../drive-session.js";
import { storedSettings } from "../pause.js";
import { prepareResume, resumedSeq } from "../resume-plan.js";
import type { HistoryLog, SkippedLine } from "../../core/history-log.js";
import { createSessionRecord, releaseRecord, type SessionRecord } from "../../core/session-record.js";
import { replayInto } from "./replay.js";
import { announceSession, buildProvider, loadSetupHandlers, openSession, requireProvider, resolveSession, type Resolved } from "../session.js";
import { createFrameStdout } from "./frame-writer.js";
import { createKeyInput } from "./key-stdin.js";
import { editInEditor } from "./external-editor.js";
import { openPromptHistory } from "./prompt-history.js";
import { welcomeText } from "./welcome.js";
import { loadView, tightenHeap } from "./load.js";
import { contextLimit } from "../../core/compaction.js";
import { listProjectFiles } from "../../core/project-files.js";
import { createTuiActions, type NextSession } from "./actions.js";
import { warningsToSessionLog } from "./warnings.js";
import { createViewStore } from "../../components/view-store.js";
import { announceUntrusted } from "../trust-notice.js";
import { announceDroppedTools } from "../tool-cap-notice.js";
import { snapshotWorkspace } from "../workspace-snapshot.js";

export interface TuiOptions {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  version: string;
  demo?: { overrides: Record<string, unknown>; banner: string };
  /** The session as the caller already resolved it (interactive), so start-up does it once. */
  resolved?: Resolved;
  /** A stored session to open (`yuj --resume ID`), its lock held: its history is shown and continued. */
  resume?: { state: SessionState; dir: string; lock: SessionLock; skipped?: SkippedLine[]; log?: HistoryLog };
}

// Alternate screen, bracketed paste (a paste arrives marked, so its newlines
// never submit the composer), a hidden cursor (the composer draws its own)
// and no autowrap (a row laid out for a wider terminal, painted just before
// a resize is seen, is cut at the margin instead of wrapping and scrolling
// the screen); all are undone on every way out.
const ALT_SCREEN_ON = "\x1b[?1049h\x1b[H\x1b[?2004h\x1b[?25l\x1b[?7l";
const ALT_SCREEN_OFF = "\x1b[?7h\x1b[?25h\x1b[?2004l\x1b[?1049l";

/** How the TUI ended: its exit status, and the session to open next (/new, /resume). */
export interface TuiExit {
  code: number;
  next?: NextSession;
}

export async function runTui(opts: TuiOptions): Promise<TuiExit> {
  const resolved = opts.resolved ?? resolveSession({
    args: opts.args,
    cwd: opts.cwd,
    env: opts.env,
    topLevel: true,
    interactive: true,
    ...(opts.demo ? { extraOverrides: opts.demo.overrides } : {}),
  });
  const choice = requireProvider(resolved);
  if (opts.demo) choice.scriptDelayMs = 15;
  const provider = await buildProvider(choice, resolved.config);
  const secrets = secretValues(opts.env, choice.secrets);
  const store = createViewStore();
  const resume = opts.resume;
  if (resume) replayInto(store, resume.dir);
  let record: SessionRecord | undefined;
  // Resolved with lazyTools (the default command on a terminal): the code the
  // setup runs now, every handler's once the first frame is out.
  await loadSetupHandlers(resolved);
  const session = await openSession(
    opts.env,
    secrets,
    (e) => {
      record?.observe(e);
      store.dispatch(e);
    },
    resolved,
    ["SIGTERM", "SIGHUP"],
    resume
      ? { resume: { id: resume.state.sessionId, dir: resume.dir, lastSeq: resumedSeq(resume.state, resume.dir), lock: resume.lock, ...(resume.log ? { log: resume.log } : {}) } }
      : { staged: true },
  );
  // Started once the first frame is out (spawning git costs the frame tens
  // of ms); the first run waits for it (the controller's `ready`).
  let startSnapshot = () => {};
  const snapshot = resume
    ? undefined
    : new Promise<Awaited<ReturnType<typeof snapshotWorkspace>>>((take) => (startSnapshot = () => take(snapshotWorkspace(opts.cwd))));
  let announced = () => {};
  const ready = snapshot
    ? new Promise<void>((go) => (announced = go)).then(async () => void session.emit(await snapshot))
        // Quitting before git answers closes the trace; the snapshot is then simply missing.
        .catch(() => undefined)
    : undefined;
  const state =
    resume?.state ?? newSessionState({ sessionId: session.id, cwd: opts.cwd, task: "", settings: storedSettings(opts.args, opts.cwd) });
  const storedStatus = state.status;
  const saved = createSessionRecord(session.dir, state, session);
  record = saved;
  const { controller } = driveSession({
    resolved,
    choice,
    provider,
    session,
    record: saved,
    args: opts.args,
    cwd: opts.cwd,
    secrets,
    attached: true,
    // Someone is there: a model that ended its turn is woken when a background job finishes.
    wake: session.services.notices,
    // Each worker's and task child's own events: the view's agent views (Shift+Tab).
    observeAgent: (e) => store.dispatch(e),
    ...(ready ? { ready } : {}),
  });

  await announceSession(session, {
    cwd: opts.cwd,
    toolset: resolved.toolset,
    provider: choice.name,
    model: choice.model,
    version: opts.version,
    demo: opts.demo !== undefined,
  });
  announced();
  // A fresh session starts with what it runs on and where to begin; a resumed
  // one goes on where it was. It is the view's greeting, in the first frame,
  // not part of the session: shown, never recorded.
  if (!resume) {
    const text = welcomeText({ version: opts.version, model: choice.model, provider: choice.name, profile: resolved.toolset.profile, sandboxMode: session.services.sandbox.mode });
    store.dispatch({ type: "notice", level: "info", text, seq: 0, ts: new Date().toISOString(), sessionId: session.id, agentId: "main" });
  }
  announceUntrusted(resolved, session.emit);
  announceDroppedTools(resolved.toolset, session.emit);
  if (opts.demo) session.emit({ type: "notice", level: "info", text: opts.demo.banner });
  if (resume) {
    for (const s of resume.skipped ?? []) {
      session.emit({ type: "notice", level: "warning", text: `history.jsonl line ${s.line} was skipped: ${s.reason}` });
    }
    // Interrupted calls get their results; the next message continues the conversation.
    const { reports } = prepareResume(state, storedStatus, undefined);
    saved.save();
    for (const report of reports) session.emit(report);
    session.emit({ type: "notice", level: "info", text: `Resumed session ${state.sessionId}: type a message to continue.` });
  }
  if (resolved.config.permissions.yolo || opts.args.yolo === true) session.emit({ type: "yolo_changed", on: true });

  const restoreWarnings = warningsToSessionLog(session.dir);
  const restore = () => process.stdout.write(ALT_SCREEN_OFF);
  // Raw mode first (keys typed from now on wait in the terminal, Enter as
  // Enter), then the first frame, then the view's modules.
  const keys = createKeyInput(process.stdin);
  process.stdout.write(ALT_SCREEN_ON);
  process.on("exit", restore);
  const color = process.stdout.isTTY === true && !opts.env.NO_COLOR;
  const contextWindow = contextLimit(resolved.config, choice.name, choice.model);
  const lspServers = lspServerNames(resolved.config, session.services.lsp);
  // Ink paints frames; the frame writer puts only their changed rows on the
  // terminal, so Ink's first frame over this one rewrites only what differs.
  const screen = createFrameStdout(process.stdout);
  const early = firstFrame({ view: store.get(), columns: screen.columns, rows: screen.rows, cwd: opts.cwd, color, lspServers, ...(contextWindow ? { contextWindow } : {}) });
  if (early) screen.write(early.join("\n"));
  // A resumed call, a card, a slash command may need any handler from here on.
  await resolved.loadAllTools();

  let quit!: () => void;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  let next: NextSession | undefined;
  const actions = createTuiActions({
    cwd: opts.cwd,
    env: opts.env,
    sessionId: session.id,
    traceFile: session.trace.path,
    controller,
    terminal: process.stdout,
    rewind: { checkpoints: session.services.checkpoints, record: saved, sessionDir: session.dir, emit: session.emit },
    leave(target) {
      next = target;
      quit();
    },
  });
  // The editor gets the terminal whole: no frames, no key reads, the main screen.
  const handover = {
    release() {
      screen.suspend();
      keys.hold();
      process.stdout.write(ALT_SCREEN_OFF);
    },
    retake() {
      process.stdout.write(ALT_SCREEN_ON);
      keys.release();
      screen.resume();
    },
  };
  const editExternally = async (text: string) => {
    const edited = await editInEditor(text, opts.env, handover);
    if (edited.problem) session.emit({ type: "notice", level: "warning", text: edited.problem });
    return edited.text;
  };
  const promptHistory = openPromptHistory({
    env: opts.env,
    project: resolved.projectDir,
    secrets,
    onProblem: (text) => session.emit({ type: "notice", level: "warning", text }),
  });
  const { mountApp } = await loadView();
  const ink = mountApp(
    {
      store,
      controller,
      cwd: opts.cwd,
      color,
      onQuit: () => quit(),
      actions,
      lspServers,
      promptHistory,
      listFiles: () => listProjectFiles(opts.cwd),
      editExternally,
      paintRow: (echo) => screen.paintRow(echo),
      ...(contextWindow ? { contextWindow } : {}),
    },
    screen as unknown as NodeJS.WriteStream,
    keys.stdin,
  );
  tightenHeap();
  startSnapshot();
  await quitting;
  controller.stop();
  ink.unmount();
  screen.close();
  await controller.idle().catch(() => undefined);
  // A session that never got a message was never saved: it is still staged, and closing removes it.
  try {
    releaseRecord(saved);
  } catch (err) {
    process.stderr.write(`yuj: ${safeText((err as Error).message)}\n`);
  }
  await session.close();
  restore();
  restoreWarnings();
  process.off("exit", restore);
  return next ? { code: 0, next } : { code: 0 };
}

/** The language servers the side panel lists: none unless diagnostics or the lsp tool are on. */
function lspServerNames(config: Config, lsp: LspService): string[] {
  return config.lsp.enabled || config.lsp.tool_enabled ? lsp.servers.map((s) => s.name) : [];
}
