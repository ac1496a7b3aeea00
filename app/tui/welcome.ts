// The first card of a fresh session: what yuj runs on (model, provider,
// profile, how commands are confined) and where to begin. It is in the first
// frame, so it states the sandbox mode as configured rather than probing
// bubblewrap (a probe starts a sandbox, which would hold up the first frame);
// in auto mode the first command says so when bubblewrap cannot be used.

export interface WelcomeFacts {
  version: string;
  model: string;
  provider: string;
  profile: { name: string };
  sandboxMode: string;
}

const SANDBOX_WORDS: Record<string, string> = {
  on: "sandbox on: commands run in bubblewrap, or not at all",
  auto: "sandbox auto: commands run in bubblewrap where it works (a notice says when it does not)",
  off: "sandbox off: commands run unconfined",
};

export function welcomeText(f: WelcomeFacts): string {
  return [
    `Welcome to yuj ${f.version}: model ${f.model} (${f.provider}) · profile ${f.profile.name} · ${SANDBOX_WORDS[f.sandboxMode] ?? `sandbox ${f.sandboxMode}`}.`,
    "Esc then ? for the keys · / for the commands · @path to attach a file to your message.",
  ].join("\n");
}
