// The permission engine's contract: a pure decision from a tool call, the
// rules and the mode to allow / ask / deny, with the rule that decided it.

export type Action = "allow" | "ask" | "deny";

export interface Rule {
  /** Glob over exposed tool names (`*`, `?`). */
  tool: string;
  /** Glob over the tool's match value; absent means any value. */
  pattern?: string;
  action: Action;
  /** Where the rule came from, for messages: a config file, "session", "profile chord". */
  source?: string;
}

export interface PermissionCall {
  /** Exposed tool name. */
  tool: string;
  /** Handler id behind the name (tells apart e.g. Yuj and Chord tools of one name). */
  handler: string;
  args: Record<string, unknown>;
  /** The task directory, to make paths repository-relative. */
  cwd: string;
}

export interface Decision {
  action: Action;
  /** The rule that decided, when one matched. */
  rule?: Rule;
  /** One line: why, for the model and the user. */
  reason: string;
  /** The match values the rules were checked against (paths, command, host). */
  matchValues: string[];
  /** The value that decided when there are several (a patch's paths, a file's names: its real path, another hard link). */
  value?: string;
}

export interface PolicyOptions {
  /** Which spec's semantics apply: Yuj (no match = normal behaviour) or Chord (no match = deny). */
  surface: "yuj" | "chord";
  /** Skip ordinary asks (never the protected tools). */
  yolo: boolean;
  /** Measurement runs: every ask becomes a deny. */
  measurement: boolean;
}
