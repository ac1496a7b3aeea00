// Drives an Ink component the way React's own tests do: every render and
// every key is wrapped in act(), which returns only when React has run the
// state updates and effects the key caused. A test then reads the frame at
// once: no timer decides whether the component has caught up.

import { act, type ReactElement } from "react";
import { cleanup, render } from "ink-testing-library";

// Tells React that this environment drives updates through act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export type Rendered = ReturnType<typeof render>;

/** Renders and runs the mount effects (Ink's input subscription among them). */
export async function mount(element: ReactElement): Promise<Rendered> {
  let rendered: Rendered | undefined;
  await act(async () => {
    rendered = render(element);
  });
  return rendered!;
}

/** Writes each chunk as one read from the terminal, and waits for what it caused. */
export async function press(r: Rendered, ...chunks: string[]): Promise<void> {
  for (const chunk of chunks) {
    await act(async () => {
      r.stdin.write(chunk);
    });
  }
}

/** Re-renders with new props, and waits for it. */
export async function rerender(r: Rendered, element: ReactElement): Promise<void> {
  await act(async () => {
    r.rerender(element);
  });
}

/** Unmounts every rendered component inside act, as the unmount updates state too. */
export async function unmountAll(): Promise<void> {
  await act(async () => {
    cleanup();
  });
}
