// Yuj `run_tests`: runs the repository's test runner (detected from its
// files: tools/lib/test-runners/runners.ts) with a fixed command line and
// returns a structured verdict:
//
//   <test_results status="failed" exit_code="1" runner="pytest">
//   …the runner's output…
//   <failing-assertion file="tests/test_calc.py" line="5" radius="5">
//   …the source around that line…
//   </failing-assertion>
//   </test_results>
//
// The status comes from the runner's exit code (its own map); a timeout
// (`timed_out`) or a run that could not start (`error`) has no exit_code; a
// runner that is not installed is `runner_unavailable`, with its exit code.
// The command is a job of the session's job manager, like every command:
// the sandbox, the environment policy and the output cap apply, and the
// dispatcher bounds the result and saves the full text like any tool's.

import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { EXECUTES, type ToolDisplay, type ToolHandler, type ToolResult } from "../../core/tool-types.js";
import type { LogReader } from "../../core/jobs/job-log.js";
import { NO_JOBS, waitForeground } from "../lib/foreground.js";
import { filterOutput } from "../lib/output-filters.js";
import { resolveInCwd } from "../lib/paths.js";
import { detectRunner, planRun, type TestRunner } from "../lib/test-runners/runners.js";
import { failingAssertionBlocks } from "../lib/test-runners/assertions.js";
import { yujPaths } from "../lib/file-access.js";
import { runnerHints, runnerUnavailable } from "../lib/test-runners/hints.js";
import { shownPath, str } from "../lib/view.js";

export const runTestsSchema = z.object({
  path: z.string().optional(),
  k: z.string().optional(),
  last_failed: z.boolean().optional(),
});

export const RUN_TESTS_DISABLED = "ERROR: run_tests tool is disabled (tools.run_tests.enabled=false)";

/** The output read into the result at most; the dispatcher's bound applies after. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

export const runTestsTool: ToolHandler<typeof runTestsSchema> = {
  id: "run_tests",
  schema: runTestsSchema,
  effects: EXECUTES,
  // A passing run checked the files as they are now (the done guard).
  verifies: (_args, result) => result.ok,
  view: {
    card: "foldable",
    summary: (args, facts) => testsSummary(args, facts.cwd),
  },
  async run(args, ctx) {
    const settings = ctx.config.tools.run_tests;
    if (!settings.enabled) return refused(RUN_TESTS_DISABLED);
    const jobs = ctx.jobs;
    if (!jobs) return refused(NO_JOBS);
    let rel: string | undefined;
    if (args.path !== undefined && args.path.trim() !== "") {
      const where = await resolveInCwd(ctx.services.fs, ctx.cwd, args.path, { forbidNewline: true });
      if (!where.ok) return refused(where.error);
      rel = where.display;
    }
    const runner = await detectRunner(ctx.cwd);
    const plan = await planRun(runner, ctx.cwd, {
      ...(rel !== undefined ? { path: rel } : {}),
      ...(args.k ? { k: args.k } : {}),
      ...(args.last_failed ? { lastFailed: true } : {}),
    });
    if ("error" in plan) return envelope({ status: "error", runner, body: `ERROR: ${plan.error}` });

    const job = jobs.start({ command: plan.command, cwd: ctx.cwd, background: false, callId: ctx.callId, deadlineMs: settings.timeout * 1000, label: `run_tests (${runner.name})` });
    const end = await waitForeground(jobs, job.id, Number.POSITIVE_INFINITY, ctx.signal);
    if (end === "cancelled" || ctx.signal.aborted) {
      await jobs.kill(job.id, "cancelled by the user");
      return refused("ERROR: cancelled by the user before the tests finished", plan.command, "killed");
    }
    // The runner exited and left helpers behind (workers, a server a test started): they go too.
    if (end === "leader_exited") await jobs.kill(job.id, "left running by the test runner");
    const read = await jobs.readNew(job.id, 0);
    const snap = read.snapshot;
    // pytest -q opens with a blank line: the body starts at the first line with text.
    const output = filterOutput(readBounded(jobs.log(job.id)), ctx.config.tools).replace(/^(?:[ \t]*\n)+/, "").replace(/\n+$/, "");
    const notes = plan.notes.map((n) => `[${n}]`);

    if (snap.status === "timed_out") {
      const body = [`ERROR: command timed out after ${settings.timeout}s`, ...notes, output].filter((p) => p !== "").join("\n");
      return envelope({ status: "timed_out", runner, body, command: plan.command });
    }
    const refusal = /^yuj: (sandbox unavailable: .*|failed to start bash: .*)$/m.exec(output);
    if (refusal && (snap.exitCode === 126 || snap.exitCode === 127)) {
      return envelope({ status: "error", runner, body: `ERROR: ${refusal[1]}`, command: plan.command });
    }
    const exitCode = snap.exitCode ?? 128;
    const status = runnerUnavailable(runner, output, exitCode) ? "runner_unavailable" : runner.status(exitCode, output);
    const parts = [...notes, output === "" ? "(no output)" : output];
    parts.push(...runnerHints(runner, status, output, exitCode, args.last_failed === true));
    if (status === "failed" || status === "collection_error") {
      parts.push(...(await failingAssertionBlocks(output, ctx.cwd, ctx.services.fs, { radius: settings.assertion_context_lines, max: settings.assertion_context_max, access: yujPaths(ctx, "write") })));
    }
    return envelope({ status, runner, body: parts.join("\n"), command: plan.command, exitCode });
  },
};

/** `tests/test_a.py -k name --last-failed`: what the run was narrowed to; empty for the whole suite. */
function testsSummary(args: Record<string, unknown>, cwd: string): string {
  const path = str(args, "path");
  const k = str(args, "k");
  return [path ? shownPath(path, cwd) : "", k ? `-k ${k}` : "", args.last_failed === true ? "--last-failed" : ""].filter(Boolean).join(" ");
}

interface Verdict {
  status: string;
  runner: TestRunner;
  body: string;
  /** The command line run; absent when none was. */
  command?: string;
  exitCode?: number;
}

/**
 * The model reads the verdict in a `<test_results>` envelope; the person is
 * shown the command and what it printed, the status in the card's header.
 */
function envelope(v: Verdict): ToolResult {
  const code = v.exitCode === undefined ? "" : ` exit_code="${v.exitCode}"`;
  const modelText = `<test_results status="${v.status}"${code} runner="${v.runner.name}">\n${v.body}\n</test_results>`;
  const display: ToolDisplay =
    v.command === undefined
      ? { kind: "text", text: v.body }
      : {
          kind: "command",
          command: v.command,
          output: `${v.body}\n[${v.runner.name}: ${v.status.replace(/_/g, " ")}]`,
          status: v.status === "timed_out" ? "timed_out" : "exited",
          ...(v.exitCode === undefined ? {} : { exitCode: v.exitCode }),
        };
  return { ok: v.status === "passed", modelText, display };
}

/** A run refused or stopped before the runner gave a verdict: the words alone, no envelope. */
function refused(text: string, command?: string, status?: "killed"): ToolResult {
  return command === undefined ? { ok: false, modelText: text } : { ok: false, modelText: text, display: { kind: "command", command, output: text, status: status ?? "exited" } };
}

/** The whole log when it is small enough, else its start and its end (where the failures and the summary are). */
function readBounded(log: LogReader): string {
  const size = log.size;
  const text = (from: number, to: number) => new StringDecoder("utf8").end(log.read(from, to));
  if (size <= MAX_READ_BYTES) return text(0, size);
  const head = MAX_READ_BYTES / 8;
  const tail = MAX_READ_BYTES - head;
  return `${text(0, head)}\n… [${size - head - tail} bytes of output left out here; the job's log holds them: ${log.path}] …\n${text(size - tail, size)}`;
}

