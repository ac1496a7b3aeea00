// The trust rule for the project's config file: its loosening settings
// (loosening.ts) apply only when the user trusts the file with exactly this
// content; otherwise they are dropped from the project's layer, and every
// other project setting (max_turns, edit_format, …) still applies.

import { findLoosening, withoutLoosening, type Loosening } from "./loosening.js";
import type { TrustStore } from "./trust-store.js";

type Table = Record<string, unknown>;

/**
 * not-needed: nothing in the file loosens anything; trusted: the trusted
 * hash is this file's; untrusted: never trusted; changed: trusted once, with
 * other content.
 */
type TrustStatus = "not-needed" | "trusted" | "untrusted" | "changed";

export interface ProjectTrust {
  file: string;
  /** The project directory's real path: the trust key. */
  project: string;
  sha256: string;
  /** Everything in the file that loosens the layers below it. */
  loosening: Loosening[];
  status: TrustStatus;
  /** When the recorded trust (this content's or an earlier one's) was given. */
  trustedAt?: string;
}

export interface ProjectLayer {
  file: string;
  project: string;
  data: Table;
  sha256: string;
}

/** The project's layer as it takes effect, and the report of how it was judged. */
export function judgeProjectLayer(layer: ProjectLayer, below: Table, store: () => TrustStore): { data: Table; trust: ProjectTrust } {
  const loosening = findLoosening(layer.data, below);
  // The store is read only when there is something to trust.
  const recorded = loosening.length ? store()[layer.project] : undefined;
  const status: TrustStatus =
    loosening.length === 0 ? "not-needed" : recorded?.sha256 === layer.sha256 ? "trusted" : recorded ? "changed" : "untrusted";
  const trust: ProjectTrust = {
    file: layer.file,
    project: layer.project,
    sha256: layer.sha256,
    loosening,
    status,
    ...(recorded ? { trustedAt: recorded.trusted_at } : {}),
  };
  return { data: ignoredBy(trust).length ? withoutLoosening(layer.data, loosening) : layer.data, trust };
}

/** The settings yuj leaves out of this project's layer. */
export function ignoredBy(trust: ProjectTrust | undefined): Loosening[] {
  return trust && (trust.status === "untrusted" || trust.status === "changed") ? trust.loosening : [];
}

/** What a run left out of the project's config, and why, in one sentence. */
export function ignoredSummary(trust: ProjectTrust): string {
  const keys = ignoredBy(trust).map((l) => l.key).join(", ");
  const why = trust.status === "changed" ? "changed since you trusted it" : "not trusted";
  return `the project config ${trust.file} is ${why}, so these settings in it are ignored: ${keys}`;
}

/** The one-line notice for a run that ignored settings: what, why, and the command that changes it. */
export function ignoredNotice(trust: ProjectTrust): string {
  return (
    `${ignoredSummary(trust)}. ` +
    `Read the file, then run \`yuj trust\` in ${trust.project} to use them (\`yuj trust --show\` lists what they do).`
  );
}
