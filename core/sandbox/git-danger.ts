// The git config keys through which a repository's config makes git run a
// program (or read config from elsewhere): what a sandboxed command must not
// leave in a repository the user's own git will use on the host. Keys are as
// `git config --list` prints them: section and name lowercased, the
// subsection (the middle part) as written.
//
// Some keys only matter with a value of a given shape: an alias runs a
// program only when it starts with `!`, a submodule's update mode only when
// it is `!command`. Everything else here is dangerous whatever its value: an
// include names another file to read config from; a URL rewrite or protocol
// setting can send a fetch to `ext::` (a command); the rest name programs.

/** Keys matched whole. */
const EXACT = new Set([
  "core.fsmonitor",
  "core.hookspath",
  "core.pager",
  "core.sshcommand",
  "core.editor",
  "core.askpass",
  "core.gitproxy",
  "core.alternaterefscommand",
  "core.worktree",
  "sequence.editor",
  "diff.external",
  "diff.tool",
  "diff.guitool",
  "merge.tool",
  "merge.guitool",
  "credential.helper",
  "gpg.program",
  "interactive.difffilter",
  "include.path",
  "protocol.allow",
  "web.browser",
  "help.browser",
  "uploadpack.packobjectshook",
  "sendemail.smtpserver",
  "sendemail.tocmd",
  "sendemail.cccmd",
  "sendemail.headercmd",
  "instaweb.httpd",
]);

/** `section.<subsection>.name` keys, as [section, name]; any subsection. */
const BY_NAME: ReadonlyArray<readonly [string, string]> = [
  ["diff", "command"],
  ["diff", "textconv"],
  ["merge", "driver"],
  ["credential", "helper"],
  ["gpg", "program"],
  ["gpg", "defaultkeycommand"],
  ["remote", "uploadpack"],
  ["remote", "receivepack"],
  ["remote", "vcs"],
  ["protocol", "allow"],
  ["url", "insteadof"],
  ["url", "pushinsteadof"],
  ["includeif", "path"],
  ["hook", "command"],
  ["difftool", "cmd"],
  ["difftool", "path"],
  ["mergetool", "cmd"],
  ["mergetool", "path"],
  ["browser", "cmd"],
  ["browser", "path"],
  ["man", "cmd"],
  ["man", "path"],
  ["trailer", "command"],
  ["trailer", "cmd"],
];

/** Sections every key of which names a program or a place git reads config from. */
const WHOLE_SECTIONS = new Set(["filter", "pager"]);

/** Whether `key = value` (value null for a bare key) in a repository's config can make git run a program. */
export function isDangerousGitKey(key: string, value: string | null): boolean {
  const lower = key.toLowerCase();
  if (EXACT.has(lower)) return true;
  const first = lower.indexOf(".");
  const last = lower.lastIndexOf(".");
  if (first < 0) return false;
  const section = lower.slice(0, first);
  const name = lower.slice(last + 1);
  if (WHOLE_SECTIONS.has(section)) return true;
  if (section === "alias") return (value ?? "").trimStart().startsWith("!");
  if (section === "submodule" && name === "update") return (value ?? "").trimStart().startsWith("!");
  if (last === first) return false;
  return BY_NAME.some(([s, n]) => s === section && n === name);
}
