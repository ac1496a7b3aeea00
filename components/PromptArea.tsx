// Below the transcript: the approval, question or loop report the session
// waits on, the completions of the draft, and the composer.

import React, { type MutableRefObject } from "react";
import { Text } from "ink";
import type { ApprovalAnswer } from "../core/approvals/types.js";
import type { OpOf } from "../core/ops.js";
import type { SessionView } from "../core/reducer.js";
import type { SessionController } from "../core/session-controller.js";
import { COMPOSER_MAX_ROWS, REPORT_PREVIEW_ROWS, type AppLayout } from "./app-layout.js";
import { Composer, type ComposerControl, type KeyHandler } from "./Composer.js";
import type { ComposerEcho } from "./composer-echo.js";
import type { MentionState } from "./app-mentions.js";
import { ApprovalPrompt } from "./prompts/ApprovalPrompt.js";
import { LoopReportPrompt } from "./prompts/LoopReportPrompt.js";
import { QuestionPrompt } from "./prompts/QuestionPrompt.js";

export interface PromptAreaProps {
  kind: AppLayout["prompt"];
  view: SessionView;
  width: number;
  armed: boolean;
  composerActive: boolean;
  history: string[];
  /** The commands the draft can still become, listed above the composer. */
  commands: ReadonlyArray<readonly [string, string]>;
  composerKeys: MutableRefObject<KeyHandler | undefined>;
  composerControl: MutableRefObject<ComposerControl | undefined>;
  mentions: MentionState;
  /** The files the `@` mention at the cursor can become, listed above the composer. */
  fileChoices: readonly string[];
  editExternally?: (text: string) => Promise<string | undefined>;
  echo(edit: ComposerEcho): void;
  controller: SessionController;
  color: boolean;
  /** An overlay has the keys (the report's viewer among them). */
  overlayOpen: boolean;
  onViewReport(): void;
  approvalKeys: MutableRefObject<KeyHandler | undefined>;
  reportKeys: MutableRefObject<KeyHandler | undefined>;
  onSubmit(text: string): void;
  onDraft(text: string): void;
}

/**
 * Below the transcript: the approval or question the session waits on, the
 * commands a `/` draft can become, and the composer, which stays mounted
 * under a prompt so the draft is never lost.
 */
export function PromptArea(p: PromptAreaProps): React.ReactElement {
  const { pendingApproval: approval, pendingQuestion: question } = p.view;
  const loop = p.view.facts.loop;
  const prompt =
    p.kind === "approval" && approval ? (
      <ApprovalPrompt
        request={approval}
        armed={p.armed}
        width={p.width}
        onAnswer={(answer) => p.controller.submit(approvalOp(approval.callId, answer))}
        keys={p.approvalKeys}
        {...(p.editExternally ? { editExternally: p.editExternally } : {})}
      />
    ) : p.kind === "answer" && question ? (
      <QuestionPrompt
        question={question}
        width={p.width}
        onAnswer={(answer) => void p.controller.submit({ type: "question_answer", callId: question.callId, answer })}
      />
    ) : p.kind === "report" && loop?.report !== undefined ? (
      <LoopReportPrompt
        loop={{ ...loop, report: loop.report }}
        width={p.width}
        color={p.color}
        previewRows={REPORT_PREVIEW_ROWS}
        active={!p.overlayOpen}
        armed={p.armed}
        keys={p.reportKeys}
        onConfirm={() => void p.controller.submit({ type: "loop_answer", decision: "confirm" })}
        onSendBack={(message) => void p.controller.submit({ type: "loop_answer", decision: "continue", message })}
        onView={p.onViewReport}
      />
    ) : null;
  return (
    <>
      {prompt}
      {p.commands.map(([name, what]) => (
        <Text key={name} wrap="truncate">
          <Text color="cyan">{`  ${name.padEnd(10)}`}</Text>
          <Text color="gray">{what}</Text>
        </Text>
      ))}
      {p.fileChoices.map((path, i) => (
        <Text key={path} wrap="truncate">
          <Text color="cyan">{i === 0 ? "  @ " : "    "}</Text>
          <Text {...(i === 0 ? { bold: true } : { color: "gray" })}>{path}</Text>
          {i === 0 ? <Text color="gray">{"  Tab or Enter completes"}</Text> : null}
        </Text>
      ))}
      <Composer
        active={p.composerActive}
        keys={p.composerKeys}
        control={p.composerControl}
        width={p.width}
        history={p.history}
        maxRows={COMPOSER_MAX_ROWS}
        onSubmit={p.onSubmit}
        onChange={p.onDraft}
        onMention={p.mentions.onMention}
        mentionChoices={p.mentions.choicesFor}
        echo={p.echo}
        {...(p.editExternally ? { editExternally: p.editExternally } : {})}
      />
    </>
  );
}

/** The prompt's answer as the operation the session takes ("allow always" names the picked rule by its pattern). */
function approvalOp(callId: string, answer: ApprovalAnswer): OpOf<"approval_answer"> {
  switch (answer.decision) {
    case "allow_always":
      return { type: "approval_answer", callId, decision: "allow_always", scope: answer.scope, ...(answer.rule.pattern === undefined ? {} : { pattern: answer.rule.pattern }) };
    case "reject_with_message":
      return { type: "approval_answer", callId, decision: "reject_with_message", message: answer.message };
    case "allow_once":
      return { type: "approval_answer", callId, decision: "allow_once", ...(answer.args ? { arguments: answer.args } : {}) };
    default:
      return { type: "approval_answer", callId, decision: answer.decision };
  }
}
