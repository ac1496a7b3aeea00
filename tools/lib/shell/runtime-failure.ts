// Why a failed command failed, when its output makes it clear: commands run
// with stdin closed and no controlling terminal, so a credential prompt, an
// editor or a TTY check fails in a way that retrying will not fix; and a
// failed test run is better followed by a focused reproduction (or, when the
// build broke first, a build-only check) than by the same command again.
// Chord's shell adds these lines after the exit status, in Chord's words.

import { parseShell, unwrap, verbOf } from "../../../core/shell/index.js";

/** Output fragments (lower case) that show the command needed a terminal, and what that means. */
const TERMINAL_SIGNS: readonly (readonly [string, string])[] = [
  ["terminal prompts disabled", "the command attempted an interactive credential prompt"],
  ["could not read username", "the command attempted an interactive credential prompt"],
  ["could not read password", "the command attempted an interactive credential prompt"],
  ["a terminal is required to read the password", "the command attempted a password prompt without a terminal"],
  ["terminal is dumb", "the command attempted to launch an interactive editor"],
  ["there was a problem with the editor", "the command attempted to launch an interactive editor"],
  ["cannot open /dev/tty", "the command requires a terminal/TTY"],
  ["no tty present and no askpass program specified", "the command requires a terminal/TTY"],
  ["the input device is not a tty", "the command requires a terminal/TTY"],
  ["inappropriate ioctl for device", "the command requires a terminal/TTY"],
  ["must be connected to a terminal", "the command requires a terminal/TTY"],
  ["requires a tty", "the command requires a terminal/TTY"],
  ["requires an interactive terminal", "the command requires a terminal/TTY"],
  ["stdin is not a terminal", "the command requires a terminal/TTY"],
  ["standard input is not a terminal", "the command requires a terminal/TTY"],
  ["not a tty", "the command requires a terminal/TTY"],
  ["not a terminal", "the command requires a terminal/TTY"],
];

const NON_INTERACTIVE_ADVICE =
  "Shell commands are non-interactive: stdin is closed and no controlling TTY is available. Use non-interactive flags, " +
  "provide input through files/arguments/pipes, choose a non-interactive command, or ask the user to run it in a real terminal.";

/** The lines that explain a failed command, each already worded for the model; none for an ordinary failure. */
export function failureDiagnosis(command: string, output: string, exitCode: number): string[] {
  const terminal = terminalReason(command, output);
  if (terminal) return [`exit code ${exitCode}: non-interactive shell failure: ${terminal}. ${NON_INTERACTIVE_ADVICE}`];
  if (!runsTests(command)) return [];
  if (BUILD_BROKE.some((re) => re.test(output))) {
    return [
      `exit code ${exitCode}: the build failed before tests could run. Fix the compile errors shown above and confirm with a ` +
        "build-only check (for example go build ./... or go vet ./..., tsc --noEmit, cargo check). Do not re-run the test suite until the build passes.",
    ];
  }
  return [
    `exit code ${exitCode}: Test or verification command failed. Read the first failure above and run a focused reproduction ` +
      "(one package, file or test) before changing code. Do not repeat the same failing command unchanged.",
  ];
}

function terminalReason(command: string, output: string): string | undefined {
  const text = output.toLowerCase();
  if (text === "") return undefined;
  const sign = TERMINAL_SIGNS.find(([fragment]) => text.includes(fragment));
  if (sign) return sign[1];
  const sudoAsked = text.includes("sudo") && text.includes("password") && text.includes("required");
  return sudoAsked && !/(^|\s)sudo\s+(.*\s)?(-n|--non-interactive)(\s|$)/.test(command) ? "sudo could not prompt for a password" : undefined;
}

// A test run whose packages did not compile: go's `[setup failed]` /
// `[build failed]`, and the compilers' own words.
const BUILD_BROKE = [/\[(setup|build) failed\]/, /^FAIL\s.*\[build failed\]/m, /error TS\d+:/, /^error(\[E\d+\])?: could not compile/m];

/** Test runners, and the subcommands that run tests, as commands the shell runs (not text in a comment or an argument). */
const TEST_VERBS = new Set(["pytest", "jest", "vitest", "mocha", "rspec", "phpunit", "tox", "nox", "ctest"]);
const TEST_SUBCOMMANDS: Record<string, readonly string[]> = {
  go: ["test", "vet"],
  cargo: ["test", "nextest"],
  npm: ["test", "t"],
  pnpm: ["test", "t"],
  yarn: ["test"],
  bun: ["test"],
  deno: ["test"],
  dotnet: ["test"],
  mvn: ["test", "verify"],
  gradle: ["test", "check"],
  make: ["test", "check"],
  python: ["-m"],
  python3: ["-m"],
};

function runsTests(command: string): boolean {
  const parse = parseShell(command);
  return parse.items.some((item) =>
    item.pipeline.stages.some((stage) => {
      const words = unwrap(stage.words).map((w) => w.value);
      const verb = verbOf(unwrap(stage.words));
      if (verb === undefined) return false;
      if (TEST_VERBS.has(verb)) return true;
      const sub = TEST_SUBCOMMANDS[verb];
      if (!sub || !sub.includes(words[1] ?? "")) return false;
      return sub[0] !== "-m" || ["pytest", "unittest"].includes(words[2] ?? "");
    }),
  );
}
