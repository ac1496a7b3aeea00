// Where the host keeps its unix sockets, and what to put back once those
// places are covered. A socket on a read-only mount still accepts
// connections (read-only stops writes to files, not connect()), so the
// read-only host view alone leaves the D-Bus system bus, container runtimes,
// the user's session services and the Docker socket reachable. Each
// directory here therefore gets an empty tmpfs, as /tmp does.
//
// Covered: /run, /var/run when it is a directory of its own (usually it is a
// link to /run), and $XDG_RUNTIME_DIR when it lies elsewhere. The host's
// /tmp (and /tmp/.X11-unix in it) is the sandbox's own already.
//
// Put back, because commands need them and they hold no socket: the links at
// the top of a covered directory that do not lead to a socket (/run/shm -> /dev/shm, NixOS's
// /run/current-system) and /etc/resolv.conf when it leads into one (as with
// systemd-resolved), so name lookup keeps working with network = true.

import * as fs from "node:fs";
import * as path from "node:path";
import type { Env } from "../paths.js";
import { isWithin } from "./bwrap.js";

export interface SocketCover {
  /** Directories that get an empty tmpfs. */
  dirs: string[];
  /** Links to recreate inside them: `--symlink target path`. */
  links: Array<{ path: string; target: string }>;
  /** Host files to bind back read-only at their own path. */
  files: string[];
}

/** The files outside the covered directories that commands reach through a link into one. */
const KEPT_THROUGH_LINKS = ["/etc/resolv.conf"];

function realDir(p: string): string | undefined {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

// A link to a socket elsewhere (/run/docker.sock pointing into a user's
// directory) is left out: recreating it would hand the socket back.
function leadsToSocket(p: string): boolean {
  try {
    return fs.statSync(p).isSocket();
  } catch {
    return false; // dangling: nothing behind it
  }
}

/** What to cover and restore, read from the host now (it can change between commands). */
export function hostSocketCover(env: Env): SocketCover {
  const candidates = ["/run", "/var/run"];
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) candidates.push(runtime);
  const dirs: string[] = [];
  for (const c of candidates) {
    const real = realDir(c);
    // Under /tmp is fresh already; inside a covered directory is covered already.
    if (!real || real === "/" || isWithin(real, "/tmp") || dirs.some((d) => isWithin(real, d))) continue;
    for (let i = dirs.length - 1; i >= 0; i--) if (isWithin(dirs[i]!, real)) dirs.splice(i, 1);
    dirs.push(real);
  }
  const links: SocketCover["links"] = [];
  for (const d of dirs) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(d);
    } catch {
      /* unreadable: nothing to recreate */
    }
    for (const name of names) {
      const p = path.join(d, name);
      try {
        if (fs.lstatSync(p).isSymbolicLink() && !leadsToSocket(p)) links.push({ path: p, target: fs.readlinkSync(p) });
      } catch {
        /* vanished */
      }
    }
  }
  const files: string[] = [];
  for (const f of KEPT_THROUGH_LINKS) {
    try {
      const real = fs.realpathSync(f);
      if (real !== f && dirs.some((d) => isWithin(real, d)) && fs.statSync(real).isFile()) files.push(real);
    } catch {
      /* absent or dangling */
    }
  }
  return { dirs, links, files };
}
