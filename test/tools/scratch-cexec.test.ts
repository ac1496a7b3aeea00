import { afterEach, beforeEach, describe, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => { t = await makeToolContext(); });
afterEach(() => t.cleanup());
const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const show = (label: string, r: { ok: boolean; text: string }) => console.log(`=== ${label} ok=${r.ok}\n${r.text.length > 3000 ? r.text.slice(0, 400) + "\n...\n" + r.text.slice(-600) : r.text}\n===`);

describe("probe", () => {
  it("big output", async () => {
    const r = await call("shell", { command: "for i in $(seq 1 3000); do echo line-$i-abcdefghij; done" });
    show("big", r);
    const path = /full output: (\S+)/.exec(r.text)?.[1];
    console.log("path", path);
    if (path) { show("read", await call("read", { path, offset: 1500, limit: 2 })); show("grep", await call("grep", { pattern: "line-2999-", paths: [path] })); }
  }, 60000);
});
