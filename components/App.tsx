// The whole screen: the transcript (only its visible window rendered), the
// side panel when the terminal is wide, the prompt area (approval, question
// or composer) and the status bar. It renders the reducer's state and sends
// the core operations; it holds no session state of its own.

import React, { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Box, Text, useInput, useStdout } from "ink";
import type { ApprovalAnswer } from "../core/approvals/types.js";
import type { OpOf } from "../core/ops.js";
import type { SessionController } from "../core/session-controller.js";
import type { ViewStore } from "./view-store.js";
import { createCardCache } from "./cards/cache.js";
import { loadMarkdown, onMarkdownReady } from "./cards/markdown.js";
import { Composer } from "./Composer.js";
import { HelpOverlay } from "./HelpOverlay.js";
import { JobsPanel } from "./JobsPanel.js";
import { ApprovalPrompt } from "./prompts/ApprovalPrompt.js";
import { QuestionPrompt } from "./prompts/QuestionPrompt.js";
import { SidePanel } from "./SidePanel.js";
import { StatusBar } from "./StatusBar.js";
import { readGitStatus } from "./git-status.js";
import { initialUi, type UiState } from "./ui-state.js";
import { handleNormalKey, handleSearchKey, type KeyContext } from "./keys.js";
import { CardDirectory } from "./CardDirectory.js";
import { viewport } from "./viewport.js";
import { slashAction } from "./slash.js";

export interface AppProps {
  store: ViewStore;
  controller: SessionController;
  cwd: string;
  color: boolean;
  onQuit(): void;
  contextWindow?: number;
  /** Language servers to list in the side panel (configured ones, when diagnostics or the lsp tool are on). */
  lspServers?: readonly string[];
}

const SIDE_PANEL_MIN_COLUMNS = 120;
const SIDE_PANEL_WIDTH = 34;
const COMPOSER_MAX_ROWS = 6;

export function App(props: AppProps): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.get);
  const { stdout } = useStdout();
  const [size, setSize] = useState({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [ui, setUi] = useState<UiState>(() => initialUi((stdout.columns || 100) >= SIDE_PANEL_MIN_COLUMNS));
  const [history, setHistory] = useState<string[]>([]);
  const [draftRows, setDraftRows] = useState(1);
  const [git, setGit] = useState<Awaited<ReturnType<typeof readGitStatus>>>();
  const [now, setNow] = useState(Date.now());
  const cache = useMemo(() => createCardCache(), []);
  // Markdown loads in the background; repaint once it can be used.
  const [, setMarkdownReady] = useState(0);
  useEffect(() => {
    const off = onMarkdownReady(() => setMarkdownReady((n) => n + 1));
    void loadMarkdown();
    return () => void off();
  }, []);

  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on("resize", onResize);
    return () => void stdout.off("resize", onResize);
  }, [stdout]);

  // The elapsed-time display ticks only while a request is in flight: idle costs nothing.
  const busy = view.request.state !== "idle" || props.controller.running();
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [busy]);

  // Git status when a request ends (changed files appear in the side panel):
  // once per turn, one call at a time, never per card.
  const idle = view.request.state === "idle";
  const gitBusy = useRef(false);
  useEffect(() => {
    if (!ui.sidePanel || !idle || gitBusy.current) return;
    gitBusy.current = true;
    void readGitStatus(props.cwd)
      .then(setGit)
      .finally(() => (gitBusy.current = false));
  }, [ui.sidePanel, idle, view.turn, props.cwd]);

  const showSide = ui.sidePanel && size.columns >= SIDE_PANEL_MIN_COLUMNS;
  const mainWidth = Math.max(20, size.columns - (showSide ? SIDE_PANEL_WIDTH + 1 : 0));
  const prompt = view.pendingApproval ? "approval" : view.pendingQuestion ? "question" : "composer";
  const promptHeight = prompt === "approval" ? Math.min(22, 7 + (view.pendingApproval?.detail?.split("\n").length ?? 0)) : prompt === "question" ? 8 : Math.min(COMPOSER_MAX_ROWS, draftRows) + 2;
  const rows = Math.max(8, size.rows);
  const bodyHeight = Math.max(3, rows - promptHeight - 1);

  const vp = viewport(view.cards, {
    width: mainWidth,
    height: bodyHeight,
    scroll: ui.scroll,
    folds: ui.folds,
    cwd: props.cwd,
    color: props.color,
    cache,
    ...(ui.mode === "NORMAL" && ui.focus !== undefined ? { focus: ui.focus } : {}),
  });

  const keyCtx: KeyContext = {
    view,
    bodyHeight,
    running: busy,
    now: Date.now(),
    cancel: () => void props.controller.submit({ type: "cancel" }),
    quit: props.onQuit,
  };
  const searching = ui.search?.editing === true;
  const normalActive = ui.overlay === "none" && prompt === "composer" && ui.mode === "NORMAL" && !searching;
  useInput(
    (input, key) => setUi((u) => handleNormalKey({ ...u, scroll: vp.scroll }, input, key, keyCtx)),
    { isActive: normalActive },
  );
  useInput((input, key) => setUi((u) => handleSearchKey(u, input, key, view)), { isActive: searching && ui.overlay === "none" });
  // Keys every mode shares: Esc leaves Insert, Ctrl+C cancels or quits.
  useInput(
    (input, key) => {
      if (key.escape && ui.overlay === "none" && prompt === "composer") setUi((u) => ({ ...u, mode: "NORMAL" }));
      if (key.ctrl && input === "c") setUi((u) => handleNormalKey(u, "\u0003", key, keyCtx));
    },
    { isActive: ui.mode === "INSERT" || ui.overlay !== "none" || prompt !== "composer" },
  );

  const submit = (text: string) => {
    if (!text.trim()) return;
    setHistory((h) => [...h, text]);
    if (text.startsWith("/")) {
      const action = slashAction(text);
      setUi(action.ui);
      if (action.op) props.controller.submit(action.op);
      if (action.quit) props.onQuit();
      return;
    }
    props.controller.submit({ type: "user_message", text });
    setUi((u) => ({ ...u, scroll: 0, focus: undefined }));
  };

  const body =
    ui.overlay === "help" ? (
      <HelpOverlay onClose={() => setUi((u) => ({ ...u, overlay: "none" }))} width={mainWidth} />
    ) : ui.overlay === "directory" ? (
      <CardDirectory
        cards={view.cards}
        width={mainWidth}
        height={bodyHeight}
        onPick={(num) => setUi((u) => ({ ...u, overlay: "none", mode: "NORMAL", focus: num }))}
        onClose={() => setUi((u) => ({ ...u, overlay: "none" }))}
      />
    ) : ui.overlay === "jobs" ? (
      <JobsPanel
        jobs={Object.values(view.jobs)}
        now={now}
        width={mainWidth}
        height={bodyHeight}
        onKill={(id) => void props.controller.submit({ type: "kill_job", jobId: id, reason: "killed from the jobs panel" })}
        onClose={() => setUi((u) => ({ ...u, overlay: "none" }))}
      />
    ) : (
      <Text>{vp.lines.join("\n")}</Text>
    );

  return (
    <Box flexDirection="column" width={size.columns} height={rows}>
      <Box flexDirection="row" height={bodyHeight}>
        <Box width={mainWidth} height={bodyHeight} flexDirection="column" overflow="hidden">
          {body}
        </Box>
        {showSide ? (
          <Box marginLeft={1} width={SIDE_PANEL_WIDTH}>
            <SidePanel view={view} width={SIDE_PANEL_WIDTH} height={bodyHeight} {...(git ? { git } : {})} {...(props.contextWindow ? { contextWindow: props.contextWindow } : {})} {...(props.lspServers?.length ? { lspServers: props.lspServers } : {})} />
          </Box>
        ) : null}
      </Box>
      <Box height={promptHeight} flexDirection="column">
        {prompt === "approval" && view.pendingApproval ? (
          <ApprovalPrompt
            request={view.pendingApproval}
            width={size.columns}
            onAnswer={(answer) => void props.controller.submit(approvalOp(view.pendingApproval!.callId, answer))}
          />
        ) : prompt === "question" && view.pendingQuestion ? (
          <QuestionPrompt
            question={view.pendingQuestion}
            width={size.columns}
            onAnswer={(answer) => void props.controller.submit({ type: "question_answer", callId: view.pendingQuestion!.callId, answer })}
          />
        ) : (
          <Composer
            active={ui.mode === "INSERT" && ui.overlay === "none"}
            width={size.columns}
            history={history}
            maxRows={COMPOSER_MAX_ROWS}
            onSubmit={submit}
            onChange={(text) => setDraftRows(Math.max(1, Math.ceil((text.length + 3) / Math.max(10, size.columns - 2)) + (text.match(/\n/g)?.length ?? 0)))}
          />
        )}
      </Box>
      <StatusBar
        mode={ui.mode}
        profile={view.profile ?? ""}
        hint={hintFor(ui, prompt, busy)}
        request={view.request}
        now={now}
        runningJobs={Object.values(view.jobs).filter((j) => j.status === "running").length}
        cwd={props.cwd}
        width={size.columns}
        {...(view.sessionId ? { sessionId: view.sessionId } : {})}
      />
    </Box>
  );
}

/** The prompt's answer as the operation the session takes ("allow always" stores the exact rule of the call). */
function approvalOp(callId: string, answer: ApprovalAnswer): OpOf<"approval_answer"> {
  switch (answer.decision) {
    case "allow_always":
      return { type: "approval_answer", callId, decision: "allow_always", scope: answer.scope };
    case "reject_with_message":
      return { type: "approval_answer", callId, decision: "reject_with_message", message: answer.message };
    default:
      return { type: "approval_answer", callId, decision: answer.decision };
  }
}

function hintFor(ui: UiState, prompt: string, busy: boolean): string {
  if (ui.search?.editing) return `/${ui.search.query}▏ Enter find · Esc cancel`;
  if (ui.overlay === "directory") return "↑↓ select · Enter jump · Esc close";
  if (prompt === "approval") return "y allow · a always · n reject · r reject with message";
  if (prompt === "question") return "Enter answer · Tab custom";
  if (ui.overlay === "jobs") return "↑↓ select · k kill · Esc close";
  if (ui.mode === "INSERT") return busy ? "Enter send · Esc normal mode (Esc again cancels)" : "Enter send · Ctrl+J newline · Esc normal mode";
  if (ui.pending?.key === "q" || ui.pending?.key === "ctrl-c") return "press again to quit";
  const found = ui.search?.query ? ` · n/N next "${ui.search.query}"` : "";
  return (busy ? "Esc cancel · j/k cards · o fold · i insert · ? help" : "j/k cards · o fold · / search · Ctrl+T cards · ? help · q q quit") + found;
}
