// YUJ_TIMING=1: the moments of start-up on stderr, one line each,
// `yuj-timing <phase> <epoch ms>`, for bench/startup.ts to line up against
// the moment it spawned the process. Off, it costs one comparison a mark.

import { channel } from "node:diagnostics_channel";

const on = process.env.YUJ_TIMING === "1";

export function mark(phase: string): void {
  if (!on) return;
  const at = (performance.timeOrigin + performance.now()).toFixed(1);
  const m = process.memoryUsage();
  const mib = (n: number) => (n / 1048576).toFixed(1);
  process.stderr.write(`yuj-timing ${phase} ${at} rss=${mib(m.rss)} heap=${mib(m.heapUsed)}/${mib(m.heapTotal)} ext=${mib(m.external)}\n`);
}

// fetch's own moments (undici's, for the OpenAI SDKs): the socket connected, the request's headers
// written. The Anthropic stream's client marks the same two itself.
if (on) {
  channel("undici:client:connected").subscribe(() => mark("socket connected"));
  channel("undici:client:sendHeaders").subscribe(() => mark("request headers sent"));
  process.stderr.write(`yuj-timing process start ${performance.timeOrigin.toFixed(1)}\n`);
  mark("entry loaded");
}
