// A run whose project config was not trusted says so once: which settings
// were left out and the command that trusts the file. The event goes to the
// trace (and the JSONL stream, and the TUI's transcript as a NOTICE card).

import { ignoredBy, ignoredNotice, type ProjectTrust } from "../core/config/project-trust.js";
import type { Emit } from "../core/events.js";
import type { Resolved } from "./session.js";

/** Emits the notice when settings were left out; returns its text (undefined when nothing was). */
export function announceUntrusted(resolved: Resolved, emit: Emit): string | undefined {
  const trust = resolved.projectTrust;
  if (!trust || ignoredBy(trust).length === 0) return undefined;
  const text = ignoredNotice(trust);
  const ignored = ignoredBy(trust).map((l) => l.key);
  emit({ type: "config_untrusted", file: trust.file, project: trust.project, ignored, text });
  return text;
}

/** `yuj doctor`'s line about the project config's trust. */
export function trustLine(trust: ProjectTrust | undefined): { status: "ok" | "warn"; detail: string } {
  if (!trust) return { status: "ok", detail: "no project config (.yuj/config.toml) here" };
  const keys = trust.loosening.map((l) => l.key).join(", ");
  switch (trust.status) {
    case "not-needed":
      return { status: "ok", detail: `${trust.file} loosens nothing; it needs no trust` };
    case "trusted":
      return { status: "ok", detail: `${trust.file} trusted (since ${trust.trustedAt}); in effect: ${keys}` };
    case "untrusted":
    case "changed": {
      const why = trust.status === "changed" ? `changed since you trusted it (${trust.trustedAt})` : "not trusted";
      return { status: "warn", detail: `${trust.file} ${why}; ignored: ${keys}; see yuj trust --show, then yuj trust` };
    }
  }
}
