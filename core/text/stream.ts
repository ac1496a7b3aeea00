// Text that arrives in pieces (a model's streamed words) made safe piece by
// piece, with the same result as making the whole safe at once. A few of
// safeText's rules look at neighbours: \r followed by \n is a line end, a
// joiner between two emoji is kept, a flag's tag characters are kept. So the
// end of a piece that such a rule may still change is held back until the
// next piece (or the end) shows what follows, and the last characters before
// a piece are kept as context for what looks back.

import { safeText } from "./safe.js";

// A trailing \r, joiner, or black flag with tag characters, maybe followed by
// the first half of a surrogate pair: wait for what follows.
const UNDECIDED_TAIL = /(?:\r|\u200d|\u{1f3f4}[\u{e0020}-\u{e007e}]*)?[\ud800-\udbff]?$/u;

export interface SafeStream {
  /** The safe text of `piece` that can be printed now. */
  push(piece: string): string;
  /** Whatever was held back, made safe: call once at the end of the stream. */
  flush(): string;
}

export function createSafeStream(): SafeStream {
  let held = "";
  let context = "";
  const emit = (text: string): string => {
    if (text === "") return "";
    const before = safeText(context);
    const out = safeText(context + text).slice(before.length);
    // Enough to look back past an emoji's skin tone and presentation selector.
    context = Array.from(context + text).slice(-3).join("");
    return out;
  };
  return {
    push(piece) {
      const text = held + piece;
      const tail = UNDECIDED_TAIL.exec(text)?.[0] ?? "";
      held = tail;
      return emit(text.slice(0, text.length - tail.length));
    },
    flush() {
      const text = held;
      held = "";
      return emit(text);
    },
  };
}
