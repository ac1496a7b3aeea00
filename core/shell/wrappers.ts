// Commands that run the rest of their arguments as another command
// (`sudo rm x`, `timeout 5 rm x`, `env -i rm x`), with the options each one
// takes, so the command behind them can be found. Only the options that
// take a separate value need listing: every other `-x` is skipped alone.

import type { Word } from "./types.js";

export interface WrapperSpec {
  /** Options whose value is the next word (`-u root`); `--name=value` and `-uroot` are recognised by themselves. */
  valued?: readonly string[];
  /** Words between the options and the command (timeout's duration, chroot's new root). */
  positionals?: number;
  /** Options after which no command follows (`command -v x` only looks x up). */
  noCommand?: readonly string[];
}

export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ["sudo", { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--chroot", "--close-from"], noCommand: ["-l", "-v", "-k", "-K", "-e", "--list", "--validate", "--edit"] }],
  ["doas", { valued: ["-u", "-C"] }],
  ["nice", { valued: ["-n", "--adjustment"] }],
  ["ionice", { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata", "--pid", "--pgid", "--uid"], noCommand: ["-p", "-P", "-u", "--pid", "--pgid", "--uid"] }],
  ["timeout", { valued: ["-s", "-k", "--signal", "--kill-after"], positionals: 1 }],
  ["stdbuf", { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] }],
  ["setsid", {}],
  ["nohup", {}],
  ["exec", { valued: ["-a"] }],
  ["time", { valued: ["-f", "-o", "--format", "--output"] }],
  ["chroot", { valued: ["--userspec", "--groups"], positionals: 1 }],
  ["taskset", { positionals: 1, noCommand: ["-p", "--pid"] }],
  ["chrt", { valued: ["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"], positionals: 1, noCommand: ["-p", "--pid", "-m", "--max"] }],
  ["nsenter", { valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "-w"] }],
  ["unshare", { valued: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"] }],
  ["setpriv", {}],
  ["prlimit", { noCommand: ["-p", "--pid"] }],
  ["numactl", { valued: ["-C", "-N", "-m", "-i", "-p", "--physcpubind", "--cpunodebind", "--membind", "--interleave", "--preferred"] }],
  ["strace", { valued: ["-e", "-o", "-p", "-s", "-u", "-E", "-P", "-S", "-X", "-a", "-b", "-I", "-O"], noCommand: ["-p"] }],
  ["ltrace", { valued: ["-e", "-o", "-p", "-s", "-u", "-a", "-n", "-A", "-D", "-F", "-l", "-w"], noCommand: ["-p"] }],
  ["fakeroot", { valued: ["-l", "-s", "-i", "--lib", "--faked"] }],
  ["unbuffer", {}],
  ["catchsegv", {}],
  ["firejail", {}],
  ["coproc", {}],
  ["command", { noCommand: ["-v", "-V"] }],
  ["builtin", {}],
]);

/** Where the command starts after a wrapper at `words[0]`, or undefined when none follows. */
export function afterWrapper(words: readonly Word[], spec: WrapperSpec): number | undefined {
  const valued = new Set(spec.valued ?? []);
  const none = new Set(spec.noCommand ?? []);
  let i = 1;
  while (i < words.length) {
    const v = words[i]!.value;
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    const name = v.startsWith("--") ? v.split("=")[0]! : v;
    // Exact names only: reading `-ulevel` as containing `-l` would hide the command.
    if (none.has(name)) return undefined;
    if (v.startsWith("--")) i += valued.has(name) && !v.includes("=") ? 2 : 1;
    else i += valued.has(v) ? 2 : 1;
  }
  i += spec.positionals ?? 0;
  return i < words.length ? i : undefined;
}

/** env: options, `NAME=value` words, and `-S STRING`, which is split into the command itself. */
export function afterEnv(words: readonly Word[]): { at: number } | { split: Word; rest: number } | undefined {
  let i = 1;
  while (i < words.length) {
    const w = words[i]!;
    const v = w.value;
    if (v === "--") return i + 1 < words.length ? { at: i + 1 } : undefined;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) i++;
    else if (v === "-S" || v === "--split-string") return words[i + 1] ? { split: words[i + 1]!, rest: i + 2 } : undefined;
    else if (v.startsWith("--split-string=")) return { split: { ...w, value: v.slice(15), raw: w.raw.replace(/^--split-string=/, "") }, rest: i + 1 };
    else if (/^-[^-]*S/.test(v)) {
      const inline = v.slice(v.indexOf("S") + 1);
      if (inline) return { split: { ...w, value: inline, raw: w.raw.slice(w.raw.indexOf("S") + 1) }, rest: i + 1 };
      return words[i + 1] ? { split: words[i + 1]!, rest: i + 2 } : undefined;
    } else if (v === "-u" || v === "--unset" || v === "-C" || v === "--chdir" || v === "-P") i += 2;
    else if (v.startsWith("-") && v !== "-") i++;
    else break;
  }
  return i < words.length ? { at: i } : undefined;
}
