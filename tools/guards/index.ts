// The loop guards of one session, built from its config. Each guard keeps its
// own state (hashes seen, the plan accepted, the last change and its check)
// in a closure, so a new session gets fresh guards and two sessions never
// share any. Only the guards the config turns on are returned.
//
// Order matters, because the first refusal wins: the planning phase first
// (nothing else applies until the plan is accepted), then the finish rule,
// then the stale-file check. After-hooks run in the same order, so the
// formatter comes before the stale-file guard: the hash that guard records
// after a change must be of the file as the formatter left it; and before
// the language-server feedback, which reports on the formatted file. The
// post-edit checks come right after the formatter, so they check the file as
// it was formatted, and a block undoes the formatter's change too.

import type { Config } from "../../core/config/schema.js";
import type { Guard } from "../../core/guards/types.js";
import { nodeServices, type FileSystem, type Services } from "../../core/services.js";
import { commandEnv, policyFromConfig } from "../../core/jobs/shell-env.js";
import { createDoneGuard } from "./done-guard.js";
import { createFormatterGuard } from "./formatter.js";
import { createLspDiagnosticsGuard } from "./lsp-diagnostics.js";
import type { LspService } from "../../core/lsp/manager.js";
import { createPlanModeGuard } from "./plan-mode.js";
import { createStaleFileGuard } from "./stale-file.js";
import { createPostEditCheckGuard } from "./post-edit-check.js";
import type { JobManager } from "../../core/jobs/types.js";
import type { Emit } from "../../core/events.js";

export interface GuardOptions {
  /** Defaults to the real file system. */
  fs?: FileSystem;
  /** A resumed session whose plan was accepted before: the phase is over. */
  planAccepted?: boolean;
  /** The session's services; by default the real ones, their environment filtered by `config`. */
  services?: Services;
  /** The session's language servers: with [lsp].enabled, edits get their diagnostics. */
  lsp?: LspService;
  /**
   * The session's tool surface. The formatter and the stale-file check serve
   * the Yuj surface: the Chord surface has no formatter setting, and its file
   * tools keep their own record of what the model saw. Default "yuj".
   */
  surface?: "yuj" | "chord";
  /** The session's command runner: post-edit checks run through it, as the model's commands do. */
  jobs?: JobManager;
  /** The session's events: a post-edit check with on_fail = "warn" emits a notice. */
  emit?: Emit;
}

export function createGuards(config: Config, opts: GuardOptions = {}): Guard[] {
  const services = opts.services ?? nodeServices(commandEnv(process.env, policyFromConfig(config)));
  const fs = opts.fs ?? services.fs;
  const guards: Guard[] = [];
  if (config.loop.plan_mode === "required") {
    guards.push(createPlanModeGuard({ fs, maxTurns: config.loop.plan_max_turns, accepted: opts.planAccepted ?? false, ...(opts.emit ? { emit: opts.emit } : {}) }));
  }
  if (config.loop.done_guard_enabled) {
    guards.push(
      createDoneGuard({
        fs,
        requireMutation: config.loop.done_require_mutation,
        requireVerify: config.loop.done_require_verify,
      }),
    );
  }
  const yuj = (opts.surface ?? "yuj") === "yuj";
  const fmt = config.formatter;
  if (yuj && fmt.command.length > 0 && fmt.extensions.length > 0) {
    guards.push(
      createFormatterGuard({ fs, services, command: fmt.command, extensions: fmt.extensions, timeoutS: fmt.timeout_s }),
    );
  }
  const pec = config.post_edit_check;
  if (pec.enabled && pec.checks.length > 0) {
    guards.push(createPostEditCheckGuard({ fs, jobs: opts.jobs, emit: opts.emit, checks: pec.checks, timeoutS: pec.timeout }));
  }
  if (config.lsp.enabled && opts.lsp) {
    guards.push(createLspDiagnosticsGuard({ fs, lsp: opts.lsp, severity: config.lsp.severity, timeoutS: config.lsp.timeout_s }));
  }
  if (yuj && config.tools.stale_file !== "off") guards.push(createStaleFileGuard({ fs, mode: config.tools.stale_file }));
  return guards;
}

export { doneText } from "./done-guard.js";
export { createFormatterGuard } from "./formatter.js";
export { planText } from "./plan-mode.js";
export { createStaleFileGuard } from "./stale-file.js";
