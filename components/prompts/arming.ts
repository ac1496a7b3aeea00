// A prompt that appears while the user is typing must not take the keys
// meant for the message: it arms only once input has paused. Until then keys
// go where they went before (the composer), and the prompt says it is waiting.

import { useEffect, useState } from "react";

/** Quiet time after the last key before a prompt acts on keys. */
const ARM_AFTER_QUIET_MS = 400;

/**
 * True once the prompt `id` may act on keys: no key has arrived for
 * ARM_AFTER_QUIET_MS. `lastKeyAt` is read live (keys do not re-render).
 */
export function useArmed(id: string | undefined, lastKeyAt: () => number): boolean {
  const [armedId, setArmedId] = useState<string>();
  useEffect(() => {
    if (id === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      const wait = lastKeyAt() + ARM_AFTER_QUIET_MS - Date.now();
      if (wait <= 0) setArmedId(id);
      else timer = setTimeout(check, wait);
    };
    check();
    return () => clearTimeout(timer);
  }, [id, lastKeyAt]);
  return id !== undefined && armedId === id;
}
