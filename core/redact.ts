// Secrets never reach the model through a tool: a command that prints the
// environment, or a file that holds a key, comes back with the values of
// secret-looking variables (and the provider key) replaced.

import type { Env } from "./paths.js";

export const SECRET_MARK = "[REDACTED]";
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;
/** Shorter values are too likely to be ordinary words or numbers. */
const MIN_SECRET_CHARS = 8;

/** The values to hide: secret-named variables of `env` and the extra ones given. */
export function secretValues(env: Env, extra: readonly string[] = []): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_CHARS && SECRET_NAME.test(name)) values.add(value);
  }
  for (const v of extra) if (v.length >= MIN_SECRET_CHARS) values.add(v);
  // Longest first, so a secret that contains another is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}

export function createRedact(secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join(SECRET_MARK);
    return out;
  };
}
