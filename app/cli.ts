// The `yuj` entry point. Kept tiny on purpose: `--version` answers before
// anything else loads, and every command's modules load only when used.

import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { mark } from "../core/startup-timing.js";

declare const YUJ_VERSION: string | undefined;

const argv = process.argv.slice(2);
const version = typeof YUJ_VERSION === "string" ? YUJ_VERSION : "0.0.0-dev";

// Node compiles its built-in modules from a code cache made when node was
// built, which V8 refuses once any V8 flag differs (as --liftoff-only below
// does): each built-in then compiles from its source, about 3 times slower.
// The ones a run loads are loaded before the flag changes: `cluster` is what
// a server's listen() loads, `https` (and tls) what the Anthropic stream
// sends through, `parseArgs` and undici (behind `Headers`; the `fetch` global
// only loads it when called) are lazy properties. undici starts compiling its
// WebAssembly parser as it loads; V8 picks that module's tiers after this
// returns, so the flag still applies to it.
// (vm and zlib: the bundle's chunk loader, see scripts/bundle/chunk-loader.js.)
const BUILTINS = ["child_process", "cluster", "crypto", "fs/promises", "https", "os", "readline", "stream", "vm", "worker_threads", "zlib"];

function loadBuiltinsFirst(): void {
  const require = createRequire(import.meta.url);
  for (const id of BUILTINS) require(`node:${id}`);
  void (require("node:util") as typeof import("node:util")).parseArgs;
  if (mayUseFetch()) void globalThis.Headers;
}

/**
 * Whether this run may reach fetch (the OpenAI SDKs, MCP over HTTP), guessed
 * before the config is read: the Anthropic stream does not use it, and
 * loading undici costs some 15 ms here. A wrong guess costs time, not
 * correctness: undici then loads when first used, compiled from its source.
 */
function mayUseFetch(): boolean {
  const env = process.env;
  return !env.ANTHROPIC_API_KEY || !!env.OPENAI_API_KEY || argv.some((a) => a.includes("openai"));
}

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`yuj ${version}\n`);
} else if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help")) {
  // The help text alone: the argument parser and its schemas (zod) are not needed to print it.
  const { HELP } = await import("./help.js");
  process.stdout.write(HELP);
} else {
  // A `yuj code` run's first request, from the template an earlier run left, while the rest loads;
  // without one, this run records what its start-up consults, for a template.
  // (Imported here: node's http and https are not loaded for --version or --help.)
  if (argv[0] === "code") {
    const speculative = await import("../core/providers/speculative-request.js");
    const env = process.env;
    if (!(await speculative.speculate(argv, env, process.cwd())) && speculative.buildId() && !speculative.speculationOff(env)) {
      (await import("../core/providers/consulted-inputs.js")).recordConsultedInputs();
    }
  }
  loadBuiltinsFirst();
  // WebAssembly (undici's HTTP parser, later tree-sitter grammars) is otherwise
  // recompiled by TurboFan in the background, and the process cannot exit until
  // that finishes: about 100 ms after every run. Liftoff code is fast enough.
  setFlagsFromString("--liftoff-only");
  // Before anything that creates a zod schema (the bundle evaluates a chunk's imports before its own code).
  await import("./zod-jitless.js");
  const { main } = await import("./main.js");
  mark("main loaded");
  const code = await main(argv, version);
  // Exit explicitly once output is flushed: idle keep-alive sockets of the
  // HTTP clients must not hold the process open after the run has ended.
  process.stdout.write("", () => process.exit(code));
}
