// A session controller over real parts: the _base tools in a temporary copy
// of the demo repo, the real permission gate (asking before `rm`), real jobs,
// and a session folder whose state.json is written as the app writes it. Only
// the model is scripted.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../../core/config/schema.js";
import { createOperator, type Operator } from "../../core/controller/operator.js";
import { createEmitter, type CoreEvent } from "../../core/events.js";
import { createJobManager } from "../../core/jobs/manager.js";
import type { JobManager } from "../../core/jobs/types.js";
import type { SyncFileSystem } from "../../core/atomic-write.js";
import type { ActiveToolset } from "../../core/profiles/activate.js";
import { createPermissionGate } from "../../core/permissions/gate.js";
import { parseScenario } from "../../core/providers/scenario.js";
import { scriptedProvider } from "../../core/providers/scripted.js";
import { nodeServices } from "../../core/services.js";
import { createSessionController, type SessionController } from "../../core/session-controller.js";
import { createSessionRecord, type RunEnd, type SessionRecord } from "../../core/session-record.js";
import { newSessionState, readState, type SessionState } from "../../core/session-state.js";
import { baseToolset, tempDemoRepo } from "./loop-harness.js";
import { createSessionMemory } from "../../core/session-memory.js";

export interface ControlledSession {
  controller: SessionController;
  operator: Operator;
  record: SessionRecord;
  events: CoreEvent[];
  ends: RunEnd[];
  cwd: string;
  dir: string;
  /** state.json as saved. */
  saved(): SessionState;
  /** Resolves with the first event (from now or already seen) that matches. */
  next(type: CoreEvent["type"]): Promise<CoreEvent>;
  close(): Promise<void>;
}

export function controlledSession(
  turns: unknown[],
  opts: {
    attached?: boolean;
    delayMs?: number;
    rules?: Array<{ tool: string; pattern?: string; action: "allow" | "ask" | "deny" }>;
    /** Hears every event as it is emitted (a view store, say). */
    onEvent?: (e: CoreEvent) => void;
    /** The project (default: a fresh copy of the demo repo). */
    cwd?: string;
    /** The session folder (default: a fresh one). */
    dir?: string;
    /** The tools (default: the _base profile's). */
    toolset?: ActiveToolset;
    /** The job manager (default: the session's own). */
    jobs?: JobManager;
    /** The calls that write state.json and session.json (default node's). */
    stateFs?: SyncFileSystem;
  } = {},
): ControlledSession {
  const cwd = opts.cwd ?? tempDemoRepo();
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "yuj-test-session-"));
  const events: CoreEvent[] = [];
  const waiters: Array<{ type: string; resolve(e: CoreEvent): void }> = [];
  let record: SessionRecord | undefined;
  const { emit, setTurn } = createEmitter("s-test", (e) => {
    events.push(e);
    record?.observe(e);
    opts.onEvent?.(e);
    for (const w of waiters.splice(0)) (w.type === e.type ? w.resolve(e) : waiters.push(w));
  });
  const config = defaultConfig();
  const state = newSessionState({ sessionId: "s-test", cwd, task: "", settings: { configFiles: [] } });
  const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  record = createSessionRecord(dir, state, { usage, lastSeq: () => events.length, ...(opts.stateFs ? { fs: opts.stateFs } : {}) });
  const operator = createOperator({ emit, attached: opts.attached ?? true });
  const jobs = opts.jobs ?? createJobManager({ sessionDir: dir, emit });
  const toolset = opts.toolset ?? baseToolset(config);
  const gate = createPermissionGate({
    cwd,
    rules: opts.rules ?? [{ tool: "bash", pattern: "rm *", action: "ask" }],
    sessionRules: state.sessionRules,
    policy: { surface: "yuj", yolo: false, measurement: false, tools: toolset.catalog },
    approver: operator.approver,
    emit,
  });
  const ends: RunEnd[] = [];
  const saveStep = record;
  const controller = createSessionController({
    record,
    emit,
    operator,
    runs: {
      loopDeps: {
        provider: scriptedProvider(parseScenario({ turns }), { delayMs: opts.delayMs ?? 0 }),
        model: "scripted",
        system: "test system prompt",
        toolset,
        config,
        services: nodeServices(),
        emit,
        setTurn,
        cwd,
        sessionDir: dir,
        memory: createSessionMemory(),
        usage,
        gate,
        session: { jobs, ask: operator.ask },
        onStep: () => saveStep.save({ durable: false }),
      },
      jobs,
      onRunEnd: (end) => void ends.push(end),
    },
  });
  return {
    controller,
    operator,
    record,
    events,
    ends,
    cwd,
    dir,
    saved: () => readState(dir)!,
    next: (type) => {
      const seen = events.find((e) => e.type === type && !consumed.has(e));
      if (seen) {
        consumed.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve) =>
        waiters.push({
          type,
          resolve: (e) => {
            consumed.add(e);
            resolve(e);
          },
        }),
      );
    },
    close: () => jobs.shutdown(),
  };
}

const consumed = new WeakSet<CoreEvent>();
