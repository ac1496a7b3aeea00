// The first request of a new headless session, sent from the entry from the
// template the previous run of the same command left, while the rest of yuj
// loads (core/providers/speculative-request.ts). Against local servers
// speaking Anthropic's stream, with the built binary: the request arrives
// before the headless modules have loaded and is answered once, the events
// are those of a run without it; any input that changed refuses the
// template before anything is sent; a template whose body differs is
// destroyed unanswered; a speculative request that fails is sent again as
// usual; no key is ever stored.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { repoRoot } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

const KEY = "sk-ant-test-4f9c2a7e81d3b605";
const TASK = "list the files";
const turns = [{ text: "Listing.", tool_calls: [{ name: "bash", arguments: { cmd: "ls" } }] }, { text: "Done." }];

const servers: SseServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(opts: Partial<Parameters<typeof startSseServer>[0]> = {}): Promise<SseServer> {
  const s = await startSseServer({ scenario: parseScenario({ turns }), ...opts });
  servers.push(s);
  return s;
}

interface Project {
  cwd: string;
  env: Record<string, string>;
  configFile: string;
  config(baseUrl: string, model?: string): void;
}

/** A project whose provider (Anthropic, its base URL, the model) is set in the user's config file. */
function project(baseUrl: string): Project {
  const cwd = mkdtempSync(join(tmpdir(), "yuj-spec-"));
  writeFileSync(join(cwd, "README.md"), "a project\n");
  // Older than the last two seconds: its stat signature is recorded, and compared first.
  writeFileSync(join(cwd, "AGENTS.md"), "Build with make.\n");
  utimesSync(join(cwd, "AGENTS.md"), 1_700_000_000, 1_700_000_000);
  const env = isolatedEnv({ ANTHROPIC_API_KEY: KEY, YUJ_TIMING: "1" });
  const configFile = join(env.XDG_CONFIG_HOME!, "yuj", "config.toml");
  const p: Project = {
    cwd,
    env,
    configFile,
    config(url, model = "m") {
      mkdirSync(join(env.XDG_CONFIG_HOME!, "yuj"), { recursive: true });
      writeFileSync(configFile, `[provider]\nname = "anthropic"\nmodel = "${model}"\nbase_url = "${url}"\n[sandbox]\nmode = "off"\n`);
    },
  };
  p.config(baseUrl);
  return p;
}

interface Run {
  stdout: string;
  stderr: string;
  /** YUJ_TIMING's moments, epoch ms. */
  marks: Map<string, number>;
  events: unknown[];
}

async function run(p: Project, opts: { env?: Record<string, string>; cwd?: string; task?: string } = {}): Promise<Run> {
  const r = await runCli(["code", opts.task ?? TASK, "--output", "jsonl"], { cwd: opts.cwd ?? p.cwd, env: { ...p.env, ...opts.env } });
  expect(r.code, r.stderr).toBe(0);
  const marks = new Map<string, number>();
  for (const line of r.stderr.split("\n")) {
    const m = /^yuj-timing (.+?) (\d+(?:\.\d+)?)(?: |$)/.exec(line);
    if (m && !marks.has(m[1]!)) marks.set(m[1]!, Number(m[2]));
  }
  const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(events.at(-1)).toMatchObject({ type: "run_finished", reason: "answered", message: "Done." });
  return { stdout: r.stdout, stderr: r.stderr, marks, events: normalized(events) };
}

// What differs between any two runs: times, ids, the session's own paths, the job's pid.
const VARYING = new Set(["ts", "sessionId", "requestId", "traceFile", "outputFile", "pid", "deadlineAt", "durationMs"]);
function normalized(events: Array<Record<string, unknown>>): unknown[] {
  const out = events.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !VARYING.has(k))));
  // The workspace snapshot is taken in parallel with the first request: its place in the order is the race's.
  const snapshot = out.findIndex((e) => e.type === "workspace_snapshot");
  const [taken] = out.splice(snapshot, 1);
  return [...out.map(({ seq: _, ...e }) => e), taken && { ...taken, seq: undefined }];
}

/** The first-turn requests (one user message) a server got since `since` requests. */
const firstTurns = (s: SseServer, since = 0) => s.requests.slice(since).filter((r) => r.method === "POST" && r.body?.messages?.length === 1);

const templates = (p: Project) => {
  const dir = join(p.env.XDG_STATE_HOME!, "yuj", "speculative");
  return readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => join(dir, f));
};

/** A project with a template in place: a first run fills the caches start-up reads, the second leaves the template. */
async function withTemplate(s: SseServer): Promise<{ p: Project; plain: Run }> {
  const p = project(s.baseUrlFor("anthropic"));
  await run(p);
  const plain = await run(p);
  expect(plain.marks.has("speculative request started")).toBe(false);
  expect(templates(p)).toHaveLength(1);
  return { p, plain };
}

describe("the speculative first request", () => {
  it("arrives before the headless modules load, is answered once, and the events are those of a run without it", async () => {
    const s = await server();
    const { p, plain } = await withTemplate(s);
    const before = s.requests.length;
    const r = await run(p);
    expect(r.marks.has("speculative request adopted"), r.stderr).toBe(true);
    const first = firstTurns(s, before);
    expect(first).toHaveLength(1);
    expect(first[0]!.receivedAt).toBeLessThan(r.marks.get("headless modules loaded")!);
    expect(s.requests.slice(before).filter((q) => q.method === "POST")).toHaveLength(2);
    expect(r.events).toEqual(plain.events);
    const off = await run(p, { env: { YUJ_NO_SPECULATIVE_REQUEST: "1" } });
    expect(off.marks.has("speculative template found")).toBe(false);
    expect(off.events).toEqual(plain.events);
  });

  const changes: Array<[string, (p: Project, s: SseServer, other: SseServer) => { env?: Record<string, string>; cwd?: string }, (s: SseServer, other: SseServer, since: number) => void]> = [
    ["the config's base URL", (p, _s, other) => (p.config(other.baseUrlFor("anthropic")), {}), (_s, other) => expect(firstTurns(other)).toHaveLength(1)],
    ["the model", (p, s) => (p.config(s.baseUrlFor("anthropic"), "m2"), {}), (s, _o, since) => expect(firstTurns(s, since)[0]!.body.model).toBe("m2")],
    [
      "AGENTS.md's content",
      (p) => {
        // The same size and times as before: only the content says it changed.
        writeFileSync(join(p.cwd, "AGENTS.md"), "Build with gmake\n");
        utimesSync(join(p.cwd, "AGENTS.md"), 1_700_000_000, 1_700_000_000);
        return {};
      },
      (s, _o, since) => expect(firstTurns(s, since)[0]!.body.system).toContain("Build with gmake"),
    ],
    [
      "a new skill",
      (p) => {
        mkdirSync(join(p.cwd, ".agents", "skills", "deploy"), { recursive: true });
        writeFileSync(join(p.cwd, ".agents", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Ship the release.\n---\nSteps.\n");
        return {};
      },
      (s, _o, since) => expect(firstTurns(s, since)[0]!.body.system).toContain("Ship the release."),
    ],
    ["an environment variable", () => ({ env: { SOME_SETTING: "1" } }), () => undefined],
    [
      "the cwd",
      (p) => {
        mkdirSync(join(p.cwd, "sub"));
        return { cwd: join(p.cwd, "sub") };
      },
      (s, _o, since) => expect(firstTurns(s, since)[0]!.body.system).toContain(`/sub)`),
    ],
    ["the key", () => ({ env: { ANTHROPIC_API_KEY: "sk-ant-test-another-key-0042" } }), (s, _o, since) => expect(firstTurns(s, since)[0]!.headers.authorization).toBe("Bearer sk-ant-test-another-key-0042")],
  ];

  it.each(changes)("is not sent when %s changed", async (_what, change, check) => {
    const s = await server();
    const other = await server();
    const { p } = await withTemplate(s);
    const opts = change(p, s, other);
    const before = s.requests.length;
    const r = await run(p, opts);
    expect(r.marks.has("speculative request started"), r.stderr).toBe(false);
    const mine = s.requests.length - before;
    // Every first-turn request the run made is its own: one.
    expect(firstTurns(s, before).length + firstTurns(other).length).toBe(1);
    check(s, other, before);
    if (firstTurns(other).length) expect(mine).toBe(0);
  });

  it("is destroyed unanswered when the template's body differs, and the run's own request is answered", async () => {
    // The tampered body is held by the server: only the client's closing it ends it.
    const s = await server({ faultFor: (body) => (JSON.stringify(body).includes("TAMPERED") ? { hang: true } : undefined) });
    const { p, plain } = await withTemplate(s);
    const [file] = templates(p);
    const t = JSON.parse(readFileSync(file!, "utf8"));
    t.body[0] = t.body[0].replace("You are yuj", "You are TAMPERED");
    writeFileSync(file!, JSON.stringify(t));
    const before = s.requests.length;
    const r = await run(p);
    expect(r.marks.has("speculative request started")).toBe(true);
    expect(r.marks.has("speculative request refused"), r.stderr).toBe(true);
    expect(s.stalled()).toBe(1);
    const first = firstTurns(s, before);
    expect(first).toHaveLength(2);
    expect(first[0]!.rawBody).toContain("TAMPERED");
    expect(first[1]!.rawBody).not.toContain("TAMPERED");
    expect(r.events).toEqual(plain.events);
  });

  it("is destroyed unread when the template's body differs and its response came already", async () => {
    const s = await server();
    const { p, plain } = await withTemplate(s);
    const [file] = templates(p);
    const t = JSON.parse(readFileSync(file!, "utf8"));
    t.body[0] = t.body[0].replace("You are yuj", "You are TAMPERED");
    writeFileSync(file!, JSON.stringify(t));
    const before = s.requests.length;
    const r = await run(p);
    expect(r.marks.has("speculative request refused"), r.stderr).toBe(true);
    const first = firstTurns(s, before);
    expect(first.map((q) => q.rawBody.includes("TAMPERED"))).toEqual([true, false]);
    expect(r.events).toEqual(plain.events);
  });

  it("that fails before its response is sent again as usual, and no error is said", async () => {
    const s = await server();
    const { p, plain } = await withTemplate(s);
    s.faults.push({ reset: true });
    const before = s.requests.length;
    const r = await run(p);
    expect(r.marks.has("speculative request adopted"), r.stderr).toBe(true);
    expect(r.marks.has("HTTP request started")).toBe(true);
    expect(firstTurns(s, before)).toHaveLength(2);
    expect(r.events).toEqual(plain.events);
  });

  it.each([
    ["on_tool_call", true],
    ["on_session_start", false],
    ["on_before_llm_call", false],
  ] as const)("with an %s hook configured, is left a template: %s", async (point, left) => {
    const s = await server();
    const p = project(s.baseUrlFor("anthropic"));
    const config = readFileSync(p.configFile, "utf8");
    writeFileSync(p.configFile, `${config}[[hooks.${point}]]\nshell = "true"\n`);
    await run(p);
    await run(p);
    const r = await run(p);
    expect(r.marks.has("speculative request adopted"), r.stderr).toBe(left);
    if (!left) expect(existsSync(join(p.env.XDG_STATE_HOME!, "yuj", "speculative"))).toBe(false);
  });

  it("leaves no key in the state directory, and its template readable by the user alone", async () => {
    const s = await server();
    const { p } = await withTemplate(s);
    await run(p);
    const state = p.env.XDG_STATE_HOME!;
    const files = readdirSync(state, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files.length).toBeGreaterThan(3);
    for (const d of files) expect(readFileSync(join(d.parentPath, d.name), "utf8").includes(KEY), join(d.parentPath, d.name)).toBe(false);
    const [file] = templates(p);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(file!, "utf8")).toContain('{"env":"ANTHROPIC_API_KEY"}');
  });

  it("with an MCP server, carries its tools as last listed, and a list that changed is refused once, then not tried again that day", async () => {
    const s = await server();
    const p = project(s.baseUrlFor("anthropic"));
    // A stdio MCP server whose one tool is named by a file only the server reads: start-up's inputs cannot see it change.
    const toolName = join(p.cwd, "..", `${p.cwd.split("/").pop()}-tool-name`);
    writeFileSync(toolName, "lookup\n");
    const script = join(p.cwd, "..", `${p.cwd.split("/").pop()}-mcp.mjs`);
    const sdk = join(repoRoot, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "server");
    writeFileSync(
      script,
      [
        `import { readFileSync } from "node:fs";`,
        `import { McpServer } from ${JSON.stringify(join(sdk, "mcp.js"))};`,
        `import { StdioServerTransport } from ${JSON.stringify(join(sdk, "stdio.js"))};`,
        `const server = new McpServer({ name: "names", version: "1.0.0" });`,
        `server.tool(readFileSync(${JSON.stringify(toolName)}, "utf8").trim(), "Looks a name up.", async () => ({ content: [{ type: "text", text: "found" }] }));`,
        `await server.connect(new StdioServerTransport());`,
      ].join("\n"),
    );
    writeFileSync(p.configFile, `${readFileSync(p.configFile, "utf8")}[mcp.servers.names]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(script)}]\n`);
    await run(p);
    const plain = await run(p);
    expect(templates(p)).toHaveLength(1);
    const before = s.requests.length;
    const adopted = await run(p);
    expect(adopted.marks.has("speculative request adopted"), adopted.stderr).toBe(true);
    expect(firstTurns(s, before)).toHaveLength(1);
    expect(firstTurns(s, before)[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp_names_lookup");
    expect(adopted.events).toEqual(plain.events);

    writeFileSync(toolName, "search\n");
    const since = s.requests.length;
    const refused = await run(p);
    expect(refused.marks.has("speculative request refused"), refused.stderr).toBe(true);
    const sent = firstTurns(s, since).map((q) => q.body.tools.map((t: { name: string }) => t.name));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain("mcp_names_lookup");
    expect(sent[1]).toContain("mcp_names_search");
    expect(JSON.parse(readFileSync(templates(p)[0]!, "utf8"))).toEqual({ refused: true });

    // The key was refused: the next runs neither send from the entry nor write a template under it.
    const after = s.requests.length;
    const next = await run(p);
    expect(next.marks.has("speculative request started"), next.stderr).toBe(false);
    expect(firstTurns(s, after)).toHaveLength(1);
    expect(JSON.parse(readFileSync(templates(p)[0]!, "utf8"))).toEqual({ refused: true });
  });
});
