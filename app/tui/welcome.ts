// The first card of a fresh session: what yuj runs on (model, provider,
// profile, whether commands are sandboxed) and where to begin.

interface SandboxState {
  readonly mode: string;
  readonly active: boolean;
  readonly unavailable: string | undefined;
}

export interface WelcomeFacts {
  version: string;
  model: string;
  provider: string;
  profile: { name: string };
  sandbox: SandboxState;
}

/** How commands run, in a few words. */
function sandboxState(s: SandboxState): string {
  if (s.unavailable) return "sandbox required but unavailable: commands will not run";
  if (s.active) return "commands run in the sandbox (bubblewrap)";
  return s.mode === "off" ? "sandbox off: commands run unconfined" : "sandbox unavailable here: commands run unconfined";
}

export function welcomeText(f: WelcomeFacts): string {
  return [
    `Welcome to yuj ${f.version}: model ${f.model} (${f.provider}) · profile ${f.profile.name} · ${sandboxState(f.sandbox)}.`,
    "Esc then ? for the keys · / for the commands · @path to attach a file to your message.",
  ].join("\n");
}
