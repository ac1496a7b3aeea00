// `yuj code "… @file …"` headless, against a real local provider server: the
// mentioned file (or range) reaches the model with the message, the event
// names what was attached, and a missing file is a notice, never a block.

import { afterEach, describe, expect, it } from "vitest";
import { parseScenario } from "../../core/providers/scenario.js";
import { isolatedEnv, runCli } from "../support/cli.js";
import { tempDemoRepo } from "../support/loop-harness.js";
import { startSseServer, type SseServer } from "../support/sse-server.js";

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("@-mentions headless", () => {
  it("attaches the mentioned lines to the message the model gets", async () => {
    server = await startSseServer({ scenario: parseScenario({ turns: [{ text: "seen it" }] }) });
    const cwd = tempDemoRepo();
    const env = isolatedEnv({ OPENAI_API_KEY: "sk-test-key-for-the-local-server" });
    const res = await runCli(
      ["code", "look at @src/greet.js:2-3 and @src/nothing-here.js", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat"), "--output", "jsonl"],
      { cwd, env },
    );
    expect(res.stderr).toBe("");
    const events = res.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const user = events.find((e) => e.type === "user_message");
    expect(user.text).toBe("look at @src/greet.js:2-3 and @src/nothing-here.js");
    expect(user.attachments).toEqual([{ path: "src/greet.js", from: 2, to: 3, lines: 2 }]);
    expect(events.find((e) => e.type === "notice" && /nothing-here/.test(e.text)).text).toMatch(/not attached: @src\/nothing-here\.js: no such file/);

    const sent = JSON.stringify(server.requests.find((r) => r.method === "POST")!.body);
    expect(sent).toContain('<attached_file path=\\"src/greet.js\\" lines=\\"2-3\\">\\nexport function greet(name) {\\n  return \\"Hello, \\" + name;\\n</attached_file>');
    expect(sent).not.toContain("Greets a person by name");
    expect(sent).not.toContain("nothing-here.js\\\"");

    // The text output names the attachment under the message.
    const text = await runCli(["code", "again @src/greet.js", "--provider", "openai-chat", "--model", "m", "--base-url", server.baseUrlFor("openai-chat")], { cwd, env });
    expect(text.stdout).toMatch(/> again @src\/greet\.js\n {2}attached src\/greet\.js \(4 lines\)\n/);
  }, 60_000);
});
