// "Allow always", as Chord's add-rule picker: the rules that would let this
// call through, from exact to broad (`rm -f build.log`, `rm -f *.log`,
// `rm *`), and where to keep the chosen one (this session, the project's
// ./.yuj/config.toml, the user config). The rule and the place are shown in
// full before anything is stored.

import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { RuleScope } from "../../core/approvals/types.js";
import type { Rule } from "../../core/permissions/types.js";
import { oneLine } from "../../core/text/safe.js";
import { theme } from "../theme.js";

const SCOPES: readonly RuleScope[] = ["session", "project", "user"];

const WHERE: Record<RuleScope, string> = {
  session: "this session's rules (kept when it is resumed)",
  project: "the project config (./.yuj/config.toml)",
  user: "your user config (~/.config/yuj/config.toml)",
};

export interface PickerState {
  choice: number;
  scope: RuleScope;
}

/** A key in the picker: the next state, "store", "back", or the same state. */
export function pickerKey(state: PickerState, count: number, input: string, key: { upArrow: boolean; downArrow: boolean; tab: boolean; shift: boolean; return: boolean; escape: boolean }): PickerState | "store" | "back" {
  if (key.escape) return "back";
  if (key.return) return "store";
  if (key.upArrow || input === "k") return { ...state, choice: Math.max(0, state.choice - 1) };
  if (key.downArrow || input === "j") return { ...state, choice: Math.min(count - 1, state.choice + 1) };
  if (/^[1-9]$/.test(input) && Number(input) <= count) return { ...state, choice: Number(input) - 1 };
  if (key.tab || input === "s") {
    const step = key.shift ? SCOPES.length - 1 : 1;
    return { ...state, scope: SCOPES[(SCOPES.indexOf(state.scope) + step) % SCOPES.length]! };
  }
  return state;
}

export function RulePicker({ rules, state, format }: { rules: Rule[]; state: PickerState; format(rule: Rule): string }): ReactNode {
  const chosen = rules[state.choice];
  return (
    <Box flexDirection="column">
      <Text>Allow always — which rule:</Text>
      {rules.map((r, i) => {
        const here = i === state.choice;
        return (
          <Text key={i} wrap="truncate" color={here ? theme.accent : undefined} bold={here}>
            {`${here ? "›" : " "} ${i + 1}. ${oneLine(r.pattern ?? "*")}${i === 0 ? "  (exactly this call)" : ""}`}
          </Text>
        );
      })}
      <Text wrap="truncate">
        {"where: "}
        {SCOPES.map((s) => (
          <Text key={s} {...(s === state.scope ? { color: theme.accent, bold: true, inverse: true } : { color: theme.muted })}>
            {` ${s} `}
          </Text>
        ))}
      </Text>
      {chosen ? (
        <Text wrap="wrap">
          Will store <Text color={theme.accent}>{oneLine(format(chosen))}</Text> in {WHERE[state.scope]}.
        </Text>
      ) : null}
      <Text color={theme.muted} wrap="truncate">
        [↑/↓] rule [Tab] where [Enter] store [Esc] back
      </Text>
    </Box>
  );
}
