// The composition root of a session: config, provider, profile and tools are
// resolved first (so bad input fails before anything is written), then the
// session directory and trace are opened and the core is wired to them.

import { homedir } from "node:os";
import * as path from "node:path";
import { ConfigError } from "../core/config/errors.js";
import { loadConfig } from "../core/config/load.js";
import type { ProjectTrust } from "../core/config/project-trust.js";
import type { Config } from "../core/config/schema.js";
import { createEmitter, type CoreEvent, type Emit, type Usage } from "../core/events.js";
import { HistoryLog } from "../core/history-log.js";
import { findInstructions } from "../core/instructions.js";
import { ownDirs, sessionsDir, stateDir, type Env } from "../core/paths.js";
import { activateTools, toolWithRole, type ActiveToolset } from "../core/profiles/activate.js";
import { cachedSchemas } from "../core/profiles/schema-cache.js";
import { checkProfile, loadProfile, ProfileError } from "../core/profiles/load.js";
import type { Provider } from "../core/providers/types.js";
import type { ToolRegistry } from "../core/tool-types.js";
import { nodeServices, type Services } from "../core/services.js";
import { createSessionMemory, type SessionMemory } from "../core/session-memory.js";
import { commandEnv, policyFromConfig } from "../core/jobs/shell-env.js";
import { sessionLayout } from "../core/session.js";
import type { SessionLock } from "../core/session-lock.js";
import { writeState, type SessionState } from "../core/session-state.js";
import { StateWriteError } from "../core/storage-error.js";
import { buildSystemPrompt, promptTools } from "../core/system-prompt.js";
import type { SkillSession } from "../core/skills/session.js";
import type { TraceWriter } from "../core/trace.js";
import { runRegistry } from "../tools/run-registry.js";
import { flagOverrides, type ParsedArgs } from "./args.js";
import { FatalError } from "./errors.js";
import { profilesRoot } from "./locate.js";
import { chooseProvider, createProviderFor, NO_PROVIDER_HELP, type ProviderChoice } from "./provider-select.js";
import { createSessionServices, reapEarlierOrphans, type SessionServices } from "./session-services.js";
import { createSession, discardStaging, openTraceOrRecord, publish } from "./session-folder.js";

export interface SessionInputs {
  args: ParsedArgs;
  cwd: string;
  env: Env;
  /** Extra config layer applied over the flags (the demo's provider). */
  extraOverrides?: Record<string, unknown>;
  /** The top-level assistant session (ask_user and similar tools are on). */
  topLevel: boolean;
  /** Someone can answer at once (the TUI). */
  interactive?: boolean;
  /** A measurement run (--measure): nothing asks the operator. */
  measurement?: boolean;
  /** Judge the project config's trust as this directory's (a replay's copy of the recorded project). */
  trustAs?: string;
  /**
   * A new headless task: each tool handler's code loads when a call of it
   * first needs it (the core awaits it). Otherwise every handler loads
   * before the session opens, as anything may use one (a resumed call, a card).
   */
  lazyTools?: boolean;
}

export interface Resolved {
  config: Config;
  choice: ProviderChoice | undefined;
  toolset: ActiveToolset;
  services: Services;
  /** The project directory the config was resolved for: writable inside the sandbox. */
  projectDir: string;
  /** How the project's config file was judged: what it loosens and whether that was left out. */
  projectTrust?: ProjectTrust;
  /** The same surface for another model of the provider (/model), or while loop mode is on: some tools depend on them. */
  toolsetFor(model: string, opts?: { loopRunning?: boolean }): ActiveToolset;
  /** Every tool handler, by id (child sessions and workers build their tools from it). */
  registry: ToolRegistry;
  /** Resolves once the handlers' code the session needs before it opens is loaded (all of it, unless `lazyTools`). */
  toolsLoaded: Promise<void>;
  /** Loads every handler's code (with `lazyTools`, for a run that may need any of it before a call names it). */
  loadAllTools(): Promise<void>;
}

// The build's id (a hash of the sources the tool schemas come from), set by the bundler; a run from
// the sources has none, and builds its schemas every time.
declare const YUJ_SCHEMA_BUILD: string | undefined;

/** The tool schemas kept between runs of this build, under the state directory. */
function schemaSource(env: Env) {
  if (typeof YUJ_SCHEMA_BUILD !== "string") return undefined;
  return cachedSchemas(path.join(stateDir(env), "tool-schemas.json"), YUJ_SCHEMA_BUILD);
}

/** Everything that can fail on bad input, checked before anything is written. */
export function resolveSession(inputs: SessionInputs): Resolved {
  let config: Config;
  let projectTrust: ProjectTrust | undefined;
  try {
    const overrides = mergeShallow(flagOverrides(inputs.args), inputs.extraOverrides ?? {});
    ({ config, project: projectTrust } = loadConfig({
      cwd: inputs.cwd,
      env: inputs.env,
      home: inputs.env.HOME ?? homedir(),
      configFiles: inputs.args.configFiles,
      overrides,
      ...(inputs.trustAs ? { trustAs: inputs.trustAs } : {}),
    }));
  } catch (err) {
    if (err instanceof ConfigError) throw new FatalError(err.message);
    throw err;
  }
  const choice = chooseProvider(config, inputs.env, inputs.cwd);
  const tools = runRegistry();
  const registry = tools.registry;
  const schemas = schemaSource(inputs.env);
  let toolset: ActiveToolset;
  let toolsetFor: Resolved["toolsetFor"];
  try {
    const profile = loadProfile(profilesRoot, config.profile);
    checkProfile(profile, registry, config.experiment.tool_desc);
    toolsetFor = (model, opts) => {
      const active = activateTools(profile, registry, config, {
        topLevel: inputs.topLevel,
        loopRunning: opts?.loopRunning ?? false,
        interactive: inputs.interactive ?? false,
        measurement: inputs.measurement ?? inputs.args.measure === true,
        model: choice ? { provider: choice.name, id: model } : undefined,
        ...(schemas ? { schemas: schemas.source } : {}),
      });
      schemas?.save();
      return active;
    };
    toolset = toolsetFor(choice?.model ?? "");
  } catch (err) {
    if (err instanceof ProfileError) throw new FatalError(err.message);
    throw err;
  }
  // From yuj's own environment, not the commands' ([shell_env] may leave HOME or XDG_* out).
  const services = nodeServices(commandEnv(inputs.env, policyFromConfig(config)), ownDirs(inputs.env));
  const toolsLoaded = inputs.lazyTools ? Promise.resolve() : tools.loadAll();
  // Awaited by openSession; a failure is said there, not as an unhandled rejection first.
  toolsLoaded.catch(() => undefined);
  return { config, choice, toolset, services, projectDir: inputs.cwd, toolsetFor, registry, toolsLoaded, loadAllTools: tools.loadAll, ...(projectTrust ? { projectTrust } : {}) };
}

/**
 * The handlers whose code a session's setup runs before any model call: the
 * permission rules are asked about the tools a deny hides even when offered
 * (finish tools) and about delegate's roles. With delegation, the workers'
 * setups ask about theirs too: every handler loads.
 */
export async function loadSetupHandlers(resolved: Resolved): Promise<void> {
  const tools = [...resolved.toolset.tools.values()];
  if (tools.some((t) => t.handler.role === "delegation")) return resolved.loadAllTools();
  const asked = tools.filter((t) => t.handler.role === "finish" || t.handler.permissions?.askMakesAvailable);
  await Promise.all(asked.map((t) => t.handler.load?.()));
}

export function requireProvider(resolved: Resolved): ProviderChoice {
  if (!resolved.choice) throw new FatalError(NO_PROVIDER_HELP);
  return resolved.choice;
}

export interface OpenSession {
  id: string;
  dir: string;
  trace: TraceWriter;
  emit: Emit;
  setTurn: (turn: number | undefined) => void;
  /** The last event number written (for a later resume). */
  lastSeq(): number;
  usage: Usage;
  services: SessionServices;
  /** What the session remembers between tool calls, in this process only. */
  memory: SessionMemory;
  /**
   * Throws the first failure to write the trace, if one happened: events go
   * on reaching the caller, and the run stops at its next saved step.
   */
  checkTrace(): void;
  /** Ends jobs older yuj processes left behind (reported as an event). */
  reapOrphans(): Promise<void>;
  /**
   * Writes the session's state. A staged session is published by its first
   * write: the state goes into the hidden folder, which is then renamed to
   * the session's id, so the session appears whole.
   */
  saveState(state: SessionState, opts?: { durable?: boolean }): void;
  /**
   * Ends every job and the terminal, then closes the trace and lets the
   * session's lock go; a staged session never saved is removed.
   */
  close(): Promise<void>;
  /** Runs `fn` first when the session closes (delegated workers stop where they are). */
  onClose(fn: () => Promise<void>): void;
  /**
   * Resolves once the new session's first state is fsynced (at once unless
   * it was created with `syncLater`): a run acts on no model response before
   * (headless gives it as toolsReady). A failure to sync is the trace's
   * failure: the run stops at its next saved step, saying why.
   */
  durable: Promise<void>;
}

/** Which session a process opens. */
export type SessionTarget =
  /** A stored session, its lock already held (app/claim-session.ts). */
  | { resume: { id: string; dir: string; lastSeq: number; lock: SessionLock; log?: HistoryLog } }
  /**
   * A new session that appears with this state already saved (its id is the
   * state's). `syncLater`: the state is fsynced in the background instead of
   * before openSession returns (see OpenSession.durable).
   */
  | { create: SessionState; syncLater?: boolean }
  /**
   * A new session put together in a hidden folder until its first state is
   * saved (the TUI's, whose first state comes with its first message): until
   * then nothing lists it, and closed before that it is removed.
   */
  | { staged: true }
  /** A new session with no state, ever (`yuj tool`'s). */
  | { fresh: true };

/**
 * Opens the session (creating and locking a new one); every event goes to
 * the trace, the services and `onEvent`, in that order.
 */
export async function openSession(
  env: Env,
  secrets: string[],
  onEvent: (e: CoreEvent) => void,
  resolved: Pick<Resolved, "toolset" | "config" | "projectDir" | "toolsLoaded">,
  exitSignals: Array<"SIGINT" | "SIGTERM" | "SIGHUP">,
  target: SessionTarget,
): Promise<OpenSession> {
  await resolved.toolsLoaded;
  const home = env.HOME ?? homedir();
  const resume = "resume" in target ? target.resume : undefined;
  // This session's writer of its conversation log: what it read on resume, or nothing yet.
  const historyLog = resume?.log ?? new HistoryLog();
  const made = "resume" in target ? target.resume : await createSession(sessionsDir(env, home), target, historyLog);
  const { id, dir, lock } = made;
  // Until a staged session is published its files are in the hidden folder;
  // every path handed out (the trace's, the services') is the final one,
  // and nothing but the trace and the lock is written before publication.
  let staging = "staging" in made ? made.staging : undefined;
  let traceFailure: StateWriteError | undefined;
  const durable = (("durable" in made && made.durable) || Promise.resolve()).catch((err: unknown) => {
    traceFailure ??= err instanceof StateWriteError ? err : new StateWriteError(`could not save session ${id}`, err);
  });
  const trace = openTraceOrRecord(sessionLayout(staging ?? dir).trace, secrets, (err) => (traceFailure ??= err), sessionLayout(dir).trace);
  let services: SessionServices | undefined;
  const closers: Array<() => Promise<void>> = [];
  let lastSeq = resume?.lastSeq ?? 0;
  const { emit, setTurn } = createEmitter(
    id,
    (event) => {
      lastSeq = event.seq;
      try {
        trace.write(event);
      } catch (err) {
        // The event still reaches the caller (stdout, the view); the run
        // ends at its next step, saying why (checkTrace).
        if (!(err instanceof StateWriteError)) throw err;
        traceFailure ??= err;
      }
      services?.observe(event);
      onEvent(event);
    },
    undefined,
    resume?.lastSeq ?? 0,
  );
  services = createSessionServices({
    sessionDir: dir,
    stateDir: stateDir(env, home),
    env,
    secrets,
    emit,
    readTool: toolWithRole(resolved.toolset, "read_output"),
    jobNotice: resolved.toolset.profile.jobNotice,
    exitSignals,
    config: resolved.config,
    projectDir: resolved.projectDir,
  });
  const ready = services;
  return {
    id,
    dir,
    trace,
    emit,
    setTurn,
    lastSeq: () => lastSeq,
    usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    durable,
    services: ready,
    memory: createSessionMemory(),
    checkTrace() {
      if (traceFailure) throw traceFailure;
    },
    reapOrphans: () => reapEarlierOrphans(stateDir(env, home), emit),
    saveState(state, opts) {
      if (!staging) return writeState(dir, state, { ...opts, log: historyLog });
      writeState(staging, state, { ...opts, log: historyLog });
      publish(staging, dir);
      staging = undefined;
    },
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      try {
        for (const fn of closers.splice(0)) await fn().catch(() => undefined);
        await ready.shutdown();
      } finally {
        trace.close();
        lock.release();
        if (staging) discardStaging(staging);
      }
    },
  };
}

/**
 * The first events of every session: what it runs with, the skills it found,
 * then any process groups an earlier yuj left behind (ended and reported).
 */
export async function announceSession(
  session: OpenSession,
  s: { cwd: string; toolset: ActiveToolset; provider: string; model: string; version: string; demo?: boolean },
): Promise<void> {
  session.emit({
    type: "session_started",
    cwd: s.cwd,
    profile: s.toolset.profile.name,
    provider: s.provider,
    model: s.model,
    version: s.version,
    traceFile: session.trace.path,
    ...(s.demo ? { demo: true } : {}),
  });
  // The side panel lists them; each is marked once its instructions are loaded.
  const { skills } = session.services.skills;
  if (skills.length) session.emit({ type: "skills_found", skills: skills.map((k) => ({ name: k.name, description: k.description })) });
  await session.reapOrphans();
}

export async function buildProvider(choice: ProviderChoice, config: Config): Promise<Provider> {
  return createProviderFor(choice, config);
}

export function systemPromptFor(cwd: string, toolset: ActiveToolset, skills?: SkillSession, date = new Date().toISOString().slice(0, 10)): string {
  const section = skillsSection(toolset, skills);
  return buildSystemPrompt({
    cwd,
    ...promptTools(toolset),
    instructions: findInstructions(cwd),
    date,
    ...(section ? { skills: section } : {}),
  });
}

/** With a skill tool the catalogue is in its description; otherwise in the system prompt, for read. */
function skillsSection(toolset: ActiveToolset, skills: SkillSession | undefined): string {
  const hasSkillTool = [...toolset.tools.values()].some((t) => t.handler.role === "skill");
  return skills && !hasSkillTool ? skills.promptSection() : "";
}

function mergeShallow(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && typeof prev === "object" && v && typeof v === "object" ? { ...(prev as object), ...(v as object) } : v;
  }
  return out;
}
