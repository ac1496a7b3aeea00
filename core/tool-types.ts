// The contract between the core and a tool handler. Handlers live in tools/;
// the core only knows this shape, and the app hands the core a registry of them.

import type { z } from "zod";
import type { Emit } from "./events.js";
import type { Services } from "./services.js";
import type { Config } from "./config/schema.js";
import type { TerminalManager } from "./jobs/terminal.js";
import type { JobManager } from "./jobs/types.js";
import type { HistoryItem, ToolImage } from "./history.js";
import type { ConversationRoles } from "./context/shape.js";
import type { LspService } from "./lsp/manager.js";
import type { SessionMemory } from "./session-memory.js";
import type { SkillSession } from "./skills/session.js";

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
}

/** Runs one named agent to its end in a child session and returns its final text. */
export interface SubagentRunner {
  run(agent: string, prompt: string, signal: AbortSignal): Promise<ToolResult>;
}

export interface ToolResult {
  /** false when the call failed; the model still sees `modelText`. */
  ok: boolean;
  /** What the model is sent. */
  modelText: string;
  /** What the view shows; defaults to `modelText`. */
  viewText?: string;
  /** Images for the model, after the text (view_image); the dispatcher saves them in the session dir. */
  images?: Array<Omit<ToolImage, "file">>;
  /** Set by a finish tool: the loop ends after this call. */
  finish?: { message?: string };
  /**
   * Set by ask_user in a session that pauses for the answer: the run ends
   * with input_required and this call's result is the answer, on resume.
   */
  question?: string;
}

export interface ToolHandler<Schema extends z.ZodObject = z.ZodObject> {
  /** Handler id, referenced by profiles (`handler = "read"`). */
  readonly id: string;
  /** Parameters; also the source of the JSON Schema sent to the model. */
  readonly schema: Schema;
  /** Read-only handlers may run in parallel with each other. */
  readonly readOnly: boolean;
  run(args: z.infer<Schema>, ctx: ToolContext): Promise<ToolResult>;
}

export type ToolRegistry = ReadonlyMap<string, ToolHandler>;

export const ok = (modelText: string, viewText?: string): ToolResult =>
  viewText === undefined ? { ok: true, modelText } : { ok: true, modelText, viewText };

export const fail = (modelText: string, viewText?: string): ToolResult =>
  viewText === undefined ? { ok: false, modelText } : { ok: false, modelText, viewText };
