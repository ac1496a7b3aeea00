// The permission gate in front of every handler: the engine decides, an
// `ask` goes to the approver (the TUI, or a pause for a headless run), and
// "allow always" stores its rule for the rest of the session.

import type { Emit } from "../events.js";
import { describeCall } from "../approvals/describe.js";
import type { Approver, ApprovalAnswer, ApprovalRequest, ArgsCheck } from "../approvals/types.js";
import { alwaysRuleCandidates, exactAllowRule } from "./always-rules.js";
import { cleanPath } from "./clean-path.js";
import { evaluate, evaluateTarget, matchTarget } from "./engine.js";
import { isUniversal } from "./glob.js";
import type { PolicyOptions, Rule } from "./types.js";

type GateVerdict =
  /** `args`: the user edited the call's arguments; the call runs with these. */
  | { kind: "allow"; args?: Record<string, unknown> }
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
  /** Judges arguments the user edited before allowing the call (the tool's schema). */
  checkArgs?: ArgsCheck;
  /** The worker or task child making the call (the prompt names it); absent: the main agent. */
  agent?: AskingAgent;
}

/** A worker or task child, as an approval it asks names it. */
export interface AskingAgent {
  taskId: string;
  role: string;
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
  /** Answers given before the run (a resumed session's recorded approval), by `answerKey` of the call they answer. */
  preAnswered?: Map<string, ApprovalAnswer>;
  /** Stores a rule in the project config ("allow always" with project scope). */
  storeProjectRule?: (rule: Rule) => void;
  /** Stores a rule in the user config ("allow always" with user scope). */
  storeUserRule?: (rule: Rule) => void;
}

/** A rule the session stored, or one of the project's config, as /rules lists it. */
type ListedScope = "session" | "project";

export interface PermissionGate {
  check(call: GateCall, signal: AbortSignal): Promise<GateVerdict>;
  /** YOLO from now on (ordinary asks skipped; the protected tools still ask). */
  setYolo?(on: boolean): void;
  yolo?(): boolean;
  /** Takes a rule out of force at once: the first one equal to it of that scope. False when none is. */
  removeRule?(rule: Rule, scope: ListedScope): boolean;
  /** For a search call: which files its results leave out, or undefined when no path rule could refuse one. */
  searchFilter?(tool: string, args: Record<string, unknown>): ((path: string) => boolean) | undefined;
}

/**
 * What a recorded approval answers: the call's id, tool and summary. A cell
 * that runs again after its pause numbers its calls the same way; should its
 * program take another path, a different call at that number is asked anew
 * instead of inheriting the answer.
 */
export function answerKey(callId: string, tool: string, summary: string): string {
  return JSON.stringify([callId, tool, summary]);
}

export function createPermissionGate(opts: GateOptions): PermissionGate {
  // Rules this run stored in a config file: in force at once, not only from the next run.
  const stored: Rule[] = [];
  const rules = [...opts.rules];
  const inForce = () => [...rules, ...stored, ...opts.sessionRules];
  return {
    setYolo: (on) => void (opts.policy.yolo = on),
    yolo: () => opts.policy.yolo,
    removeRule(rule, scope) {
      // A project rule is in force from the config loaded at start, or from a store this run.
      const lists = scope === "session" ? [opts.sessionRules] : [stored, rules];
      for (const list of lists) {
        const at = list.findIndex((r) => sameRule(r, rule) && (scope === "session" || r.source !== "session"));
        if (at >= 0) {
          list.splice(at, 1);
          return true;
        }
      }
      return false;
    },
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
      const key = answerKey(call.callId, call.tool, summary);
      const recorded = opts.preAnswered?.get(key);
      if (recorded) opts.preAnswered!.delete(key);
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
          ...(call.checkArgs ? { arguments: JSON.stringify(call.args) } : {}),
          ...(call.agent ? { agent: call.agent } : {}),
        });
      }
      const answer = recorded ?? (await opts.approver.ask(request, signal, call.checkArgs));
      if (answer === "pause") return { kind: "pause", request };
      if (answer.decision === "allow_once" && answer.args) {
        // Edited arguments are a new call: what the rules deny outright stays denied.
        const edited = evaluate({ ...permissionCall, args: answer.args }, inForce(), opts.policy);
        if (edited.action === "deny") {
          opts.emit({ type: "approval_resolved", callId: call.callId, decision: "reject", message: `the edited arguments are denied: ${edited.reason}` });
          return { kind: "deny", text: `ERROR: permission denied: the user edited the arguments, and the edited call is denied: ${edited.reason}` };
        }
      }
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
      if (answer.args) {
        opts.emit({ ...base, arguments: JSON.stringify(answer.args) });
        return { kind: "allow", args: answer.args };
      }
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

/**
 * The session's gate as a worker or task child uses it: the same rules and
 * approver, each ask naming the agent, so the person answering it from the
 * main view knows whose call it is. Call ids are the model's, and two
 * workers' models may use the same one at once: the ask's id carries the
 * task id, so each answer reaches the call it was given for.
 */
export function gateForAgent(gate: PermissionGate | undefined, agent: AskingAgent): PermissionGate | undefined {
  if (!gate) return undefined;
  return { ...gate, check: (call, signal) => gate.check({ ...call, callId: `${agent.taskId}/${call.callId}`, agent }, signal) };
}

function sameRule(a: Rule, b: Rule): boolean {
  return a.tool === b.tool && a.action === b.action && (a.pattern ?? "*") === (b.pattern ?? "*");
}

/** A rule as it reads in TOML, for messages. */
export function formatRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? "" : `, pattern = ${JSON.stringify(rule.pattern)}`;
  return `{ tool = ${JSON.stringify(rule.tool)}${pattern}, action = ${JSON.stringify(rule.action)} }`;
}
