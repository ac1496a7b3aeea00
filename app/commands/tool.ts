// `yuj tool NAME 'JSON-ARGS'`: one call through the same dispatcher the loop
// uses (validation, permissions, output bounding), without a model. Prints
// the model-visible result. Exit 0 on success, 1 on a tool error, 2 on misuse.
// JSON-ARGS `-` reads the arguments from stdin: a command-line word is
// limited to 128 KiB, which a large patch or file content can pass.

import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { prepareCall, reportResults, runPrepared } from "../../core/dispatch.js";
import { announceSession, openSession, resolveSession } from "../session.js";
import { createRedact, secretValues } from "../../core/redact.js";
import { safeText } from "../../core/text/safe.js";
import { createPermissionGate } from "../../core/permissions/gate.js";
import { sessionRulesFor, surfaceOf } from "../permission-setup.js";
import { createGuards } from "../../tools/guards/index.js";
import { announceUntrusted } from "../trust-notice.js";

export async function toolCommand(args: ParsedArgs, version: string): Promise<number> {
  const [name, json, ...rest] = args.positionals;
  if (!name) throw new UsageError(`yuj tool needs a tool name: yuj tool read '{"path":"README.md"}'`);
  if (rest.length) throw new UsageError(`yuj tool takes NAME and one JSON argument; quote the JSON as one shell word`);
  const cwd = process.cwd();
  const resolved = resolveSession({ args, cwd, env: process.env, topLevel: true });
  if (!resolved.toolset.tools.has(name)) {
    const names = [...resolved.toolset.tools.keys()].join(", ");
    throw new UsageError(`unknown tool "${name}" in profile ${resolved.toolset.profile.name}; available: ${names}`);
  }

  const secrets = secretValues(process.env);
  const session = await openSession(
    process.env,
    secrets,
    (e) => {
      if (e.type === "jobs_orphans_found") {
        process.stderr.write(`yuj: ended ${e.count} process group(s) or process(es) left by an earlier yuj that was killed: ${safeText(e.detail.join("; "))}\n`);
      }
      if (e.type === "config_untrusted") process.stderr.write(`yuj: ${safeText(e.text)}\n`);
    },
    resolved,
    ["SIGTERM", "SIGHUP"],
    { fresh: true },
  );
  try {
    await announceSession(session, { cwd, toolset: resolved.toolset, provider: "none", model: "none", version });
    announceUntrusted(resolved, session.emit);
    const call = { id: "cli_1", name, args: json === "-" ? await readStdin() : (json ?? "{}") };
    session.emit({ type: "tool_call_finished", callId: call.id, name, args: call.args });
    const controller = new AbortController();
    const onSigint = () => controller.abort(new Error("cancelled by the user"));
    process.once("SIGINT", onSigint);
    const outcome = await runPrepared(prepareCall(call, resolved.toolset, resolved.config), {
      toolset: resolved.toolset,
      config: resolved.config,
      services: resolved.services,
      emit: session.emit,
      cwd,
      sessionDir: session.dir,
      memory: session.memory,
      signal: controller.signal,
      session: { jobs: session.services.jobs, terminals: session.services.terminals, lsp: session.services.lsp, cellRunner: session.services.cells },
      redact: createRedact(secrets),
      guards: createGuards(resolved.config, { services: resolved.services, surface: surfaceOf(resolved), lsp: session.services.lsp, jobs: session.services.jobs, emit: session.emit }),
      gate: createPermissionGate({
        cwd,
        rules: sessionRulesFor(resolved),
        sessionRules: [],
        policy: { surface: surfaceOf(resolved), yolo: resolved.config.permissions.yolo || args.yolo === true, measurement: false, tools: resolved.toolset.catalog },
        // One call from the command line has nobody to ask.
        approver: {
          ask: async () => ({
            decision: "reject_with_message",
            message: "yuj tool cannot ask for approval; allow the call with a [[permissions.rules]] entry or --yolo",
          }),
        },
        emit: session.emit,
      }),
    });
    process.off("SIGINT", onSigint);
    // No conversation to save: the result is reported at once.
    reportResults([outcome], session.emit);
    // The result exactly, for a script or a file; on a terminal, made safe to show.
    const text = process.stdout.isTTY ? safeText(outcome.modelText) : outcome.modelText;
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    return outcome.ok ? 0 : 1;
  } finally {
    await session.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
