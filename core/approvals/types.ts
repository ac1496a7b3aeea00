// Asking the user about a call the rules mark `ask`: what is asked, the
// answers there are, and who answers (the operator, or nobody yet: the run
// pauses and the answer comes later through `yuj approve` / `yuj reject`).

import type { Rule } from "../permissions/types.js";

export interface ApprovalRequest {
  callId: string;
  tool: string;
  /** One line: what the call will do (the command, the path). */
  summary: string;
  /** The body: the diff of an edit, the content of a write, the patch. */
  detail?: string;
  /** Why it asks: the rule or the built-in gate. */
  reason: string;
  /** The rule "allow always" would store. */
  suggestedRule: Rule;
  /** The rules "allow always" offers, exact to broad, each verified to let this call through (the first is the exact one). */
  candidates?: Rule[];
}

/** Where "allow always" stores its rule: this session (kept in its state), ./.yuj/config.toml, or the user config. */
export type RuleScope = "session" | "project" | "user";

export type ApprovalAnswer =
  /** `args`: the user edited the call's arguments before allowing it. */
  | { decision: "allow_once"; args?: Record<string, unknown> }
  | { decision: "allow_always"; rule: Rule; scope: RuleScope }
  | { decision: "reject" }
  | { decision: "reject_with_message"; message: string };

/** Checks arguments the user edited against the tool's schema: undefined when they fit, else what is wrong. */
export type ArgsCheck = (args: Record<string, unknown>) => string | undefined;

export interface Approver {
  /** The answer, or "pause" when nobody can answer now (headless). `checkArgs` judges edited arguments. */
  ask(request: ApprovalRequest, signal: AbortSignal, checkArgs?: ArgsCheck): Promise<ApprovalAnswer | "pause">;
}
