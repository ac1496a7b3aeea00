// The bubblewrap command line for one sandboxed command: the strict profile
// (read-only host, writable project, fresh /tmp, own /proc and /dev, no
// network, own pid/ipc/uts/cgroup namespaces, no capabilities, a seccomp
// filter, dies with yuj), the host's socket directories covered, and the
// project's `.yuj/` and git config read-only. Pure: every fact about the
// filesystem arrives already resolved in the plan, so the exact argv can be
// checked in a unit test.
//
// bwrap performs its mount operations in the order given, and a later mount
// covers an earlier one. The order below is therefore part of the contract:
// the project is bound after any hidden ancestor of it (so hiding /home still
// leaves a project in /home/me/p reachable), the read-only paths inside the
// project come after the project bind and after the pinned git directories
// (so neither uncovers them), and hidden paths come last.

import * as path from "node:path";

/** What every sandboxed command sees: no pagers, no colour, plain UTF-8 Python. */
export const SANDBOX_ENV: Readonly<Record<string, string>> = {
  PAGER: "cat",
  NO_COLOR: "1",
  TERM: "dumb",
  FORCE_COLOR: "0",
  PYTHONIOENCODING: "utf-8",
  MPLCONFIGDIR: "/tmp/mpl",
};

/** Where the Docker socket lives; passed through only with `[sandbox].docker = true`. */
export const DOCKER_SOCKETS = ["/run/docker.sock", "/var/run/docker.sock"] as const;

/** The file descriptor bwrap reads the seccomp filter from (see seccomp.ts). */
export const SECCOMP_FD = 3;

/** A path to make unreadable: a directory gets an empty tmpfs, anything else /dev/null. */
export interface HiddenPath {
  path: string;
  kind: "dir" | "file";
}

export interface BwrapPlan {
  /** The project directory (real path): the one writable host directory. */
  projectDir: string;
  /** Working directory of the command. */
  cwd: string;
  /** Keep the host network (`[sandbox].network = true`). */
  network: boolean;
  /** Host directories of unix sockets (/run, ...): each gets an empty tmpfs. */
  socketDirs: readonly string[];
  /** Links at the top of those directories, recreated inside the tmpfs. */
  socketDirLinks: readonly { path: string; target: string }[];
  /** Host files inside those directories bound back read-only (resolv.conf). */
  socketDirFiles: readonly string[];
  /** Writable paths in the project bound onto themselves, so they cannot be renamed (a git directory). */
  pinned: readonly string[];
  /** Paths in the project bound read-only (`.yuj/`, git's config and hooks). */
  readOnly: readonly string[];
  /** Docker sockets to pass through: `[host real path, path inside]` (empty unless docker = true). */
  dockerSockets: readonly (readonly [string, string])[];
  /** `[sandbox].unreadable_paths`, resolved to real paths that exist. */
  hidden: readonly HiddenPath[];
  /** The project is bound read-only (language servers): nothing in it is writable, so nothing needs pinning. */
  projectReadOnly?: boolean;
  /** yuj's own installation, bound back read-only when a fresh mount (/tmp) covers it. */
  installDir?: string;
}

/** `child` is `parent` or lies inside it. */
export function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Parts of the sandbox's /proc that act on the whole machine, bound read-only. */
const PROC_READ_ONLY = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"];

/**
 * The namespace, capability and base-mount flags every sandbox uses, without
 * anything specific to a project or command. The availability probe runs
 * exactly these, so "bwrap works" means "this profile works".
 */
export function bwrapProfileArgs(opts: { network: boolean }): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    // uid 0 passes the file checks on these even without capabilities, and
    // some settings check nothing more (vm.swappiness, the sysrq trigger).
    ...PROC_READ_ONLY.flatMap((p) => ["--ro-bind-try", p, p]),
    "--tmpfs", "/tmp",
    ...(opts.network ? [] : ["--unshare-net"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup",
    // bwrap gets SIGKILL when yuj dies, and with its own pid namespace that
    // ends every process inside: nothing outlives yuj, even a SIGKILLed yuj.
    "--die-with-parent",
    // Run as root (CI, containers), bwrap would otherwise hand the command
    // every capability: remounting / writable, unmounting what hides a path.
    // Dropped from the bounding set too, and with no_new_privs (which bwrap
    // always sets) nothing regains them, not even a setuid binary.
    "--cap-drop", "ALL",
    "--seccomp", String(SECCOMP_FD),
  ];
}

// These are replaced wholesale by the profile's fresh mounts, so a host path
// under them is invisible already (unless the project itself lives there).
const FRESH_MOUNTS = ["/tmp", "/proc", "/dev"];

function hideArgs(h: HiddenPath): string[] {
  // No --remount-ro: bwrap would make every mount below read-only too, the
  // project included when it lies inside. A write lands in a throwaway tmpfs.
  return h.kind === "dir" ? ["--tmpfs", h.path] : ["--ro-bind", "/dev/null", h.path];
}

/** The full argv after the bwrap binary: profile, mounts, `--chdir cwd -- argv`. */
export function bwrapArgs(plan: BwrapPlan, argv: readonly string[]): string[] {
  const project = plan.projectDir;
  const fresh = [...FRESH_MOUNTS, ...plan.socketDirs];
  const reachable = (p: string) => isWithin(p, project) || !fresh.some((m) => isWithin(p, m));
  const hidden = plan.hidden.filter((h) => reachable(h.path));
  const isHidden = (p: string) => plan.hidden.some((h) => isWithin(p, h.path));
  const ancestors = hidden.filter((h) => h.path !== project && isWithin(project, h.path));
  const others = hidden.filter((h) => !ancestors.includes(h));

  const args = bwrapProfileArgs({ network: plan.network });
  for (const dir of plan.socketDirs) args.push("--tmpfs", dir);
  for (const link of plan.socketDirLinks) args.push("--symlink", link.target, link.path);
  for (const file of plan.socketDirFiles) args.push("--ro-bind", file, file);
  for (const h of ancestors) args.push(...hideArgs(h));
  const install = plan.installDir;
  if (install && !reachable(install) && !isHidden(install)) args.push("--ro-bind", install, install);
  args.push(plan.projectReadOnly ? "--ro-bind" : "--bind", project, project);
  // Pinned first: binding a directory again would uncover read-only mounts
  // made inside it before.
  if (!plan.projectReadOnly) for (const p of plan.pinned) args.push("--bind", p, p);
  for (const p of plan.readOnly) args.push("--ro-bind", p, p);
  for (const [host, inside] of plan.dockerSockets) {
    if (!isHidden(host) && !isHidden(inside)) args.push("--bind", host, inside);
  }
  for (const h of others) args.push(...hideArgs(h));
  args.push("--chdir", plan.cwd, "--", ...argv);
  return args;
}
