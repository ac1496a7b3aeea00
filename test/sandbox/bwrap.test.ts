// The bwrap argv (pure), the mode mapping, bwrap lookup and the resolution
// of [sandbox].unreadable_paths. No sandbox is started here.

import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema, defaultConfig } from "../../core/config/schema.js";
import { bwrapArgs, bwrapProfileArgs, type BwrapPlan, type HiddenPath } from "../../core/sandbox/bwrap.js";
import { locateBwrap } from "../../core/sandbox/detect.js";
import { resolveSandboxMode } from "../../core/sandbox/index.js";
import { resolveUnreadable } from "../../core/sandbox/unreadable.js";
import { cleanupAll, tempDir } from "./support.js";

afterEach(cleanupAll);

const plan = (over: Partial<BwrapPlan> = {}): BwrapPlan => ({
  projectDir: "/home/me/proj",
  cwd: "/home/me/proj/sub",
  network: false,
  socketDirs: [],
  socketDirLinks: [],
  socketDirFiles: [],
  pinned: [],
  readOnly: [],
  dockerSockets: [],
  hidden: [],
  ...over,
});

describe("bwrapArgs", () => {
  it("is the strict profile, then the project, then chdir and the command", () => {
    expect(bwrapArgs(plan(), ["bash", "-o", "pipefail", "-c", "make test"])).toEqual([
      "--ro-bind", "/", "/",
      "--dev", "/dev",
      "--proc", "/proc",
      "--ro-bind-try", "/proc/sys", "/proc/sys",
      "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
      "--ro-bind-try", "/proc/irq", "/proc/irq",
      "--ro-bind-try", "/proc/bus", "/proc/bus",
      "--tmpfs", "/tmp",
      "--unshare-net",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup",
      "--die-with-parent",
      "--cap-drop", "ALL",
      "--seccomp", "3",
      "--bind", "/home/me/proj", "/home/me/proj",
      "--chdir", "/home/me/proj/sub",
      "--", "bash", "-o", "pipefail", "-c", "make test",
    ]);
  });

  it("never creates a user namespace, drops every capability, and keeps the network only when asked", () => {
    expect(bwrapProfileArgs({ network: false }).join(" ")).not.toMatch(/unshare-user|unshare-all/);
    expect(bwrapProfileArgs({ network: true }).join(" ")).toContain("--cap-drop ALL --seccomp 3");
    expect(bwrapProfileArgs({ network: true })).not.toContain("--unshare-net");
  });

  it("orders mounts: socket dirs, hidden ancestors, project, pinned, read-only, docker, other hidden paths", () => {
    const args = bwrapArgs(
      plan({
        socketDirs: ["/run"],
        socketDirLinks: [{ path: "/run/shm", target: "/dev/shm" }],
        socketDirFiles: ["/run/systemd/resolve/stub-resolv.conf"],
        pinned: ["/home/me/proj/.git"],
        readOnly: ["/home/me/proj/.yuj", "/home/me/proj/.git/config", "/home/me/proj/.git/hooks"],
        dockerSockets: [["/run/docker.sock", "/run/docker.sock"]],
        hidden: [
          { path: "/home", kind: "dir" },
          { path: "/home/me/proj/.env", kind: "file" },
          { path: "/etc/secrets", kind: "dir" },
          { path: "/tmp/host-only", kind: "file" }, // already invisible: /tmp is fresh
          { path: "/run/user/1000/secret", kind: "file" }, // so is /run
        ],
      }),
      ["true"],
    );
    const mounts = args.slice(bwrapProfileArgs({ network: false }).length, args.indexOf("--chdir"));
    expect(mounts).toEqual([
      "--tmpfs", "/run",
      "--symlink", "/dev/shm", "/run/shm",
      "--ro-bind", "/run/systemd/resolve/stub-resolv.conf", "/run/systemd/resolve/stub-resolv.conf",
      "--tmpfs", "/home",
      "--bind", "/home/me/proj", "/home/me/proj",
      "--bind", "/home/me/proj/.git", "/home/me/proj/.git",
      "--ro-bind", "/home/me/proj/.yuj", "/home/me/proj/.yuj",
      "--ro-bind", "/home/me/proj/.git/config", "/home/me/proj/.git/config",
      "--ro-bind", "/home/me/proj/.git/hooks", "/home/me/proj/.git/hooks",
      "--bind", "/run/docker.sock", "/run/docker.sock",
      "--ro-bind", "/dev/null", "/home/me/proj/.env",
      "--tmpfs", "/etc/secrets",
    ]);
  });

  it("does not bind a docker socket the user hid", () => {
    const args = bwrapArgs(plan({ dockerSockets: [["/run/docker.sock", "/run/docker.sock"]], hidden: [{ path: "/run", kind: "dir" }] }), ["true"]);
    expect(args).not.toContain("/run/docker.sock");
  });

  it("binds the project read-only for a language server, and pins nothing writable in it", () => {
    const pinned = "/home/me/proj/.git";
    const args = bwrapArgs(plan({ projectReadOnly: true, pinned: [pinned], readOnly: ["/home/me/proj/.yuj"] }), ["server", "--stdio"]).join(" ");
    expect(args).toContain("--ro-bind /home/me/proj /home/me/proj");
    expect(args).not.toContain("--bind /home/me/proj ");
    expect(args).not.toContain(`--bind ${pinned} ${pinned}`);
    expect(args).toContain("--ro-bind /home/me/proj/.yuj /home/me/proj/.yuj");
  });

  it("hides paths under /tmp when the project lives there", () => {
    const args = bwrapArgs(plan({ projectDir: "/tmp/p", cwd: "/tmp/p", hidden: [{ path: "/tmp/p/key", kind: "file" }] }), ["true"]);
    expect(args.join(" ")).toContain("--ro-bind /dev/null /tmp/p/key");
  });
});

describe("the mode and its older keys", () => {
  const mode = (toml: Record<string, unknown>) => resolveSandboxMode(configSchema.parse(toml));

  it("defaults to auto; keeps the old defaults meaning the same", () => {
    expect(mode({})).toEqual({ mode: "auto", source: "default" });
    expect(defaultConfig().tools.sandbox_required).toBe(true);
    expect(defaultConfig().sandbox.network).toBe(false);
    expect(defaultConfig().sandbox.docker).toBe(false);
  });

  it("maps sandbox_bash / sandbox_required when [sandbox].mode is unset", () => {
    expect(mode({ tools: { sandbox_bash: false } }).mode).toBe("off");
    expect(mode({ tools: { sandbox_bash: false, sandbox_required: false } }).mode).toBe("off");
    expect(mode({ tools: { sandbox_bash: true } }).mode).toBe("on");
    expect(mode({ tools: { sandbox_bash: true, sandbox_required: false } }).mode).toBe("auto");
    expect(mode({ tools: { sandbox_bash: false }, sandbox: { mode: "on" } }).mode).toBe("on");
    expect(mode({ tools: { sandbox_required: false }, sandbox: { mode: "on" } }).mode).toBe("on");
  });

  it("rejects an unknown mode", () => {
    expect(() => configSchema.parse({ sandbox: { mode: "strict" } })).toThrow();
  });
});

describe("locateBwrap", () => {
  it("looks on PATH by default and says how to install when it is not there", () => {
    const empty = tempDir("yuj-sbx-empty-");
    expect(locateBwrap({}, { PATH: empty })).toEqual({
      reason: "bubblewrap (bwrap) is not installed (not found on PATH): apt-get install bubblewrap",
    });
    const dir = tempDir("yuj-sbx-path-");
    fs.writeFileSync(path.join(dir, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
    expect(locateBwrap({}, { PATH: `${empty}:${dir}` })).toEqual({ path: path.join(dir, "bwrap") });
    expect(locateBwrap({ bwrapBin: path.join(dir, "bwrap") }, { PATH: empty })).toEqual({ path: path.join(dir, "bwrap") });
  });
});

describe("resolveUnreadable", () => {
  it("resolves plain, relative, ~/ and glob entries to real paths with their kind", () => {
    const home = tempDir("yuj-sbx-home-");
    const project = tempDir("yuj-sbx-proj-");
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.mkdirSync(path.join(project, "a", "b"), { recursive: true });
    fs.writeFileSync(path.join(project, ".env"), "x");
    fs.writeFileSync(path.join(project, "a", "b", ".env"), "x");
    fs.writeFileSync(path.join(project, "a", "keep"), "x");
    fs.symlinkSync(path.join(project, "a", "keep"), path.join(project, "link"));
    const out = resolveUnreadable(["~/.ssh", "**/.env", "link", "optional:/nope/nothing", "**/*.none"], { projectDir: project, home });
    const real = (p: string) => fs.realpathSync(p);
    const byPath = (list: HiddenPath[]) => [...list].sort((a, b) => a.path.localeCompare(b.path));
    expect("hidden" in out && byPath(out.hidden)).toEqual(
      byPath([
        { path: real(path.join(project, ".env")), kind: "file" },
        { path: real(path.join(project, "a", "keep")), kind: "file" }, // the link's target
        { path: real(path.join(home, ".ssh")), kind: "dir" },
        { path: real(path.join(project, "a", "b", ".env")), kind: "file" },
      ]),
    );
  });

  it("errors on a missing plain path, and on a glob too broad to check", () => {
    const project = tempDir("yuj-sbx-proj-");
    expect(resolveUnreadable(["/nope/x"], { projectDir: project })).toEqual({
      error: '[sandbox].unreadable_paths: /nope/x does not exist (write "optional:/nope/x" if it may be absent)',
    });
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(project, `f${i}`), "");
    const broad = resolveUnreadable(["**/nothing"], { projectDir: project, maxEntries: 3 });
    expect(broad).toEqual({ error: expect.stringMatching(/"\*\*\/nothing" needs more than 3 entries scanned/) });
  });

  it("drops paths inside a hidden directory (one mount covers them)", () => {
    const project = tempDir("yuj-sbx-proj-");
    fs.mkdirSync(path.join(project, "s"));
    fs.writeFileSync(path.join(project, "s", "k"), "");
    const out = resolveUnreadable(["s/k", "s"], { projectDir: project });
    expect(out).toEqual({ hidden: [{ path: fs.realpathSync(path.join(project, "s")), kind: "dir" }] });
  });
});
