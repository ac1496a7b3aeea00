// Every event the core emits, as one discriminated union on `type`.
// Events are plain JSON: the trace stores them as they are, `--output jsonl`
// prints them as they are, and the reducer builds the view from them alone.

/** Fields every event carries. `seq` is dense from 1 within a session. */
export interface EventEnvelope {
  seq: number;
  /** ISO-8601 time the event was emitted. */
  ts: string;
  sessionId: string;
  /** The agent the event belongs to; "main" for the top-level session. */
  agentId: string;
  /** Model turn (0-based) the event belongs to, when it belongs to one. */
  turn?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export type FinishReason =
  | "done" // the model called the finish tool
  | "answered" // the model replied without tool calls
  | "max_turns"
  | "cancelled"
  | "input_required"
  | "approval_required"
  | "error";

export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled" | "blocked";

export interface TodoItem {
  id?: string;
  description: string;
  status: TodoStatus;
  activeForm?: string;
}

export type ApprovalDecision = "allow_once" | "allow_always" | "reject" | "reject_with_message";

export type EventBody =
  | {
      type: "session_started";
      cwd: string;
      profile: string;
      provider: string;
      model: string;
      version: string;
      demo?: boolean;
      traceFile?: string;
    }
  /**
   * The files as they were when the session started, so `yuj replay` can run
   * it again on the same input: a git tree object holding the working tree
   * (untracked files included, ignored ones not), or why there is none.
   */
  | {
      type: "workspace_snapshot";
      tree?: string;
      head?: string;
      dirty?: boolean;
      /** The session's cwd relative to the repository root ("" at the root). */
      prefix?: string;
      /** The repository root the tree's objects live in. */
      repo?: string;
      unavailable?: string;
    }
  | { type: "user_message"; text: string }
  | {
      type: "request_sent";
      requestId: string;
      provider: string;
      model: string;
      messageCount: number;
      toolNames: string[];
    }
  /** Raw request body as sent (headers are never recorded). */
  | { type: "provider_request"; requestId: string; url: string; body: string }
  /** Raw response body as received (the SSE text for streams). */
  | { type: "provider_response"; requestId: string; status: number; body: string }
  | { type: "assistant_text_delta"; text: string }
  | { type: "assistant_message"; text: string }
  | { type: "tool_call_started"; callId: string; name: string }
  | { type: "tool_call_args_delta"; callId: string; delta: string }
  | { type: "tool_call_finished"; callId: string; name: string; args: string }
  | {
      type: "tool_result";
      callId: string;
      name: string;
      ok: boolean;
      /** What the model is sent (already bounded). */
      modelText: string;
      /** What the view shows; may differ from the model's text. */
      viewText: string;
      durationMs: number;
      /** Set when the model text was cut; the full text is at this path. */
      fullOutputPath?: string;
      cancelled?: boolean;
      /**
       * Images sent with the text, by reference: the bytes are saved in the
       * session dir (`file`, absolute) and never written into an event, so a
       * trace stays small and readable however many images a session views.
       */
      images?: Array<{ mediaType: string; label?: string; bytes: number; file?: string }>;
    }
  | {
      type: "approval_requested";
      callId: string;
      tool: string;
      summary: string;
      detail?: string;
      /** Why it asks (the rule, or the built-in gate). */
      reason?: string;
      /** The rule "allow always" would store, as TOML. */
      rule?: string;
    }
  | {
      type: "approval_resolved";
      callId: string;
      decision: ApprovalDecision;
      message?: string;
      rule?: string;
    }
  | {
      type: "question_asked";
      callId: string;
      question: string;
      /** Short label (Chord's header). */
      header?: string;
      /** Choices; absent means a free-text answer. */
      options?: Array<{ label: string; description?: string }>;
      multiple?: boolean;
    }
  | { type: "question_answered"; callId: string; answer: string }
  | {
      type: "job_started";
      jobId: string;
      command: string;
      callId?: string;
      pid?: number;
      label?: string;
      background: boolean;
      /** Absolute deadline (epoch ms), when the job has one. */
      deadlineAt?: number;
      outputFile?: string;
    }
  /** New output, throttled: several chunks are merged into one event. */
  | { type: "job_output"; jobId: string; text: string; totalBytes: number }
  | {
      type: "job_exited";
      jobId: string;
      exitCode: number | null;
      signal?: string | null;
      durationMs?: number;
      /** How it ended: on its own, killed, or past its deadline. */
      status?: "exited" | "killed" | "timed_out";
    }
  | { type: "job_killed"; jobId: string; reason?: string; confirmed: boolean }
  /** A foreground command outlived its budget and now runs as a background job. */
  | { type: "job_promoted"; jobId: string; callId?: string }
  | { type: "jobs_orphans_found"; count: number; detail: string[] }
  | { type: "terminal_started"; terminalId: string; command: string; pid?: number }
  /** Input sent to the interactive terminal: recorded by hash and size, never its text. */
  | { type: "terminal_input"; terminalId: string; sha256: string; bytes: number }
  | { type: "terminal_exited"; terminalId: string; exitCode: number | null; signal?: string | null }
  | { type: "todo_updated"; todos: TodoItem[] }
  /** A delegated worker finished (AGENT COMPLETE) or failed (AGENT BLOCKED). */
  | { type: "agent_notice"; taskId: string; agentType: string; status: "complete" | "blocked"; summary: string }
  | { type: "usage"; usage: Usage; total: Usage }
  /**
   * Older turns were summarised to free context; the durable history keeps
   * them, later requests carry the summary instead.
   */
  | {
      type: "context_compacted";
      reason: "auto" | "manual";
      /** History items the summary stands for, and the ones kept after it. */
      summarisedItems: number;
      keptItems: number;
      summaryChars: number;
      /** Input tokens of the last request before compacting, when known. */
      tokensBefore?: number;
    }
  /** Requests from now on go to another model of the same provider. */
  | { type: "model_switched"; model: string; previous: string }
  | {
      type: "retry";
      attempt: number;
      delayMs: number;
      reason: string;
      status?: number;
      /** True when partial output of the failed attempt was discarded. */
      discardedPartial: boolean;
    }
  | { type: "notice"; level: "info" | "warning"; text: string }
  /**
   * The project's config file loosens settings (sandbox, approvals, host
   * commands) and is not trusted, so those settings were left out.
   */
  | { type: "config_untrusted"; file: string; project: string; ignored: string[]; text: string }
  | { type: "turn_finished"; toolCalls: number }
  | { type: "run_finished"; reason: FinishReason; message?: string }
  | { type: "error"; message: string; code: string; callId?: string };

export type CoreEvent = EventEnvelope & EventBody;
export type EventType = EventBody["type"];

/** Events narrowed by type: `EventOf<"tool_result">`. */
export type EventOf<T extends EventType> = EventEnvelope & Extract<EventBody, { type: T }>;

export type Emit = (body: EventBody, extra?: { turn?: number; agentId?: string }) => CoreEvent;

/** Makes an emitter that stamps seq/ts/ids and hands each event to `sink`. */
export function createEmitter(
  sessionId: string,
  sink: (event: CoreEvent) => void,
  now: () => Date = () => new Date(),
  /** The last sequence number already used (a resumed session continues it). */
  lastSeq = 0,
): { emit: Emit; setTurn(turn: number | undefined): void } {
  let seq = lastSeq;
  let currentTurn: number | undefined;
  const emit: Emit = (body, extra) => {
    const envelope: EventEnvelope = {
      seq: ++seq,
      ts: now().toISOString(),
      sessionId,
      agentId: extra?.agentId ?? "main",
    };
    const turn = extra?.turn ?? currentTurn;
    if (turn !== undefined) envelope.turn = turn;
    const event = { ...envelope, ...body } as CoreEvent;
    sink(event);
    return event;
  };
  return {
    emit,
    setTurn(turn) {
      currentTurn = turn;
    },
  };
}
