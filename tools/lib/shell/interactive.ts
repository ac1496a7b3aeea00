// Programs that need a person at a terminal. Commands run with stdin at EOF
// and no controlling terminal, so an editor, a pager, a password prompt or a
// REPL either hangs until its deadline or fails in a confusing way. Both
// command tools refuse such a command before it runs and say what to do
// instead. Only high-confidence cases are refused: every stage of every
// list item is checked, and a flag that makes the program non-interactive
// (`git commit -m`, `sudo -n`, a remote command for ssh, a script for
// python) lets it through. What ends at once on an empty stdin is not
// refused: `select` and `npm init` (and pnpm, yarn, bun) read end of input
// and stop, so the model sees the real result, as in Chord.

import { parseShell, unwrap, verbOf, type SimpleCommand } from "../../../core/shell/index.js";
import { stdinRedirect, values } from "./common.js";
import { containerFinding, kubectlFinding } from "./interactive-containers.js";
import { gitFinding } from "./interactive-git.js";

export interface InteractiveFinding {
  /** The program as the finding names it (`git rebase -i`, `vim`). */
  program: string;
  /** Why it cannot run here. */
  reason: string;
  /** What to run instead. */
  hint: string;
}

export const finding = (program: string, reason: string, hint: string): InteractiveFinding => ({ program, reason, hint });

const RUN_IN_TERMINAL = "Run it yourself in a terminal";

const FULL_SCREEN = new Set(["vi", "vim", "nvim", "view", "nano", "pico", "emacs", "less", "more", "most", "man", "top", "htop", "btop", "watch", "fzf", "tig", "mc"]);

/** Options that turn a full-screen program into a plain one. */
const BATCH_FLAGS: Record<string, readonly string[]> = {
  top: ["-b", "--batch"],
  emacs: ["--batch", "-batch", "--script"],
};

/** The first stage of the command that needs a terminal, if any. */
export function interactiveCommand(cmd: string): InteractiveFinding | undefined {
  const p = parseShell(cmd);
  for (const item of p.items) {
    const { stages } = item.pipeline;
    for (let i = 0; i < stages.length; i++) {
      const found = stageFinding(stages[i]!, i > 0);
      if (found) return found;
    }
  }
  return undefined;
}

function stageFinding(cmd: SimpleCommand, piped: boolean): InteractiveFinding | undefined {
  if (cmd.redirects.some((r) => r.target.value === "/dev/tty")) {
    return finding(
      "/dev/tty",
      "direct /dev/tty redirection requires a controlling terminal",
      "Commands run without a terminal: drop the /dev/tty redirection and pass the input explicitly.",
    );
  }
  const words = cmd.words;
  if (verbOf(words) === "sudo" && !words.some((w) => w.value === "-n" || w.value === "--non-interactive")) {
    return finding("sudo", "`sudo` may prompt for a password", "Use `sudo -n` so it fails instead of prompting, or run it yourself in a terminal.");
  }
  const inner = unwrap(words);
  const name = verbOf(inner);
  if (name === undefined) return undefined;
  const args = values(inner.slice(1));
  const hasInput = piped || stdinRedirect(cmd) !== undefined;
  const assigned = new Map(cmd.assignments.map((a) => [a.value.split("=")[0]!, a.value.slice(a.value.indexOf("=") + 1)]));
  return programFinding(name, args, hasInput, assigned);
}

function programFinding(
  name: string,
  args: string[],
  hasInput: boolean,
  env: ReadonlyMap<string, string>,
): InteractiveFinding | undefined {
  if (FULL_SCREEN.has(name) && !(BATCH_FLAGS[name] ?? []).some((f) => args.includes(f))) {
    return finding(
      name,
      `\`${name}\` requires an interactive terminal UI`,
      "Use a non-interactive form instead: cat/head/sed -n to show text, the file tools to change it, `top -b -n 1` for a snapshot.",
    );
  }
  switch (name) {
    case "stty":
    case "tput":
      return finding(name, `${name} requires a terminal`, `${RUN_IN_TERMINAL}; commands here have no terminal to configure.`);
    case "ssh":
      return sshFinding(args);
    case "sftp":
    case "ftp":
    case "telnet":
    case "su":
    case "passwd":
      return finding(name, `\`${name}\` may require login, password, or terminal interaction`, `${RUN_IN_TERMINAL}, or use a non-interactive authentication method.`);
    case "git":
      return gitFinding(args, env, hasInput);
    case "docker":
    case "podman":
      return containerFinding(name, args);
    case "kubectl":
      return kubectlFinding(args);
    case "read":
      return args.includes("-p") && !hasInput
        ? finding("read -p", "`read -p` waits for user input", "Put the value in the command itself instead of asking for it.")
        : undefined;
    default:
      return loginFinding(name, args) ?? replFinding(name, args, hasInput);
  }
}

/** ssh with a TTY forced, or without a remote command (an interactive login). */
function sshFinding(args: string[]): InteractiveFinding | undefined {
  if (args.some((a) => /^-[a-zA-Z]*t/.test(a) && !a.startsWith("--"))) {
    return finding("ssh -t", "`ssh -t` allocates a TTY", "Drop -t and give the remote command, so it runs without a terminal.");
  }
  const valued = new Set(["-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w"]);
  let host = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      host = i + 1 < args.length ? i + 1 : -1;
      break;
    }
    if (valued.has(a)) i++;
    else if (!a.startsWith("-")) {
      host = i;
      break;
    }
  }
  if (host < 0 || host < args.length - 1) return undefined;
  return finding(
    "ssh",
    "`ssh` without a remote command may require login (it starts an interactive login session)",
    "Give the remote command (`ssh host 'cmd'`) with non-interactive authentication (-o BatchMode=yes).",
  );
}

function loginFinding(name: string, args: string[]): InteractiveFinding | undefined {
  const [a, b] = args;
  const wizard = (what: string, hint: string) => finding(what, `\`${what}\` starts an authentication wizard`, hint);
  if (name === "gh" && a === "auth" && b === "login" && !args.includes("--with-token")) {
    return wizard("gh auth login", "Authenticate with a token instead (GH_TOKEN, or `gh auth login --with-token`).");
  }
  if (name === "gcloud" && a === "auth" && b === "login") return wizard("gcloud auth login", "Use service-account authentication instead.");
  if (name === "az" && a === "login" && !args.includes("--service-principal")) return wizard("az login", "Use `az login --service-principal` instead.");
  if (name === "aws" && a === "configure" && args.length === 1) {
    return finding("aws configure", "`aws configure` prompts for credentials and configuration", "Set the AWS_* variables or write the config files explicitly.");
  }
  if (name === "cargo" && a === "login" && args.length === 1) {
    return finding("cargo login", "`cargo login` may prompt for a token", "Pass the token in CARGO_REGISTRY_TOKEN instead.");
  }
  return undefined;
}

const PYTHON = /^(?:python[0-9.]*|pypy[0-9.]*)$/;
const REPLS = new Set(["node", "irb", "ghci", "ipython", "bpython", "lua", "julia", "sqlite3"]);
/** Options that run something, so no prompt follows (python -c, node -e, --version). */
const RUNS_SOMETHING = /^(?:-[cmeEpVvh]|--(?:eval|print|version|help|command|execute|file|check)(?:=.*)?|-[A-Za-z]*[cm].*)$/;

/** A bare REPL: no script, no code, nothing on stdin — it would wait for a person. */
function replFinding(name: string, args: string[], hasInput: boolean): InteractiveFinding | undefined {
  const isPython = PYTHON.test(name);
  if (!isPython && !REPLS.has(name)) return undefined;
  const forced = args.includes("-i") || args.includes("--interactive");
  if (!forced) {
    if (hasInput) return undefined;
    // sqlite3 takes a database first and runs the SQL that follows it.
    const operands = args.filter((a) => !a.startsWith("-"));
    if (args.some((a) => RUNS_SOMETHING.test(a))) return undefined;
    if (operands.length > (name === "sqlite3" ? 1 : 0)) return undefined;
  }
  const example = isPython ? `\`${name} -c '...'\` or a script file` : name === "node" ? "`node -e '...'` or a script file" : "a script file or the code as an argument";
  return finding(name, `\`${name}\` without a script starts an interactive session (REPL) that waits for input`, `Run the code non-interactively: ${example}.`);
}

/**
 * The refusal the model reads. With the interactive terminal on, it names
 * terminal_start, which gives the program the terminal it needs.
 */
export function interactiveRefusal(found: InteractiveFinding, terminalTool?: string): string {
  const instead = terminalTool
    ? `Start it with ${terminalTool} instead (the session's interactive terminal), or: ${found.hint}`
    : found.hint;
  return `ERROR: interactive command rejected: ${found.reason}. ${instead}`;
}
