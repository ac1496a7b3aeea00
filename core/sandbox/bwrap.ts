// The bubblewrap command line for one sandboxed command: the strict profile
// (read-only host, writable project, fresh /tmp, own /proc and /dev, no
// network, own pid/ipc/uts/cgroup namespaces, dies with yuj). Pure: every
// fact about the filesystem arrives already resolved in the plan, so the
// exact argv can be checked in a unit test.
//
// bwrap performs its mount operations in the order given, and a later mount
// covers an earlier one. The order below is therefore part of the contract:
// the project is bound after any hidden ancestor of it (so hiding /home still
// leaves a project in /home/me/p reachable), and hidden paths inside the
// project come after the project bind (so they are not uncovered by it).

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

/** The host's Docker sockets, bound through when present (the spec's profile). */
export const DOCKER_SOCKETS = ["/run/docker.sock", "/var/run/docker.sock"] as const;

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
  /** Existing `.git/hooks` directories: covered by an empty, throwaway tmpfs. */
  gitHooks: readonly string[];
  /** Docker sockets present on the host (real paths). */
  dockerSockets: readonly string[];
  /** `[sandbox].unreadable_paths`, resolved to real paths that exist. */
  hidden: readonly HiddenPath[];
}

/** `child` is `parent` or lies inside it. */
export function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The namespace and base-mount flags every sandbox uses, without anything
 * specific to a project or command. The availability probe runs exactly
 * these, so "bwrap works" means "this profile works".
 */
export function bwrapProfileArgs(opts: { network: boolean }): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    ...(opts.network ? [] : ["--unshare-net"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup",
    // bwrap gets SIGKILL when yuj dies, and with its own pid namespace that
    // ends every process inside: nothing outlives yuj, even a SIGKILLed yuj.
    "--die-with-parent",
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
  const reachable = (p: string) => isWithin(p, project) || !FRESH_MOUNTS.some((m) => isWithin(p, m));
  const hidden = plan.hidden.filter((h) => reachable(h.path));
  const isHidden = (p: string) => hidden.some((h) => isWithin(p, h.path));
  const ancestors = hidden.filter((h) => h.path !== project && isWithin(project, h.path));
  const others = hidden.filter((h) => !ancestors.includes(h));

  const args = bwrapProfileArgs({ network: plan.network });
  for (const h of ancestors) args.push(...hideArgs(h));
  args.push("--bind", project, project);
  // A hook planted by a command would run outside the sandbox at yuj's next
  // git commit; an empty tmpfs lets git work while keeping hooks out.
  for (const hooks of plan.gitHooks) args.push("--tmpfs", hooks);
  for (const sock of plan.dockerSockets) {
    if (!isHidden(sock)) args.push("--bind", sock, sock);
  }
  for (const h of others) args.push(...hideArgs(h));
  args.push("--chdir", plan.cwd, "--", ...argv);
  return args;
}
