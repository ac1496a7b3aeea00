// `bash`: run one command in the foreground and return its combined output
// (digest 1.10). The command leads its own process group so a timeout or a
// cancel stops everything it started, and stdin is closed so a command that
// waits for input gets EOF instead of hanging until the timeout.

import { StringDecoder } from "node:string_decoder";
import { constants as osConstants } from "node:os";
import { z } from "zod";
import { fail, ok, type ToolContext, type ToolHandler } from "../core/tool-types.js";
import { killGroup } from "./lib/process-group.js";
import { filterOutput } from "./lib/output-filters.js";

export const bashSchema = z.object({
  cmd: z.string(),
  background: z.boolean().optional(),
});

const BACKGROUND_DISABLED =
  "ERROR: background commands are disabled (set [tools].background_enabled = true)";
const KILL_GRACE_MS = 2000;
// After the shell exits, how long to wait for its pipes to close. Something
// that left the group (setsid) can hold them open forever.
const CLOSE_WAIT_MS = KILL_GRACE_MS + 1000;

/** Exit-1 meanings for commands where 1 is an answer, not a failure. */
const VERB_MEANINGS: Record<string, string> = {
  grep: "no matches",
  egrep: "no matches",
  fgrep: "no matches",
  rg: "no matches",
  ripgrep: "no matches",
  ag: "no matches",
  diff: "files differ",
  cmp: "files differ",
  find: "errors during traversal (consult stderr)",
  test: "condition is false",
  "[": "condition is false",
};

/** The meaning of exit 1 for a single-verb command (no pipes, lists or substitutions). */
export function exitMeaning(cmd: string, code: number): string | undefined {
  if (code !== 1) return undefined;
  const unquoted = cmd.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, "''");
  if (/[|;&\n`]|\$\(/.test(unquoted)) return undefined;
  const words = unquoted.trim().split(/\s+/);
  const verb = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (!verb) return undefined;
  const name = verb.replace(/^\\/, "").split("/").pop() ?? "";
  return VERB_MEANINGS[name];
}

type Outcome =
  | { kind: "exited"; code: number; output: string }
  | { kind: "timeout"; output: string }
  | { kind: "cancelled" }
  | { kind: "spawn_error"; message: string };

function runCommand(cmd: string, ctx: ToolContext, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const { clock } = ctx.services;
    const child = ctx.services.spawn("bash", ["-o", "pipefail", "-c", cmd], {
      cwd: ctx.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PAGER: "cat", GIT_PAGER: "cat", TERM: "dumb", NO_COLOR: "1" },
    });
    // One list for both streams keeps stdout and stderr in arrival order.
    const chunks: string[] = [];
    const outDec = new StringDecoder("utf8");
    const errDec = new StringDecoder("utf8");
    child.stdout?.on("data", (b: Buffer) => chunks.push(outDec.write(b)));
    child.stderr?.on("data", (b: Buffer) => chunks.push(errDec.write(b)));

    let stopped: "timeout" | "cancelled" | undefined;
    let exitCode = 0;
    let done = false;
    let closeTimer: NodeJS.Timeout | undefined;
    const stop = (why: "timeout" | "cancelled") => {
      if (stopped || done) return;
      stopped = why;
      if (child.pid !== undefined) void killGroup(child.pid, KILL_GRACE_MS, clock);
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("cancelled");
    ctx.signal.addEventListener("abort", onAbort, { once: true });

    const finish = (outcome?: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(closeTimer);
      ctx.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (outcome) return resolve(outcome);
      const output = chunks.join("") + outDec.end() + errDec.end();
      if (stopped === "cancelled") resolve({ kind: "cancelled" });
      else if (stopped === "timeout") resolve({ kind: "timeout", output });
      else resolve({ kind: "exited", code: exitCode, output });
    };

    child.on("error", (err) => finish({ kind: "spawn_error", message: err.message }));
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0);
      // The shell is gone; whatever it left running in its group is an
      // orphan no one will ever wait for, and it may be holding our pipes.
      if (child.pid !== undefined && !stopped) void killGroup(child.pid, KILL_GRACE_MS, clock);
      closeTimer = setTimeout(() => finish(), CLOSE_WAIT_MS);
    });
    child.on("close", () => finish());
  });
}

export const bashTool: ToolHandler<typeof bashSchema> = {
  id: "bash",
  schema: bashSchema,
  readOnly: false,
  async run(args, ctx) {
    if (args.background) return fail(BACKGROUND_DISABLED);
    if (ctx.signal.aborted) return fail("ERROR: command cancelled");
    const tools = ctx.config.tools;

    const outcome = await runCommand(args.cmd, ctx, tools.bash_timeout * 1000);
    switch (outcome.kind) {
      case "spawn_error":
        return fail(`ERROR: failed to start bash: ${outcome.message}`);
      case "cancelled":
        return fail("ERROR: command cancelled");
      case "timeout": {
        const message = `ERROR: command timed out after ${tools.bash_timeout}s`;
        const partial = filterOutput(outcome.output, tools).replace(/\n+$/, "");
        return fail(message, partial ? `${partial}\n${message}` : message);
      }
      case "exited": {
        const output = filterOutput(outcome.output, tools).replace(/\n+$/, "");
        if (outcome.code === 0) return ok(output.trim() === "" ? "(command produced no output)" : output);
        const meaning = exitMeaning(args.cmd, outcome.code);
        const marker = meaning ? `[exit code: ${outcome.code} — ${meaning}]` : `[exit code: ${outcome.code}]`;
        return fail(output.trim() ? `${output}\n${marker}` : marker);
      }
    }
  },
};
