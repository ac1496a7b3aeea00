// At most N model requests in flight across the main agent and its workers
// ([orchestration].max_active_llm_requests): a request beyond waits its turn.

import type { Provider } from "../providers/types.js";

export interface RequestLimit {
  wrap(provider: Provider): Provider;
}

export function createRequestLimit(max: number): RequestLimit {
  let active = 0;
  const queue: Array<() => void> = [];
  const acquire = async (signal: AbortSignal) => {
    while (active >= max) {
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
      await new Promise<void>((resolve) => {
        const go = () => {
          signal.removeEventListener("abort", go);
          resolve();
        };
        signal.addEventListener("abort", go, { once: true });
        queue.push(go);
      });
    }
    active++;
  };
  const release = () => {
    active--;
    queue.shift()?.();
  };
  const wrap = (provider: Provider): Provider => ({
    ...provider,
    name: provider.name,
    async *stream(request, signal) {
      await acquire(signal);
      try {
        yield* provider.stream(request, signal);
      } finally {
        release();
      }
    },
    ...(provider.forAgent ? { forAgent: (agent) => wrap(provider.forAgent!(agent)) } : {}),
  });
  return { wrap };
}
