// Settings of features yuj does not implement yet. A key that nothing reads
// must not be accepted: the user would believe it does something. So these
// keys are not in the schema, and a file that sets one gets an error that
// names it and says to remove it, instead of the "unknown key" of a typo.
//
// The feature that implements one of these adds its keys to schema.ts and
// removes them here (and, if it runs commands or widens what a command may
// reach, adds its line to loosening.ts, which judges a project's file).

export interface NotSupportedKey {
  /** Dotted, as a config error names it: a key, or a whole table. */
  key: string;
  /** What the key would control, for the error message. */
  feature: string;
  /** What does the job today, where something does. */
  instead?: string;
}

export const NOT_SUPPORTED_YET: readonly NotSupportedKey[] = [
  { key: "tools.edit_strict_match", feature: "a switch for edit's exact match", instead: "edit always matches exactly; [tools].edit_fuzzy_cascade_enabled adds the fuzzy fallback" },
  { key: "tools.apply_patch", feature: "a switch for the apply_patch tool", instead: 'set [tools].edit_format = "apply_patch"' },
  { key: "tools.unified_envelope", feature: "the unified result envelope (<tool_result tool_name=… status=…> around every tool result)", instead: "results start with ERROR: when a call fails" },
  { key: "state", feature: "the reference's projected state file (.solver/state.json, with its todos_char_budget)", instead: "write_todos shows the whole list in its result" },
  { key: "loop.think_streak_nudge_after", feature: "a nudge after a run of think calls" },
  { key: "output.trace_args_summary_chars", feature: "shortened tool arguments in the trace" },
  { key: "output.trace_result_summary_chars", feature: "shortened tool results in the trace" },
  { key: "output.trace_reasoning_store_chars", feature: "shortened reasoning in the trace" },
];

const BY_KEY = new Map(NOT_SUPPORTED_YET.map((k) => [k.key, k]));

/** The error message for `key` (dotted) when it is a setting of a feature not implemented yet. */
export function notSupportedMessage(key: string): string | undefined {
  const entry = BY_KEY.get(key);
  if (!entry) return undefined;
  const instead = entry.instead ? ` (${entry.instead})` : "";
  return `${key} is not supported yet: yuj does not implement ${entry.feature}, so the setting would do nothing; remove it${instead}`;
}
