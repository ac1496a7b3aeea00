// Compaction: when a conversation nears the model's context window (or the
// user asks with /compact), the older part is summarised by the model and
// later requests carry the summary in its place. The durable history keeps
// every item: a `summary` item marks the cut, and only the request view
// (see requestHistory) leaves out what it covers.

import type { Config } from "./config/schema.js";
import type { Emit } from "./events.js";
import type { HistoryItem, RequestItem } from "./history.js";
import { modelContextWindow } from "./providers/model-caps.js";
import type { Provider } from "./providers/types.js";

export const SUMMARY_PREFIX = "[Summary of the earlier conversation, written when the context was compacted]";

const INSTRUCTION =
  "The conversation above is being compacted to free context. Write a summary that lets you continue the work " +
  "without it: the user's goal and constraints, decisions made, files read or changed (with paths), commands run " +
  "and what they showed, errors met, and what remains to do. Be specific and brief; use plain text or Markdown. " +
  "Do not call tools.";

/**
 * Where a compaction may cut: the index of the first item kept, so that at
 * least `keepTurns` assistant turns stay whole and no tool call is parted
 * from its result. Undefined when there is nothing old enough to summarise.
 */
export function compactionCut(history: readonly HistoryItem[], keepTurns: number): number | undefined {
  const start = lastSummaryIndex(history) + 1;
  let turns = 0;
  for (let i = history.length - 1; i > start; i--) {
    const item = history[i]!;
    if (item.role === "assistant") turns++;
    // Cut only before a user message or an assistant message (never before a
    // tool result, which must follow its call).
    if (turns >= keepTurns && (item.role === "user" || item.role === "assistant")) {
      return i - start >= 2 ? i : undefined;
    }
  }
  return undefined;
}

/** Index of the newest summary item, or -1. */
function lastSummaryIndex(history: readonly HistoryItem[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === "summary") return i;
  return -1;
}

/**
 * The history a request carries: from the newest summary on, the summary
 * itself as a user message. Without a summary, the history as it is.
 */
export function requestHistory(history: readonly HistoryItem[]): RequestItem[] {
  const at = lastSummaryIndex(history);
  // No summary: the history is already in request form (runs every turn: no copy).
  if (at < 0) return history as RequestItem[];
  const summary = history[at] as Extract<HistoryItem, { role: "summary" }>;
  // Older summaries are covered by the newest one, so none remains after the cut.
  const rest = history.slice(at + 1) as RequestItem[];
  const intro: RequestItem = { role: "user", text: `${SUMMARY_PREFIX}\n\n${summary.text}` };
  // Two user messages in a row would be merged or refused by some APIs.
  if (rest[0]?.role === "user") return [{ role: "user", text: `${intro.text}\n\n${rest[0].text}` }, ...rest.slice(1)];
  return [intro, ...rest];
}

interface SummariseInput {
  provider: Provider;
  model: string;
  system: string;
  /** The part of the conversation to summarise (already in request form). */
  items: RequestItem[];
  maxOutputTokens: number;
  signal: AbortSignal;
}

/** Asks the model for the summary; throws when it answers with nothing. */
async function summarise(input: SummariseInput): Promise<string> {
  const history: RequestItem[] = [...input.items, { role: "user", text: INSTRUCTION }];
  let text = "";
  for await (const ev of input.provider.stream(
    { model: input.model, system: input.system, history: mergeAdjacentUsers(history), tools: [], maxOutputTokens: input.maxOutputTokens },
    input.signal,
  )) {
    if (ev.type === "text_delta") text += ev.text;
    // A retry that already yielded text starts the answer over.
    if (ev.type === "retry" && ev.discardedPartial) text = "";
  }
  text = text.trim();
  if (!text) throw new Error("the model returned an empty summary");
  return text;
}

function mergeAdjacentUsers(items: RequestItem[]): RequestItem[] {
  const out: RequestItem[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (prev?.role === "user" && item.role === "user") out[out.length - 1] = { role: "user", text: `${prev.text}\n\n${item.text}` };
    else out.push(item);
  }
  return out;
}

/**
 * Rough token count of a request (about 4 characters a token), for deciding
 * before the provider has reported usage. `extraChars` covers the tool specs.
 */
export function estimateTokens(items: readonly HistoryItem[], system: string, extraChars = 0): number {
  let chars = system.length + extraChars;
  for (const item of items) {
    chars += item.text.length;
    if (item.role === "assistant") for (const c of item.toolCalls) chars += c.name.length + c.args.length;
  }
  return Math.ceil(chars / 4);
}

export interface CompactDeps {
  provider: Provider;
  model: string;
  system: string;
  config: Config;
  emit: Emit;
  signal: AbortSignal;
  /** Saves the session after the summary is added (as after any step). */
  onStep?: (history: readonly HistoryItem[]) => void;
}

/**
 * The context window compaction works against: `[model].context_window`
 * when set, else what is known of the model; undefined turns automatic
 * compaction off (a window nobody knows cannot be "nearly full").
 */
export function contextLimit(config: Config, provider: string, model: string): number | undefined {
  return config.model.context_window ?? modelContextWindow(provider, model);
}

/**
 * True when the last request used enough of the window that the next one
 * may not fit: past context_fill_ratio less the safety margin.
 */
export function nearlyFull(tokens: number, limit: number, config: Config): boolean {
  const reserved = config.model.max_tokens_fraction;
  const fill = reserved === undefined ? config.model.context_fill_ratio : 1 - reserved;
  const ratio = fill - config.context.digest_compaction_safety_margin;
  return tokens >= limit * Math.max(0.1, ratio);
}

/**
 * Summarises the history before the cut and adds a summary item; the items
 * themselves stay. Returns false (with a notice) when there is nothing old
 * enough to summarise or the model fails; the session goes on either way.
 */
export async function compactHistory(
  history: HistoryItem[],
  deps: CompactDeps,
  reason: "auto" | "manual",
  tokensBefore?: number,
): Promise<boolean> {
  const keepTurns = deps.config.context.digest_keep_recent_turns;
  const cut = compactionCut(history, reason === "manual" ? Math.min(keepTurns, 2) : keepTurns);
  if (cut === undefined) {
    // Automatic checks run before every request: only an explicit /compact hears why nothing happened.
    if (reason === "manual") deps.emit({ type: "notice", level: "info", text: "Nothing to compact yet: the conversation is all recent turns." });
    return false;
  }
  const from = lastSummaryIndex(history);
  let summary: string;
  try {
    summary = await summarise({
      provider: deps.provider,
      model: deps.model,
      system: deps.system,
      items: requestHistory(history.slice(0, cut)),
      maxOutputTokens: Math.min(deps.config.provider.max_output_tokens, 4096),
      signal: deps.signal,
    });
  } catch (err) {
    if (deps.signal.aborted) return false;
    deps.emit({ type: "notice", level: "warning", text: `Compaction failed, the conversation is unchanged: ${(err as Error).message}` });
    return false;
  }
  history.splice(cut, 0, { role: "summary", text: summary });
  deps.emit({
    type: "context_compacted",
    reason,
    summarisedItems: cut - (from + 1),
    keptItems: history.length - cut - 1,
    summaryChars: summary.length,
    ...(tokensBefore === undefined ? {} : { tokensBefore }),
  });
  deps.onStep?.(history);
  return true;
}
