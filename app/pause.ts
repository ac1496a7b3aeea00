// A run paused on an approval or a question: what to tell the user, and the
// settings the session is resumed with. The summary, reason, detail and
// question come from the model's call: made safe (core/text/safe.ts) before
// they reach the terminal, so what is approved is what is read.

import { isAbsolute, resolve } from "node:path";
import type { ApprovalRequest } from "../core/approvals/types.js";
import type { StoredSettings } from "../core/session-state.js";
import { oneLine, safeText } from "../core/text/safe.js";
import type { ParsedArgs } from "./args.js";

export function pauseHelp(sessionId: string, request: ApprovalRequest): string {
  const lines = [
    `yuj: approval required (session ${sessionId}): ${oneLine(request.summary)}`,
    `  why: ${oneLine(request.reason)}`,
    ...(request.detail ? safeText(request.detail).split("\n").slice(0, 20).map((l) => `  | ${l}`) : []),
    "  answer with one of:",
    "    yuj approve                 allow this call once",
    "    yuj approve --always        allow it and store the rule for this session (--scope project: in ./.yuj/config.toml)",
    '    yuj reject [--message "…"]  refuse it (the message goes back to the model)',
    "  then continue with: yuj resume",
  ];
  return `${lines.join("\n")}\n`;
}

export function questionHelp(sessionId: string, question: string): string {
  const lines = [
    `yuj: input required (session ${sessionId}): the model asks:`,
    ...safeText(question).split("\n").map((l) => `  | ${l}`),
    "  answer with (the run then continues):",
    `    yuj answer ${sessionId} "…"`,
    `  show it again with: yuj status ${sessionId}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** The flags a resumed session must be resolved with again. */
export function storedSettings(args: ParsedArgs, cwd: string): StoredSettings {
  const s: StoredSettings = { configFiles: args.configFiles.map((f) => (isAbsolute(f) ? f : resolve(cwd, f))) };
  if (args.profile) s.profile = args.profile;
  if (args.provider) s.provider = args.provider;
  if (args.model) s.model = args.model;
  if (args.baseUrl) s.baseUrl = args.baseUrl;
  if (args.apiKeyEnv) s.apiKeyEnv = args.apiKeyEnv;
  if (args.editFormat) s.editFormat = args.editFormat;
  if (args.maxTurns) s.maxTurns = args.maxTurns;
  if (args.planMode) s.planMode = args.planMode;
  if (args.yolo) s.yolo = true;
  if (args.measure) s.measure = true;
  if (args.toolDesc) s.toolDesc = args.toolDesc;
  return s;
}

/** Parsed arguments equal to the stored settings, for `yuj resume`. */
export function argsFromSettings(s: StoredSettings, base: ParsedArgs): ParsedArgs {
  const args: ParsedArgs = { ...base, command: "code", positionals: [], configFiles: s.configFiles };
  if (s.profile) args.profile = s.profile;
  if (s.provider) args.provider = s.provider as ParsedArgs["provider"];
  if (s.model) args.model = s.model;
  if (s.baseUrl) args.baseUrl = s.baseUrl;
  if (s.apiKeyEnv) args.apiKeyEnv = s.apiKeyEnv;
  if (s.editFormat) args.editFormat = s.editFormat as ParsedArgs["editFormat"];
  if (s.maxTurns) args.maxTurns = s.maxTurns;
  if (s.planMode === "off" || s.planMode === "required") args.planMode = s.planMode;
  if (s.yolo) args.yolo = true;
  if (s.measure) args.measure = true;
  if (s.toolDesc === "minimal") args.toolDesc = s.toolDesc;
  return args;
}
