// The shell rules now live in tools/lib/shell/ (one file per idea) and the
// compound-command check in core/shell/compound.ts; this file keeps the old
// import path working.

export * from "./shell/index.js";
