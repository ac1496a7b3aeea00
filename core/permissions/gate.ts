// The permission gate in front of every handler: the engine decides, an
// `ask` goes to the approver (the TUI, or a pause for a headless run), and
// "allow always" stores its rule for the rest of the session.

import type { Emit } from "../events.js";
import { describeCall } from "../approvals/describe.js";
import type { Approver, ApprovalAnswer, ApprovalRequest } from "../approvals/types.js";
import { alwaysRuleCandidates, exactAllowRule } from "./always-rules.js";
import { cleanPath } from "./clean-path.js";
import { evaluate, evaluateTarget, matchTarget } from "./engine.js";
import { isUniversal } from "./glob.js";
import type { PolicyOptions, Rule } from "./types.js";

type GateVerdict =
  | { kind: "allow" }
  | { kind: "deny"; text: string }
  /** Nobody can answer now: the run pauses with this request. */
  | { kind: "pause"; request: ApprovalRequest };

interface GateCall {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  /** The folder of the session making the call (a child's saved patch names the files applying it touches). */
  sessionDir?: string;
  /** The approval prompt's words for the call (its tool's view, else a generic description). */
  describe?(): { summary: string; detail?: string };
}

export interface GateOptions {
  cwd: string;
  /** Profile baseline and user rules, in order. */
  rules: readonly Rule[];
  /** Rules stored by "allow always" this session; appended after `rules`. */
  sessionRules: Rule[];
  policy: PolicyOptions;
  approver: Approver;
  emit: Emit;
  /** Answers given before the run (a resumed session's recorded approval), by call id. */
  preAnswered?: Map<string, ApprovalAnswer>;
  /** Stores a rule in the project config ("allow always" with project scope). */
  storeProjectRule?: (rule: Rule) => void;
  /** Stores a rule in the user config ("allow always" with user scope). */
  storeUserRule?: (rule: Rule) => void;
}

export interface PermissionGate {
  check(call: GateCall, signal: AbortSignal): Promise<GateVerdict>;
  /** For a search call: which files its results leave out, or undefined when no path rule could refuse one. */
  searchFilter?(tool: string, args: Record<string, unknown>): ((path: string) => boolean) | undefined;
}

export function createPermissionGate(opts: GateOptions): PermissionGate {
  // Rules this run stored in a config file: in force at once, not only from the next run.
  const stored: Rule[] = [];
  const inForce = () => [...opts.rules, ...stored, ...opts.sessionRules];
  return {
    searchFilter: (tool, args) => hiddenFromSearch(tool, args, inForce(), opts),
    async check(call, signal) {
      const permissionCall = { tool: call.tool, args: call.args, cwd: opts.cwd, ...(call.sessionDir !== undefined ? { sessionDir: call.sessionDir } : {}) };
      const decision = evaluate(permissionCall, inForce(), opts.policy);
      if (decision.action === "allow") return { kind: "allow" };
      if (decision.action === "deny") return { kind: "deny", text: `ERROR: permission denied: ${decision.reason}` };

      const { summary, detail } = call.describe?.() ?? describeCall(call.tool, call.args);
      const request: ApprovalRequest = {
        callId: call.callId,
        tool: call.tool,
        summary,
        reason: decision.reason,
        // Exactly what asked, wildcards escaped: approving `rm -f *.log` must not allow every rm -f.
        suggestedRule: exactAllowRule(permissionCall, decision, opts.policy.tools),
        candidates: alwaysRuleCandidates(permissionCall, inForce(), opts.policy),
        ...(detail === undefined ? {} : { detail }),
      };
      const recorded = opts.preAnswered?.get(call.callId);
      if (recorded) opts.preAnswered!.delete(call.callId);
      else {
        opts.emit({
          type: "approval_requested",
          callId: call.callId,
          tool: call.tool,
          summary,
          reason: decision.reason,
          rule: formatRule(request.suggestedRule),
          ...(request.candidates?.length ? { rules: request.candidates.map((r) => ({ pattern: r.pattern ?? "*", rule: formatRule(r) })) } : {}),
          ...(detail ? { detail } : {}),
        });
      }
      const answer = recorded ?? (await opts.approver.ask(request, signal));
      if (answer === "pause") return { kind: "pause", request };
      return resolve(answer, request, opts, stored);
    },
  };
}

/**
 * A file is left out of search results when a path rule refuses reading it
 * (deny, or an ask YOLO does not lift): a rule of a read tool, or of the
 * search tool itself when its calls are matched on paths (Yuj grep's search
 * path). A universal rule is no path fence: it says whether the tool runs at
 * all, which the call itself was checked for.
 */
function hiddenFromSearch(tool: string, args: Record<string, unknown>, rules: Rule[], opts: GateOptions): ((path: string) => boolean) | undefined {
  if (!rules.some((r) => r.action !== "allow" && !isUniversal(r.pattern))) return undefined;
  const catalog = opts.policy.tools;
  const judges = [...catalog].filter(([, facts]) => facts.family === "read").map(([name]) => name);
  if (!judges.includes(tool) && matchTarget({ tool, args, cwd: opts.cwd }, catalog).kind === "path") judges.push(tool);
  return (path) =>
    judges.some((t) => {
      const d = evaluateTarget(t, opts.cwd, { kind: "path", values: [cleanPath(path, opts.cwd)] }, rules, opts.policy);
      return d.action !== "allow" && d.rule !== undefined && !isUniversal(d.rule.pattern);
    });
}

function resolve(answer: ApprovalAnswer, request: ApprovalRequest, opts: GateOptions, stored: Rule[]): GateVerdict {
  const base = { type: "approval_resolved" as const, callId: request.callId, decision: answer.decision };
  switch (answer.decision) {
    case "allow_once":
      opts.emit(base);
      return { kind: "allow" };
    case "allow_always": {
      const store = answer.scope === "project" ? opts.storeProjectRule : answer.scope === "user" ? opts.storeUserRule : undefined;
      if (store) {
        store(answer.rule);
        stored.push({ ...answer.rule, source: answer.scope });
      } else opts.sessionRules.push({ ...answer.rule, source: "session" });
      opts.emit({ ...base, rule: formatRule(answer.rule) });
      return { kind: "allow" };
    }
    case "reject":
      opts.emit(base);
      return { kind: "deny", text: `ERROR: the user rejected this call (${request.summary})` };
    case "reject_with_message":
      opts.emit({ ...base, message: answer.message });
      return { kind: "deny", text: `ERROR: the user rejected this call (${request.summary}): ${answer.message}` };
  }
}

/** A rule as it reads in TOML, for messages. */
export function formatRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? "" : `, pattern = ${JSON.stringify(rule.pattern)}`;
  return `{ tool = ${JSON.stringify(rule.tool)}${pattern}, action = ${JSON.stringify(rule.action)} }`;
}
