// Stopping a replayed run where the recorded process was killed, so the next
// run can begin the way `yuj resume` began it. Two places a kill can fall:
//
//   - while a request was in flight: the replay sends that request too (it
//     is compared like any other), then its run ends there, as the killed
//     process's did, without waiting for a response; when nothing of it was
//     recorded (no response had begun) the run ends just before sending it;
//   - while calls ran: the replay stops just before the first call the
//     resume closed with the interrupted result, and never runs it. In the
//     recording that call never completed: it may have done nothing, part of
//     its work or all of it, and nobody knows which, so no replay can
//     reproduce its effects; the replay reports each such call instead.

import type { HistoryItem } from "../../core/history.js";
import type { Provider, ProviderEvent } from "../../core/providers/types.js";

/** Thrown out of the loop where the recorded process was killed; not an error of the replay. */
export class RecordedKill extends Error {
  constructor(where: string) {
    super(`the recorded process was killed here (${where})`);
    this.name = "RecordedKill";
  }
}

export interface StopAt {
  /** 0-based number of the request in flight at the kill. */
  request: number;
  /** Whether its body was recorded (then it is sent and compared before the stop). */
  recorded: boolean;
}

/**
 * The provider, stopped at the request `stopAt()` names (counted by
 * `sent()`, the requests replayed so far): right after sending it, or before
 * sending it when the recording has none of it. It throws before any
 * response is read, so the run ends with a provider error and its history as
 * the killed process left it: no assistant turn was added.
 */
export function stoppingProvider(
  inner: Provider,
  stopAt: () => StopAt | undefined,
  sent: () => number,
  /** Told where it stopped (the loop turns the throw into an error outcome). */
  onStop: (kill: RecordedKill) => void,
): Provider {
  const stopHere = (where: string) => {
    const kill = new RecordedKill(where);
    onStop(kill);
    return kill;
  };
  return {
    name: inner.name,
    ...(inner.listModels ? { listModels: inner.listModels.bind(inner) } : {}),
    async *stream(request, signal): AsyncIterable<ProviderEvent> {
      const stop = stopAt();
      if (stop && !stop.recorded && sent() === stop.request) {
        throw stopHere(`request ${stop.request + 1} was being sent; nothing of it was recorded, so the replay did not send it`);
      }
      for await (const ev of inner.stream(request, signal)) {
        yield ev;
        const at = stop?.recorded ? stop.request : undefined;
        if (ev.type === "raw_request" && at !== undefined && sent() === at + 1) {
          throw stopHere(`request ${at + 1} was in flight`);
        }
      }
    },
  };
}

/**
 * True when the history is at the step after which the killed process would
 * have run one of `closed` next: the last assistant turn holds such a call
 * without a result, and every other call of that turn before it has one.
 */
export function atKilledCall(history: readonly HistoryItem[], closed: ReadonlySet<string>): boolean {
  if (closed.size === 0) return false;
  const answered = new Set<string>();
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.role === "tool") {
      answered.add(item.callId);
      continue;
    }
    if (item.role !== "assistant") return false;
    const open = item.toolCalls.filter((c) => !answered.has(c.id));
    return open.length > 0 && open.every((c) => closed.has(c.id));
  }
  return false;
}
