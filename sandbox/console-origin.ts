// Cross-site request refusal for every control route that changes something (control.ts) and the
// console's forms (console.ts). A content type is no defence on its own: a form on any site the
// developer visits can post text/plain, urlencoded or multipart bodies with no CORS preflight, and
// on a loopback sandbox there is no token to stop it. The JSON routes also refuse such bodies
// (validation.ts), so a browser that sends neither header below is still stopped.
import type { Context, MiddlewareHandler } from "hono";

/**
 * True when a browser says the request comes from another site: `Sec-Fetch-Site` other than
 * same-origin (or none: typed by the user), or an `Origin` whose host is not this one (`null`
 * included). Clients that send neither (curl, scripts) are not browsers and pass.
 */
export function isCrossSite(c: Context): boolean {
  const site = c.req.header("Sec-Fetch-Site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = c.req.header("Origin");
  if (origin === undefined) return false;
  // Host, not origin: behind a TLS proxy the request URL says http while the browser says https.
  const host = c.req.header("Host") ?? new URL(c.req.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export function sameOriginOnly(refuse: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && isCrossSite(c)) return refuse(c);
    await next();
  };
}
