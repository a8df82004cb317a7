// A larger young generation than V8's default: the receiver's requests stay alive across their
// commit and so survive scavenges (decision 0002, with its measurements). Whoever sets the flag in
// NODE_OPTIONS keeps theirs.

export const SERVER_SEMI_SPACE_MB = 64;

/** `env` with NODE_OPTIONS carrying the server's young-generation size unless it names one already. */
export function withServerNodeOptions(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const current = env.NODE_OPTIONS ?? "";
  if (/--max-semi-space-size\b/.test(current)) return env;
  return { ...env, NODE_OPTIONS: `${current} --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`.trim() };
}
