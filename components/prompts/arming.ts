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
    let settle: NodeJS.Immediate | undefined;
    const quietFor = () => Date.now() - lastKeyAt();
    const check = () => {
      const wait = ARM_AFTER_QUIET_MS - quietFor();
      if (wait > 0) return void (timer = setTimeout(check, wait));
      // Timers run before pending input is read: after a stall of the
      // process, keys typed meanwhile may still wait in the terminal's
      // buffer. Arm only once they have been read and are still none.
      settle = setImmediate(() => (quietFor() >= ARM_AFTER_QUIET_MS ? setArmedId(id) : check()));
    };
    check();
    return () => {
      clearTimeout(timer);
      if (settle) clearImmediate(settle);
    };
  }, [id, lastKeyAt]);
  return id !== undefined && armedId === id;
}
