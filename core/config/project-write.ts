// yuj itself writing the project's config (an approval stored "always, for
// this project"). The user asked for that change, so a file that was
// trusted (or needed no trust) before the write stays trusted after it; a
// file that was untrusted stays untrusted, and the change with it, since
// trusting it now would also trust whatever made it untrusted.

import { homeDir, projectConfigPath, type Env } from "../paths.js";
import { loadConfig, writeConfigFile } from "./load.js";
import { projectKey, recordTrust, trustStorePath } from "./trust-store.js";

type Table = Record<string, unknown>;

export interface ProjectWrite {
  file: string;
  /** False when the file was untrusted before: the change waits for `yuj trust` like the rest. */
  trusted: boolean;
}

export function updateProjectConfig(cwd: string, env: Env, change: (current: Table) => Table): ProjectWrite {
  const home = homeDir(env);
  const file = projectConfigPath(cwd);
  const judged = loadConfig({ cwd, env, home }).project;
  const written = writeConfigFile(file, change);
  // The judgement holds for the content it read: the write must have started from the same bytes.
  const sameStart = written.before?.sha256 === judged?.sha256;
  const wasTrusted = judged === undefined || judged.status === "trusted" || judged.status === "not-needed";
  if (!sameStart || !wasTrusted) return { file, trusted: false };
  recordTrust(trustStorePath(env, home), judged?.project ?? projectKey(cwd), { file, sha256: written.sha256 });
  return { file, trusted: true };
}
