// In loop mode the model leaves the loop with `done`, but only the user ends
// it: this prompt shows the start of the report and takes the answer —
// confirm (the loop ends), view the whole report, or send it back with what
// is still to do (the loop goes on). Like the approval prompt it takes keys
// only once armed, so a message typed ahead cannot confirm a report unread.

import { Box, Text } from "ink";
import { useRef, useState, type MutableRefObject, type ReactNode } from "react";
import type { LoopFacts } from "../../core/reducer-session.js";
import { renderMarkdown } from "../cards/markdown.js";
import { Composer, type KeyHandler } from "../Composer.js";
import { theme } from "../theme.js";

export interface LoopReportPromptProps {
  loop: LoopFacts & { report: string };
  width: number;
  color: boolean;
  /** Rows of the report shown here. */
  previewRows: number;
  /** False while the viewer or another overlay has the keys. */
  active: boolean;
  armed: boolean;
  /** The view's key router calls this for each key while the prompt has the keys. */
  keys: MutableRefObject<KeyHandler | undefined>;
  onConfirm(): void;
  onSendBack(message: string): void;
  onView(): void;
}

type Step = "ask" | "message" | "answered";

export function LoopReportPrompt(p: LoopReportPromptProps): ReactNode {
  // Keyed by the report's iteration: a new report starts over at "ask".
  const stepRef = useRef<{ iteration: number; step: Step }>({ iteration: p.loop.iteration, step: "ask" });
  const [, rerender] = useState(0);
  const live = useRef(p);
  live.current = p;
  const stepOf = (iteration: number): Step => (stepRef.current.iteration === iteration ? stepRef.current.step : "ask");
  const setStep = (iteration: number, step: Step) => {
    stepRef.current = { iteration, step };
    rerender((n) => n + 1);
  };
  const step = stepOf(p.loop.iteration);

  const messageKeys = useRef<KeyHandler | undefined>(undefined);
  // Through the router, not a handler of its own switched on when armed: a
  // key that arrives just as the prompt arms is never dropped.
  p.keys.current = (input, key) => {
    const x = live.current;
    const at = x.loop.iteration;
    const current = stepOf(at);
    if (current === "message") {
      if (key.escape) setStep(at, "ask");
      else messageKeys.current?.(input, key);
      return;
    }
    if (current !== "ask") return;
    if (input === "V" || input === "v") return x.onView();
    // Enter alone never confirms: it is the key that ends a message typed ahead.
    if (input === "y" || input === "A") {
      setStep(at, "answered");
      return x.onConfirm();
    }
    if (input === "n" || input === "R" || input === "r") setStep(at, "message");
  };

  const inner = Math.max(10, p.width - 4);
  const lines = renderMarkdown(p.loop.report, inner, p.color);
  const shown = lines.slice(0, p.previewRows);
  const more = lines.length - shown.length;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={p.width}>
      <Text bold color={theme.accent} wrap="truncate">
        {`LOOP DONE · iteration ${p.loop.iteration} of ${p.loop.maxIterations} · the model reports the work finished`}
      </Text>
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line || " "}
        </Text>
      ))}
      {more > 0 ? <Text color={theme.muted}>{`… ${more} more lines: V shows the whole report`}</Text> : null}
      {step === "message" ? (
        <Box flexDirection="column">
          <Text>
            What is still to do (<Key k="Enter" /> send it back, <Key k="Ctrl+J" /> new line, <Key k="Esc" /> back):
          </Text>
          <Composer
            key={p.loop.iteration}
            active={p.active}
            keys={messageKeys}
            width={inner}
            history={[]}
            onSubmit={(message) => {
              setStep(p.loop.iteration, "answered");
              live.current.onSendBack(message);
            }}
          />
        </Box>
      ) : step === "answered" ? (
        <Text color={theme.muted}>answered</Text>
      ) : !p.armed ? (
        <Text color={theme.muted} wrap="truncate">
          waiting for you to pause typing — keys go to your message until then
        </Text>
      ) : (
        <Text wrap="truncate">
          <Key k="y/A" /> confirm and leave the loop <Key k="V" /> view the report <Key k="n/R" /> send it back with a message
        </Text>
      )}
    </Box>
  );
}

function Key({ k }: { k: string }): ReactNode {
  return (
    <Text bold color={theme.accent}>
      [{k}]
    </Text>
  );
}
