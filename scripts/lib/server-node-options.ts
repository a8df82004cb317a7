// How `npm start` runs the production server's Node: a larger young generation than V8's default.
//
// Measured with `npm run bench:webhooks` (V8's --trace-gc, 40 s of load per route, 2 cores):
// with the default 16 MB semi-spaces the server scavenged ~15 times a second and spent 7 % of its
// time doing so on the floor route and 12 % on the webhook receiver, whose requests stay alive
// across their commit and so survive scavenges. With 64 MB: 6 % and 7-8 %, for up to ~100 MB more
// resident memory under load (docs/deploy.md). Whoever sets the flag in NODE_OPTIONS keeps theirs.
// --max-semi-space-size is one of the V8 options Node accepts in NODE_OPTIONS.

export const SERVER_SEMI_SPACE_MB = 64;

/** `env` with NODE_OPTIONS carrying the server's young-generation size unless it names one already. */
export function withServerNodeOptions(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const current = env.NODE_OPTIONS ?? "";
  if (/--max-semi-space-size\b/.test(current)) return env;
  return { ...env, NODE_OPTIONS: `${current} --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`.trim() };
}
