// The MCP stdio transport over a server process yuj owns as it owns a job:
// the process leads its own group (lsp/process.ts), so ending the group ends
// whatever the server started, and yuj's exit hooks reach it. Messages are
// newline-delimited JSON-RPC on stdin/stdout; stderr is kept for reports.

import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ServerProcess } from "../lsp/process.js";

/** How long a failed write waits for the server's exit to be known. */
const EXIT_WAIT_MS = 2000;

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(private readonly proc: ServerProcess) {}

  async start(): Promise<void> {
    const { stdout } = this.proc.child;
    stdout?.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      this.drain();
    });
    void this.proc.exited.then(() => this.markClosed());
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        // A line that is no JSON-RPC message: reported, the rest still read.
        this.onerror?.(err as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc.child.stdin;
    if (this.closed || !stdin || stdin.destroyed) throw new Error("the server process has ended");
    const failed = await new Promise<Error | undefined>((resolve) => {
      stdin.write(serializeMessage(message), (err) => resolve(err ?? undefined));
    });
    if (!failed) return;
    // A server that exited at once (a missing key, a bad flag) breaks the pipe
    // before its exit is seen: wait briefly for the exit, so what is reported
    // is the code and the stderr that say why, not EPIPE.
    await Promise.race([this.proc.exited, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]);
    throw failed;
  }

  async close(): Promise<void> {
    this.proc.child.stdin?.end();
    this.markClosed();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
