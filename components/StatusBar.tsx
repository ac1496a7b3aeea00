// The bottom line: mode, profile, the key hint of the moment, what the model
// request is doing, running jobs, where we are and which session this is.

import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { theme } from "./theme.js";
import { statusLine, type StatusBarProps } from "./status-line.js";

export function StatusBar(props: StatusBarProps): ReactNode {
  const { width } = props;
  const { segments, right, gap } = statusLine(props);
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate">
        {segments.map((s, i) => (
          <Text key={i} bold={s.bold} inverse={s.inverse} {...(s.color ? { color: s.color } : {})}>
            {s.text}
          </Text>
        ))}
        {right ? <Text color={theme.muted}>{" ".repeat(gap) + right}</Text> : null}
      </Text>
    </Box>
  );
}

