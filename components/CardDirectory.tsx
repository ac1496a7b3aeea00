// Ctrl+T: every card of the transcript in one list, to jump to one.

import React, { useRef, useState } from "react";
import { Box, Text, useInput } from "ink";
import type { Card } from "../core/reducer.js";
import { cardLabel } from "./search.js";
import { oneLine } from "../core/text/safe.js";
import { truncate } from "../core/text/width.js";
import { theme } from "./theme.js";

export interface CardDirectoryProps {
  cards: readonly Card[];
  width: number;
  height: number;
  onPick(num: number): void;
  onClose(): void;
}

export function CardDirectory(props: CardDirectoryProps): React.ReactElement {
  const [index, setIndex] = useState(Math.max(0, props.cards.length - 1));
  const live = useRef(props);
  live.current = props;
  const at = useRef(index);
  at.current = index;
  useInput((input, key) => {
    const { cards, onPick, onClose } = live.current;
    if (key.escape || input === "q" || (key.ctrl && input === "t")) return onClose();
    if (key.upArrow || input === "k") setIndex((i) => Math.max(0, i - 1));
    else if (key.downArrow || input === "j") setIndex((i) => Math.min(cards.length - 1, i + 1));
    else if (key.return) {
      const card = cards[at.current];
      if (card) onPick(card.num);
    }
  });
  const rows = Math.max(1, props.height - 2);
  const first = Math.max(0, Math.min(index - Math.floor(rows / 2), props.cards.length - rows));
  const visible = props.cards.slice(first, first + rows);
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold>
        CARDS <Text color={theme.muted}>{props.cards.length} · ↑/↓ select · Enter jump · Esc close</Text>
      </Text>
      {visible.map((card, i) => {
        const selected = first + i === index;
        const line = truncate(oneLine(cardLabel(card)), props.width - 2);
        return (
          <Text key={card.num} {...(selected ? { inverse: true } : {})}>
            {selected ? "›" : " "} {line}
          </Text>
        );
      })}
    </Box>
  );
}
