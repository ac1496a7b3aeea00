// Output logs on disk get the same redaction as results, and a secret split
// across two writes (two chunks from the pipe or the PTY) is still caught.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRedact, createStreamRedactor, SECRET_MARK, secretValues } from "../../core/redact.js";
import { createTerminalManager } from "../../core/jobs/terminal.js";
import { createRedactor } from "../../core/trace.js";
import { createEmitter } from "../../core/events.js";
import { cleanupAll, makeHarness } from "./support.js";

afterEach(cleanupAll);

const SECRET = "sekrit-4f9a1c7e2b8d";
const reversed = [...SECRET].reverse().join("");

function streamed(chunks: string[]): string {
  const r = createStreamRedactor([SECRET]);
  return Buffer.concat([...chunks.map((c) => r.push(Buffer.from(c))), r.flush()]).toString();
}

describe("stream redaction", () => {
  const text = `before ${SECRET} after\n`;

  it("catches a secret split at any point between two chunks", () => {
    for (let cut = 0; cut <= text.length; cut++) {
      expect(streamed([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toBe(`before ${SECRET_MARK} after\n`);
    }
  });

  it("catches it one byte at a time", () => {
    expect(streamed([...text])).toBe(`before ${SECRET_MARK} after\n`);
  });

  it("passes ordinary output at once and holds back only a possible start of a secret", () => {
    const r = createStreamRedactor([SECRET]);
    expect(r.push(Buffer.from("ready\n")).toString()).toBe("ready\n");
    expect(r.push(Buffer.from("x sekr")).toString()).toBe("x ");
    expect(r.push(Buffer.from("et\n")).toString()).toBe("sekret\n"); // not the secret after all
    expect(r.push(Buffer.from("tail sekrit-4")).toString()).toBe("tail ");
    expect(r.flush().toString()).toBe("sekrit-4"); // the stream ended: a prefix is not the secret
  });

  it("hides its reversal and its base64 forms, whatever the alignment", () => {
    const redact = createRedact([SECRET]);
    for (const pad of ["", "a", "ab"]) {
      const encoded = Buffer.from(`${pad}${SECRET}\n`).toString("base64");
      expect(redact(encoded)).toContain(SECRET_MARK);
      expect(streamed([encoded.slice(0, 9), encoded.slice(9)])).toContain(SECRET_MARK);
    }
    expect(redact(`x ${reversed} y`)).toBe(`x ${SECRET_MARK} y`);
    // The trace's redactor knows the same forms.
    const row = createRedactor([SECRET])({ text: `${reversed} ${Buffer.from(SECRET).toString("base64")}` });
    expect(row).not.toContain(reversed);
    expect(row).not.toContain(Buffer.from(SECRET).toString("base64").slice(0, 24));
  });

  it("treats GIT_AUTHOR_NAME as a name, not a secret, but AUTH and the rest as secrets", () => {
    const values = secretValues({ GIT_AUTHOR_NAME: "Ada Lovelace", GH_AUTH: "auth-value-1", MY_TOKEN: "tok-value-1" });
    expect(values.sort()).toEqual(["auth-value-1", "tok-value-1"]);
  });
});

describe("logs of real processes", () => {
  // The two halves are printed by separate writes with a pause between, so
  // they reach yuj as separate chunks.
  const command = `printf 'x ${SECRET.slice(0, 9)}'; sleep 0.3; printf '${SECRET.slice(9)} y\\n'; echo ${reversed}`;

  it("a job's log and its reads hold the mark, never the secret", async () => {
    const { manager } = makeHarness({ secrets: [SECRET] });
    const job = manager.start({ command, cwd: process.cwd(), background: false });
    expect(await manager.wait(job.id, "exit", 5000)).toBe("exited");
    const log = fs.readFileSync(job.outputFile, "utf8");
    expect(log).toBe(`x ${SECRET_MARK} y\n${SECRET_MARK}\n`);
    expect((await manager.readNew(job.id)).text).toBe(log);
  });

  it("the terminal's log does too", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yuj-term-redact-"));
    const { emit } = createEmitter("test", () => undefined);
    const terminals = createTerminalManager({ emit, sessionDir: dir, secrets: [SECRET] });
    try {
      const started = await terminals.start(`${command}; sleep 0.2`, dir);
      expect(started.ok).toBe(true);
      for (let i = 0; i < 20; i++) {
        const r = await terminals.io("t1", { timeoutMs: 500 });
        if (r.ok && r.read.status.state === "exited") break;
      }
      const log = fs.readFileSync(path.join(dir, "terminal", "t1.log"), "utf8");
      expect(log).toContain(`x ${SECRET_MARK} y`);
      expect(log).not.toContain(SECRET);
      expect(log).not.toContain(reversed);
      expect(log).not.toContain(SECRET.slice(0, 9));
    } finally {
      await terminals.shutdown();
    }
  });
});
