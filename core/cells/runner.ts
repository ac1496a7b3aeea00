// Runs code cells: model-written Python under the session's command policy.
// The interpreter is the system's python3, resolved to its real executable
// once per session (a version-manager shim costs a process per spawn). Each
// cell is one process group, inside the sandbox when the sandbox is on; a
// sandbox that is required but cannot start refuses the cell, nothing runs.
// The cell's functions reach yuj over two pipes (JSON-RPC, one message a
// line): requests on fd 4, answers on fd 5. At the whole-cell deadline, on
// cancel, and when the cell ends, the whole group is killed: nothing a cell
// starts outlives it, so a cell cannot leave background work behind.

import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import jsonrpc from "jsonrpc-lite";
import type { Env } from "../paths.js";
import { unavailableMessage, type Sandbox } from "../sandbox/index.js";
import type { CellOutcome } from "../tool-types.js";
import { signalGroup } from "../jobs/process-group.js";
import { StopReason } from "../stop-reason.js";
import { ANSWER_FD, PRELUDE, REQUEST_FD } from "./prelude.js";

/** Printed text kept in memory at most; the result is bounded again like every tool's. */
const MAX_OUTPUT_CHARS = 1_000_000;
/** After the cell's process exits, how long its pipes may take to drain. */
const DRAIN_MS = 500;

interface CellRequest {
  source: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Function name to its parameter names, in order (positional arguments map onto them). */
  functions: Record<string, string[]>;
  /** Runs one call the cell made; resolves with the text the function returns. `signal` ends with the cell. */
  call(name: string, params: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

export interface CellRunner {
  run(request: CellRequest): Promise<CellOutcome>;
}

export interface CellRunnerOptions {
  /** The session's sandbox; commands' policy applies to cells alike. */
  sandbox?: Sandbox;
  /** The commands' environment (already filtered by [shell_env]). */
  env: Env;
}

export function createCellRunner(opts: CellRunnerOptions): CellRunner {
  let python: { path: string } | { error: string } | undefined;
  const interpreter = () => (python ??= resolvePython(opts.env));
  return {
    async run(request) {
      const found = interpreter();
      if ("error" in found) return { status: "refused", output: found.error, calls: 0 };
      const argv = [found.path, "-u", "-c", PRELUDE];
      const wrapped = opts.sandbox ? opts.sandbox.wrapArgv(argv, request.cwd, opts.env) : { file: argv[0]!, args: argv.slice(1), env: { ...opts.env } };
      if ("error" in wrapped) return { status: "refused", output: `ERROR: ${unavailableMessage(wrapped.error)}`, calls: 0 };
      const outcome = await runProcess([wrapped.file, ...wrapped.args], wrapped.env, request);
      const undone = (await opts.sandbox?.afterCommand()) ?? [];
      return undone.length ? { ...outcome, output: [outcome.output.trimEnd(), ...undone].join("\n") } : outcome;
    },
  };
}

/** The real executable behind `python3` on the commands' PATH. */
function resolvePython(env: Env): { path: string } | { error: string } {
  try {
    const out = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { env: { ...env }, encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "pipe"] });
    const path = out.trim();
    if (path) return { path };
  } catch (err) {
    return { error: `ERROR: code cells need python3 on PATH, and running it failed: ${(err as Error).message.split("\n")[0]}` };
  }
  return { error: "ERROR: code cells need python3 on PATH; python3 did not name its executable" };
}

function runProcess(argv: string[], env: Record<string, string | undefined>, request: CellRequest): Promise<CellOutcome> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", 'exec 2>&1; exec "$@"', "sh", ...argv], {
        cwd: request.cwd,
        env,
        detached: true,
        // fd 3 is where a sandboxed start hands bwrap its seccomp filter.
        stdio: ["pipe", "pipe", "ignore", "ignore", "pipe", "pipe"],
      });
    } catch (err) {
      resolve({ status: "refused", output: `ERROR: the cell could not start: ${(err as Error).message}`, calls: 0 });
      return;
    }
    const cell = new AbortController();
    let output = "";
    let cut = false;
    let calls = 0;
    let status: CellOutcome["status"] = "exited";
    const stop = (why: CellOutcome["status"]) => {
      if (status === "exited") status = why;
      // A call the deadline stops says so; the user's cancel says its own.
      cell.abort(why === "timed_out" ? timedOut(request.timeoutMs) : undefined);
      killGroup(child);
    };
    const timer = setTimeout(() => stop("timed_out"), request.timeoutMs);
    const onAbort = () => stop("cancelled");
    request.signal.addEventListener("abort", onAbort, { once: true });

    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (text: string) => {
      if (output.length + text.length <= MAX_OUTPUT_CHARS) output += text;
      else if (!cut) {
        output += text.slice(0, MAX_OUTPUT_CHARS - output.length);
        cut = true;
      }
    });
    const pipes = child.stdio as unknown as Array<Readable & Writable>;
    const served = serveCalls(pipes[REQUEST_FD]!, pipes[ANSWER_FD]!, request, cell.signal, () => calls++);
    child.stdin!.on("error", () => {});
    child.stdin!.end(`${JSON.stringify({ functions: request.functions })}\n${request.source}`);

    let ended = false;
    const end = (exitCode: number | null) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      cell.abort();
      const text = cut ? `${output}\n[the cell printed more than ${MAX_OUTPUT_CHARS} characters; the rest was dropped]` : output;
      // A call the end cancelled reports its result before the cell's own.
      void served().then(() => resolve(status === "exited" ? { status, exitCode, output: text, calls } : { status, output: text, calls }));
    };
    child.on("error", (err) => {
      output += `ERROR: the cell could not start: ${err.message}\n`;
      end(127);
    });
    child.on("exit", (code, signal) => {
      // Whatever the cell started goes with it.
      killGroup(child);
      const exitCode = code ?? (signal ? null : 0);
      if (child.stdout!.closed) return end(exitCode);
      const drained = setTimeout(() => {
        child.stdout?.destroy();
        end(exitCode);
      }, DRAIN_MS);
      child.stdout!.once("close", () => {
        clearTimeout(drained);
        end(exitCode);
      });
    });
  });
}

const timedOut = (ms: number) =>
  new StopReason(`ERROR: the cell timed out after ${ms / 1000} seconds ([tools].code_cell_timeout) before the tool finished`);

/** Answers the cell's requests one at a time, in order, while it runs; the result waits for the last one. */
function serveCalls(requests: Readable, answers: Writable, request: CellRequest, signal: AbortSignal, counted: () => void): () => Promise<void> {
  answers.on("error", () => {});
  const lines = createInterface({ input: requests, crlfDelay: Infinity });
  let queue = Promise.resolve();
  lines.on("line", (line) => {
    queue = queue.then(async () => {
      const answer = await answerOne(line, request, signal, counted).catch((err: unknown) =>
        // The call itself failed (not the tool: its failures are text): the cell gets the reason.
        JSON.stringify(jsonrpc.error(null, new jsonrpc.JsonRpcError(`the call failed in yuj: ${(err as Error).message}`, -32603))),
      );
      if (!signal.aborted && answer !== undefined) answers.write(`${answer}\n`);
    });
  });
  return () => queue;
}

async function answerOne(line: string, request: CellRequest, signal: AbortSignal, counted: () => void): Promise<string | undefined> {
  const parsed = jsonrpc.parse(line);
  const message = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!message || message.type !== "request") {
    return JSON.stringify(jsonrpc.error(null, new jsonrpc.JsonRpcError("expected one JSON-RPC request per line", -32600)));
  }
  const { id, method, params } = message.payload as { id: string | number; method: string; params?: unknown };
  if (!(method in request.functions)) {
    return JSON.stringify(jsonrpc.error(id, new jsonrpc.JsonRpcError(`no cell function ${method}`, -32601)));
  }
  const args = params !== null && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  counted();
  const text = await request.call(method, args, signal);
  return JSON.stringify(jsonrpc.success(id, text));
}

function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
}
