// Preloaded into Prisma CLI processes (scripts/lib/prisma-cli.ts). On PostgreSQL through a driver
// adapter, the WASM schema engine arms a 10-second timer it never clears, so every CLI command
// idles 10 s after finishing (../shared/POSTGRES.md, bug 4). Timers of 10 s or more are unref'd:
// they still fire while the CLI has work, but no longer keep a finished process alive.
const originalSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(function setTimeout(callback, delay, ...args) {
  const timer = originalSetTimeout(callback, delay, ...args);
  if (Number(delay) >= 10_000 && timer && typeof timer.unref === "function") timer.unref();
  return timer;
}, originalSetTimeout);
