// Post-edit checks: after a successful call that changed a file, each
// configured check whose trigger and `when` (a glob, or the reference's
// expression over path and ext) fit runs on that file, as a
// command of the session (its sandbox, its filtered environment, its secret
// scrubbing of output, its process-group deadline). A failing check (non-zero
// exit, or its timeout) then does what its `on_fail` says:
//   append  the check's output is added to the tool's result;
//   warn    the same, and a notice event for the person watching;
//   block   the call's changes are undone (the exact previous bytes come
//           back, a file the call created is removed) and the call fails.
//
// Which change is which comes from the call's touches, never from its tool's
// name: a file the call "writes" whole is a write; one it "updates" or
// "creates" as part of an edit (a patch's added file, a notebook cell, a
// structural rewrite) is an edit. Deleted files have nothing to check.
//
// The previous bytes are taken in before(), which runs after every earlier
// guard has let the call through; a call refused later (by the permission
// gate) leaves its snapshot behind until its after() drops it.

import * as path from "node:path";
import { minimatch } from "minimatch";
import type { Guard, GuardCall } from "../../core/guards/types.js";
import type { FileSystem } from "../../core/services.js";
import type { Emit } from "../../core/events.js";
import type { JobManager } from "../../core/jobs/types.js";
import type { ToolResult } from "../../core/tool-types.js";
import { atomicWrite } from "../../core/atomic-write.js";
import { appendNote } from "../../core/display-text.js";
import { resolveInCwd } from "../lib/paths.js";
import { whenMatches } from "../../core/when-predicate.js";

interface PostEditCheck {
  name: string;
  trigger: "edit" | "write" | "edit|write" | "both";
  when: string;
  cmd: string;
  on_fail: "append" | "warn" | "block";
  timeout?: number | undefined;
}

export interface PostEditCheckOptions {
  fs: FileSystem;
  /** The session's command runner; without one no check can run, and the guard says so once. */
  jobs: JobManager | undefined;
  emit: Emit | undefined;
  checks: readonly PostEditCheck[];
  /** Seconds, for checks without their own. */
  timeoutS: number;
}

type Kind = "edit" | "write";

interface Target {
  abs: string;
  /** Relative to the project when inside it; what `when` matches and `{path}` becomes. */
  rel: string;
  kind: Kind;
}

/** The bytes a file had before the call, or null when it did not exist. */
type Before = Map<string, Uint8Array | null>;

/** Kept of a failing check's output, for the result and the error. */
const OUTPUT_BUDGET = 4000;

export function createPostEditCheckGuard(opts: PostEditCheckOptions): Guard {
  const { fs } = opts;
  const snapshots = new Map<string, Before>();
  let missingRunnerSaid = false;

  const changedTargets = async (call: GuardCall, cwd: string): Promise<Target[]> => {
    const out: Target[] = [];
    for (const t of call.touches) {
      if (t.as === "reads" || t.as === "deletes" || t.move === "from") continue;
      const where = await resolveInCwd(fs, cwd, t.path);
      if (!where.ok || out.some((o) => o.abs === where.abs)) continue;
      const rel = path.relative(cwd, where.abs);
      out.push({ abs: where.abs, rel: rel.startsWith("..") || path.isAbsolute(rel) ? where.abs : rel, kind: t.as === "writes" ? "write" : "edit" });
    }
    return out;
  };

  const runCheck = async (check: PostEditCheck, t: Target, cwd: string, signal: AbortSignal | undefined) => {
    const jobs = opts.jobs!;
    const timeoutS = check.timeout ?? opts.timeoutS;
    const command = check.cmd.replaceAll("{path}", shellQuote(t.rel));
    const job = jobs.start({ command, cwd, background: false, deadlineMs: timeoutS * 1000, label: `post-edit check ${check.name}` });
    // The deadline kills the group; the extra second lets its end be seen.
    await jobs.wait(job.id, "exit", timeoutS * 1000 + 1000, signal);
    const read = await jobs.readNew(job.id, OUTPUT_BUDGET);
    const snap = read.snapshot;
    const timedOut = snap.status === "timed_out";
    if (snap.status === "running" || snap.status === "stopping") await jobs.kill(job.id, "post-edit check cancelled");
    const passed = !timedOut && snap.status === "exited" && snap.exitCode === 0;
    const why = timedOut
      ? `timed out after ${timeoutS} s`
      : snap.exitCode !== null
        ? `exit code ${snap.exitCode}`
        : snap.signal
          ? `killed by ${snap.signal}`
          : `ended ${snap.status}`;
    return { passed, why, output: read.text.trimEnd() };
  };

  return {
    name: "post-edit-check",

    async before(call, ctx) {
      if (!call.effects.has("mutate")) return undefined;
      const before: Before = new Map();
      for (const t of await changedTargets(call, ctx.cwd)) {
        before.set(t.abs, await fs.readFile(t.abs).then((b) => new Uint8Array(b), () => null));
      }
      if (before.size > 0) snapshots.set(call.callId, before);
      return undefined;
    },

    async after(call, result, ctx): Promise<ToolResult> {
      const before = snapshots.get(call.callId);
      snapshots.delete(call.callId);
      if (!result.ok || !call.effects.has("mutate")) return result;
      const reports: string[] = [];
      for (const t of await changedTargets(call, ctx.cwd)) {
        if (!(await isFile(fs, t.abs))) continue;
        // A call that left the file's bytes as they were (a notebook cell set to its own
        // source) changed nothing to check, and a block would claim to undo a change never made.
        if (await unchanged(fs, t.abs, before)) continue;
        for (const check of opts.checks) {
          if (!fits(check, t)) continue;
          if (!opts.jobs) {
            if (!missingRunnerSaid) opts.emit?.({ type: "notice", level: "warning", text: "post-edit checks skipped: commands are not available in this session" });
            missingRunnerSaid = true;
            return result;
          }
          const r = await runCheck(check, t, ctx.cwd, ctx.signal);
          if (r.passed) continue;
          const head = `post-edit check '${check.name}' failed for ${t.rel} (${r.why})`;
          if (check.on_fail === "warn" || check.on_fail === "append") {
            // warn is append plus a notice for the person: the model must see
            // a failing check either way, or it keeps building on a broken file.
            if (check.on_fail === "warn") opts.emit?.({ type: "notice", level: "warning", text: r.output ? `${head}:\n${r.output}` : head });
            reports.push(`[post-edit check] ${head}${r.output ? `:\n${r.output}` : ""}`);
          } else {
            const undone = await restore(fs, before);
            const text = `ERROR: ${blockedVerb(call.tool, t.kind)} blocked by post-edit check '${check.name}' for ${t.rel}: ${r.why}${r.output ? `\n${r.output}` : ""}\n${undone}`;
            return { ok: false, modelText: text };
          }
        }
      }
      if (reports.length === 0) return result;
      const report = reports.join("\n\n");
      const display = appendNote(result.display, `\n${report}`);
      return { ...result, modelText: `${result.modelText}\n\n${report}`, ...(display ? { display } : {}) };
    },
  };
}

/** Whether the file's bytes equal those recorded before the call (false when none were). */
async function unchanged(fs: FileSystem, abs: string, before: Before | undefined): Promise<boolean> {
  const prior = before?.get(abs);
  if (!prior) return false;
  const now = await fs.readFile(abs).catch(() => null);
  return now !== null && Buffer.compare(Buffer.from(now), Buffer.from(prior)) === 0;
}

/** The reference's word for what a block undid: a whole-file write, a notebook edit, else an edit. */
function blockedVerb(tool: string, kind: Kind): string {
  if (kind === "write") return "write";
  return tool === "notebook_edit" ? "notebook edit" : "edit";
}

async function isFile(fs: FileSystem, abs: string): Promise<boolean> {
  return fs.stat(abs).then((st) => st.isFile(), () => false);
}

function fits(check: PostEditCheck, t: Target): boolean {
  const triggers = check.trigger === "both" || check.trigger === "edit|write" ? ["edit", "write"] : [check.trigger];
  if (!triggers.includes(t.kind)) return false;
  return whenMatches(check.when, t.rel, (rel, glob) => minimatch(rel, glob, { dot: true, matchBase: !glob.includes("/") }));
}

/** A single-quoted shell word: the path reaches the check as one argument, whatever it holds. */
function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/** Puts every file the call changed back as it was; one line saying what was done. */
async function restore(fs: FileSystem, before: Before | undefined): Promise<string> {
  if (!before || before.size === 0) return "The change could not be undone: its previous contents were not recorded.";
  const failed: string[] = [];
  for (const [abs, bytes] of before) {
    try {
      if (bytes === null) await fs.rm(abs, { force: true });
      else await atomicWrite(fs, abs, bytes);
    } catch (err) {
      failed.push(`${abs}: ${(err as Error).message}`);
    }
  }
  if (failed.length > 0) return `The change was only partly undone; not restored: ${failed.join("; ")}`;
  return "The change was undone: the file is as it was before this call.";
}
