import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chordCall } from "../support/chord-call.js";
import { makeToolContext, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(async () => { t = await makeToolContext(); });
afterEach(() => t.cleanup());
const call = (tool: string, args: unknown) => chordCall(t, tool, args);
const show = (label: string, r: { ok: boolean; text: string }) => console.log(`=== ${label} ok=${r.ok}\n${r.text}\n===`);

describe("probe", () => {
  it("shell cases", async () => {
    show("deadline<yield", await call("shell", { command: "sh -c 'sleep 2'", timeout_ms: 1000, yield_time_ms: 60000 }));
    show("yield0", await call("shell", { command: "sh -c 'sleep 0.2'; echo done", yield_time_ms: 0 }));
    show("stdin", await call("shell", { command: "printf 'stdin_tty='; test -t 0 && echo yes || echo no; printf 'read_result='; IFS= read -r x; printf 'status:%s value:%s\\n' \"$?\" \"$x\"", timeout_ms: 5000 }));
    show("read x", await call("shell", { command: "read x", timeout_ms: 5000 }));
    show("rebase", await call("shell", { command: "git rebase -i HEAD~2" }));
    show("exit7", await call("shell", { command: "sleep 1.1; printf fail >&2; exit 7" }));
    show("slow", await call("shell", { command: "sleep 1.1; echo done" }));
    show("group", await call("shell", { command: "(sleep 2) & echo started", yield_time_ms: 5000 }));
    show("group0", await call("shell", { command: "(sleep 2) & echo started", yield_time_ms: 0 }));
    show("promote", await call("shell", { command: "sh -c 'sleep 2'", timeout_ms: 5000, yield_time_ms: 50 }));
    const bg = await call("shell", { command: "(sleep 2; echo DESCENDANT_LATE) & exit 0", run_in_background: true });
    show("bg", bg);
    const id = /\bj\d+\b/.exec(bg.text)![0];
    show("desc out", await call("job_output", { job_id: id, wait: "exit" }));
  }, 60000);
});
