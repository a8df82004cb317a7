// Request body limits on every route (the spec gives none; sandbox/README.md, "Request size"),
// decided before the route runs, so no request holds more than its limit in memory.
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

export const FORM_BODY_LIMIT_BYTES = 64 * 1024;
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** The limit of one path and its 413 answer. */
export interface BodyLimitRule {
  path: string;
  maxBytes: number;
  tooLarge: (c: Context, maxBytes: number) => Response;
}

/** `64 KiB`, `1 MiB`. */
export function byteLimitName(maxBytes: number): string {
  return maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes / 1024} KiB`;
}

export function bodyTooLargeMessage(maxBytes: number): string {
  return `The request body is larger than ${byteLimitName(maxBytes)} (${maxBytes} bytes)`;
}

function limiter({ maxBytes, tooLarge }: Omit<BodyLimitRule, "path">): MiddlewareHandler {
  const streamed = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      const response = tooLarge(c, maxBytes);
      response.headers.set("Connection", "close");
      return response;
    },
  });
  return async (c, next) => {
    // Touching c.req.raw.body starts @hono/node-server's body stream, which then stalls its
    // draining of a body the route left unread: the connection would drop after 500 ms, under the
    // client's next request. So a declared length is judged by the header alone, and only a
    // chunked body goes through hono/body-limit.
    const declared = c.req.header("Content-Length");
    if (declared !== undefined) return Number(declared) > maxBytes ? tooLarge(c, maxBytes) : next();
    if (c.req.header("Transfer-Encoding") === undefined) return next();
    return streamed(c, next);
  };
}

/** One middleware for every route: the rule for the request's path, else `fallback`. */
export function limitRequestBodies(rules: readonly BodyLimitRule[], fallback: Omit<BodyLimitRule, "path">): MiddlewareHandler {
  const byPath = new Map(rules.map((rule) => [rule.path, limiter(rule)]));
  const otherwise = limiter(fallback);
  return (c, next) => (byPath.get(c.req.path) ?? otherwise)(c, next);
}
