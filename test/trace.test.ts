import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmitter, type CoreEvent, type EventBody } from "../core/events.js";
import { openTrace, readTrace, REDACTED } from "../core/trace.js";
import { createSessionDir, isSessionId, newSessionId, sessionLayout } from "../core/session.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECRET = "sk-ant-PLANTED-0123456789abcdefXYZ";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-trace-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Events stamped the way the core stamps them. */
function events(bodies: EventBody[]): CoreEvent[] {
  const out: CoreEvent[] = [];
  const { emit } = createEmitter("s1", (e) => out.push(e), () => new Date("2025-01-02T03:04:05Z"));
  bodies.forEach((b) => emit(b));
  return out;
}

describe("trace", () => {
  it("writes one parseable row per event and reads them back", () => {
    const file = path.join(tmp, "s", "trace.jsonl");
    const rows = events([
      { type: "user_message", text: "hello\nworld \"quoted\" ✓" },
      { type: "turn_finished", toolCalls: 2 },
      { type: "notice", level: "warning", text: "last" },
    ]);
    const trace = openTrace(file, { secrets: [] });
    rows.forEach((e) => trace.write(e));
    trace.close();
    trace.close(); // idempotent
    expect(trace.path).toBe(file);
    const lines = fs.readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines.slice(0, 3).map((l) => JSON.parse(l))).toEqual(rows);
    expect(readTrace(file)).toEqual({ events: rows, skipped: [] });
    expect(() => trace.write(rows[0]!)).toThrow(/closed/);
  });

  it("never writes a planted secret or credential-named values, in any form", () => {
    const file = path.join(tmp, "trace.jsonl");
    const quoted = 'pass"word\\with-escapes'; // a secret that JSON has to escape
    const body = JSON.stringify({ model: "m", api_key: "other-credential-1", messages: [{ content: `key ${SECRET}` }] });
    const rows = events([
      { type: "user_message", text: `my key is ${SECRET} ok, short` },
      { type: "provider_request", requestId: "r1", url: `https://x/?k=${SECRET}`, body },
      { type: "provider_response", requestId: "r1", status: 200, body: `data: {"x":"${quoted}","Authorization":"Bearer abc-123-456"}` },
      { type: "notice", level: "info", text: JSON.stringify({ q: quoted }) },
      { type: "tool_result", callId: "c", name: "bash", ok: true, modelText: SECRET + SECRET, viewText: "", durationMs: 1 },
    ]);
    // Headers are never put in events, but if one slips through it is redacted by name.
    const withHeaders = { ...rows[0]!, headers: { authorization: "Bearer zzz-zzz-zzz", "x-api-key": "k-k-k-k-k-k", api_key_env: "ANTHROPIC_API_KEY" } } as unknown as CoreEvent;
    const trace = openTrace(file, { secrets: [SECRET, quoted, "short"] });
    [...rows, withHeaders].forEach((e) => trace.write(e));
    trace.close();

    const raw = fs.readFileSync(file);
    for (const leaked of [SECRET, "PLANTED", "other-credential-1", "Bearer abc-123-456", "zzz-zzz-zzz", "k-k-k-k-k-k", "pass", "with-escapes"]) {
      expect(raw.includes(leaked), `"${leaked}" leaked into the trace`).toBe(false);
    }
    const { events: back, skipped } = readTrace(file);
    expect(skipped).toEqual([]);
    expect(back).toHaveLength(6);
    expect((back[0] as { text: string }).text).toBe(`my key is ${REDACTED} ok, short`);
    expect(JSON.parse((back[1] as { body: string }).body).api_key).toBe(REDACTED);
    expect((back[4] as { modelText: string }).modelText).toBe(REDACTED + REDACTED);
    expect((back[5] as unknown as { headers: object }).headers).toEqual({
      authorization: REDACTED,
      "x-api-key": REDACTED,
      api_key_env: "ANTHROPIC_API_KEY", // a variable name, not a credential
    });
    expect(raw.toString()).toContain("short"); // too short to be treated as a secret
  });

  it("skips and reports a torn last row, and a later writer starts on a fresh line", () => {
    const file = path.join(tmp, "trace.jsonl");
    const rows = events([
      { type: "user_message", text: "one" },
      { type: "user_message", text: "two" },
      { type: "user_message", text: "three" },
    ]);
    const first = openTrace(file, { secrets: [] });
    first.write(rows[0]!);
    first.write(rows[1]!);
    first.close();
    fs.appendFileSync(file, `{"seq":3,"ts":"2025-01`); // killed mid-row

    let read = readTrace(file);
    expect(read.events).toEqual(rows.slice(0, 2));
    expect(read.skipped).toEqual([{ line: 3, text: `{"seq":3,"ts":"2025-01`, reason: expect.stringMatching(/torn/) }]);

    const second = openTrace(file, { secrets: [] });
    second.write(rows[2]!);
    second.close();
    read = readTrace(file);
    expect(read.events).toEqual(rows);
    expect(read.skipped).toEqual([expect.objectContaining({ line: 3 })]);
  });

  it("leaves only complete rows and at most one torn row when the writer is SIGKILLed", async () => {
    const file = path.join(tmp, "trace.jsonl");
    const child = path.join(tmp, "writer.mts");
    // The real module through tsx; rows are large so a kill can land mid-write.
    fs.writeFileSync(child, `
import { openTrace } from ${JSON.stringify(pathToFileURL(path.join(root, "core/trace.ts")).href)};
const trace = openTrace(process.argv[2], { secrets: [${JSON.stringify(SECRET)}] });
const filler = "x".repeat(48 * 1024);
for (let seq = 1; ; seq++) {
  trace.write({ seq, ts: new Date().toISOString(), sessionId: "s", agentId: "main", type: "assistant_message", text: "${SECRET} " + filler });
  if (seq === 40) process.stdout.write("ready\\n");
}
`);
    const proc = spawn(process.execPath, ["--import", "tsx", child, file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr.on("data", (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      proc.on("exit", (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
    });
    await new Promise((r) => setTimeout(r, 30));
    const exited = new Promise((r) => proc.on("exit", (_code, signal) => r(signal)));
    proc.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const raw = fs.readFileSync(file);
    expect(raw.includes(SECRET)).toBe(false);
    const lines = raw.toString("utf8").split("\n");
    const last = lines.pop()!; // "" when the kill fell between rows
    lines.forEach((line, i) => expect(JSON.parse(line).seq, `line ${i + 1}`).toBe(i + 1));
    expect(lines.length).toBeGreaterThanOrEqual(40);

    const read = readTrace(file);
    expect(read.events.map((e) => e.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(read.skipped).toHaveLength(last === "" ? 0 : 1);
  }, 30_000);
});

describe("session", () => {
  it("makes sortable ids from UTC time plus a random suffix", () => {
    const a = newSessionId(new Date("2025-03-04T05:06:07Z"));
    expect(a).toMatch(/^20250304-050607-[0-9a-z]{6}$/);
    expect(isSessionId(a)).toBe(true);
    const later = newSessionId(new Date("2025-03-04T05:06:08Z"));
    expect([later, a].sort()).toEqual([a, later]);
    const same = new Set(Array.from({ length: 50 }, () => newSessionId(new Date(0))));
    expect(same.size).toBe(50);
  });

  it("creates the session directory with parents and names its files", () => {
    const sessions = path.join(tmp, "state", "yuj", "sessions");
    const id = newSessionId(new Date());
    const dir = createSessionDir(sessions, id);
    expect(dir).toBe(path.join(sessions, id));
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(createSessionDir(sessions, id)).toBe(dir); // mkdir -p: no error the second time
    expect(sessionLayout(dir)).toEqual({
      dir,
      trace: path.join(dir, "trace.jsonl"),
      toolOutput: path.join(dir, "tool-output"),
    });
    expect(() => createSessionDir(sessions, "../escape")).toThrow(/invalid session id/);
  });
});
