// Reading one key out of a git config file's text, without running git
// (the sandbox decides its mounts before every command, and starting git
// there would cost a process each time). Covers what git writes and people
// type: `[section]` headers (names case-insensitive), `key = value` lines,
// a bare `key` meaning true, double quotes, backslash escapes, and `#`/`;`
// comments. Includes are not followed. The last value wins, as in git.

/** The last value of `section.key` (no subsection), or undefined when unset. */
export function gitConfigValue(text: string, section: string, key: string): string | undefined {
  let current = "";
  let value: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\](.*)$/.exec(line);
    if (header) {
      current = header[2] ? "" : header[1]!.toLowerCase();
      line = header[3]!.trim(); // git allows `[core] key = value` on one line
      if (!line) continue;
    }
    if (current !== section.toLowerCase()) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(=\s*(.*))?$/.exec(line);
    if (!m || m[1]!.toLowerCase() !== key.toLowerCase()) continue;
    value = m[2] === undefined ? "true" : unquote(m[3] ?? "");
  }
  return value;
}

function unquote(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\\" && i + 1 < raw.length) {
      const n = raw[++i]!;
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return quoted ? out : out.trim();
}
