// Asks the user about one tool call: what it will do, why it asks, and the
// rules "allow always" can store. It takes keys only once armed (typing has
// paused), and Enter alone never approves (the key that ends a message,
// pressed after a pause), so a message typed ahead cannot approve a call the
// user has not read.

import { Box, Text, useInput } from "ink";
import { useEffect, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import type { ApprovalAnswer } from "../../core/approvals/types.js";
import type { EventOf } from "../../core/events.js";
import type { Action, Rule } from "../../core/permissions/types.js";
import { Composer, type ComposerControl, type KeyHandler } from "../Composer.js";
import { pickerKey, RulePicker, type PickerState } from "./RulePicker.js";
import { oneLine, screenText } from "../../core/text/safe.js";
import { truncate } from "../../core/text/width.js";
import { theme } from "../theme.js";

export interface ApprovalPromptProps {
  request: EventOf<"approval_requested">;
  /** A problem with the answer (edited arguments that do not fit the tool) keeps the prompt open, saying it. */
  onAnswer(answer: ApprovalAnswer): string | undefined | void;
  width: number;
  /** False while an overlay is on top: keys go there. */
  active?: boolean;
  /**
   * False while the user is still typing (the prompt appeared mid-message):
   * the prompt takes no key until input pauses, and says so.
   */
  armed?: boolean;
  /** Ctrl+X Ctrl+E in the arguments editor: the JSON edited in the user's editor. */
  editExternally?: (text: string) => Promise<string | undefined>;
  /**
   * Set: the view's key router calls this for each key while the prompt is
   * armed, instead of a handler switched on as it arms (which can miss the
   * first key after arming).
   */
  keys?: MutableRefObject<KeyHandler | undefined>;
}

/** Lines of the detail shown; the rest is summarised. */
const DETAIL_LINES = 15;

/** "answered": later keys (a doubled `y`) must not answer again. */
type Step = "ask" | "always" | "reason" | "edit_args" | "answered";

export function ApprovalPrompt({ request, onAnswer, width, active = true, armed = true, editExternally, keys }: ApprovalPromptProps): ReactNode {
  // The step belongs to one request: a new request starts over at "ask", so a
  // confirmation begun for one call can never approve the next. It lives in a
  // ref because key events can arrive before React has re-subscribed the
  // handler of the last render; the handler reads the ref and the live props.
  const stepRef = useRef<{ callId: string; step: Step }>({ callId: request.callId, step: "ask" });
  const pickRef = useRef<{ callId: string; state: PickerState }>({ callId: request.callId, state: { choice: 0, scope: "session" } });
  const pickOf = (callId: string): PickerState => (pickRef.current.callId === callId ? pickRef.current.state : { choice: 0, scope: "session" });
  const [, rerender] = useState(0);
  const [editProblem, setEditProblem] = useState<{ callId: string; text: string }>();
  const live = useRef({ request, onAnswer });
  live.current = { request, onAnswer };
  const stepOf = (callId: string): Step => (stepRef.current.callId === callId ? stepRef.current.step : "ask");
  const setStep = (callId: string, next: Step) => {
    stepRef.current = { callId, step: next };
    rerender((n) => n + 1);
  };
  const step = stepOf(request.callId);
  const rule = parseRule(request.rule);
  const offered = offeredRules(request);
  const inner = Math.max(10, width - 4);

  const onKey: KeyHandler = (input, key) => {
    const { request: req } = live.current;
    const current = stepOf(req.callId);
    const answer = (a: ApprovalAnswer) => {
      setStep(req.callId, "answered");
      live.current.onAnswer(a);
    };
    const rules = offeredRules(req);
    // Chord's keys alongside yuj's: Enter/A allow, D deny, M the rule picker.
    if (current === "ask") {
      if (input === "y" || input === "A") answer({ decision: "allow_once" });
      else if ((input === "a" || input === "M") && rules.length) setStep(req.callId, "always");
      else if (input === "n" || input === "D" || key.escape) answer({ decision: "reject" });
      else if (input === "r" || input === "R") setStep(req.callId, "reason");
      else if (input === "E" && req.arguments !== undefined) setStep(req.callId, "edit_args");
    } else if (current === "always") {
      const next = pickerKey(pickOf(req.callId), rules.length, input, key);
      if (next === "back") setStep(req.callId, "ask");
      else if (next === "store") {
        const { choice, scope } = pickOf(req.callId);
        answer({ decision: "allow_always", rule: rules[choice]!, scope });
      } else {
        pickRef.current = { callId: req.callId, state: next };
        rerender((n) => n + 1);
      }
    } else if ((current === "reason" || current === "edit_args") && key.escape) setStep(req.callId, "ask");
  };
  if (keys) keys.current = onKey;
  useInput(onKey, { isActive: active && armed && !keys });

  // The rule holds the model's command: shown by the same rules as the summary.
  const ruleText = rule ? oneLine(formatRule(rule)) : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn} paddingX={1} width={width}>
      <Text wrap="truncate">
        {request.agent ? <Text bold color={theme.accent}>{`${oneLine(request.agent.taskId)} (${oneLine(request.agent.role)}) asks: `}</Text> : null}
        <Text bold color={theme.warn}>
          {oneLine(request.tool)}
        </Text>{" "}
        {oneLine(request.summary)}
      </Text>
      {request.detail ? <Detail text={request.detail} width={inner} /> : null}
      {request.reason ? <Text color={theme.muted} wrap="truncate">{`why: ${oneLine(request.reason)}`}</Text> : null}
      {ruleText ? <Text color={theme.muted} wrap="truncate">{`rule: ${ruleText}`}</Text> : null}
      {step === "ask" && !armed ? (
        <Text color={theme.muted} wrap="truncate">
          waiting for you to pause typing — keys go to your message until then
        </Text>
      ) : step === "ask" ? (
        <Text wrap="truncate">
          <Key k="y/A" /> allow once {offered.length ? <><Key k="a/M" /> allow always… </> : null}
          <Key k="n/D/Esc" /> reject <Key k="r/R" /> reject with a message{request.arguments !== undefined ? <> <Key k="E" /> edit the arguments</> : null}
        </Text>
      ) : step === "always" ? (
        <RulePicker rules={offered} state={pickOf(request.callId)} format={formatRule} />
      ) : step === "edit_args" ? (
        <ArgumentsEditor
          callId={request.callId}
          initial={prettyJson(request.arguments ?? "{}")}
          width={inner}
          active={active}
          problem={editProblem?.callId === request.callId ? editProblem.text : undefined}
          {...(editExternally
            ? {
                editExternally: async (text: string) => {
                  const edited = await editExternally(text);
                  // Checked as it comes back, so a mistake is said before Enter; the text stays to be fixed.
                  if (edited !== undefined) {
                    const parsed = parseArguments(edited);
                    setEditProblem(typeof parsed === "string" ? { callId: request.callId, text: `the editor's text: ${parsed}` } : undefined);
                  }
                  return edited;
                },
              }
            : {})}
          onSubmit={(text) => {
            const parsed = parseArguments(text);
            if (typeof parsed === "string") return setEditProblem({ callId: request.callId, text: parsed });
            const problem = live.current.onAnswer({ decision: "allow_once", args: parsed });
            if (typeof problem === "string") return setEditProblem({ callId: request.callId, text: problem });
            setStep(request.callId, "answered");
          }}
        />
      ) : step === "answered" ? (
        <Text color={theme.muted}>answered</Text>
      ) : (
        <Box flexDirection="column">
          <Text>
            Reason for rejecting (<Key k="Enter" /> send, <Key k="Ctrl+J" /> new line, <Key k="Esc" /> back):
          </Text>
          <Composer
            key={request.callId}
            active={active}
            width={inner}
            history={[]}
            onSubmit={(message) => {
              setStep(request.callId, "answered");
              live.current.onAnswer({ decision: "reject_with_message", message });
            }}
          />
        </Box>
      )}
    </Box>
  );
}

/** The call's arguments, editable as JSON here or in $EDITOR: Enter allows the call with them, Esc goes back. */
function ArgumentsEditor(p: {
  callId: string;
  initial: string;
  width: number;
  active: boolean;
  problem: string | undefined;
  editExternally?: (text: string) => Promise<string | undefined>;
  onSubmit(text: string): void;
}): ReactNode {
  const control = useRef<ComposerControl | undefined>(undefined);
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current) return;
    filled.current = true;
    control.current?.setText(p.initial);
  });
  return (
    <Box flexDirection="column">
      <Text>
        Edit the arguments as JSON (<Key k="Enter" /> allow with them, <Key k="Ctrl+J" /> new line
        {p.editExternally ? <>, <Key k="Ctrl+X Ctrl+E" /> in $EDITOR</> : null}, <Key k="Esc" /> back):
      </Text>
      {p.problem ? <Text color={theme.error} wrap="truncate">{oneLine(p.problem)}</Text> : null}
      <Composer
        key={p.callId}
        active={p.active}
        control={control}
        width={p.width}
        history={[]}
        maxRows={8}
        onSubmit={p.onSubmit}
        {...(p.editExternally ? { editExternally: p.editExternally } : {})}
      />
    </Box>
  );
}

/** The arguments as an object, or what is wrong with the text. */
function parseArguments(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `not valid JSON: ${(err as Error).message}; fix it, or Esc to go back`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "the arguments must be one JSON object ({...}); fix it, or Esc to go back";
  return value as Record<string, unknown>;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function Key({ k }: { k: string }): ReactNode {
  return (
    <Text bold color={theme.accent}>
      [{k}]
    </Text>
  );
}

/** The diff, command or content; diff lines coloured, long bodies cut. */
function Detail({ text, width }: { text: string; width: number }): ReactNode {
  const lines = screenText(text).replace(/\n+$/, "").split("\n");
  const cut = lines.length > DETAIL_LINES;
  const shown = cut ? lines.slice(0, DETAIL_LINES - 1) : lines;
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <Text key={i} color={diffColor(line)}>
          {truncate(line, width) || " "}
        </Text>
      ))}
      {cut ? <Text color={theme.muted}>{`… ${lines.length - shown.length} more lines`}</Text> : null}
    </Box>
  );
}

function diffColor(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---")) return theme.muted;
  if (line.startsWith("+")) return theme.added;
  if (line.startsWith("-")) return theme.removed;
  if (line.startsWith("@@")) return theme.accent;
  return undefined;
}

/** The rules "allow always" offers, exact first; an older event has only the exact one. */
function offeredRules(request: EventOf<"approval_requested">): Rule[] {
  const listed = (request.rules ?? []).map((r) => parseRule(r.rule)).filter((r): r is Rule => r !== undefined);
  if (listed.length) return listed;
  const exact = parseRule(request.rule);
  return exact ? [exact] : [];
}

/**
 * Reads the rule the core suggests, `{ tool = "bash", pattern = "rm -rf build",
 * action = "allow" }`. Its strings are JSON-quoted, so each value is read back
 * with JSON.parse. "Allow always" stores an allow rule whatever the action
 * says; without a tool there is nothing safe to store and the option is hidden.
 */
export function parseRule(text: string | undefined): Rule | undefined {
  if (!text) return undefined;
  const fields: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)\s*=\s*("(?:[^"\\]|\\.)*")/g)) {
    try {
      fields[m[1]!] = JSON.parse(m[2]!) as string;
    } catch {
      return undefined;
    }
  }
  if (!fields.tool) return undefined;
  const action: Action = "allow";
  return fields.pattern === undefined ? { tool: fields.tool, action } : { tool: fields.tool, pattern: fields.pattern, action };
}

function formatRule(rule: Rule): string {
  const pattern = rule.pattern === undefined ? "" : `, pattern = ${JSON.stringify(rule.pattern)}`;
  return `{ tool = ${JSON.stringify(rule.tool)}${pattern}, action = "${rule.action}" }`;
}
