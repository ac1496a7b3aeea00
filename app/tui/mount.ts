// The view's modules: Ink, React and the App. Imported after the first frame
// is on the terminal (run.ts), since loading them is most of start-up.

import React from "react";
import { render, type Instance } from "ink";
import { App, type AppProps } from "../../components/App.js";

/** App rendered into the frame writer, reading keys from the key stdin. */
export function mountApp(props: AppProps, stdout: NodeJS.WriteStream, stdin: NodeJS.ReadStream): Instance {
  // Ink's debug mode hands over each whole frame as it is painted (the store
  // already batches events into frames); the frame writer puts only their
  // changed rows on the terminal.
  return render(React.createElement(App, props), { stdout, stdin, exitOnCtrlC: false, patchConsole: false, debug: true });
}
