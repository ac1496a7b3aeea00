import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { SESSION_LOG, warningsToSessionLog } from "../../app/tui/warnings.js";

const nextTick = () => new Promise((r) => setImmediate(r));

describe("warnings while the UI is up", () => {
  it("go to the session log, not to the terminal, and Node's printer comes back after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yuj-warn-"));
    const printer = vi.fn();
    process.on("warning", printer);
    const restore = warningsToSessionLog(dir);
    process.emitWarning("too many listeners, say", "MaxListenersExceededWarning");
    await nextTick();
    expect(printer).not.toHaveBeenCalled();
    expect(readFileSync(join(dir, SESSION_LOG), "utf8")).toMatch(/MaxListenersExceededWarning: too many listeners, say/);
    restore();
    process.emitWarning("later", "Other");
    await nextTick();
    expect(printer).toHaveBeenCalledTimes(1);
    process.off("warning", printer);
  });
});
