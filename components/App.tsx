// The whole screen: the transcript (only its visible window rendered), the
// side panel when the terminal is wide, the prompt area (approval, question
// or composer) and the status bar. It renders the reducer's state and sends
// the core operations; it holds no session state of its own.

import React, { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type MutableRefObject } from "react";
import { Box, Text, useStdout } from "ink";
import type { Operation } from "../core/ops.js";
import type { SessionView } from "../core/reducer.js";
import type { SessionController } from "../core/session-controller.js";
import type { ViewStore } from "./view-store.js";
import { useBusyClock, useGitStatus, useMarkdownRepaint, useTerminalSize } from "./app-hooks.js";
import { useAppKeys } from "./app-keys.js";
import { appLayout, draftRowsFor, hintFor, SIDE_PANEL_MIN_COLUMNS, SIDE_PANEL_WIDTH, type AppLayout } from "./app-layout.js";
import { createCardCache, type CardCache } from "./cards/cache.js";
import { agentsWorking, shownView, viewHeader } from "./agent-views.js";
import { CardDirectory } from "./CardDirectory.js";
import { activityOf } from "./activity.js";
import type { ComposerControl, KeyHandler } from "./Composer.js";
import type { ComposerEcho, RowEcho } from "./composer-echo.js";
import { useMentions } from "./app-mentions.js";
import { HelpOverlay } from "./HelpOverlay.js";
import { JobsPanel } from "./JobsPanel.js";
import { useArmed } from "./prompts/arming.js";
import { PromptArea } from "./PromptArea.js";
import { ReportViewer } from "./ReportViewer.js";
import { SidePanel, TodosOverlay } from "./SidePanel.js";
import { slashMatches } from "./slash.js";
import { Overlay } from "./Overlays.js";
import { RewindPanel } from "./RewindPanel.js";
import type { TuiActions } from "./tui-actions.js";
import { useFrontCommands } from "./front-commands.js";
import { StatusBar } from "./StatusBar.js";
import { narrowSummary } from "./status-line.js";
import { initialUi, type RewindTarget, type UiState } from "./ui-state.js";
import { viewport } from "./viewport.js";
import { truncate } from "../core/text/width.js";

export interface AppProps {
  store: ViewStore;
  controller: SessionController;
  cwd: string;
  color: boolean;
  onQuit(): void;
  contextWindow?: number;
  /** Language servers to list in the side panel (configured ones, when diagnostics or the lsp tool are on). */
  lspServers?: readonly string[];
  /** Messages sent in this project before (oldest first), and where a sent one is kept. */
  promptHistory?: { readonly entries: readonly string[]; add(text: string): void };
  /** The project's files, for `@` completion. */
  listFiles?: () => Promise<readonly string[]>;
  /** Ctrl+X Ctrl+E: the draft edited in the user's editor. */
  editExternally?: (text: string) => Promise<string | undefined>;
  /** What the front end does for the view: files, the clipboard, other sessions. */
  actions?: TuiActions;
  /** Paints a keystroke's edit of one row before the frame that shows it (the screen writer's). */
  paintRow?(echo: RowEcho): boolean;
}

export function App(props: AppProps): React.ReactElement {
  const view = useSyncExternalStore(props.store.subscribe, props.store.get);
  const { stdout } = useStdout();
  const size = useTerminalSize(stdout);
  const [ui, setUi] = useState<UiState>(() => initialUi((stdout.columns || 100) >= SIDE_PANEL_MIN_COLUMNS));
  const [history, setHistory] = useState<string[]>(() => [...(props.promptHistory?.entries ?? [])]);
  const [draftRows, setDraftRows] = useState(1);
  // The composer and the jobs panel take their keys from the key router (app-keys.ts).
  const composerKeys = useRef<KeyHandler | undefined>(undefined);
  const jobsKeys = useRef<KeyHandler | undefined>(undefined);
  const approvalKeys = useRef<KeyHandler | undefined>(undefined);
  const reportKeys = useRef<KeyHandler | undefined>(undefined);
  const composerControl = useRef<ComposerControl | undefined>(undefined);
  const mentions = useMentions(props.listFiles);
  const panelKeys = useRef<KeyHandler | undefined>(undefined);
  const [draft, setDraft] = useState("");
  const draftRef = useRef("");
  const lastKeyAt = useRef(0);
  const readLastKeyAt = useCallback(() => lastKeyAt.current, []);
  // Messages sent while a turn runs: they wait for it, and the status bar says so.
  const [queued, setQueued] = useState<string[]>([]);
  const userCards = view.cards.filter((c) => c.kind === "user").length;
  // A queued message leaves the queue when its turn starts (its USER card appears).
  useEffect(() => setQueued((q) => (q.length ? q.slice(1) : q)), [userCards]);
  // Card numbers belong to one view: each agent's transcript has its own cache.
  const caches = useMemo(() => new Map<string, CardCache>(), []);
  const cacheKey = ui.agent ?? "main";
  if (!caches.has(cacheKey)) caches.set(cacheKey, createCardCache());
  const cache = caches.get(cacheKey)!;
  const shown = shownView(view, ui.agent);
  const header = viewHeader(view, ui.agent, Date.now());
  useMarkdownRepaint();
  const busy = view.request.state !== "idle" || props.controller.running();
  const now = useBusyClock(busy || agentsWorking(view));
  const git = useGitStatus(props.cwd, ui.sidePanel, view.request.state === "idle", view.turn);

  const typing = !view.pendingApproval && !view.pendingQuestion && ui.mode === "INSERT";
  const commands = typing ? slashMatches(draft) : [];
  const fileChoices = typing ? mentions.choices : [];
  const layout = appLayout(size, ui, view, draftRows, commands.length + fileChoices.length);
  const loop = view.facts.loop;
  // A prompt arms per request: each approval by its call, each loop report by its iteration.
  const armed = useArmed(view.pendingApproval?.callId ?? (layout.prompt === "report" ? `loop-report-${loop?.iteration}` : undefined), readLastKeyAt);
  const vp = viewport(shown.cards, {
    width: layout.mainWidth,
    height: layout.bodyHeight - (header ? 1 : 0),
    scroll: ui.scroll,
    folds: ui.folds,
    cwd: props.cwd,
    color: props.color,
    cache,
    ...(ui.mode === "NORMAL" && ui.focus !== undefined ? { focus: ui.focus } : {}),
  });
  const front = useFrontCommands({ view, setUi, controller: props.controller, composerControl, onQuit: props.onQuit, ...(props.actions ? { actions: props.actions } : {}) });
  useAppKeys({
    front,
    panelKeys,
    ui,
    setUi,
    view: shown,
    session: view,
    prompt: layout.prompt,
    armed,
    busy,
    bodyHeight: layout.bodyHeight,
    scroll: vp.scroll,
    controller: props.controller,
    onQuit: props.onQuit,
    composerKeys,
    jobsKeys,
    approvalKeys,
    reportKeys,
    composerControl,
    wide: size.columns >= SIDE_PANEL_MIN_COLUMNS,
    draft: draftRef,
    lastKeyAt,
  });

  const submit = (text: string) => {
    if (!text.trim()) return;
    setHistory((h) => [...h, text]);
    props.promptHistory?.add(text);
    if (text.startsWith("/")) return front.slash(text);
    if (front.sendEdited(text)) return;
    if (busy) setQueued((q) => [...q, text]);
    props.controller.submit({ type: "user_message", text });
    setUi((u) => ({ ...u, scroll: 0, focus: undefined }));
  };
  // A keystroke's echo is painted at once when it changes the composer's row
  // alone: not the command list a `/` draft shows, nor the composer's height.
  const echo = (e: ComposerEcho) => {
    if (!props.paintRow || e.textBefore.startsWith("/") || e.textAfter.startsWith("/")) return;
    if (draftRowsFor(e.textBefore, size.columns) !== draftRowsFor(e.textAfter, size.columns)) return;
    props.paintRow(e);
  };
  const closeOverlay = () => setUi((u) => ({ ...u, overlay: "none" }));
  // done's report, whole and on the whole screen (V on the loop's report prompt).
  if (ui.overlay === "report" && loop?.report !== undefined) {
    return <ReportViewer title={`Loop report · iteration ${loop.iteration} of ${loop.maxIterations}`} markdown={loop.report} width={size.columns} height={layout.rows} color={props.color} keys={panelKeys} onClose={closeOverlay} />;
  }

  return (
    <Box flexDirection="column" width={size.columns} height={layout.rows}>
      <Box flexDirection="row" height={layout.bodyHeight}>
        <Box width={layout.mainWidth} height={layout.bodyHeight} flexDirection="column" overflow="hidden">
          <Body
            ui={ui}
            view={view}
            layout={layout}
            now={now}
            transcript={header ? [truncate(header, layout.mainWidth), ...vp.lines] : vp.lines}
            jobsKeys={jobsKeys}
            panelKeys={panelKeys}
            {...(props.actions ? { actions: props.actions } : {})}
            submit={(op) => void props.controller.submit(op)}
            onPick={(num) => setUi((u) => ({ ...u, overlay: "none", mode: "NORMAL", focus: num }))}
            onKill={(id) => void props.controller.submit({ type: "kill_job", jobId: id })}
            onClose={closeOverlay}
            onRewindPick={(target) => setUi((u) => ({ ...u, rewindTarget: target }))}
            onRewound={(text, draft) => {
              setUi((u) => ({ ...u, overlay: "none", rewindTarget: undefined, mode: "INSERT", focus: undefined, scroll: 0, flash: text }));
              if (draft !== undefined) composerControl.current?.setText(draft);
            }}
          />
        </Box>
        {layout.showSide ? (
          <Box marginLeft={1} width={SIDE_PANEL_WIDTH}>
            <SidePanel view={view} {...(ui.agent ? { shownAgent: ui.agent } : {})} width={SIDE_PANEL_WIDTH} height={layout.bodyHeight} {...(git ? { git } : {})} {...(props.contextWindow ? { contextWindow: props.contextWindow } : {})} {...(props.lspServers?.length ? { lspServers: props.lspServers } : {})} />
          </Box>
        ) : null}
      </Box>
      <Box height={layout.promptHeight} flexDirection="column">
        <PromptArea
          kind={layout.prompt}
          view={view}
          width={size.columns}
          armed={armed}
          composerActive={ui.mode === "INSERT" && ui.overlay === "none" && (layout.prompt === "composer" || (layout.prompt !== "answer" && !armed))}
          color={props.color}
          overlayOpen={ui.overlay !== "none"}
          onViewReport={() => setUi((u) => ({ ...u, overlay: "report" }))}
          approvalKeys={approvalKeys}
          reportKeys={reportKeys}
          history={history}
          commands={commands}
          composerKeys={composerKeys}
          composerControl={composerControl}
          mentions={mentions}
          fileChoices={fileChoices}
          {...(props.editExternally ? { editExternally: props.editExternally } : {})}
          echo={echo}
          controller={props.controller}
          onSubmit={submit}
          onDraft={(text) => {
            draftRef.current = text;
            setDraft(text);
            setDraftRows(draftRowsFor(text, size.columns));
          }}
        />
      </Box>
      {layout.showSide ? null : (
        <Text wrap="truncate" color="cyan">
          {narrowSummary(view, props.contextWindow)}
        </Text>
      )}
      <StatusBar
        mode={ui.mode}
        profile={view.profile ?? ""}
        hint={hintFor(ui, layout.prompt, busy, armed)}
        request={view.request}
        activity={activityOf(view, now, queued.length)}
        now={now}
        runningJobs={Object.values(view.jobs).filter((j) => j.status === "running").length}
        cwd={props.cwd}
        width={size.columns}
        yolo={view.facts.yolo}
        {...(Object.keys(view.agents).length ? { agentView: ui.agent ?? "main" } : {})}
        {...(view.facts.mainRole ? { role: view.facts.mainRole } : {})}
        {...(loop ? { loop } : {})}
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
  jobsKeys: MutableRefObject<KeyHandler | undefined>;
  panelKeys: MutableRefObject<KeyHandler | undefined>;
  actions?: TuiActions;
  submit(op: Operation): void;
  onPick(num: number): void;
  onKill(jobId: string): void;
  onClose(): void;
  onRewindPick(target: RewindTarget): void;
  onRewound(text: string, draft?: string): void;
}

/** The main area: the open overlay (help, card directory, jobs) or the transcript. */
function Body(p: BodyProps): React.ReactElement {
  const { mainWidth: width, bodyHeight: height } = p.layout;
  switch (p.ui.overlay) {
    case "help":
      return <HelpOverlay onClose={p.onClose} width={width} />;
    case "directory":
      return <CardDirectory cards={shownView(p.view, p.ui.agent).cards} width={width} height={height} onPick={p.onPick} onClose={p.onClose} />;
    case "todos":
      return <TodosOverlay view={p.view} width={width} height={height} {...(p.ui.agent ? { shownAgent: p.ui.agent } : {})} />;
    case "jobs":
      return <JobsPanel keys={p.jobsKeys} jobs={Object.values(p.view.jobs)} now={p.now} width={width} height={height} onKill={p.onKill} onClose={p.onClose} />;
    case "rewind":
      return (
        <RewindPanel
          actions={p.actions}
          {...(p.ui.rewindTarget !== undefined ? { target: p.ui.rewindTarget } : {})}
          onPick={p.onRewindPick}
          onDone={p.onRewound}
          onClose={p.onClose}
          width={width}
          height={height}
          keys={p.panelKeys}
        />
      );
    case "stats":
    case "errors":
    case "rules":
    case "sessions":
    case "mcp":
      return <Overlay overlay={p.ui.overlay} view={p.view} width={width} height={height} keys={p.panelKeys} submit={p.submit} onClose={p.onClose} {...(p.actions ? { actions: p.actions } : {})} />;
    default:
      return <Text>{p.transcript.join("\n")}</Text>;
  }
}
