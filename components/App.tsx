// The whole screen: the transcript (only its visible window rendered), the
// side panel when the terminal is wide, the prompt area (approval, question
// or composer) and the status bar. It renders the reducer's state and sends
// the core operations; it holds no session state of its own.

import React, { useMemo, useState, useSyncExternalStore } from "react";
import { Box, Text, useStdout } from "ink";
import type { ApprovalAnswer } from "../core/approvals/types.js";
import type { OpOf } from "../core/ops.js";
import type { SessionView } from "../core/reducer.js";
import type { SessionController } from "../core/session-controller.js";
import type { ViewStore } from "./view-store.js";
import { useBusyClock, useGitStatus, useMarkdownRepaint, useTerminalSize } from "./app-hooks.js";
import { useAppKeys } from "./app-keys.js";
import { appLayout, COMPOSER_MAX_ROWS, draftRowsFor, hintFor, SIDE_PANEL_MIN_COLUMNS, SIDE_PANEL_WIDTH, type AppLayout } from "./app-layout.js";
import { createCardCache } from "./cards/cache.js";
import { CardDirectory } from "./CardDirectory.js";
import { Composer } from "./Composer.js";
import { HelpOverlay } from "./HelpOverlay.js";
import { JobsPanel } from "./JobsPanel.js";
import { ApprovalPrompt } from "./prompts/ApprovalPrompt.js";
import { QuestionPrompt } from "./prompts/QuestionPrompt.js";
import { SidePanel } from "./SidePanel.js";
import { slashAction } from "./slash.js";
import { StatusBar } from "./StatusBar.js";
import { initialUi, type UiState } from "./ui-state.js";
import { viewport } from "./viewport.js";

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

export function App(props: AppProps): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.get);
  const { stdout } = useStdout();
  const size = useTerminalSize(stdout);
  const [ui, setUi] = useState<UiState>(() => initialUi((stdout.columns || 100) >= SIDE_PANEL_MIN_COLUMNS));
  const [history, setHistory] = useState<string[]>([]);
  const [draftRows, setDraftRows] = useState(1);
  const cache = useMemo(() => createCardCache(), []);
  useMarkdownRepaint();
  const busy = view.request.state !== "idle" || props.controller.running();
  const now = useBusyClock(busy);
  const git = useGitStatus(props.cwd, ui.sidePanel, view.request.state === "idle", view.turn);

  const layout = appLayout(size, ui, view, draftRows);
  const vp = viewport(view.cards, {
    width: layout.mainWidth,
    height: layout.bodyHeight,
    scroll: ui.scroll,
    folds: ui.folds,
    cwd: props.cwd,
    color: props.color,
    cache,
    ...(ui.mode === "NORMAL" && ui.focus !== undefined ? { focus: ui.focus } : {}),
  });
  useAppKeys({ ui, setUi, view, prompt: layout.prompt, busy, bodyHeight: layout.bodyHeight, scroll: vp.scroll, controller: props.controller, onQuit: props.onQuit });

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
  const closeOverlay = () => setUi((u) => ({ ...u, overlay: "none" }));

  return (
    <Box flexDirection="column" width={size.columns} height={layout.rows}>
      <Box flexDirection="row" height={layout.bodyHeight}>
        <Box width={layout.mainWidth} height={layout.bodyHeight} flexDirection="column" overflow="hidden">
          <Body
            ui={ui}
            view={view}
            layout={layout}
            now={now}
            transcript={vp.lines}
            onPick={(num) => setUi((u) => ({ ...u, overlay: "none", mode: "NORMAL", focus: num }))}
            onKill={(id) => void props.controller.submit({ type: "kill_job", jobId: id, reason: "killed from the jobs panel" })}
            onClose={closeOverlay}
          />
        </Box>
        {layout.showSide ? (
          <Box marginLeft={1} width={SIDE_PANEL_WIDTH}>
            <SidePanel view={view} width={SIDE_PANEL_WIDTH} height={layout.bodyHeight} {...(git ? { git } : {})} {...(props.contextWindow ? { contextWindow: props.contextWindow } : {})} {...(props.lspServers?.length ? { lspServers: props.lspServers } : {})} />
          </Box>
        ) : null}
      </Box>
      <Box height={layout.promptHeight} flexDirection="column">
        <PromptArea
          kind={layout.prompt}
          view={view}
          width={size.columns}
          composerActive={ui.mode === "INSERT" && ui.overlay === "none"}
          history={history}
          controller={props.controller}
          onSubmit={submit}
          onDraft={(text) => setDraftRows(draftRowsFor(text, size.columns))}
        />
      </Box>
      <StatusBar
        mode={ui.mode}
        profile={view.profile ?? ""}
        hint={hintFor(ui, layout.prompt, busy)}
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

interface BodyProps {
  ui: UiState;
  view: SessionView;
  layout: AppLayout;
  now: number;
  transcript: readonly string[];
  onPick(num: number): void;
  onKill(jobId: string): void;
  onClose(): void;
}

/** The main area: the open overlay (help, card directory, jobs) or the transcript. */
function Body(p: BodyProps): React.ReactElement {
  const { mainWidth: width, bodyHeight: height } = p.layout;
  switch (p.ui.overlay) {
    case "help":
      return <HelpOverlay onClose={p.onClose} width={width} />;
    case "directory":
      return <CardDirectory cards={p.view.cards} width={width} height={height} onPick={p.onPick} onClose={p.onClose} />;
    case "jobs":
      return <JobsPanel jobs={Object.values(p.view.jobs)} now={p.now} width={width} height={height} onKill={p.onKill} onClose={p.onClose} />;
    default:
      return <Text>{p.transcript.join("\n")}</Text>;
  }
}

interface PromptAreaProps {
  kind: AppLayout["prompt"];
  view: SessionView;
  width: number;
  composerActive: boolean;
  history: string[];
  controller: SessionController;
  onSubmit(text: string): void;
  onDraft(text: string): void;
}

/** Below the transcript: the approval or question the session waits on, else the composer. */
function PromptArea(p: PromptAreaProps): React.ReactElement {
  const { pendingApproval: approval, pendingQuestion: question } = p.view;
  if (p.kind === "approval" && approval) {
    return <ApprovalPrompt request={approval} width={p.width} onAnswer={(answer) => void p.controller.submit(approvalOp(approval.callId, answer))} />;
  }
  if (p.kind === "question" && question) {
    return (
      <QuestionPrompt
        question={question}
        width={p.width}
        onAnswer={(answer) => void p.controller.submit({ type: "question_answer", callId: question.callId, answer })}
      />
    );
  }
  return <Composer active={p.composerActive} width={p.width} history={p.history} maxRows={COMPOSER_MAX_ROWS} onSubmit={p.onSubmit} onChange={p.onDraft} />;
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
