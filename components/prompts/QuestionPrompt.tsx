// A question from the model: a list of choices, free text, or both (Tab
// switches to a custom answer and back).

import { Box, Text, useInput } from "ink";
import { useRef, useState, type ReactNode } from "react";
import type { EventOf } from "../../core/events.js";
import { Composer } from "../Composer.js";
import { oneLine, screenText } from "../../core/text/safe.js";
import { truncate } from "../../core/text/width.js";
import { theme } from "../theme.js";

export interface QuestionPromptProps {
  question: EventOf<"question_asked">;
  onAnswer(answer: string): void;
  width: number;
  /** False while an overlay is on top: keys go there. */
  active?: boolean;
}

interface Pick {
  /** The question this pick answers: one call can ask several, one after another. */
  of: EventOf<"question_asked">;
  cursor: number;
  chosen: number[];
  custom: boolean;
  /** Answered: later keys (a doubled Enter) must not answer again. */
  done?: boolean;
}

export function QuestionPrompt({ question, onAnswer, width, active = true }: QuestionPromptProps): ReactNode {
  const options = question.options ?? [];
  const hasOptions = options.length > 0;
  const fresh = (of: EventOf<"question_asked">): Pick => ({ of, cursor: 0, chosen: [], custom: !of.options?.length });
  // The choice lives in a ref (keys can arrive before React re-subscribes the
  // handler of the last render) and belongs to one question: a new question
  // starts from scratch even if this component stays mounted — also the
  // second question of the same call, which must not inherit the first's
  // "answered".
  const pickRef = useRef<Pick>(fresh(question));
  const [, rerender] = useState(0);
  const live = useRef({ question, onAnswer });
  live.current = { question, onAnswer };
  const current = (q: EventOf<"question_asked">): Pick => (pickRef.current.of === q ? pickRef.current : fresh(q));
  const setPick = (next: Pick) => {
    pickRef.current = next;
    rerender((n) => n + 1);
  };
  const pick = current(question);
  const inner = Math.max(10, width - 4);

  useInput(
    (input, key) => {
      const { question: q } = live.current;
      const opts = q.options ?? [];
      const p = current(q);
      if (p.done) return;
      const answer = (text: string) => {
        setPick({ ...p, done: true });
        live.current.onAnswer(text);
      };
      if (p.custom) {
        if (opts.length && (key.tab || key.escape)) setPick({ ...p, custom: false });
        return;
      }
      const answerWith = (indexes: number[]) => answer(indexes.map((i) => opts[i]!.label).join(", "));
      const move = (d: number) => setPick({ ...p, cursor: (p.cursor + d + opts.length) % opts.length });
      const toggle = (i: number) =>
        setPick({ ...p, cursor: i, chosen: p.chosen.includes(i) ? p.chosen.filter((c) => c !== i) : [...p.chosen, i] });
      if (key.upArrow || input === "k") move(-1);
      else if (key.downArrow || input === "j") move(1);
      else if (key.tab) setPick({ ...p, custom: true });
      else if (q.multiple && input === " ") toggle(p.cursor);
      else if (key.return) {
        // Enter with nothing ticked takes the highlighted choice.
        answerWith(q.multiple && p.chosen.length ? [...p.chosen].sort((a, b) => a - b) : [p.cursor]);
      } else if (/^[1-9]$/.test(input) && Number(input) <= opts.length) {
        const i = Number(input) - 1;
        if (q.multiple) toggle(i);
        else answerWith([i]);
      }
    },
    { isActive: active },
  );

  const hint = pick.custom
    ? `[Enter] Submit  [Ctrl+J] New line${hasOptions ? "  [Tab/Esc] Back to options" : ""}`
    : question.multiple
      ? "[↑/↓] Move  [Space] Toggle  [Enter] Submit  [Tab] Custom"
      : "[↑/↓] Move  [Enter] Select  [Tab] Custom";
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width}>
      {question.header ? (
        <Text bold color={theme.accent} wrap="truncate">
          {oneLine(question.header)}
        </Text>
      ) : null}
      <Text wrap="wrap">{screenText(question.question)}</Text>
      {pick.custom ? (
        <Composer
          key={`${question.callId}:${question.seq}`}
          active={active}
          width={inner}
          history={[]}
          onSubmit={(text) => {
            setPick({ ...current(live.current.question), done: true });
            live.current.onAnswer(text);
          }}
        />
      ) : (
        options.map((o, i) => {
          const here = i === pick.cursor;
          const box = question.multiple ? (pick.chosen.includes(i) ? "[x] " : "[ ] ") : "";
          const label = `${here ? "›" : " "} ${i + 1}. ${box}${oneLine(o.label)}`;
          const desc = o.description ? ` — ${oneLine(o.description)}` : "";
          return (
            <Text key={i} wrap="truncate">
              <Text color={here ? theme.accent : undefined} bold={here}>
                {truncate(label, inner)}
              </Text>
              <Text color={theme.muted}>{desc}</Text>
            </Text>
          );
        })
      )}
      <Text color={theme.muted} wrap="truncate">
        {hint}
      </Text>
    </Box>
  );
}
