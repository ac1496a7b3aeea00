// Host unix sockets: real HTTP servers listening on unix sockets in the
// places the host keeps them (/run, a user runtime dir, /tmp/.X11-unix, the
// abstract namespace, the Docker socket's path), and a node client inside
// real bwrap trying each (node's own abstract addresses match its server's). Unsandboxed, every one answers (the control); sandboxed, only
// the Docker socket, and only with [sandbox].docker = true.

import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, makeHarness, marker, noBwrap, tempDir } from "./support.js";

const servers: http.Server[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  for (const p of made.splice(0).reverse()) fs.rmSync(p, { recursive: true, force: true });
  await cleanupAll();
});

/** An HTTP server on a unix socket at `where` (a leading NUL: the abstract namespace) answering `reply`. */
async function serve(where: string, reply: string): Promise<void> {
  const server = http.createServer((_req, res) => res.end(reply));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(where, resolve);
  });
  servers.push(server);
  if (!where.startsWith("\0")) made.push(where);
}

function mkdir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  made.push(dir);
  return dir;
}

interface Targets {
  /** Socket address per name (a leading NUL: abstract). */
  sockets: Record<string, string>;
  env: NodeJS.ProcessEnv;
}

async function hostSockets(): Promise<Targets> {
  const m = marker("sock");
  const runtime = tempDir("yuj-sbx-runtime-", os.homedir()); // a runtime dir outside /run and /tmp
  const paths = {
    run: `/run/${m}.sock`,
    "run-user": path.join(mkdir(`/run/user/${m}`), "bus"),
    "xdg-runtime": path.join(runtime, "session.sock"),
    x11: path.join(fs.existsSync("/tmp/.X11-unix") ? "/tmp/.X11-unix" : mkdir("/tmp/.X11-unix"), `X${5000 + Math.floor(Math.random() * 5000)}`),
  };
  const sockets: Record<string, string> = { ...paths, abstract: `\0${m}` };
  for (const [name, p] of Object.entries(sockets)) await serve(p, `pong-${name}`);
  return { sockets, env: { ...process.env, XDG_RUNTIME_DIR: runtime } };
}

// A client for every socket at once: `name=<body>` when it answered, else `name=<error code>`.
const CLIENT = `
const http = require("http");
const targets = JSON.parse(process.argv[1]);
for (const [name, socketPath] of Object.entries(targets)) {
  const req = http.get({ socketPath: socketPath.replace(/^@/, "\\0"), path: "/", timeout: 3000 }, (res) => {
    let body = "";
    res.on("data", (d) => (body += d)).on("end", () => console.log(name + "=" + body));
  });
  req.on("error", (e) => console.log(name + "=" + e.code));
}`;

const probe = (sockets: Record<string, string>) => {
  const printable = Object.fromEntries(Object.entries(sockets).map(([n, p]) => [n, p.replace(/^\0/, "@")]));
  return `node -e '${CLIENT}' '${JSON.stringify(printable)}'`;
};

const lines = (text: string) =>
  Object.fromEntries(text.trimEnd().split("\n").filter((l) => l.includes("=")).map((l) => l.split("=") as [string, string]));

describe.skipIf(noBwrap)("host unix sockets (real bwrap, real servers)", () => {
  it("are all reachable unsandboxed: the control", async () => {
    const t = await hostSockets();
    const h = makeHarness({ env: t.env, adjust: (c) => void (c.sandbox.mode = "off") });
    const got = lines((await h.run(probe(t.sockets))).text);
    for (const name of Object.keys(t.sockets)) expect(got[name], name).toBe(`pong-${name}`);
  });

  it("none is reachable from a sandboxed command", async () => {
    const t = await hostSockets();
    const h = makeHarness({ env: t.env });
    const { text } = await h.run(`${probe(t.sockets)}\necho "runtime=$(ls -A "$XDG_RUNTIME_DIR" | wc -l)"`);
    const got = lines(text);
    for (const name of Object.keys(t.sockets)) expect(got[name], name).toMatch(/^(ENOENT|ECONNREFUSED)$/);
    expect(text).not.toContain("pong");
    expect(got.runtime).toBe("0"); // the runtime dir is an empty tmpfs
  });

  it("keeps the links at the top of /run (such as /run/shm) inside its empty tmpfs", async () => {
    const links = fs.readdirSync("/run").filter((n) => fs.lstatSync(`/run/${n}`).isSymbolicLink() && !fs.statSync(`/run/${n}`, { throwIfNoEntry: false })?.isSocket());
    const { text } = await makeHarness().run(links.map((n) => `echo "${n}=$(readlink /run/${n})"`).join("\n") || "true");
    expect(lines(text)).toEqual(Object.fromEntries(links.map((n) => [n, fs.readlinkSync(`/run/${n}`)])));
  });

  it("with [sandbox].network = true: TCP works, but no unix socket can be created, so the abstract ones stay out of reach", async () => {
    const t = await hostSockets();
    const h = makeHarness({ env: t.env, adjust: (c) => void (c.sandbox.network = true) });
    const tcp = http.createServer((_req, res) => res.end("pong-tcp"));
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    servers.push(tcp);
    const port = (tcp.address() as { port: number }).port;
    const { text } = await h.run(
      [
        probe(t.sockets),
        `echo "tcp=$(curl -s -m 3 http://127.0.0.1:${port}/)"`,
        `node -e 'require("net").createServer().listen("/tmp/own.sock").on("error", (e) => console.log("own-socket=" + e.code))'`,
        // socketpair still works: node starts a child over pipes.
        `node -e 'console.log("child=" + require("child_process").execSync("echo ok").toString().trim())'`,
      ].join("\n"),
    );
    const got = lines(text);
    for (const name of Object.keys(t.sockets)) expect(got[name], name).toMatch(/^(ENOENT|ECONNREFUSED|EACCES)$/);
    expect(got.abstract).toBe("EACCES"); // refused before any address is looked at
    expect(got.tcp).toBe("pong-tcp");
    expect(got["own-socket"]).toBe("EACCES");
    expect(got.child).toBe("ok");
  });

  it("the Docker socket passes only with [sandbox].docker = true", async () => {
    const docker = "/run/docker.sock";
    const real = fs.existsSync(docker);
    // A host with Docker is left alone: its socket answers /_ping with OK.
    if (!real) await serve(docker, "OK");
    const ping = `curl -s -m 3 --unix-socket ${docker} http://x/_ping; echo " docker=$?"`;
    const without = await makeHarness().run(ping);
    expect(without.text).toBe(" docker=7\n");
    const withDocker = await makeHarness({ adjust: (c) => void (c.sandbox.docker = true) }).run(ping);
    expect(withDocker.text).toBe("OK docker=0\n");
    const viaVarRun = await makeHarness({ adjust: (c) => void (c.sandbox.docker = true) }).run(ping.replace(docker, "/var/run/docker.sock"));
    expect(viaVarRun.text).toBe(fs.existsSync("/var/run/docker.sock") ? "OK docker=0\n" : " docker=7\n");
  });
});
