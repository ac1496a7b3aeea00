// The start-up question when the project's config file loosens the user's
// protection (sandbox, approvals, host commands) and is not trusted: it
// shows the file and each such setting with what it does; y trusts the file
// as it is and starts with them, n starts without them. It only shows and
// reports; the caller records the trust.

import { Box, Text, useInput } from "ink";
import { useRef, type ReactNode } from "react";
import { oneLine } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import { short, theme } from "./theme.js";

interface TrustItem {
  key: string;
  value: string;
  why: string;
}

export type TrustAnswer = "trust" | "ignore" | "quit";

export interface TrustPromptProps {
  file: string;
  /** True when the user trusted an earlier content of the file. */
  changed: boolean;
  trustedAt?: string;
  items: TrustItem[];
  width: number;
  height: number;
  onAnswer(answer: TrustAnswer): void;
}

const KEYS = "y trust this file and start with these settings · n start without them · Ctrl+C quit";

export function TrustPrompt({ file, changed, trustedAt, items, width, height, onAnswer }: TrustPromptProps): ReactNode {
  // One answer only: a doubled key must not answer twice.
  const answered = useRef(false);
  const live = useRef(onAnswer);
  live.current = onAnswer;
  useInput((input, key) => {
    if (answered.current) return;
    const answer: TrustAnswer | undefined =
      input === "y" || input === "Y" ? "trust"
      : input === "n" || input === "N" || key.escape ? "ignore"
      : key.ctrl && input === "c" ? "quit"
      : undefined;
    if (!answer) return;
    answered.current = true;
    live.current(answer);
  });

  const inner = Math.max(20, width - 2);
  // Title, file, blank, heading, blank and keys take six rows; each setting two.
  const room = Math.max(1, Math.floor((height - 7) / 2));
  const shown = items.length > room ? items.slice(0, room - 1) : items;
  const hidden = items.length - shown.length;
  const state = changed ? `changed since you trusted it${trustedAt ? ` (${trustedAt.slice(0, 16).replace("T", " ")})` : ""}` : "not trusted yet";
  return (
    <Box flexDirection="column" width={width} height={height} paddingX={1}>
      <Text bold color={theme.warn}>Trust this project's config?</Text>
      <Text>
        <Text>{truncate(oneLine(short(file)), Math.max(10, inner - state.length - 3))}</Text>
        <Text color={theme.muted}>{`  ${state}`}</Text>
      </Text>
      <Text> </Text>
      <Text>It loosens your protection. Until you trust it, yuj ignores these settings:</Text>
      {shown.map((item) => (
        <Box key={item.key} flexDirection="column">
          <Text wrap="truncate">{`  ${oneLine(item.key)} = ${oneLine(item.value)}`}</Text>
          <Text color={theme.muted} wrap="truncate">{`      ${oneLine(item.why)}`}</Text>
        </Box>
      ))}
      {hidden > 0 ? <Text color={theme.muted}>{`  … and ${hidden} more (yuj trust --show lists them all)`}</Text> : null}
      <Box flexGrow={1} />
      <Text color={theme.accent}>{truncate(KEYS, inner)}</Text>
    </Box>
  );
}
