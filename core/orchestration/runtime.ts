// The session's delegation runtime: the main agent delegates tasks to
// workers that run at once in this process, each in its own child session
// (`<session>/tasks/<task_id>/`), and everyone talks through a durable
// mailbox. The runtime is the source of truth for every task's state; after
// a restart it picks each task up where the log left it.

import { join } from "node:path";
import type { AgentDefinition } from "../agents/definition.js";
import { AgentFileError } from "../agents/definition.js";
import { findAgent, type AgentDirs } from "../agents/find.js";
import { childConfig, childToolset, newTaskDir } from "../agents/runner.js";
import type { HistoryItem } from "../history.js";
import type { LoopDeps, WakeSource } from "../loop.js";
import type { Provider } from "../providers/types.js";
import type { ToolRegistry } from "../tool-types.js";
import { activateTools } from "../profiles/activate.js";
import { mainPort } from "./main-port.js";
import { createMailbox, type Mailbox } from "./mailbox.js";
import { createRequestLimit } from "./request-limit.js";
import { delegableRoles } from "./roles.js";
import { openOrchestrationStore, type OrchestrationStore, type TaskRecord } from "./store.js";
import type { OrchestrationPort } from "./types.js";
import { loadWorkerHistory, startWorker, type Worker, type WorkerHost } from "./worker.js";
import { briefFor, newAgentId } from "./brief.js";
import { workerPort } from "./worker-port.js";
import { mayNest, nestedPort, nestedToolset, wakeParked } from "./nested-runtime.js";

export interface OrchestratorSetup {
  /** The main agent's loop as it runs. */
  parent: Omit<LoopDeps, "signal">;
  registry: ToolRegistry;
  agentDirs: AgentDirs;
  secrets: string[];
  /** The main agent's saved history: the messages it holds were delivered. */
  mainHistory: readonly HistoryItem[];
  /** Whether the permission rules let the main agent delegate to a role. */
  mayDelegateTo(role: string): boolean;
}

export interface Orchestrator {
  /** The main agent's tools' view. */
  readonly port: OrchestrationPort;
  /** Wakes the main agent with its mailbox, merged into one delivery per request. */
  readonly mainWake: WakeSource;
  /** Bounds the provider's requests with the workers' ([orchestration].max_active_llm_requests). */
  limit(provider: Provider): Provider;
  /** Picks up the tasks a earlier process left: running ones go on, parked ones wait for their message. */
  rehydrate(): void;
  /** Stops every worker where it is (the log keeps it for a resume). */
  close(): Promise<void>;
}

/** The runtime's parts, shared by the main agent's port and the workers. */
export interface Runtime {
  store: OrchestrationStore;
  mailbox: Mailbox;
  workers: Map<string, Worker>;
  setup: OrchestratorSetup;
  host: WorkerHost;
  roles(): string[];
  /** A new worker for a recorded task (its loop not started). */
  workerFor(task: TaskRecord, def: AgentDefinition, dir: string): Worker;
  newTaskDir(): { taskId: string; dir: string };
  taskDir(taskId: string): string;
  /** The session is closing: no parked worker is started again. */
  closing?: boolean;
}

export function createOrchestrator(setup: OrchestratorSetup): Orchestrator {
  const { parent } = setup;
  const store = openOrchestrationStore(parent.sessionDir);
  const mailbox = createMailbox(store);
  mailbox.delivered(setup.mainHistory);
  const workers = new Map<string, Worker>();
  const requests = createRequestLimit(parent.config.orchestration.max_active_llm_requests);
  const taskDir = (taskId: string) => join(parent.sessionDir, "tasks", taskId);
  const host: WorkerHost = {
    store,
    mailbox,
    parent,
    ownerEmit: parent.emit,
    secrets: setup.secrets,
    providerFor: (task) => requests.wrap(parent.provider.forAgent?.({ taskId: task.taskId, agentType: task.agentType }) ?? parent.provider),
    toolsetFor: (def, taskId) => {
      const config = childConfig(parent.config, def);
      const model = { provider: parent.provider.name, id: def.model ?? parent.model };
      const toolset = childToolset(def, setup.registry, config, parent.toolset, model);
      if (!mayNest(runtime, taskId)) return { toolset, config };
      // A worker that may delegate gets the main agent's delegate and cancel.
      const top = activateTools(parent.toolset.profile, setup.registry, config, { topLevel: true, model });
      return { toolset: nestedToolset(toolset, top, def, runtime.roles()), config };
    },
    portFor: (taskId) => nestedPort(workerPort(workers.get(taskId)!, host), runtime, taskId),
    label: (from) => (from === "main" ? "your owner (main)" : `${from} (${store.tasks.get(from)?.agentType ?? "worker"})`),
    changed: () => {
      mailbox.poke();
      // A worker's report may be for an owner a restart left parked.
      wakeParked(runtime);
    },
  };
  const runtime: Runtime = {
    store,
    mailbox,
    workers,
    setup,
    host,
    roles: () => delegableRoles(setup.agentDirs, setup.mayDelegateTo),
    workerFor(task, def, dir) {
      const w: Worker = { taskId: task.taskId, def, dir, history: loadWorkerHistory(dir), followUpUsed: false, coordinated: false, stopping: false };
      mailbox.delivered(w.history);
      workers.set(task.taskId, w);
      return w;
    },
    newTaskDir: () => newTaskDir(parent.sessionDir),
    taskDir,
  };
  // A worker whose loop runs and is not parked waiting for a message may still send one.
  const busy = () => [...workers.values()].some((w) => w.run && !w.parked);
  return {
    port: mainPort(runtime),
    limit: (provider) => requests.wrap(provider),
    mainWake: {
      take() {
        const text = mailbox.take("main", host.label);
        return text ? [text] : [];
      },
      async wait(signal) {
        for (;;) {
          if (mailbox.pending("main").length > 0) return true;
          // Only a running worker can still send something; parked ones wait for the main agent.
          if (signal.aborted || !busy()) return false;
          await mailbox.changed(signal);
        }
      },
    },
    rehydrate: () => rehydrate(runtime),
    async close() {
      runtime.closing = true;
      const running = [...workers.values()].filter((w) => w.run);
      for (const w of running) {
        w.stopping = true;
        w.run!.abort.abort(new Error("the session is closing"));
      }
      await Promise.all(running.map((w) => w.run?.done));
      store.close();
    },
  };
}

/** Every task the log holds that is not settled gets a runtime again, with a new agent id and its task id. */
function rehydrate(rt: Runtime): void {
  for (const task of rt.store.tasks.values()) {
    if (task.state === "completed" || task.state === "failed" || task.state === "cancelled") continue;
    let def: AgentDefinition;
    try {
      def = findAgent(task.agentType, rt.setup.agentDirs);
    } catch (err) {
      if (!(err instanceof AgentFileError)) throw err;
      rt.store.setState(task.taskId, "failed", { reason: `cannot resume: ${err.message}` });
      continue;
    }
    const w = rt.workerFor(task, def, rt.taskDir(task.taskId));
    const agentId = newAgentId(task.taskId);
    rt.store.setState(task.taskId, task.state, { agentId });
    rt.host.ownerEmit({ type: "agent_update", taskId: task.taskId, agentType: task.agentType, workerId: agentId, state: task.state, what: "rehydrated" });
    const waiting = rt.mailbox.pending(task.taskId).length > 0;
    if (task.state === "running" || waiting) {
      // A worker killed before its first step starts from its brief again.
      startWorker(w, w.history.length === 0 ? { userText: briefFor(task) } : { continue: true }, rt.host);
    }
  }
}
