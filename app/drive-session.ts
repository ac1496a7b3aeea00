// Puts a session's controller together for a front end: the operator who
// answers its asks (or nobody), the permission gate that asks them, and the
// loop's dependencies. The TUI, `yuj code`, `yuj resume` and `yuj answer`
// all run a session through the controller this returns.

import { createOperator, type Operator } from "../core/controller/operator.js";
import type { LoopDeps, WakeSource } from "../core/loop.js";
import type { Provider } from "../core/providers/types.js";
import { createSessionController, type SessionController } from "../core/session-controller.js";
import type { RunEnd, SessionRecord } from "../core/session-record.js";
import type { ParsedArgs } from "./args.js";
import { joinExtensions } from "./extensions.js";
import { loopDepsFor } from "./loop-deps.js";
import { buildGate } from "./permission-setup.js";
import { sessionSettings } from "./rule-book.js";
import type { ProviderChoice } from "./provider-select.js";
import type { OpenSession, Resolved } from "./session.js";

export interface DriveInputs {
  resolved: Resolved;
  choice: ProviderChoice;
  provider: Provider;
  session: OpenSession;
  record: SessionRecord;
  args: ParsedArgs;
  cwd: string;
  secrets: string[];
  /** Someone answers asks as they come (the TUI, a script on `--input jsonl`); otherwise an ask pauses the run. */
  attached: boolean;
  /** Where the notices come from that wake a model which ended its turn (a background job finished). */
  wake: WakeSource;
  /** The first run waits for this (the workspace snapshot). */
  ready?: Promise<void>;
  /** Or, instead: what the model's first response waits for before any tool runs (the workspace snapshot). */
  toolsReady?: Promise<void>;
  /** Hears the workers' and task children's own events (the TUI shows each agent's transcript). */
  observeAgent?: LoopDeps["observeAgent"];
  onRunEnd?(end: RunEnd): void;
}

export function driveSession(x: DriveInputs): { controller: SessionController; operator: Operator } {
  const { session, record } = x;
  const operator = createOperator({ emit: session.emit, attached: x.attached });
  // Built before the resume repairs: the gate takes the recorded approval answer.
  const gate = buildGate({
    resolved: x.resolved,
    state: record.state,
    emit: session.emit,
    cwd: x.cwd,
    args: x.args,
    approver: operator.approver,
    sessionDir: session.dir,
  });
  const loopDeps = loopDepsFor({ ...x, gate, ask: operator.ask, wake: x.wake });
  // Servers the operator turned on or off before a resume stay as they were left.
  session.services.mcp.applyChoices(record.state.mcp ?? {});
  const extensions = joinExtensions(x.resolved, session.services.mcp, session.services.skills);
  const ready = Promise.all([x.ready, extensions.ready]).then(() => {});
  const controller = createSessionController({
    record,
    emit: session.emit,
    operator,
    runs: {
      loopDeps,
      jobs: session.services.jobs,
      toolsetFor: extensions.toolsetFor,
      checkStorage: () => session.checkTrace(),
      ready,
      ...(x.onRunEnd ? { onRunEnd: x.onRunEnd } : {}),
    },
    settings: {
      ...sessionSettings(gate, record.state, x.cwd, process.env, session.services.mcp),
      ...(loopDeps.session?.mainRoles ? { mainRoles: loopDeps.session.mainRoles } : {}),
    },
  });
  return { controller, operator };
}
