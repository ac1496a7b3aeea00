// `yuj trust [--show|--revoke]`, in a project: trusts its .yuj/config.toml
// as it is now (its sha256 goes to the user's trust store), shows what the
// file loosens and whether that is in effect, or withdraws the trust.

import { homedir } from "node:os";
import { ConfigError } from "../../core/config/errors.js";
import { loadConfig } from "../../core/config/load.js";
import { ignoredBy, type ProjectTrust } from "../../core/config/project-trust.js";
import { projectKey, recordTrust, revokeTrust, trustStorePath } from "../../core/config/trust-store.js";
import type { Loosening } from "../../core/config/loosening.js";
import { projectConfigPath } from "../../core/paths.js";
import { safeText } from "../../core/text/safe.js";
import type { ParsedArgs } from "../args.js";
import { UsageError } from "../args.js";
import { FatalError } from "../errors.js";

export async function trustCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length) throw new UsageError("yuj trust takes no arguments: run it in the project (yuj trust [--show|--revoke])");
  const env = process.env;
  const home = env.HOME ?? homedir();
  const cwd = process.cwd();
  const store = trustStorePath(env, home);
  const file = projectConfigPath(cwd);
  // The project's config is the repository's text, not the user's: made safe to print.
  const say = (lines: string[]) => void process.stdout.write(`${safeText(lines.join("\n"))}\n`);

  if (args.trustAction === "revoke") {
    // Works on a broken or deleted file too: nothing of it needs to load.
    const had = revokeTrust(store, projectKey(cwd));
    say([had ? `Withdrew the trust in ${had.file} (given ${had.trusted_at}): its loosening settings are ignored again.` : `${projectKey(cwd)} is not trusted: nothing to withdraw.`]);
    return 0;
  }

  let trust: ProjectTrust | undefined;
  try {
    trust = loadConfig({ cwd, env, home }).project;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new FatalError(`${err.message}\nyuj trusts only a config file it can load: fix the file, then run yuj trust again`);
  }
  if (!trust) {
    if (args.trustAction === "show") {
      say([`No project config here (${file}): nothing to trust.`]);
      return 0;
    }
    throw new FatalError(`no project config here (${file}): nothing to trust; run yuj trust in the directory that holds .yuj/config.toml`);
  }
  if (args.trustAction === "show") {
    say(showTrust(trust));
    return 0;
  }

  recordTrust(store, trust.project, { file: trust.file, sha256: trust.sha256 });
  const lines = [`Trusted ${trust.file} (sha256 ${trust.sha256.slice(0, 12)}…) for ${trust.project}.`];
  if (trust.loosening.length) lines.push("yuj now uses these settings from it:", ...loosenLines(trust.loosening));
  else lines.push("It loosens nothing, so it applied without trust too.");
  lines.push("Any change to the file makes it untrusted again; yuj trust --revoke withdraws the trust.");
  say(lines);
  return 0;
}

function showTrust(t: ProjectTrust): string[] {
  const state: Record<ProjectTrust["status"], string> = {
    "not-needed": "not needed: the file loosens nothing",
    trusted: `trusted (since ${t.trustedAt})`,
    untrusted: "not trusted",
    changed: `not trusted: the file changed since you trusted it (${t.trustedAt})`,
  };
  const lines = [`project   ${t.project}`, `file      ${t.file}`, `sha256    ${t.sha256}`, `trust     ${state[t.status]}`];
  if (t.loosening.length) {
    const [first, ...rest] = loosenLines(t.loosening);
    lines.push(`loosens   ${first!.trimStart()}`, ...rest.map((l) => `          ${l.trimStart()}`));
    lines.push(ignoredBy(t).length ? "effect    these settings are ignored; run: yuj trust" : "effect    these settings are in effect");
  }
  return lines;
}

/** `  key = value: what it does`, one line each. */
export function loosenLines(list: readonly Loosening[]): string[] {
  return list.map((l) => `  ${l.key} = ${l.value}: ${l.why}`);
}
