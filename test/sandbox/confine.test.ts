// What a sandboxed command can and cannot touch: real bwrap, real processes,
// real files and a real server, checked from the host afterwards.

import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { bwrapRequired, bwrapStatus, cleanupAll, makeHarness, marker, noBwrap, tempDir } from "./support.js";

afterEach(cleanupAll);

// In CI (YUJ_REQUIRE_BWRAP_TESTS=1) a bwrap that cannot start is a failure that says why.
it.runIf(bwrapRequired)("bwrap starts here", () => {
  expect(bwrapStatus).toMatchObject({ usable: true });
});

describe.skipIf(noBwrap)("sandboxed commands (real bwrap)", () => {
  it("runs inside bwrap: the job's leader is bwrap, and the command can write inside the project", async () => {
    const h = makeHarness();
    expect(h.sandbox.active).toBe(true);
    const leader = h.manager.start({ command: "sleep 2", cwd: h.project, background: true });
    // The leader becomes bwrap (exec) right after it has joined stderr to stdout
    // and opened the seccomp filter for it.
    const argv0 = () => fs.readFileSync(`/proc/${leader.pid}/cmdline`, "utf8").split("\0")[0]!;
    for (let i = 0; i < 100 && !argv0().endsWith("bwrap"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(argv0()).toMatch(/bwrap$/);
    const { text, snap } = await h.run("echo made > inside.txt && mkdir -p sub/deeper && echo ok > sub/deeper/f && cat inside.txt");
    expect(snap.exitCode).toBe(0);
    expect(text).toBe("made\n");
    expect(fs.readFileSync(path.join(h.project, "inside.txt"), "utf8")).toBe("made\n");
    expect(fs.readFileSync(path.join(h.project, "sub/deeper/f"), "utf8")).toBe("ok\n");
  });

  it("cannot write outside the project: not to $HOME, not to another directory, not to the host /tmp", async () => {
    const h = makeHarness();
    const outside = tempDir("yuj-sbx-outside-", os.homedir()); // exists inside the sandbox, read-only
    const hostTmp = tempDir("yuj-sbx-hosttmp-"); // under the host /tmp: not even visible inside
    const name = marker("escape");
    const { text, snap } = await h.run(
      [
        `touch ${outside}/${name}; echo "outside=$?"`,
        `touch ${os.homedir()}/${name}; echo "home=$?"`,
        `touch ${hostTmp}/${name}; echo "hosttmp=$?"`,
        `echo x > /tmp/${name}; echo "tmp=$?"`,
        `touch /${name}; echo "root=$?"`,
      ].join("\n"),
    );
    expect(snap.exitCode).toBe(0);
    expect(text).toMatch(/outside=1\n/);
    expect(text).toMatch(/home=1\n/);
    expect(text).toMatch(/hosttmp=1\n/);
    expect(text).toMatch(/tmp=0\n/); // the command's own /tmp is writable, and thrown away
    expect(text).toMatch(/root=1\n/);
    expect(text).toMatch(/Read-only file system/);
    for (const p of [path.join(outside, name), path.join(os.homedir(), name), path.join(hostTmp, name), `/tmp/${name}`, `/${name}`]) {
      expect(fs.existsSync(p), p).toBe(false);
    }
  });

  it("sees a fresh, empty /tmp on every command", async () => {
    const h = makeHarness();
    const hostFile = path.join(tempDir("yuj-sbx-visible-"), "host-secret");
    fs.writeFileSync(hostFile, "host");
    const first = await h.run(`test -e ${hostFile}; echo "host=$?"; echo kept > /tmp/note; ls -A /tmp`);
    const [host, ...listing] = first.text.trimEnd().split("\n");
    expect(host).toBe("host=1");
    // Only our note, and the path down to the project (which lives under /tmp here).
    const top = path.relative("/tmp", h.project).split(path.sep)[0]!;
    expect(listing.sort()).toEqual([top, "note"].sort());
    const second = await h.run("test -e /tmp/note; echo \"note=$?\"");
    expect(second.text).toBe("note=1\n");
  });

  it("gets the profile's environment: no pager, no colour, dumb terminal, UTF-8 Python", async () => {
    const h = makeHarness({ env: { ...process.env, FORCE_COLOR: "1", TERM: "xterm-256color" } });
    const { text } = await h.run('echo "$PAGER $NO_COLOR $TERM $FORCE_COLOR $PYTHONIOENCODING $MPLCONFIGDIR"');
    expect(text).toBe("cat 1 dumb 0 utf-8 /tmp/mpl\n");
  });

  it("hides [sandbox].unreadable_paths: plain paths, ~/ paths, globs, optional missing paths", async () => {
    const secrets = tempDir("yuj-sbx-secrets-", os.homedir());
    fs.writeFileSync(path.join(secrets, "token"), "s3cr3t-dir");
    const lone = path.join(tempDir("yuj-sbx-lone-", os.homedir()), "key.txt");
    fs.writeFileSync(lone, "s3cr3t-file");
    const project = tempDir("yuj-sbx-unread-");
    fs.mkdirSync(path.join(project, "certs", "deep"), { recursive: true });
    fs.writeFileSync(path.join(project, "certs", "deep", "server.pem"), "s3cr3t-pem");
    fs.writeFileSync(path.join(project, "visible.txt"), "fine");
    const h = makeHarness({
      project,
      adjust: (c) => {
        c.sandbox.unreadable_paths = [
          secrets,
          `~/${path.relative(os.homedir(), lone)}`,
          "**/*.pem",
          "optional:/nonexistent/yuj-sbx-missing",
        ];
      },
    });
    const { text, snap } = await h.run(
      `cat ${secrets}/token; ls -A ${secrets} | wc -l; cat ${lone}; echo; cat certs/deep/server.pem; echo; cat visible.txt`,
    );
    expect(snap.exitCode).toBe(0);
    expect(text).not.toContain("s3cr3t");
    expect(text).toContain("fine");
    // The host files are untouched.
    expect(fs.readFileSync(path.join(secrets, "token"), "utf8")).toBe("s3cr3t-dir");
    expect(fs.readFileSync(path.join(project, "certs", "deep", "server.pem"), "utf8")).toBe("s3cr3t-pem");
  });

  it("refuses to run when an unreadable path is missing and not marked optional", async () => {
    const name = marker("unread-missing");
    const h = makeHarness({ adjust: (c) => void (c.sandbox.unreadable_paths = ["/nonexistent/yuj-secret"]) });
    const { text, snap } = await h.run(`touch ${name}`);
    expect(snap.exitCode).toBe(126);
    expect(text).toBe(
      'yuj: sandbox unavailable: [sandbox].unreadable_paths: /nonexistent/yuj-secret does not exist (write "optional:/nonexistent/yuj-secret" if it may be absent); the command was not run\n',
    );
    expect(fs.existsSync(path.join(h.project, name))).toBe(false);
  });

  it("follows the job's working directory inside the project", async () => {
    const h = makeHarness();
    fs.mkdirSync(path.join(h.project, "pkg"));
    const { text } = await h.run("pwd; touch here", path.join(h.project, "pkg"));
    expect(text).toBe(`${fs.realpathSync(path.join(h.project, "pkg"))}\n`);
    expect(fs.existsSync(path.join(h.project, "pkg", "here"))).toBe(true);
  });
});

describe.skipIf(noBwrap)("network (real bwrap, a real server on 127.0.0.1)", () => {
  let server: http.Server;
  let url: string;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end("pong"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const probe = () =>
    `curl -s -m 3 ${url}; echo " curl=$?"; (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; echo "tcp=$?"`;

  it("cannot reach a server on the host's loopback by default", async () => {
    const h = makeHarness();
    const { text } = await h.run(probe());
    expect(text).not.toContain("pong");
    expect(text).toMatch(/ curl=7\n/); // could not connect
    expect(text).toMatch(/tcp=1\n/);
  });

  it("reaches it unsandboxed, and with [sandbox].network = true", async () => {
    const off = makeHarness({ adjust: (c) => void (c.sandbox.mode = "off") });
    expect(off.sandbox.active).toBe(false);
    expect((await off.run(probe())).text).toBe("pong curl=0\ntcp=0\n");
    const withNet = makeHarness({ adjust: (c) => void (c.sandbox.network = true) });
    expect(withNet.sandbox.active).toBe(true);
    const { text } = await withNet.run(`${probe()}; touch /etc/yuj-sbx-net 2>/dev/null; echo "ro=$?"`);
    expect(text).toBe("pong curl=0\ntcp=0\nro=1\n"); // the network is the only thing it adds
  });
});
