// The view's state, built from core events by the pure reducer. Events are
// reduced as they come; subscribers hear about it at most ~30 times a
// second, so a fast stream of deltas costs one repaint per frame, and
// nothing happens at all while nothing changes.

import type { CoreEvent } from "../core/events.js";
import { initialView, reduce, type SessionView } from "../core/reducer.js";

const FRAME_MS = 33;

export interface ViewStore {
  dispatch(event: CoreEvent): void;
  get(): SessionView;
  subscribe(listener: () => void): () => void;
}

export function createViewStore(): ViewStore {
  let view = initialView();
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  let lastNotify = 0;
  const notify = () => {
    timer = undefined;
    lastNotify = Date.now();
    for (const l of listeners) l();
  };
  return {
    dispatch(event) {
      view = reduce(view, event);
      if (timer) return;
      const wait = Math.max(0, FRAME_MS - (Date.now() - lastNotify));
      timer = setTimeout(notify, wait);
    },
    get: () => view,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
