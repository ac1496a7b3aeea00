// Who has not yet received which message, and a way to wait for news. A
// message counts as delivered once it is handed to its target's next request
// (and, across a restart, once its id is in the target's saved history).

import type { HistoryItem } from "../history.js";
import { deliveredIds, messageTag, type MailMessage, type OrchestrationStore } from "./store.js";

export interface Mailbox {
  /** Messages for `to` not yet handed over, oldest first. */
  pending(to: string): MailMessage[];
  /** Hands `to`'s pending messages over: the text of one delivery, or undefined when none waits. */
  take(to: string, label: (from: string) => string): string | undefined;
  /** Marks the messages a saved history already holds as delivered. */
  delivered(history: readonly HistoryItem[]): void;
  /** Resolves at the next change (a message, a state change), or when `signal` aborts. */
  changed(signal: AbortSignal): Promise<void>;
  /** Something changed: wakes every waiter. */
  poke(): void;
}

export function createMailbox(store: OrchestrationStore): Mailbox {
  const handed = new Set<string>();
  let waiters: Array<() => void> = [];
  return {
    pending: (to) => store.messages.filter((m) => m.to === to && !handed.has(m.id)),
    take(to, label) {
      const batch = store.messages.filter((m) => m.to === to && !handed.has(m.id));
      if (batch.length === 0) return undefined;
      for (const m of batch) handed.add(m.id);
      return batch.map((m) => describeMessage(m, label(m.from))).join("\n\n");
    },
    delivered(history) {
      for (const id of deliveredIds(history)) handed.add(id);
    },
    changed(signal) {
      if (signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          resolve();
        };
        signal.addEventListener("abort", done, { once: true });
        waiters.push(done);
      });
    },
    poke() {
      const w = waiters;
      waiters = [];
      for (const fn of w) fn();
    },
  };
}

/**
 * One message as its target reads it: the tag that makes delivery countable,
 * who sent it, what type, then the text led by its kind as the reference
 * writes it (`[correction] use the other file`).
 */
function describeMessage(m: MailMessage, from: string): string {
  const facts = [m.type, m.subtype && `subtype ${m.subtype}`, m.correlationId && `correlation_id ${m.correlationId}`].filter(Boolean).join(", ");
  // A sender's words (its kind too) cannot fake another message's tag.
  const body = `${m.kind ? `[${m.kind}] ` : ""}${m.text}`.replace(/\[mailbox /g, "[mailbox\u00a0");
  const payload = m.payload ? `\npayload: ${JSON.stringify(m.payload)}` : "";
  return `${messageTag(m.id)} from ${from} (${facts}):\n${body}${payload}`;
}
