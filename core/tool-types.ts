// The contract between the core and a tool handler. Handlers live in tools/;
// the core only knows this shape, and the app hands the core a registry of them.

import type { z } from "zod";
import type { ApprovalRequest } from "./approvals/types.js";
import type { Emit, Usage } from "./events.js";
import type { Services } from "./services.js";
import type { Config } from "./config/schema.js";
import type { TerminalManager } from "./jobs/terminal.js";
import type { JobManager } from "./jobs/types.js";
import type { HistoryItem, ToolImage } from "./history.js";
import type { ConversationRoles } from "./context/shape.js";
import type { LspService } from "./lsp/manager.js";
import type { SessionMemory } from "./session-memory.js";
import type { SkillSession } from "./skills/session.js";
import type { ToolCardLayout, ToolDisplay } from "./display-schema.js";
import type { MatchTarget } from "./permissions/match-target.js";
import type { OrchestrationPort } from "./orchestration/types.js";
import type { MainRoles } from "./orchestration/main-roles.js";
import type { Provider } from "./providers/types.js";

export type { DisplayOf, ToolDisplay } from "./display-schema.js";

/** A question for the operator (ask_user, Chord's question). */
export interface QuestionRequest {
  callId: string;
  question: string;
  /** Short label. */
  header?: string;
  /** Choices; absent means a free-text answer. */
  options?: Array<{ label: string; description?: string }>;
  multiple?: boolean;
}

/** Nobody is there to answer a question now: the session pauses for it instead. */
export class AnswerDeferred extends Error {
  override name = "AnswerDeferred";
  constructor() {
    super("nobody can answer now; the session pauses for the answer");
  }
}

export interface ToolContext {
  /** The task directory the tool works in (per turn, never a global). */
  cwd: string;
  signal: AbortSignal;
  callId: string;
  /** Emit progress events (job output, todos, …) tied to this call. */
  emit: Emit;
  services: Services;
  config: Config;
  /** Directory of the running session (saved outputs, backups). */
  sessionDir: string;
  /** What this session remembers between calls (never shared with another session). */
  memory: SessionMemory;
  /** The session's commands and background jobs. */
  jobs?: JobManager;
  /**
   * Asks the operator a question and resolves with the answer (while someone
   * can answer). Rejects with AnswerDeferred when nobody can: the dispatcher
   * then runs the tool again with `pauseForAnswer` instead.
   */
  ask?: (question: QuestionRequest) => Promise<string>;
  /**
   * Nobody can answer now, but the session can pause and continue once the
   * operator answers (headless): ask_user then saves its question.
   */
  pauseForAnswer?: boolean;
  /** Exposed names of the tools active in this request (shell rules name them). */
  activeTools?: ReadonlySet<string>;
  /**
   * True for a file (cwd-relative path) a path rule keeps from this tool's
   * results: search tools leave it out, as reading it directly would be refused.
   * Absent when no rule could.
   */
  hiddenByRules?: (path: string) => boolean;
  /** The session's interactive terminal, when terminals are enabled. */
  terminals?: TerminalManager;
  /** The session's language servers. */
  lsp?: LspService;
  /** The session's Agent Skills: the catalogue and the one in use. */
  skills?: SkillSession;
  /**
   * The conversation as the loop holds it when the call runs (the current
   * turn's assistant message included, its results maybe partly), and which
   * exposed names steer it. Read-only: rewind asks it for the active checkpoint.
   */
  conversation?: { history: readonly HistoryItem[]; roles: ConversationRoles };
  /** Runs named agents as child sessions (task), when the surface enables them. */
  subagents?: SubagentRunner;
  /** Code mode: the functions a cell may call and the way to run a cell. */
  cells?: CellHost;
  /** Deferred loading: adds tools to the following requests. */
  toolLoader?: ToolLoader;
  /** The delegation runtime as the calling agent sees it (delegate, complete, notify…), on the Chord surface. */
  orchestration?: OrchestrationPort;
  /** The main agent's roles (handoff), on the Chord surface; a worker has none. */
  mainRoles?: MainRoles;
  /**
   * The session's model backend and model, for a tool that makes a model
   * request of its own (a hosted search); its tokens join the session's
   * running total (`usage`), shown with the next turn's count.
   */
  model?: { provider: Provider; id: string; usage?: Usage };
}

/** One function a code cell may call, as get_function_details shows it. */
export interface CellFunction {
  name: string;
  description: string;
  /** JSON Schema of its parameters. */
  parameters: Record<string, unknown>;
}

/** How a cell ended; `output` is what it printed (stdout and stderr, in order). */
export interface CellOutcome {
  status: "exited" | "timed_out" | "cancelled" | "refused";
  exitCode?: number | null;
  output: string;
  /** Calls the cell made through the dispatcher. */
  calls: number;
  /** Set when a call of the cell needed an approval nobody could give then: the cell was stopped there. */
  paused?: ApprovalRequest;
}

/** Code mode, for one exec_cell call: its functions, and a runner whose inner calls go through the dispatcher. */
export interface CellHost {
  readonly functions: readonly CellFunction[];
  run(source: string): Promise<CellOutcome>;
}

/** Deferred loading: which tools later requests carry. */
export interface ToolLoader {
  /** Adds exact names from the next request on, or refuses the whole call with the reason. */
  load(names: readonly string[]): { ok: true; added: string[]; active: string[] } | { ok: false; text: string };
}

/** Runs one named agent to its end in a child session and returns its final text. */
export interface SubagentRunner {
  run(agent: string, prompt: string, signal: AbortSignal): Promise<ToolResult>;
}

/**
 * What a call may do to the world. A tool states every effect any of its
 * calls may have; a call may narrow that (bash `ls` only inspects).
 *   inspect      reads files or state, changes nothing
 *   mutate       changes files in the project
 *   execute      runs commands (which may change anything)
 *   network      reaches the network
 *   orchestrate  delegates, hands off, cancels or finishes the work of others
 *   converse     talks to the operator or shapes the conversation (todos, think, a question)
 *   stop         stops commands the session started, starting nothing
 */
export type ToolEffect = "inspect" | "mutate" | "execute" | "network" | "orchestrate" | "converse" | "stop";

/**
 * What the loop and the session treat a tool as; they ask the role, never
 * the name.
 *   finish       ends the task: the run stops after it
 *   ask          asks the operator a question
 *   think        a scratchpad: left out of requests after some turns
 *   checkpoint   marks the conversation before an exploration
 *   rewind       returns the conversation to the active checkpoint
 *   plan_exit    ends the required planning phase
 *   read_output  reads a background command's output (job notices name it)
 *   todos        sets the todo list (a rewind restores it)
 *   skill        loads a skill (it stays usable while a skill narrows the tools)
 *   load         adds hidden tools to later requests (deferred loading)
 *   delegation   starts a delegated worker (its rules decide which roles; denied, cancellation goes too)
 *   cancellation cancels a delegated worker
 *   hosted_search runs the provider's hosted search in a request of its own, so the
 *                conversation's requests leave the search's declaration out
 */
export type ToolRole =
  | "finish"
  | "ask"
  | "think"
  | "checkpoint"
  | "rewind"
  | "plan_exit"
  | "read_output"
  | "todos"
  | "skill"
  | "load"
  | "delegation"
  | "cancellation"
  | "hosted_search";

/**
 * A path a call reads or changes, as the model wrote it. The consumers
 * resolve it as each needs: the permission engine to every name the file has,
 * the guards to its real path.
 *   reads     looked at
 *   writes    created or replaced whole
 *   updates   changed in place (must exist)
 *   creates   must not exist yet (a patch's added file, a move's destination)
 *   deletes   removed
 */
type TouchKind = "reads" | "writes" | "updates" | "creates" | "deletes";

export interface Touch {
  path: string;
  as: TouchKind;
  /** Part of a move: its source ("from", updated then gone) or its destination ("to"). */
  move?: "from" | "to";
  /** A read that also happened when the command failed with this status: a search that found nothing (grep, rg: 1) still looked at the file. */
  readOnExit?: number;
}

/** Facts a tool's description of a call may need, without running anything. */
export interface CallFacts {
  /** The task directory. */
  cwd: string;
  /** The name the model called the tool by. */
  name: string;
  /** The running session's folder: where what earlier calls saved is found (a child's patch). */
  sessionDir?: string;
}

/** How rules written for one tool also speak to others (the permission engine). */
export type RuleFamily = "read" | "write" | "edit" | "delete";

interface ToolPermissions {
  /**
   * read: its rules decide which files searches leave out; write / delete:
   * its rules also govern the files a patch adds / deletes or moves away;
   * edit: a rule naming one edit tool governs the others that have no rule
   * of their own.
   */
  family?: RuleFamily;
  /** Older names rules may still use for this tool. */
  aliases?: readonly string[];
  /** An ask rule allows it: the tool asks the operator itself. */
  askAllows?: boolean;
  /** An ask rule only makes it available, as allow does (a tool that steers the session, like a finish tool). */
  askMakesAvailable?: boolean;
  /** On Yuj, why a call no rule matches asks instead of running; unset: it runs. */
  askByDefault?: string;
}

/** How a tool's card looks: data from the arguments and the result, never the model's text. */
interface ToolView extends ToolCardLayout {
  /** The header's key argument: `src/a.ts:10-20`, `npm test`, `pattern in dir`. Arguments are unvalidated. */
  summary?(args: Record<string, unknown>, facts: CallFacts): string;
  /** What the call will do, before it runs (the card while it runs, the approval prompt). */
  preview?(args: Record<string, unknown>, facts: CallFacts): ToolDisplay | undefined;
  /** The approval prompt's words: one line, and the full detail when there is more. */
  describe?(args: Record<string, unknown>, facts: CallFacts): { summary: string; detail?: string };
}

type BackgroundReport =
  | { job: string; state: "started"; checks: boolean }
  | { job: string; state: "running" | "passed" | "failed" };

export interface ToolResult {
  /** false when the call failed; the model still sees `modelText`. */
  ok: boolean;
  /** What the model is sent. */
  modelText: string;
  /** What the view shows; without one, `modelText` as plain text. */
  display?: ToolDisplay;
  /** Images for the model, after the text (view_image); the dispatcher saves them in the session dir. */
  images?: Array<Omit<ToolImage, "file">>;
  /** Set by a finish tool: the loop ends after this call. */
  finish?: { message?: string };
  /**
   * Set by ask_user in a session that pauses for the answer: the run ends
   * with input_required and this call's result is the answer, on resume.
   */
  question?: string;
  /**
   * A background command this call started, read or stopped, for the finish
   * rule: `started` (and whether the command does more than look), or how it
   * stands as the call showed it — `running`, `passed` (exited 0), `failed`
   * (any other end: a non-zero exit, a kill, a timeout).
   */
  background?: BackgroundReport;
  /**
   * Set by exec_cell when a call of its cell needs an approval nobody can
   * give now (headless): the run pauses as for a call of the model's own,
   * and once answered the cell runs again from its start.
   */
  approval?: ApprovalRequest;
}

export interface ToolHandler<Schema extends z.ZodObject = z.ZodObject> {
  /** Handler id, referenced by profiles (`handler = "read"`). */
  readonly id: string;
  /** Parameters; also the source of the JSON Schema sent to the model. */
  readonly schema: Schema;
  /** Every effect a call of it may have. */
  readonly effects: ReadonlySet<ToolEffect>;
  /** The effects of one call, when they depend on its arguments; `effects` otherwise. */
  callEffects?(args: z.infer<Schema>, facts: CallFacts): ReadonlySet<ToolEffect>;
  /** The kinds of touch its calls make, known before any call (plan mode keeps a tool that writes whole files). */
  readonly touchKinds?: ReadonlySet<TouchKind>;
  /** The paths a call reads or changes. */
  touches?(args: z.infer<Schema>, facts: CallFacts): Touch[];
  /** What permission rules' patterns meet; by default the touched paths, or `*`. */
  matchValue?(args: z.infer<Schema>, facts: CallFacts): MatchTarget;
  readonly permissions?: ToolPermissions;
  readonly role?: ToolRole;
  /** True when this call, with this result, checked the files as they now are (the done guard). */
  verifies?(args: z.infer<Schema>, result: ToolResult): boolean;
  readonly view: ToolView;
  /**
   * Older argument shapes the tool still takes: `text`, the parameter that
   * arguments sent as bare text (not JSON) or as one JSON string stand for;
   * `ignored`, parameters an older form took that now carry nothing, dropped
   * with a note instead of refused; `fold`, an older form in which one
   * parameter's value belongs inside another's text (data, so a lazily
   * loaded handler can be described without its code). A fold runs before
   * `ignored`.
   */
  readonly argForms?: ArgForms;
  run(args: z.infer<Schema>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Set on a handler whose code is loaded on first use (tools/lazy-registry.ts):
   * resolves once it is. Until then only its described fields may be read (id,
   * effects, role, permissions, the card's layout, `declared`); anything else
   * throws HandlerNotLoaded. The core awaits it before a call's card or run.
   */
  load?(): Promise<void>;
  /** What the build found of a lazily loaded handler's schema: checks need it before the code loads. */
  readonly declared?: { readonly params: readonly string[]; jsonSchema(): Record<string, unknown> };
}

export interface ArgForms {
  readonly text?: string;
  readonly ignored?: readonly string[];
  readonly fold?: ArgFold;
}

/**
 * When `from` and `into` are both strings and the first non-blank line of
 * `into` matches `when` (a regular expression's source), `into` becomes
 * `template` with `{from}` and `{into}` filled in (the latter without its
 * trailing newlines), `from` is dropped and `note` (with `{from}`) is added
 * to the result. A line of `into` matching `unless` (a line's pattern) keeps
 * the older form from being folded; a last line matching `drop` is left out
 * of `{into}` (the template writes its own).
 */
export interface ArgFold {
  readonly from: string;
  readonly into: string;
  readonly when: string;
  readonly template: string;
  readonly note: string;
  readonly unless?: string;
  readonly drop?: string;
}

/** A lazily loaded handler was used before its code loaded: a missing `load()` await, never the model's fault. */
export class HandlerNotLoaded extends Error {
  override name = "HandlerNotLoaded";
  constructor(id: string) {
    super(`tool handler ${id} was used before its code loaded`);
  }
}

export type ToolRegistry = ReadonlyMap<string, ToolHandler>;

export const ok = (modelText: string, display?: ToolDisplay): ToolResult =>
  display === undefined ? { ok: true, modelText } : { ok: true, modelText, display };

export const fail = (modelText: string, display?: ToolDisplay): ToolResult =>
  display === undefined ? { ok: false, modelText } : { ok: false, modelText, display };

/** Effect sets most tools share. */
export const INSPECTS: ReadonlySet<ToolEffect> = new Set(["inspect"]);
export const MUTATES: ReadonlySet<ToolEffect> = new Set(["mutate"]);
export const EXECUTES: ReadonlySet<ToolEffect> = new Set(["execute"]);
export const CONVERSES: ReadonlySet<ToolEffect> = new Set(["converse"]);
