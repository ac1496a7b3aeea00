// The `yuj` entry point. Kept tiny on purpose: `--version` answers before
// anything else loads, and every command's modules load only when used.

import { setFlagsFromString } from "node:v8";
import { mark } from "../core/startup-timing.js";

declare const YUJ_VERSION: string | undefined;

// WebAssembly (undici's HTTP parser, later tree-sitter grammars) is otherwise
// recompiled by TurboFan in the background, and the process cannot exit until
// that finishes: about 100 ms after every run. Liftoff code is fast enough.
setFlagsFromString("--liftoff-only");

const argv = process.argv.slice(2);
const version = typeof YUJ_VERSION === "string" ? YUJ_VERSION : "0.0.0-dev";

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`yuj ${version}\n`);
} else if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help")) {
  // The help text alone: the argument parser and its schemas (zod) are not needed to print it.
  const { HELP } = await import("./help.js");
  process.stdout.write(HELP);
} else {
  // Before anything that creates a zod schema (the bundle evaluates a chunk's imports before its own code).
  await import("./zod-jitless.js");
  const { main } = await import("./main.js");
  mark("main loaded");
  const code = await main(argv, version);
  // Exit explicitly once output is flushed: idle keep-alive sockets of the
  // HTTP clients must not hold the process open after the run has ended.
  process.stdout.write("", () => process.exit(code));
}
